"""The data that flows through diskmark: tests, settings, results and progress events.

Everything here is plain dataclasses with ``to_dict``/``from_dict`` so the same objects feed
the engine, the TUI, the CLI reports and the saved store (baselines, history) without any of
them knowing about each other. Nothing here imports Textual.
"""

from __future__ import annotations

import math
import re
import statistics
from dataclasses import asdict, dataclass, field, fields
from enum import StrEnum
from fractions import Fraction
from typing import Any

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

#: CrystalDiskMark's test sizes: 16 … 512 MiB, then 1 … 64 GiB (binary).
SIZES = [16 * MIB * 2**i for i in range(6)] + [GIB * 2**i for i in range(7)]
SIZE_MIN, SIZE_MAX = SIZES[0], SIZES[-1]
COUNT_MIN, COUNT_MAX = 1, 9
MIX_RATIOS = list(range(10, 100, 10))
SWEEP_DEPTHS = (1, 2, 4, 8, 16, 32)  # the RAID6 offset/fragmentation article swept iodepth 1/4/8/16
UNSTABLE_PCT = 5.0  # R/Avg above this marks a tile unstable (snow_mountain's fio article's measure)
UNSTABLE_MIN, UNSTABLE_MAX = 0.5, 100.0
DIP_THRESHOLD_PCT = 30.0
#: fio's threads busier than this (% of a core each), or all of the machine's cores this
#: busy, mean the CPU and not the drive set the figure.
CPU_BUSY_PCT = 85.0
#: … but a busy machine limits only a pass whose fio wanted CPU: threads this busy, or more
#: threads than cores (a disk-bound pass waits for the disk, not for a core).
CPU_WANTED_PCT = 25.0


class Op(StrEnum):
    READ = "read"
    WRITE = "write"
    MIX = "mix"


class Mode(StrEnum):
    """Which operations a session runs (CDM's "Read & Write", "Read only", "Write only")."""

    READ_WRITE = "rw"
    READ = "read"
    WRITE = "write"


class DataPattern(StrEnum):
    """What a write test writes. RANDOM is CrystalDiskMark's default as DiskSpd makes it
    (``-Z``: one buffer of random data, filled once and reused), so compression cannot cheat
    and generating data does not cap the figure; ZEROS is CDM's "All 0x00"; REFILL writes
    fresh random data for every I/O, for drives that deduplicate, at a CPU cost that caps
    fast drives."""

    RANDOM = "random"
    ZEROS = "zeros"
    REFILL = "refill"

    @property
    def label(self) -> str:
        return {DataPattern.RANDOM: "Random", DataPattern.ZEROS: "All 0x00",
                DataPattern.REFILL: "Random, refilled for every write"}[self]


class Unit(StrEnum):
    MB_S = "MB/s"
    GB_S = "GB/s"
    IOPS = "IOPS"
    US = "us"

    @classmethod
    def parse(cls, text: str) -> "Unit":
        """Any spelling diskmark prints or a user types: the micro sign (U+00B5, what
        keyboards make) and the Greek mu (U+03BC, what :attr:`label` shows) both mean µs."""
        key = text.strip().lower().replace("\u00b5", "u").replace("\u03bc", "u")
        for unit in cls:
            if unit.value.lower() == key:
                return unit
        aliases = {"mbs": cls.MB_S, "mb": cls.MB_S, "gbs": cls.GB_S, "gb": cls.GB_S,
                   "usec": cls.US, "latency": cls.US, "lat": cls.US}
        if key in aliases:
            return aliases[key]
        raise ValueError(f"unknown unit {text!r}; choose MB/s, GB/s, IOPS or µs (also us)")

    @property
    def label(self) -> str:
        return "μs" if self is Unit.US else self.value

    @property
    def lower_is_better(self) -> bool:
        return self is Unit.US


