"""Preset + settings → the ordered list of tests, and the exact fio arguments of each.

Order follows CrystalDiskMark: all reads (a pause of `interval` between tests), then all
writes, then the mixes. Every test is a discarded warm-up pass plus `count` measured passes.

A test runs as *one* continuous, time-based fio job of (1 + count) × measure seconds, and
its passes are windows of fio's status stream (cumulative counters every 100 ms, with the
latency histogram: ``json+``), so a test pays for starting fio once. Separate fio jobs
would cost about 0.3 s per pass: fio hands over between stonewalled jobs in 100 ms steps,
and a new process costs more. A test with a start delay or a ramp time (the Stable
profile) keeps a process per pass: those exist to let the drive rest and settle before
*each* pass, and fio counts ``startdelay`` from its own start.

Every pass is time-based (``--time_based --runtime``): a slow device cannot stall it and a
fast one keeps measuring. fio is given no path: it runs inside the session's private
directory and opens :data:`TEST_FILE` (see :mod:`diskmark.engine.workspace`); a block device
is the exception, named by its /dev path (see :mod:`diskmark.engine.device`).

The sustained profile is one write, no warm-up and no passes: it runs for the settings'
``duration`` or until ``amount`` bytes are written, whichever comes first, without a
prepared file (writing the file first would fill the very cache it is there to find). It
writes the test file of ``size`` from its start and wraps around to the start again when
time is left at its end, as CrystalDiskMark-like tools do, so it needs no more free space
than any other test; a drive may treat rewritten blocks differently from new ones, so give a
``size`` at least the amount you expect it to write to see new blocks only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from diskmark.engine.times import times
from diskmark.locale import _
from diskmark.model.names import test_key, test_title
from diskmark.model.results import FioJob, TestResult, TestSpec
from diskmark.model.settings import DataPattern, Mode, Op, Settings
from diskmark.model.units import SIZE_STEP
from diskmark.presets import Preset, Profile, sweep_profile

#: The only name fio is given: the workspace opens it in its private directory.
TEST_FILE = "diskmark-test.dat"

PROCESS_OVERHEAD_S = 0.3  # starting fio and opening the file, once per process, for the ETA
DEFAULT_IOENGINE = "libaio"
STATUS_MS = 100  # fio's status interval in a continuous test: pass boundaries fall on it


@dataclass(frozen=True)
class PlannedTest:
    index: int  # position in the plan
    row: int  # row in the profile
    spec: TestSpec
    op: Op
    mix_read: int | None = None

    @property
    def key(self) -> str:
        return test_key(self.spec.label, self.op, self.mix_read)

    @property
    def title(self) -> str:
        """The test in full, as the status line names it: 'SEQ1M Q8T1 Read', 'RND4K Q1T1
        Mix R70/W30' (CDM's 'Sequential Read' does not say which of four rows runs)."""
        return test_title(self.spec.label, self.op, self.mix_read)

    def rw(self) -> str:
        if self.op is Op.MIX:
            return "rw" if self.spec.sequential else "randrw"
        base = self.op.value  # read / write
        return base if self.spec.sequential else f"rand{base}"


@dataclass(frozen=True)
class Plan:
    preset: Preset
    profile: Profile
    settings: Settings
    measure: float
    interval: float
    tests: tuple[PlannedTest, ...]
    #: what fio opens: the test file in the workspace, or a block device itself (its /dev
    #: path, see :mod:`diskmark.engine.device`)
    filename: str = TEST_FILE
    #: fio's --readonly: a device nobody consented to write, so fio itself refuses writes
    readonly: bool = False
    #: a check run's own fio jobs (etcd's fdatasync test), run after the tests on the
    #: test file, each at most :meth:`job_seconds` long
    jobs: tuple[FioJob, ...] = ()

    @property
    def sustained(self) -> bool:
        """One long write drawn over time (see the module's docstring), not CDM's passes."""
        return self.profile.layout == "sustained"

    def pass_seconds(self, test: PlannedTest) -> float:
        """What fio must spend on one pass: start delay, ramp time, measuring."""
        delay, ramp = test.spec.delays(test.op)
        return delay + ramp + self.measure

    def process_per_pass(self, test: PlannedTest) -> bool:
        """Whether each pass needs a fio process of its own (a start delay or a ramp time
        before every pass), rather than being a window of one continuous job."""
        return any(test.spec.delays(test.op))

    def processes(self, test: PlannedTest) -> int:
        return self.settings.count + 1 if self.process_per_pass(test) else 1

    def test_seconds(self, test: PlannedTest) -> float:
        if self.sustained:
            return self.settings.duration + PROCESS_OVERHEAD_S
        return ((1 + self.settings.count) * self.pass_seconds(test)
                + self.processes(test) * PROCESS_OVERHEAD_S)

    def total_seconds(self) -> float:
        gaps = max(len(self.tests) + len(self.jobs) - 1, 0) * self.interval
        return (sum(self.test_seconds(t) for t in self.tests)
                + sum(self.job_seconds() + PROCESS_OVERHEAD_S for _job in self.jobs) + gaps)

    def job_seconds(self) -> float:
        """The most a check's own job may run: the time a test of this run is given (its
        warm-up and its passes). A job is bounded by what it moves, as its source runs it
        (etcd's 22 MiB); this only keeps a slow disk from holding the run for minutes, and
        the result says when it cut a job short."""
        return (1 + self.settings.count) * self.measure


def operations(mode: Mode) -> list[Op]:
    """The operations a mode runs, in CDM's order (reads before writes)."""
    return [op for op, modes in ((Op.READ, (Mode.READ_WRITE, Mode.READ)),
                                 (Op.WRITE, (Mode.READ_WRITE, Mode.WRITE))) if mode in modes]


def on_device(settings: Settings, consent: bool = False) -> Settings:
    """``settings`` as a block device target runs them. NOCOW turns copy-on-write off in
    the test directory diskmark makes on btrfs; a device is measured itself, with neither,
    so it runs without. The +Mix tests write over the device: without consent to destroy
    its data (``--destroy-data``) they do not run, like the other writes
    (:mod:`diskmark.engine.device`).

    The command line refuses what this takes away from what was typed for a device, so
    nothing typed is dropped without a word (:func:`diskmark.engine.target.open_target`);
    the app, which asks for no consent and keeps its +Mix and NOCOW choices for
    directories, runs a device with what this leaves."""
    return replace(settings, nocow=False, mix=settings.mix if consent else None)


def build_plan(preset: Preset, settings: Settings) -> Plan:
    settings.validate()
    profile = sweep_profile(settings.sweep) if settings.sweep else preset.profile(settings.profile)
    measure, interval = times(preset, profile, settings)
    rows = list(enumerate(profile.tests))
    if settings.only_test is not None:
        if not 0 <= settings.only_test < len(rows):
            raise ValueError(_("profile {profile} has no row {row}").format(
                profile=repr(profile.id), row=settings.only_test))
        rows = [rows[settings.only_test]]
    planned: list[PlannedTest] = []
    if profile.layout == "sustained":
        if settings.mode is Mode.READ:
            raise ValueError(_("the {profile} profile only writes: choose the mode rw or write, "
                               "not read").format(profile=profile.name))
        row, spec = rows[0]
        return Plan(preset, profile, settings, measure, interval,
                    (PlannedTest(0, row, spec, Op.WRITE),))
    for op in operations(settings.mode):
        for row, spec in rows:
            planned.append(PlannedTest(len(planned), row, spec, op))
    if settings.mix is not None and profile.mix:
        for row, spec in rows:
            planned.append(PlannedTest(len(planned), row, spec, Op.MIX, settings.mix))
    return Plan(preset, profile, settings, measure, interval, tuple(planned))


#: The preset a check run is planned under: CrystalDiskMark's measure and interval.
CHECKS_PRESET = Preset(id="checks", name="Checks", description="", measure=5.0, interval=5.0,
                       profiles={})


def check_plan(settings: Settings, tests: list[tuple[TestSpec, Op]],
               jobs: list[FioJob]) -> Plan:
    """The plan of a check run: exactly the tests the checks need (each once, in
    CrystalDiskMark's order: the reads, then the writes), then their own fio jobs; no mix,
    no sweep. The test file is large enough for the largest job."""
    specs = list(dict.fromkeys(spec for spec, _op in tests))
    profile = Profile(id="checks", name="Checks", layout="default", tests=tuple(specs), mix=False)
    preset = replace(CHECKS_PRESET, profiles={profile.id: profile})
    need = max((job.size for job in jobs), default=0)
    size = max(settings.size, -(-need // SIZE_STEP) * SIZE_STEP)
    settings = replace(settings, mix=None, sweep=None, only_test=None, size=size)
    settings.validate()
    measure, interval = times(preset, profile, settings)
    planned: list[PlannedTest] = []
    for op in (Op.READ, Op.WRITE):
        for row, spec in enumerate(specs):
            if (spec, op) in tests:
                planned.append(PlannedTest(len(planned), row, spec, op))
    return Plan(preset, profile, settings, measure, interval, tuple(planned),
                jobs=tuple(dict.fromkeys(jobs)))


def data_args(data: DataPattern) -> list[str]:
    """fio's options for the test data.

    RANDOM: fio's default buffers, random data filled once and reused, as DiskSpd's ``-Z``
    that CrystalDiskMark uses; fio also stamps each 512-byte sector with its offset and
    time (``scramble_buffers``, on by default), so no two written blocks are alike and a
    drive that deduplicates cannot cheat, for 4–6% of a core per GB/s. ZEROS: CDM's "All
    0x00". REFILL: fresh random data for every write, about 27% of a core per GB/s, which
    caps fast drives (KDiskMark's issue #175)."""
    return {DataPattern.RANDOM: [],
            DataPattern.ZEROS: ["--zero_buffers"],
            DataPattern.REFILL: ["--refill_buffers"]}[data]


def _common(settings: Settings, ioengine: str, data: list[str],
            filename: str = TEST_FILE) -> list[str]:
    # --thread: every job a thread of one process, so stopping fio stops all of it (fio
    # calls setsid() for job processes, which a signal to the group then never reaches).
    return [f"--filename={filename}", f"--size={settings.size}", f"--ioengine={ioengine}",
            f"--direct={1 if settings.direct else 0}", "--thread", *data]


_OUTPUT = ["--output-format=json", "--status-interval=1"]


def prepare_args(fio: str, settings: Settings, ioengine: str = DEFAULT_IOENGINE) -> list[str]:
    """Write the whole test file once before any read: an unwritten (sparse or preallocated)
    file reads back as zeros without touching the device, and reads would look impossibly fast.
    Every block differs (fio stamps each one), so a drive that deduplicates cannot answer
    the read tests from a few stored blocks."""
    data = data_args(DataPattern.ZEROS if settings.data is DataPattern.ZEROS else DataPattern.RANDOM)
    return [fio, "--name=diskmark-prepare", *_common(settings, ioengine, data), "--rw=write",
            "--bs=1M", "--iodepth=8", "--fallocate=none", "--end_fsync=1", *_OUTPUT]


def _job_options(plan: Plan, test: PlannedTest, ioengine: str, runtime: float,
                 time_based: bool = True) -> list[str]:
    spec = test.spec
    args = [*_common(plan.settings, ioengine, data_args(plan.settings.data), plan.filename),
            *(["--readonly"] if plan.readonly else []), f"--rw={test.rw()}"]
    if test.mix_read is not None:
        args.append(f"--rwmixread={test.mix_read}")
    args += [f"--bs={spec.block}", f"--iodepth={spec.queues}", f"--numjobs={spec.threads}",
             "--group_reporting", *(["--time_based"] if time_based else []),
             f"--runtime={_secs(runtime)}",
             "--randrepeat=0", "--norandommap"]
    delay, ramp = spec.delays(test.op)
    if delay:
        args.append(f"--startdelay={_secs(delay)}")
    if ramp:
        args.append(f"--ramp_time={_secs(ramp)}")
    return args


def job_name(test: PlannedTest) -> str:
    return f"{test.spec.name}-{test.spec.qt}-{test.op.value}"


def run_args(fio: str, plan: Plan, test: PlannedTest, ioengine: str = DEFAULT_IOENGINE) -> list[str]:
    """One pass of one test, as a user would run it by hand in the target directory; this
    is the command shown with every result, and what a test with delays runs per pass."""
    if plan.sustained:
        return sustained_args(fio, plan, test, ioengine, status=False)
    return [fio, f"--name={job_name(test)}", *_job_options(plan, test, ioengine, plan.measure),
            *_OUTPUT]


def continuous_args(fio: str, plan: Plan, test: PlannedTest,
                    ioengine: str = DEFAULT_IOENGINE) -> list[str]:
    """The warm-up and every pass of one test as one job, reported every
    :data:`STATUS_MS` with fio's latency histogram (``json+``), so each pass's figures,
    percentiles included, are the difference of two status objects."""
    runtime = (plan.settings.count + 1) * plan.measure
    return [fio, f"--name={job_name(test)}", *_job_options(plan, test, ioengine, runtime),
            "--output-format=json+", f"--status-interval={STATUS_MS}ms"]


def sustained_args(fio: str, plan: Plan, test: PlannedTest, ioengine: str = DEFAULT_IOENGINE,
                   status: bool = True) -> list[str]:
    """The sustained write, with a status object every :data:`STATUS_MS` to draw it over
    time (``status=False``: the command as a user would run it by hand). Time-based, it
    wraps around the test file while time is left; with an amount it is bounded by
    ``io_size`` instead (which wraps too) and ``runtime`` still ends it, whichever comes
    first (fio 3.33 ignores ``io_size`` and ``number_ios`` once ``time_based`` is on)."""
    settings = plan.settings
    amount = settings.amount
    args = [fio, f"--name={job_name(test)}",
            *_job_options(plan, test, ioengine, settings.duration, time_based=amount is None)]
    if amount is not None:
        args.append(f"--io_size={amount}")
    out = ["--output-format=json", f"--status-interval={STATUS_MS}ms"] if status else _OUTPUT
    return [*args, *out]


def job_args(fio: str, plan: Plan, job: FioJob, ioengine: str = DEFAULT_IOENGINE) -> list[str]:
    """A check's own fio job on the test file, as a user would run it by hand there: its
    options as the check names them, bounded by what it moves and, at most, by the run's
    time for a test (:meth:`Plan.job_seconds`)."""
    args = [fio, f"--name=check-{job.name or 'job'}", f"--filename={plan.filename}",
            f"--size={job.size}", f"--ioengine={job.ioengine or ioengine}",
            f"--direct={1 if job.direct else 0}", "--thread",
            *(["--readonly"] if plan.readonly else []), f"--rw={job.rw}", f"--bs={job.bs}",
            f"--iodepth={job.iodepth}", f"--numjobs={job.numjobs}", "--group_reporting",
            f"--runtime={_secs(plan.job_seconds())}", "--randrepeat=0"]
    if job.fdatasync:
        args.append(f"--fdatasync={job.fdatasync}")
    return [*args, *_OUTPUT]


def _secs(value: float) -> str:
    return f"{int(value)}s" if float(value).is_integer() else f"{int(value * 1000)}ms"


def not_measured(plan: Plan, done: list[TestResult]) -> list[TestResult]:
    """The plan's tests a stopped or failed session did not finish, without figures: a
    report still names every test of the run, as CrystalDiskMark's does (with zeros)."""
    finished = {t.key for t in done}
    return [TestResult(index=t.row, spec=t.spec, op=t.op, mix_read=t.mix_read,
                       unstable_pct=plan.settings.unstable_pct)
            for t in plan.tests if t.key not in finished]
