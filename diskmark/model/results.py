"""The results that flow through diskmark: tests, passes, sessions and progress events.

Everything here is plain dataclasses with ``to_dict``/``from_dict`` so the same objects feed
the engine, the TUI, the CLI reports and the saved store (baselines, history) without any of
them knowing about each other. Methods return numbers; the words for them (an unstable test,
a dip, a figure the CPU set) are :mod:`diskmark.report.formatting`'s. What the user chooses is
:mod:`diskmark.model.settings`, sizes and units :mod:`diskmark.model.units`.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from diskmark.locale import _
from diskmark.model.cpu_limit import CpuLimit, cpu_limit
from diskmark.model.facts import SystemFacts
from diskmark.model.names import test_key
from diskmark.model.notes import dip_notes, unstable_text
from diskmark.model.settings import DIP_THRESHOLD_PCT, UNSTABLE_PCT, Op, Settings
from diskmark.model.units import KIB, MIB, Unit, format_size
from diskmark.model.voice import ENGLISH

if TYPE_CHECKING:
    from diskmark.model.claims import Claim
    from diskmark.model.drive_record import DriveRecord
    from diskmark.model.file_layout import FileLayout
    from diskmark.model.stack import Layer, Mark, Measured
    from diskmark.model.sustained_write import Sustained
    from diskmark.model.verdicts import CheckVerdict

#: What a test of CrystalDiskMark's grid may be: its block, queues and threads (a preset's
#: rows, a check's tests and a claim's are held to the same bounds).
BLOCK_MIN, BLOCK_MAX = 4 * KIB, 8 * MIB
QUEUES_MAX, THREADS_MAX = 512, 64
_LABEL = re.compile(r"(SEQ|RND)([0-9]{1,5})([KM])(?:I?B)?\s*Q([0-9]{1,4})\s*T([0-9]{1,3})")

@dataclass(frozen=True)
class TestSpec:
    """One row of CDM's grid: pattern, block size, queue depth and threads."""

    __test__ = False  # not a pytest test class

    pattern: str  # "SEQ" or "RND"
    block: int  # bytes
    queues: int
    threads: int
    #: Optional per-operation start delay and ramp time in seconds (the Stable profile, after
    #: snow_mountain's fio article).
    startdelay: dict[str, float] = field(default_factory=dict, compare=False, hash=False)
    ramp_time: dict[str, float] = field(default_factory=dict, compare=False, hash=False)

    @property
    def block_label(self) -> str:
        if self.block >= MIB and self.block % MIB == 0:
            return f"{self.block // MIB}M"
        return f"{self.block // KIB}K"

    @property
    def name(self) -> str:
        """``SEQ1M`` — the first line of CDM's row button."""
        return f"{self.pattern}{self.block_label}"

    @property
    def qt(self) -> str:
        """``Q8T1`` — the second line of CDM's row button."""
        return f"Q{self.queues}T{self.threads}"

    @property
    def label(self) -> str:
        return f"{self.name} {self.qt}"

    @property
    def sequential(self) -> bool:
        return self.pattern == "SEQ"

    def delays(self, op: Op) -> tuple[float, float]:
        return float(self.startdelay.get(op.value, 0)), float(self.ramp_time.get(op.value, 0))

    @classmethod
    def parse(cls, text: str) -> TestSpec:
        """A test as CrystalDiskMark names it, ``SEQ1M Q8T1`` or ``RND4K Q32T16`` (any case,
        spaces between the parts allowed), held to the bounds a preset's rows are: the one
        reading of a test's name for a check's tests and a drive's claims."""
        m = _LABEL.fullmatch(" ".join(text.upper().split()).replace(" Q", "Q").replace(
            "SEQ ", "SEQ").replace("RND ", "RND")) if isinstance(text, str) else None
        if m is None:
            raise ValueError(_("{value} is not a test like SEQ1M Q8T1 or RND4K Q32T1").format(
                value=repr(text)))
        block = int(m.group(2)) * (KIB if m.group(3) == "K" else MIB)
        queues, threads = int(m.group(4)), int(m.group(5))
        if not BLOCK_MIN <= block <= BLOCK_MAX or block % (4 * KIB):
            raise ValueError(_("block {value} must be a multiple of 4KiB from 4KiB to 8MiB").format(
                value=repr(f"{m.group(2)}{m.group(3)}")))
        if not 1 <= queues <= QUEUES_MAX:
            raise ValueError(_("queues must be 1 to {high}, not {value}").format(
                high=QUEUES_MAX, value=repr(queues)))
        if not 1 <= threads <= THREADS_MAX:
            raise ValueError(_("threads must be 1 to {high}, not {value}").format(
                high=THREADS_MAX, value=repr(threads)))
        return cls(m.group(1), block, queues, threads)

    def figure_from_mb_s(self, mb_s: float, unit: Unit) -> float:
        """A bandwidth of this test in ``unit``, for a live figure that must not jump unit
        when the pass ends. IOPS is exact for fixed-size blocks; latency is Little's law
        over the queue (Q×T in flight), which is what libaio keeps full: a fair estimate."""
        if unit is Unit.MB_S:
            return mb_s
        if unit is Unit.GB_S:
            return mb_s / 1000
        iops = mb_s * 1e6 / self.block
        if unit is Unit.IOPS:
            return iops
        return self.queues * self.threads / iops * 1e6 if iops > 0 else 0.0

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pattern": self.pattern, "block": self.block,
                             "queues": self.queues, "threads": self.threads}
        if self.startdelay:
            d["startdelay"] = dict(self.startdelay)
        if self.ramp_time:
            d["ramp_time"] = dict(self.ramp_time)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TestSpec:
        return cls(pattern=str(d["pattern"]).upper(), block=int(d["block"]),
                   queues=int(d["queues"]), threads=int(d["threads"]),
                   startdelay=dict(d.get("startdelay", {})), ramp_time=dict(d.get("ramp_time", {})))