class Phase(StrEnum):
    CHECKING = "checking"
    PREPARING = "preparing"  # writing the test file full of data
    WARMUP = "warm-up"  # CDM's discarded first pass
    MEASURING = "measuring"
    INTERVAL = "interval"  # the pause between tests
    SYNC = "sync"  # waiting for the kernel to flush what a write test left dirty
    SETTLE = "settle"  # waiting for the system's dirty pages to drain before measuring
    CLEANUP = "cleanup"


def format_size(nbytes: int) -> str:
    """16MiB, 512MiB, 1GiB, 64GiB — the binary size names CDM shows."""
    if nbytes >= GIB and nbytes % GIB == 0:
        return f"{nbytes // GIB}GiB"
    if nbytes >= MIB and nbytes % MIB == 0:
        return f"{nbytes // MIB}MiB"
    if nbytes >= KIB and nbytes % KIB == 0:
        return f"{nbytes // KIB}KiB"
    return f"{nbytes}B"


#: Test files are laid out by fio in 1 MiB blocks, so a size must be a whole number of them.
SIZE_STEP = MIB
_SIZE_RE = re.compile(r"(?P<num>\d+(?:\.\d*)?|\.\d+)(?:[eE](?P<exp>[+-]?\d+))?"
                      r"\s*(?P<unit>[A-Za-z]*)")
_BINARY_UNITS = {"": 1, "b": 1, "k": KIB, "kib": KIB, "m": MIB, "mib": MIB,
                 "g": GIB, "gib": GIB, "t": GIB * 1024, "tib": GIB * 1024}
_DECIMAL_UNITS = {"kb": "KiB", "mb": "MiB", "gb": "GiB", "tb": "TiB"}


def parse_size(text: str) -> int:
    """A test-file size, 16MiB to 64GiB: '16MiB', '1G', '512m', '1.5 GiB' (binary, as
    CrystalDiskMark's).

    'MB' and 'GB' are refused rather than guessed at: diskmark's MB is 1,000,000 bytes (as in
    MB/s), so reading '16mb' as 16 MiB would be wrong one way or the other. The size must be
    a whole number of MiB, because fio lays the test file out in 1 MiB blocks and a partial
    last block fails the run after the user has waited for it."""
    m = _SIZE_RE.fullmatch(text.strip())
    if not m:
        raise ValueError(f"not a size: {text!r} (try 16MiB, 1GiB)")
    unit, exponent = m.group("unit").lower(), int(m.group("exp") or 0)
    if abs(exponent) > 30:  # far past 64 GiB either way; 10**huge would not finish
        raise ValueError(f"not a size: {text!r} (try 16MiB, 1GiB)")
    number = Fraction(m.group("num")) * Fraction(10) ** exponent
    if unit in _DECIMAL_UNITS:
        binary = _DECIMAL_UNITS[unit]
        raise ValueError(f"{text.strip()!r}: in diskmark MB and GB are decimal (1 MB = "
                         f"1,000,000 bytes, as in MB/s), but test sizes are binary; write "
                         f"{_number(number)}{binary} (or {_number(number)}{binary[0]})")
    mult = _BINARY_UNITS.get(unit)
    if mult is None or number <= 0:
        raise ValueError(f"not a size: {text!r} (try 16MiB, 1GiB)")
    nbytes = number * mult
    if not SIZE_MIN <= nbytes <= SIZE_MAX:
        shown = format_size(int(nbytes)) if nbytes.denominator == 1 else text.strip()
        raise ValueError(f"size must be between {format_size(SIZE_MIN)} and "
                         f"{format_size(SIZE_MAX)}, not {shown}")
    if nbytes.denominator != 1 or nbytes % SIZE_STEP:
        below = math.floor(nbytes / SIZE_STEP) * SIZE_STEP
        raise ValueError(f"{text.strip()!r}: test sizes are whole MiB, as fio lays the test "
                         f"file out in 1 MiB blocks (try {format_size(below)} or "
                         f"{format_size(below + SIZE_STEP)})")
    return int(nbytes)


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


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

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pattern": self.pattern, "block": self.block,
                             "queues": self.queues, "threads": self.threads}
        if self.startdelay:
            d["startdelay"] = dict(self.startdelay)
        if self.ramp_time:
            d["ramp_time"] = dict(self.ramp_time)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TestSpec":
        return cls(pattern=str(d["pattern"]).upper(), block=int(d["block"]),
                   queues=int(d["queues"]), threads=int(d["threads"]),
                   startdelay=dict(d.get("startdelay", {})), ramp_time=dict(d.get("ramp_time", {})))


