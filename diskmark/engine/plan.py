"""Preset + settings → the ordered list of tests, and the exact fio arguments of each.

Order follows CrystalDiskMark: all reads (a pause of `interval` between tests), then all
writes, then the mixes. Every test is a discarded warm-up pass plus `count` measured passes.
They run as stonewalled jobs of *one* fio process (each job its own reporting group, read
separately from fio's JSON), so a test pays for starting fio once, not once per pass. A
start delay is the exception: fio counts ``startdelay`` from its own start, so a later job
of the same process would not wait; tests with one run a process per pass.

Every pass is time-based (``--time_based --runtime``): a slow device cannot stall it and a
fast one keeps measuring. fio is given no path: it runs inside the session's private
directory and opens :data:`TEST_FILE` (see :mod:`diskmark.engine.workspace`).
"""

from __future__ import annotations

from dataclasses import dataclass

from diskmark.engine.workspace import TEST_FILE
from diskmark.model import DataPattern, Mode, Op, Settings, TestSpec
from diskmark.presets import Preset, Profile, sweep_profile

PROCESS_OVERHEAD_S = 0.15  # starting fio and opening the file, once per process, for the ETA
DEFAULT_IOENGINE = "libaio"


@dataclass(frozen=True)
class PlannedTest:
    index: int  # position in the plan
    row: int  # row in the profile
    spec: TestSpec
    op: Op
    mix_read: int | None = None

    @property
    def key(self) -> str:
        suffix = f"{self.op.value}{self.mix_read}" if self.op is Op.MIX else self.op.value
        return f"{self.spec.label}/{suffix}"

    @property
    def title(self) -> str:
        """The test in full, as the status line names it: 'SEQ1M Q8T1 Read', 'RND4K Q1T1
        Mix R70/W30' (CDM's 'Sequential Read' does not say which of four rows runs)."""
        if self.op is Op.MIX and self.mix_read is not None:
            return f"{self.spec.label} Mix R{self.mix_read}/W{100 - self.mix_read}"
        return f"{self.spec.label} {self.op.value.capitalize()}"

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

    def pass_seconds(self, test: PlannedTest) -> float:
        """What fio must spend on one pass: start delay, ramp time, measuring."""
        delay, ramp = test.spec.delays(test.op)
        return delay + ramp + self.measure

    def batches(self, test: PlannedTest) -> list[list[int]]:
        """Pass numbers (0 is the warm-up) grouped by fio process: all in one, or one each
        when the test has a start delay."""
        passes = list(range(self.settings.count + 1))
        delay, _ = test.spec.delays(test.op)
        return [[n] for n in passes] if delay else [passes]

    def test_seconds(self, test: PlannedTest) -> float:
        return ((1 + self.settings.count) * self.pass_seconds(test)
                + len(self.batches(test)) * PROCESS_OVERHEAD_S)

    def total_seconds(self) -> float:
        gaps = max(len(self.tests) - 1, 0) * self.interval
        return sum(self.test_seconds(t) for t in self.tests) + gaps


def operations(mode: Mode) -> list[Op]:
    """The operations a mode runs, in CDM's order (reads before writes)."""
    return [op for op, modes in ((Op.READ, (Mode.READ_WRITE, Mode.READ)),
                                 (Op.WRITE, (Mode.READ_WRITE, Mode.WRITE))) if mode in modes]


def build_plan(preset: Preset, settings: Settings) -> Plan:
    settings.validate()
    profile = sweep_profile(settings.sweep) if settings.sweep else preset.profile(settings.profile)
    measure = settings.measure if settings.measure is not None else (profile.measure or preset.measure)
    interval = settings.interval if settings.interval is not None else (
        profile.interval if profile.interval is not None else preset.interval)
    rows = list(enumerate(profile.tests))
    if settings.only_test is not None:
        if not 0 <= settings.only_test < len(rows):
            raise ValueError(f"profile {profile.id!r} has no row {settings.only_test}")
        rows = [rows[settings.only_test]]
    planned: list[PlannedTest] = []
    for op in operations(settings.mode):
        for row, spec in rows:
            planned.append(PlannedTest(len(planned), row, spec, op))
    if settings.mix is not None and profile.mix:
        for row, spec in rows:
            planned.append(PlannedTest(len(planned), row, spec, Op.MIX, settings.mix))
    return Plan(preset, profile, settings, float(measure), float(interval), tuple(planned))