@dataclass
class RunResult:
    """One fio pass of one test."""

    mb_s: float
    iops: float
    lat_us: float  # mean completion+submission latency
    io_bytes: int
    runtime_ms: int
    read_mb_s: float = 0.0
    write_mb_s: float = 0.0
    #: completion latency percentiles in µs, keyed "50", "90", "99", "99.9", "99.99", "max"
    lat_percentiles: dict[str, float] = field(default_factory=dict)
    #: per-second bandwidth samples in MB/s while measuring
    bw_samples: list[float] = field(default_factory=list)
    #: fio's CPU use, % of one core per thread on average (fio's usr_cpu / sys_cpu)
    usr_cpu: float | None = None
    sys_cpu: float | None = None
    #: how busy all of the machine's CPUs were while the pass ran, % (steal counts as busy)
    machine_busy_pct: float | None = None

    @property
    def cpu_pct(self) -> float | None:
        """CPU use of fio's threads, % of one core each on average."""
        if self.usr_cpu is None or self.sys_cpu is None:
            return None
        return self.usr_cpu + self.sys_cpu

    def cpu_limit(self, threads: int, cpus: int | None) -> CpuLimit | None:
        """Whether the CPU, not the drive, set this pass's figure; None when it did not (or
        nothing is known). A fio thread busy all the time cannot submit faster; and when
        every core of the machine was busy while fio wanted CPU, it waited for one,
        whoever kept the machine busy.
        (fio's own figures undercount when its threads outnumber the cores: 16 threads on 2
        cores showed 6% each while the machine was 99% busy, hence the machine's figure.)"""
        return cpu_limit(self.cpu_pct, self.machine_busy_pct, threads, cpus)

    def figure(self, unit: Unit) -> float:
        return {Unit.MB_S: self.mb_s, Unit.GB_S: self.mb_s / 1000, Unit.IOPS: self.iops,
                Unit.US: self.lat_us}[unit]

    def dips(self, threshold_pct: float = DIP_THRESHOLD_PCT) -> list[tuple[int, float]]:
        """Seconds whose bandwidth fell more than ``threshold_pct`` below the run's median
        (Olli Graf's fio article plots them: thermal throttling, a full SLC cache):
        ``(second, MB/s)`` pairs."""
        if len(self.bw_samples) < 3:
            return []
        from statistics import median  # not at import: the app's first frame needs none of it

        floor = median(self.bw_samples) * (1 - threshold_pct / 100)
        return [(i + 1, v) for i, v in enumerate(self.bw_samples) if v < floor]

    @property
    def bw_median(self) -> float | None:
        """The median per-second bandwidth, the yardstick a dip is measured against."""
        from statistics import median

        return median(self.bw_samples) if self.bw_samples else None

    def dip_depth_pct(self, mb_s: float) -> float:
        """How far ``mb_s`` lies below this run's median, in % of the median."""
        median = self.bw_median
        return (1 - mb_s / median) * 100 if median else 0.0

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        # derived, for JSON readers; from_dict ignores it
        d["dips"] = [{"second": s, "mb_s": v, "below_median_pct": self.dip_depth_pct(v)}
                     for s, v in self.dips()]
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunResult:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class Spread:
    """min / mean / max of a figure across passes and R/Avg % (range over mean, as
    snow_mountain's fio article measures it)."""

    min: float
    mean: float
    max: float

    @property
    def r_avg_pct(self) -> float:
        return (self.max - self.min) / self.mean * 100 if self.mean else 0.0

    @classmethod
    def of(cls, values: list[float]) -> Spread:
        if not values:
            return cls(0.0, 0.0, 0.0)
        from statistics import fmean

        return cls(min(values), fmean(values), max(values))