@dataclass
class Settings:
    """What the user chose. The engine turns this plus a preset into a plan of fio runs."""

    target: str = "."
    preset: str = "default"
    profile: str = "default"
    mix: int | None = None  # read percentage of the +Mix column, None for no mix
    mode: Mode = Mode.READ_WRITE
    size: int = GIB
    count: int = 5
    measure: float | None = None  # None: the preset's value
    interval: float | None = None
    data: DataPattern = DataPattern.RANDOM
    direct: bool = True  # O_DIRECT; False runs through the page cache
    nocow: bool = False  # btrfs: put the test file in a directory with copy-on-write off
    only_test: int | None = None  # a row button: run only this row of the profile
    sweep: str | None = None  # e.g. "RND4K": one pattern across SWEEP_DEPTHS instead of a profile
    comment: str = ""
    unstable_pct: float = UNSTABLE_PCT  # R/Avg above this marks a test unstable

    def validate(self) -> None:
        if not SIZE_MIN <= self.size <= SIZE_MAX:
            raise ValueError(f"size must be between {format_size(SIZE_MIN)} and "
                             f"{format_size(SIZE_MAX)}, not {format_size(self.size)}")
        if not COUNT_MIN <= self.count <= COUNT_MAX:
            raise ValueError(f"count must be between {COUNT_MIN} and {COUNT_MAX}, not {self.count}")
        if self.mix is not None and self.mix not in MIX_RATIOS:
            raise ValueError(f"mix must be a read percentage of 10, 20 … 90, not {self.mix}")
        for name in ("measure", "interval"):
            value = getattr(self, name)
            if value is not None and (value < 0 or not math.isfinite(value) or value > 3600):
                raise ValueError(f"{name} must be between 0 and 3600 seconds, not {value}")
        if self.measure is not None and self.measure < 1:
            raise ValueError("measure must be at least 1 second")
        if not (UNSTABLE_MIN <= self.unstable_pct <= UNSTABLE_MAX):
            raise ValueError(f"the unstable threshold must be between {UNSTABLE_MIN:g} and "
                             f"{UNSTABLE_MAX:g} percent, not {self.unstable_pct:g}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["mode"] = self.mode.value
        d["data"] = self.data.value
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Settings":
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known}
        if "mode" in kw:
            kw["mode"] = Mode(kw["mode"])
        if "data" in kw:
            kw["data"] = DataPattern(kw["data"])
        return cls(**kw)


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

    def cpu_limit(self, threads: int, cpus: int | None) -> str | None:
        """Why the CPU, not the drive, set this pass's figure; None when it did not (or
        nothing is known). A fio thread busy all the time cannot submit faster; and when
        every core of the machine was busy while fio wanted CPU, it waited for one,
        whoever kept the machine busy.
        (fio's own figures undercount when its threads outnumber the cores: 16 threads on 2
        cores showed 6% each while the machine was 99% busy, hence the machine's figure.)"""
        pct = self.cpu_pct
        if pct is not None and pct >= CPU_BUSY_PCT:
            return f"fio's thread{'s were' if threads > 1 else ' was'} busy {pct:.0f}% of the time"
        busy = self.machine_busy_pct
        wanted = (pct is not None and pct >= CPU_WANTED_PCT) or bool(cpus and threads > cpus)
        if busy is not None and busy >= CPU_BUSY_PCT and wanted:
            cores = f"all {cpus} CPU cores were" if cpus and cpus > 1 else "the CPU was"
            crowd = (f"; {threads} threads on {cpus} core{'s' if cpus > 1 else ''}"
                     if cpus and threads > cpus else "")
            return f"{cores} busy {busy:.0f}% of the time{crowd}"
        return None

    def figure(self, unit: Unit) -> float:
        return {Unit.MB_S: self.mb_s, Unit.GB_S: self.mb_s / 1000, Unit.IOPS: self.iops,
                Unit.US: self.lat_us}[unit]

    def dips(self, threshold_pct: float = DIP_THRESHOLD_PCT) -> list[tuple[int, float]]:
        """Seconds whose bandwidth fell more than ``threshold_pct`` below the run's median
        (Olli Graf's fio article plots them: thermal throttling, a full SLC cache):
        ``(second, MB/s)`` pairs."""
        if len(self.bw_samples) < 3:
            return []
        floor = statistics.median(self.bw_samples) * (1 - threshold_pct / 100)
        return [(i + 1, v) for i, v in enumerate(self.bw_samples) if v < floor]

    @property
    def bw_median(self) -> float | None:
        """The median per-second bandwidth, the yardstick a dip is measured against."""
        return statistics.median(self.bw_samples) if self.bw_samples else None

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
    def from_dict(cls, d: dict[str, Any]) -> "RunResult":
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
    def of(cls, values: list[float]) -> "Spread":
        if not values:
            return cls(0.0, 0.0, 0.0)
        return cls(min(values), statistics.fmean(values), max(values))


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

    @property
    def label(self) -> str:
        return self.spec.label

    @property
    def key(self) -> str:
        """Stable identity across sessions, for comparisons: ``SEQ1M Q8T1/read``."""
        suffix = f"{self.op.value}{self.mix_read}" if self.op is Op.MIX else self.op.value
        return f"{self.spec.label}/{suffix}"

    @property
    def complete(self) -> bool:
        return bool(self.runs) and self.error is None

    @property
    def best_run(self) -> RunResult | None:
        """CDM keeps the pass with the highest bandwidth."""
        return max(self.runs, key=lambda r: r.mb_s) if self.runs else None

    @property
    def best_mb_s(self) -> float:
        return self.best_run.mb_s if self.runs else 0.0

    @property
    def best_iops(self) -> float:
        return self.best_run.iops if self.runs else 0.0

    @property
    def best_lat_us(self) -> float:
        """CDM tracks the lowest mean latency separately from the best bandwidth."""
        return min(r.lat_us for r in self.runs) if self.runs else 0.0

    def figure(self, unit: Unit) -> float:
        return {Unit.MB_S: self.best_mb_s, Unit.GB_S: self.best_mb_s / 1000,
                Unit.IOPS: self.best_iops, Unit.US: self.best_lat_us}[unit]

    def spread(self, unit: Unit = Unit.MB_S) -> Spread:
        return Spread.of([r.figure(unit) for r in self.runs])

    def unstable(self, threshold_pct: float | None = None) -> str | None:
        """A short reason when the passes disagree by more than ``threshold_pct`` (R/Avg;
        by default the threshold the test ran with)."""
        if len(self.runs) < 2:
            return None
        r_avg = self.spread().r_avg_pct
        limit = self.unstable_pct if threshold_pct is None else threshold_pct
        return f"runs differ by {r_avg:.0f}%" if r_avg > limit else None

    def dips(self) -> list[str]:
        """Plain-words notes on bandwidth dips in any pass."""
        notes = []
        for n, run in enumerate(self.runs, 1):
            found = run.dips()
            if found:
                worst = min(found, key=lambda d: d[1])
                notes.append(f"pass {n}: {len(found)} s below 70% of the median "
                             f"(lowest {worst[1]:.1f} MB/s at {worst[0]} s)")
        return notes

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
            "unstable": self.unstable(),
            "unstable_threshold_pct": self.unstable_pct,
            "cpu_limited": self.cpu_limited,
            "dips": self.dips(),
            "error": self.error,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "TestResult":
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
        )