def data_args(data: DataPattern) -> list[str]:
    """fio's options for the test data.

    RANDOM: fio's own default buffers are random data filled once, the closest thing to
    DiskSpd's ``-Z<size>K`` that CrystalDiskMark uses; ``--scramble_buffers=0`` keeps fio
    from stamping each block (DiskSpd does not either). ZEROS: CDM's "All 0x00". REFILL:
    fresh random data for every write, CPU-bound (about 2 GB/s per thread here)."""
    return {DataPattern.RANDOM: ["--scramble_buffers=0"],
            DataPattern.ZEROS: ["--zero_buffers"],
            DataPattern.REFILL: ["--refill_buffers"]}[data]


def _common(settings: Settings, ioengine: str, data: list[str]) -> list[str]:
    # --thread: every job a thread of one process, so stopping fio stops all of it (fio
    # calls setsid() for job processes, which a signal to the group then never reaches).
    return [f"--filename={TEST_FILE}", f"--size={settings.size}", f"--ioengine={ioengine}",
            f"--direct={1 if settings.direct else 0}", "--thread", *data]


_OUTPUT = ["--output-format=json", "--status-interval=1"]


def prepare_args(fio: str, settings: Settings, ioengine: str = DEFAULT_IOENGINE) -> list[str]:
    """Write the whole test file once before any read: an unwritten (sparse or preallocated)
    file reads back as zeros without touching the device, and reads would look impossibly fast.
    Random data is fresh for every block here (time is not measured), so a drive that
    compresses or deduplicates cannot answer the read tests from a few stored blocks."""
    data = data_args(DataPattern.ZEROS if settings.data is DataPattern.ZEROS else DataPattern.REFILL)
    return [fio, "--name=diskmark-prepare", *_common(settings, ioengine, data), "--rw=write",
            "--bs=1M", "--iodepth=8", "--fallocate=none", "--end_fsync=1", *_OUTPUT]


def _job_options(plan: Plan, test: PlannedTest, ioengine: str) -> list[str]:
    spec = test.spec
    args = [*_common(plan.settings, ioengine, data_args(plan.settings.data)), f"--rw={test.rw()}"]
    if test.mix_read is not None:
        args.append(f"--rwmixread={test.mix_read}")
    args += [f"--bs={spec.block}", f"--iodepth={spec.queues}", f"--numjobs={spec.threads}",
             "--group_reporting", "--time_based", f"--runtime={_secs(plan.measure)}",
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
    is the command shown with every result."""
    return [fio, f"--name={job_name(test)}", *_job_options(plan, test, ioengine), *_OUTPUT]


def batch_args(fio: str, plan: Plan, test: PlannedTest, passes: list[int],
               ioengine: str = DEFAULT_IOENGINE) -> list[str]:
    """Several passes of one test in one fio process: options before the first ``--name``
    apply to every job; each later job waits for the one before (``--stonewall``, which
    also gives it its own reporting group, so each pass is reported on its own)."""
    args = [fio, *_job_options(plan, test, ioengine), *_OUTPUT]
    for i, n in enumerate(passes):
        name = f"{job_name(test)}-{'warmup' if n == 0 else f'pass{n}'}"
        args.append(f"--name={name}")
        if i:
            args.append("--stonewall")
    return args


def _secs(value: float) -> str:
    return f"{int(value)}s" if float(value).is_integer() else f"{int(value * 1000)}ms"