@dataclass
class TestResult:
    """All passes of one test (e.g. SEQ1M Q8T1 read) and CDM's verdict over them."""

    __test__ = False  # not a pytest test class

    index: int  # row in the profile
    spec: TestSpec
    op: Op
    mix_read: int | None = None  # read percentage for Op.MIX
    runs: list[RunResult] = field(default_factory=list)
    warmup: RunResult | None = None
    fio_command: list[str] = field(default_factory=list)
    sync_seconds: float | None = None  # time `sync` took after a write test
    #: the most Dirty / Writeback (/proc/meminfo, system-wide) seen while that flush ran
    sync_dirty_bytes: int | None = None
    sync_writeback_bytes: int | None = None
    error: str | None = None
    #: the run's Settings.unstable_pct, kept with the result so a saved one is judged the same
    unstable_pct: float = UNSTABLE_PCT
    #: why the CPU, not the drive, set the best figure (None: it did not, or unknown)
    cpu_limited: str | None = None
    #: the layers of the storage stack that explain the figure (diskmark.model.stack)
    marks: list[Mark] = field(default_factory=list)
    sustained: Sustained | None = None  # a sustained write's MB/s over time and its knee
    #: when the test began and ended (ISO 8601 to the millisecond, after the rest before it):
    #: several targets measured in one session take their tests in turn, and this shows it
    started: str = ""
    finished: str = ""

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def key(self) -> str:
        """Stable identity across sessions, for comparisons: ``SEQ1M Q8T1/read``."""
        return test_key(self.spec.label, self.op, self.mix_read)

    @property
    def order(self) -> tuple[int, int, int]:
        """Where the test comes among a result's, in CrystalDiskMark's order: the reads,
        then the writes, then the mixes (by their share of reads), each in the profile's
        row order. Every view of a result lists its tests so (:func:`in_order`)."""
        return self.op.rank, self.mix_read or 0, self.index

    @property
    def complete(self) -> bool:
        return bool(self.runs) and self.error is None

    @property
    def best_run(self) -> RunResult | None:
        """CDM keeps the pass with the highest bandwidth."""
        return max(self.runs, key=lambda r: r.mb_s) if self.runs else None

    @property
    def best_mb_s(self) -> float:
        best = self.best_run
        return best.mb_s if best is not None else 0.0

    @property
    def best_iops(self) -> float:
        best = self.best_run
        return best.iops if best is not None else 0.0

    @property
    def best_lat_us(self) -> float:
        """CDM tracks the lowest mean latency separately from the best bandwidth. A pass in
        which no I/O completed (a disk that stalled for the whole pass) has no latency, not
        one of 0 µs: it is passed over; 0 when no pass has one."""
        return min((r.lat_us for r in self.runs if r.lat_us > 0), default=0.0)

    def figure(self, unit: Unit) -> float:
        return {Unit.MB_S: self.best_mb_s, Unit.GB_S: self.best_mb_s / 1000,
                Unit.IOPS: self.best_iops, Unit.US: self.best_lat_us}[unit]

    def spread(self, unit: Unit = Unit.MB_S) -> Spread:
        return Spread.of([r.figure(unit) for r in self.runs])

    def unstable(self, threshold_pct: float | None = None) -> float | None:
        """The passes' R/Avg % when they disagree by more than ``threshold_pct`` (by default
        the threshold the test ran with), else None."""
        if len(self.runs) < 2:
            return None
        r_avg = self.spread().r_avg_pct
        limit = self.unstable_pct if threshold_pct is None else threshold_pct
        return r_avg if r_avg > limit else None

    def dips(self) -> list[tuple[int, list[tuple[int, float]]]]:
        """``(pass, [(second, MB/s), …])`` for every pass with bandwidth dips (see
        :meth:`RunResult.dips`)."""
        if self.sustained is not None:  # its fall is its knee, not a dip
            return []
        return [(n, found) for n, run in enumerate(self.runs, 1) if (found := run.dips())]

    def to_dict(self) -> dict[str, Any]:
        best = None
        if self.runs:
            best = {"mb_s": self.best_mb_s, "gb_s": self.best_mb_s / 1000,
                    "iops": self.best_iops, "lat_us": self.best_lat_us}
        stats = {}
        if self.runs:
            for unit, name in ((Unit.MB_S, "mb_s"), (Unit.IOPS, "iops"), (Unit.US, "lat_us")):
                sp = self.spread(unit)
                stats[name] = {"min": sp.min, "mean": sp.mean, "max": sp.max,
                               "r_avg_pct": sp.r_avg_pct}
        return {
            "index": self.index,
            "label": self.label,
            "key": self.key,
            "kind": self.op.value,
            "mix_read": self.mix_read,
            "spec": self.spec.to_dict(),
            "best": best,
            "stats": stats,
            "runs": [r.to_dict() for r in self.runs],
            "warmup": self.warmup.to_dict() if self.warmup else None,
            "fio_command": list(self.fio_command),
            "sync_seconds": self.sync_seconds,
            "sync_dirty_bytes": self.sync_dirty_bytes,
            "sync_writeback_bytes": self.sync_writeback_bytes,
            "unstable": unstable_text(self.unstable(), ENGLISH),
            "unstable_threshold_pct": self.unstable_pct,
            "cpu_limited": self.cpu_limited,
            "marks": [m.to_dict() for m in self.marks],
            "dips": dip_notes(self.dips(), DIP_THRESHOLD_PCT, ENGLISH),
            "error": self.error,
            "sustained": self.sustained.to_dict() if self.sustained else None,
            "started": self.started,
            "finished": self.finished,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TestResult:
        from diskmark.model.stack import Mark
        from diskmark.model.sustained_write import Sustained

        return cls(
            index=int(d["index"]),
            spec=TestSpec.from_dict(d["spec"]),
            op=Op(d["kind"]),
            mix_read=d.get("mix_read"),
            runs=[RunResult.from_dict(r) for r in d.get("runs", [])],
            warmup=RunResult.from_dict(d["warmup"]) if d.get("warmup") else None,
            fio_command=list(d.get("fio_command", [])),
            sync_seconds=d.get("sync_seconds"),
            sync_dirty_bytes=d.get("sync_dirty_bytes"),
            sync_writeback_bytes=d.get("sync_writeback_bytes"),
            error=d.get("error"),
            unstable_pct=float(d.get("unstable_threshold_pct", UNSTABLE_PCT)),
            cpu_limited=d.get("cpu_limited"),
            marks=[Mark.from_dict(m) for m in d.get("marks") or []],
            sustained=Sustained.from_dict(d["sustained"]) if d.get("sustained") else None,
            started=str(d.get("started", "")),
            finished=str(d.get("finished", "")),
        )


# --- a check's own fio job ------------------------------------------------------------------
#
# A workload CrystalDiskMark's grid has no row for, such as etcd's write-ahead log (2,300-byte
# writes, each followed by an fdatasync). A check names it by fio's own words (``rw``, ``bs``,
# ``size``, ``ioengine``, ``fdatasync`` …), read from its TOML file by diskmark.checks; the
# engine turns it into fio's arguments (diskmark.engine.plan.job_args), runs it on the
# session's test file and keeps its figures here, the fdatasync latencies beside the
# completion latencies. Equal jobs of two checks are one job: a job is its options.

#: The I/O patterns a check's job may have, and the I/O engines it may name ("" is the
#: session's own: io_uring, or libaio where io_uring fails).
JOB_RW = ("read", "write", "randread", "randwrite")
JOB_IOENGINES = ("sync", "psync", "libaio", "io_uring")


@dataclass(frozen=True)
class FioJob:
    """One fio job of a check, by fio's own options."""

    rw: str  # one of JOB_RW
    bs: int  # bytes per I/O (any size: etcd's entries are 2,300 bytes)
    size: int  # bytes it moves at most; the run's time limit may end it sooner
    ioengine: str = ""  # "" = the session's
    iodepth: int = 1
    numjobs: int = 1
    fdatasync: int = 0  # an fdatasync after every this many writes (0: none)
    direct: bool = False
    #: what the check calls it ("wal"); two checks' equal jobs are one whatever their names
    name: str = field(default="", compare=False)

    @property
    def op(self) -> Op:
        return Op.READ if self.rw.endswith("read") else Op.WRITE

    @property
    def title(self) -> str:
        """The job in fio's own words, the same in every language: ``rw=write bs=2300
        size=22MiB ioengine=sync fdatasync=1``."""
        words = [f"rw={self.rw}", f"bs={self.bs}", f"size={format_size(self.size)}"]
        if self.ioengine:
            words.append(f"ioengine={self.ioengine}")
        if self.iodepth != 1:
            words.append(f"iodepth={self.iodepth}")
        if self.numjobs != 1:
            words.append(f"numjobs={self.numjobs}")
        if self.fdatasync:
            words.append(f"fdatasync={self.fdatasync}")
        if self.direct:
            words.append("direct=1")
        return " ".join(words)

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "rw": self.rw, "bs": self.bs, "size": self.size,
                "ioengine": self.ioengine, "iodepth": self.iodepth, "numjobs": self.numjobs,
                "fdatasync": self.fdatasync, "direct": self.direct}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FioJob:
        return cls(rw=str(d["rw"]), bs=int(d["bs"]), size=int(d["size"]),
                   ioengine=str(d.get("ioengine", "")), iodepth=int(d.get("iodepth", 1)),
                   numjobs=int(d.get("numjobs", 1)), fdatasync=int(d.get("fdatasync", 0)),
                   direct=bool(d.get("direct", False)), name=str(d.get("name", "")))


