"""Preset + settings → the ordered list of fio runs, and each run's exact fio arguments.

Order follows CrystalDiskMark: all reads (a pause of `interval` between tests), then all
writes, then the mixes. Every test is a discarded warm-up pass plus `count` measured passes,
each a separate time-based fio process so a slow device cannot stall it and a fast one keeps
measuring.
"""

from __future__ import annotations

from dataclasses import dataclass

from diskmark.model import DataPattern, Mode, Op, Settings, TestSpec
from diskmark.presets import Preset, Profile, sweep_profile

OVERHEAD_S = 0.4  # fio start-up and tear-down per pass, for the ETA


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
        delay, ramp = test.spec.delays(test.op)
        return delay + ramp + self.measure + OVERHEAD_S

    def test_seconds(self, test: PlannedTest) -> float:
        return (1 + self.settings.count) * self.pass_seconds(test)

    def total_seconds(self) -> float:
        gaps = max(len(self.tests) - 1, 0) * self.interval
        return sum(self.test_seconds(t) for t in self.tests) + gaps


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
    ops: list[Op] = []
    if settings.mode in (Mode.READ_WRITE, Mode.READ):
        ops.append(Op.READ)
    if settings.mode in (Mode.READ_WRITE, Mode.WRITE):
        ops.append(Op.WRITE)
    planned: list[PlannedTest] = []
    for op in ops:
        for row, spec in rows:
            planned.append(PlannedTest(len(planned), row, spec, op))
    if settings.mix is not None and profile.mix:
        for row, spec in rows:
            planned.append(PlannedTest(len(planned), row, spec, Op.MIX, settings.mix))
    return Plan(preset, profile, settings, float(measure), float(interval), tuple(planned))


def fio_filename(path: str) -> str:
    """fio splits --filename on ':' (and treats a leading '\\' specially): escape colons."""
    return path.replace("\\", "\\\\").replace(":", "\\:")


def _data_args(data: DataPattern) -> list[str]:
    # refill_buffers: fresh random data for every write, so compression/dedup cannot cheat;
    # zero_buffers: CDM's "All 0x00" test data.
    return ["--zero_buffers"] if data is DataPattern.ZEROS else ["--refill_buffers"]


def _common(settings: Settings, path: str) -> list[str]:
    return [f"--filename={fio_filename(path)}", f"--size={settings.size}",
            "--ioengine=libaio", f"--direct={1 if settings.direct else 0}",
            *_data_args(settings.data)]


def prepare_args(fio: str, settings: Settings, path: str) -> list[str]:
    """Write the whole test file once before any read: an unwritten (sparse or preallocated)
    file reads back as zeros without touching the device, and reads would look impossibly fast."""
    return [fio, "--name=diskmark-prepare", *_common(settings, path), "--rw=write", "--bs=1M",
            "--iodepth=8", "--fallocate=none", "--end_fsync=1",
            "--output-format=json", "--status-interval=1"]


def run_args(fio: str, plan: Plan, test: PlannedTest, path: str) -> list[str]:
    """One pass of one test. The same list is shown to the user to reproduce the figure."""
    spec = test.spec
    args = [fio, f"--name={spec.name}-{spec.qt}-{test.op.value}", *_common(plan.settings, path),
            f"--rw={test.rw()}"]
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
    args += ["--output-format=json", "--status-interval=1"]
    return args


def _secs(value: float) -> str:
    return f"{int(value)}s" if float(value).is_integer() else f"{int(value * 1000)}ms"