@dataclass
class SystemFacts:
    """Where a test ran: filled by :mod:`diskmark.system` from psutil and /sys."""

    target: str = ""
    mountpoint: str = ""
    device: str = ""
    fstype: str = ""
    mount_options: str = ""
    total_bytes: int = 0
    free_bytes: int = 0
    model: str = ""
    rotational: bool | None = None
    #: "virtio", "Xen", "VMware", "Hyper-V", "QEMU"…: a hypervisor's disk, whatever
    #: ``rotational`` claims (they all claim 1); "" for a real disk or when unknown
    virtual: str = ""
    scheduler: str = ""
    interface: str = ""  # e.g. "SATA 6.0 Gb/s", "PCIe 3.0 x4 (8.0 GT/s)"
    interface_mb_s: float | None = None  # what that link can carry, for the "too fast" check
    kernel: str = ""
    os: str = ""
    cpus: int | None = None  # CPU cores diskmark could use, for the CPU-limited verdict
    hostname: str = ""  # the machine that measured, so a history gathered from many can be told apart

    @property
    def spinning(self) -> bool:
        """A real rotating disk: only then do outer and inner tracks differ."""
        return bool(self.rotational) and not self.virtual

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SystemFacts":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


@dataclass
class FileLayout:
    """Where the test file lies (the RAID6 offset/fragmentation article): its extents as filefrag counts them, how many
    physically separate pieces they form, and where on the filesystem it starts."""

    extents: int
    fragments: int
    start_offset: int  # physical byte offset of the first extent
    start_fraction: float | None = None  # start_offset / filesystem size, 0 = outer tracks

    @property
    def fragmented(self) -> bool:
        return self.fragments > 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"fragmented": self.fragmented}  # derived; from_dict ignores it

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "FileLayout":
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})