@dataclass
class JobResult:
    """What one job measured: fio's figures (one pass: a check's job is the workload as its
    source runs it, not CrystalDiskMark's best of N), and the fdatasync latencies."""

    job: FioJob
    run: RunResult | None = None
    #: fdatasync latency percentiles in µs, keyed as the completion latencies are
    sync_percentiles: dict[str, float] = field(default_factory=dict)
    fio_command: list[str] = field(default_factory=list)
    #: the run's time limit ended it before it had moved its size
    cut_short: bool = False
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"job": self.job.to_dict(), "run": self.run.to_dict() if self.run else None,
                "sync_percentiles": dict(self.sync_percentiles),
                "fio_command": list(self.fio_command), "cut_short": self.cut_short,
                "error": self.error}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> JobResult:
        return cls(job=FioJob.from_dict(d["job"]),
                   run=RunResult.from_dict(d["run"]) if d.get("run") else None,
                   sync_percentiles={str(k): float(v) for k, v in
                                     (d.get("sync_percentiles") or {}).items()},
                   fio_command=list(d.get("fio_command", [])),
                   cut_short=bool(d.get("cut_short", False)), error=d.get("error"))


class Status(StrEnum):
    COMPLETE = "complete"
    CANCELLED = "cancelled"
    FAILED = "failed"


RESULT_SCHEMA = "diskmark.result/1"



def in_order(tests: list[TestResult]) -> list[TestResult]:
    """``tests`` in CrystalDiskMark's order (:attr:`TestResult.order`)."""
    return sorted(tests, key=lambda t: t.order)

@dataclass
class SessionResult:
    """One press of All (or of a row button): the settings, where it ran, every test."""

    settings: Settings
    system: SystemFacts
    preset_name: str = ""
    profile_name: str = ""
    measure: float = 0.0  # the effective values, after the preset's defaults
    interval: float = 0.0
    fio_version: str = ""
    diskmark_version: str = ""
    started: str = ""  # ISO 8601, local time with offset
    finished: str = ""
    status: Status = Status.COMPLETE
    error: str | None = None
    tests: list[TestResult] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    test_file: FileLayout | None = None
    ioengine: str = ""  # fio's I/O engine for every test: io_uring or libaio
    drive: DriveRecord | None = None  # its temperature and health, or why they are missing
    #: the program that measured, when not diskmark: "CrystalDiskMark 8.0.1" for an imported
    #: CrystalDiskMark text result (another OS, file system and engine; one pass per test)
    origin: str = ""
    #: a check run's own fio jobs (etcd's fdatasync test), after the tests
    jobs: list[JobResult] = field(default_factory=list)
    #: the checks judged against this run (``diskmark check``, the app's Checks)
    checks: list[CheckVerdict] = field(default_factory=list)
    #: what the drive is claimed to do (``run --claim``, the claims file for its model)
    claims: list[Claim] = field(default_factory=list)
    #: the storage stack under the target, outermost layer first (diskmark.model.stack)
    stack: list[Layer] = field(default_factory=list)
    #: the layers below the target measured read-only (``run --down``)
    below: list[Measured] = field(default_factory=list)

    def test(self, key: str) -> TestResult | None:
        return next((t for t in self.tests if t.key == key), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "schema": RESULT_SCHEMA,
            "diskmark_version": self.diskmark_version,
            "fio_version": self.fio_version,
            "started": self.started,
            "finished": self.finished,
            "status": self.status.value,
            "error": self.error,
            "preset": self.preset_name,
            "profile": self.profile_name,
            "measure": self.measure,
            "interval": self.interval,
            "io": "direct" if self.settings.direct else "buffered",  # derived, for readers
            "ioengine": self.ioengine,
            "settings": self.settings.to_dict(),
            "system": self.system.to_dict(),
            "warnings": list(self.warnings),
            "test_file": self.test_file.to_dict() if self.test_file else None,
            "tests": [t.to_dict() for t in self.tests],
            "drive": self.drive.to_dict() if self.drive else None,
            "stack": [layer.to_dict() for layer in self.stack],
        } | ({"below": [m.to_dict() for m in self.below]} if self.below else {}) \
          | ({"origin": self.origin} if self.origin else {}) | self._checked()

    def _checked(self) -> dict[str, Any]:
        """A check run's jobs and verdicts and a run's claims, when it has them: a run
        without them is written as before, and read back by any version."""
        out: dict[str, Any] = {}
        if self.jobs:
            out["jobs"] = [j.to_dict() for j in self.jobs]
        if self.checks:
            out["checks"] = [c.to_dict() for c in self.checks]
        if self.claims:
            out["claims"] = [c.to_dict() for c in self.claims]
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> SessionResult:
        schema = d.get("schema")
        if schema != RESULT_SCHEMA:
            raise ValueError(_("not a diskmark result (schema {schema}, expected {expected})").format(
                schema=repr(schema), expected=repr(RESULT_SCHEMA)))
        from diskmark.model.claims import Claim
        from diskmark.model.drive_record import DriveRecord
        from diskmark.model.file_layout import FileLayout
        from diskmark.model.stack import Layer, Measured
        from diskmark.model.verdicts import CheckVerdict

        return cls(
            settings=Settings.from_dict(d.get("settings", {})),
            system=SystemFacts.from_dict(d.get("system", {})),
            preset_name=d.get("preset", ""),
            profile_name=d.get("profile", ""),
            measure=float(d.get("measure", 0)),
            interval=float(d.get("interval", 0)),
            fio_version=d.get("fio_version", ""),
            diskmark_version=d.get("diskmark_version", ""),
            started=d.get("started", ""),
            finished=d.get("finished", ""),
            status=Status(d.get("status", "complete")),
            error=d.get("error"),
            tests=[TestResult.from_dict(t) for t in d.get("tests", [])],
            warnings=list(d.get("warnings", [])),
            test_file=FileLayout.from_dict(d["test_file"]) if d.get("test_file") else None,
            ioengine=str(d.get("ioengine", "")),
            drive=DriveRecord.from_dict(d.get("drive")),
            origin=str(d.get("origin", "")),
            jobs=[JobResult.from_dict(j) for j in d.get("jobs") or []],
            checks=[CheckVerdict.from_dict(c) for c in d.get("checks") or []],
            claims=[Claim.from_dict(c) for c in d.get("claims") or []],
            stack=[Layer.from_dict(layer) for layer in d.get("stack") or []],
            below=[Measured.from_dict(m) for m in d.get("below") or []],
        )