class Status(StrEnum):
    COMPLETE = "complete"
    CANCELLED = "cancelled"
    FAILED = "failed"


RESULT_SCHEMA = "diskmark.result/1"


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
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "SessionResult":
        schema = d.get("schema")
        if schema != RESULT_SCHEMA:
            raise ValueError(f"not a diskmark result (schema {schema!r}, expected {RESULT_SCHEMA!r})")
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
        )


# --- progress events: engine -> UI / CLI -------------------------------------------------


@dataclass(frozen=True)
class Progress:
    """Emitted about once a second while anything runs."""

    phase: Phase
    message: str = ""  # engine-neutral description, e.g. "SEQ1M Q8T1 Read"
    test_index: int | None = None  # position in the plan
    test_key: str | None = None
    run: int = 0  # 1-based pass number, 0 for the warm-up
    runs: int = 0
    percent: float = 0.0  # of the current step, 0..100
    mb_s: float | None = None  # live bandwidth of the current pass
    eta_s: float | None = None  # remaining seconds of the whole session
    session_percent: float = 0.0  # 0..100
    dirty_bytes: int | None = None  # /proc/meminfo while a write is being flushed
    writeback_bytes: int | None = None


@dataclass(frozen=True)
class TestStarted:
    __test__ = False
    test_index: int
    result: TestResult  # empty runs; filled as passes finish


@dataclass(frozen=True)
class RunFinished:
    test_index: int
    result: TestResult  # with the new pass appended
    warmup: bool


@dataclass(frozen=True)
class TestFinished:
    __test__ = False
    test_index: int
    result: TestResult


@dataclass(frozen=True)
class Notice:
    """Something the user should read (a warning about the target, a fallback taken)."""

    text: str
    severity: str = "warning"


Event = Progress | TestStarted | RunFinished | TestFinished | Notice

