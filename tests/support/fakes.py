"""A deterministic stand-in for the engine, for snapshot tests only.

Same interface as :class:`diskmark.engine.Engine` (``plan``, ``run``, ``stop``) and the real
plan builder, but no fio: it emits the events a real run would and returns fixed figures, so
a picture of the window is the same on every machine. Behaviour is real-engine tested in
``tests/app/test_app_pilot.py``.
"""

from __future__ import annotations

import asyncio

from diskmark.engine.plan import build_plan, run_args
from diskmark.model.drive_record import DriveRecord, Health
from diskmark.model.events import Phase, Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.facts import SystemFacts
from diskmark.model.file_layout import FileLayout
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import RunResult, SessionResult, Status, TestResult
from diskmark.model.settings import Op
from diskmark.model.units import KIB, MIB
from diskmark.presets import load_catalog

FACTS = SystemFacts(target="/mnt/data", mountpoint="/mnt/data", device="/dev/nvme0n1p2",
                    fstype="ext4", total_bytes=931 * 1024 * MIB, free_bytes=814 * 1024 * MIB,
                    model="Samsung SSD 980 PRO 1TB", rotational=False, kernel="6.1.0",
                    os="Debian GNU/Linux 12 (bookworm)", cpus=8)

#: MB/s by (pattern, block, queues, op): an NVMe-ish drive.
SPEEDS = {
    ("SEQ", MIB, 8, Op.READ): 7012.45, ("SEQ", MIB, 8, Op.WRITE): 5123.87,
    ("SEQ", MIB, 1, Op.READ): 3456.12, ("SEQ", MIB, 1, Op.WRITE): 2987.65,
    ("RND", 4 * KIB, 32, Op.READ): 812.34, ("RND", 4 * KIB, 32, Op.WRITE): 654.21,
    ("RND", 4 * KIB, 1, Op.READ): 78.91, ("RND", 4 * KIB, 1, Op.WRITE): 201.56,
}


#: A second drive beside the first, by (row, op): slower in sequence, quicker at random
#: reads, the same at random writes (within the passes' noise).
OTHER_DRIVE = {(0, Op.READ): 0.06, (0, Op.WRITE): 0.08, (1, Op.READ): 0.11, (1, Op.WRITE): 0.1,
               (2, Op.READ): 1.4, (3, Op.READ): 1.25}
USB_FACTS = SystemFacts(target="/mnt/usb", mountpoint="/mnt/usb", device="/dev/sdb1",
                        fstype="exfat", total_bytes=238 * 1024 * MIB, free_bytes=201 * 1024 * MIB,
                        model="SanDisk Extreme", rotational=False, kernel="6.1.0",
                        os="Debian GNU/Linux 12 (bookworm)", cpus=8)

#: A queue-depth sweep's share of the Q32 figure at each depth: a curve that saturates.
SWEEP_SHARE = {1: 0.097, 2: 0.185, 4: 0.345, 8: 0.604, 16: 0.865, 32: 1.0}
#: Per-second shape of a pass (5 s), and of a pass that dips at second 4 (a full SLC cache).
STEADY = (1.01, 0.99, 1.02, 0.98, 1.0)
DIPPING = (1.08, 1.1, 1.06, 0.52, 1.07)
LAYOUT = FileLayout(extents=3, fragments=2, start_offset=118 * 1024 * MIB, start_fraction=0.127)


def hot_drive(key: str = "RND4K Q32T1/write") -> DriveRecord:
    """A made-up NVMe drive warming from 45 °C, with a spike to 74 °C during the third
    measured pass of ``key``'s test, right where the shaky test's pass dips (its second 4)."""
    starts = [30.0, 35.2, 40.4, 45.6, 50.8, 56.0]  # the warm-up, then five 5-second passes
    spike = starts[3] + 3.5
    samples = [(float(t), round(45 + 0.1 * t + (24 if abs(t - spike) < 1.5 else 0), 1))
               for t in range(0, 70)]
    before = Health(source="smartctl 7.4", passed=True, temperature_c=45.0, percentage_used=3,
                    available_spare=100, media_errors=0, critical_warning=0,
                    warning_temp_minutes=12, critical_temp_minutes=0)
    after = Health(**{**before.to_dict(), "temperature_c": 52.0, "warning_temp_minutes": 13})
    return DriveRecord(device="/dev/nvme0n1", sensor="nvme Composite", samples=samples,
                       before=before, after=after, passes={key: starts})


def facts(_path: str) -> SystemFacts:
    return FACTS


def _run(mb_s: float, spec, factor: float, shape: tuple[float, ...] = STEADY,
         busy: bool = False) -> RunResult:
    mb_s = round(mb_s * factor, 2)
    iops = mb_s * 1e6 / spec.block
    lat = spec.queues * spec.threads / iops * 1e6
    return RunResult(mb_s=mb_s, iops=iops, lat_us=lat, io_bytes=int(mb_s * 5e6), runtime_ms=5000,
                     read_mb_s=mb_s, lat_percentiles={"50": lat * 0.9, "90": lat * 1.4,
                                                      "99": lat * 2.5, "99.9": lat * 4.1,
                                                      "99.99": lat * 7.3, "max": lat * 12.0},
                     bw_samples=[round(mb_s * k, 2) for k in shape],
                     # a random Q32 job keeps its one thread busy: the CPU sets that figure
                     usr_cpu=18.0 if busy else 3.0, sys_cpu=75.0 if busy else 11.0,
                     machine_busy_pct=58.0 if busy else 16.0)


def _base(spec, op: Op, sweep: bool) -> float:
    if sweep:  # scale the preset's deepest figure down the curve
        deepest = 32 if spec.pattern == "RND" else 8
        top = SPEEDS.get((spec.pattern, spec.block, deepest, op), 1500.0)
        return round(top * SWEEP_SHARE.get(spec.queues, 1.0), 2)
    base = SPEEDS.get((spec.pattern, spec.block, spec.queues, op))
    if base is None:  # mixes and other presets: something in between
        base = 0.8 * SPEEDS.get((spec.pattern, spec.block, spec.queues, Op.READ), 500.0)
    return base


class FakeEngine:
    """Emits a plausible event stream. ``block_at``: stop at that plan index mid-measurement
    and wait for ``stop()`` (a run in progress); ``error``: raise it before anything runs;
    ``fail_at``: end the session FAILED at that plan index; ``scale``: a factor per
    (row, op) on the figures, and ``started`` another date, to make a different drive (a
    baseline to compare with); ``shaky_at``: that test's passes disagree (unstable) and one
    dips; ``warnings``: the session's notes; ``flush_at``: after that (write) test's passes,
    wait for ``stop()`` while flushing, Dirty/Writeback shown."""

    def __init__(self, *, block_at: int | None = None, error: Exception | None = None,
                 fail_at: int | None = None, scale: dict[tuple[int, Op], float] | None = None,
                 started: str = "2024-05-01T10:00:00+02:00", shaky_at: int | None = None,
                 warnings: list[str] | None = None, flush_at: int | None = None,
                 drive: DriveRecord | None = None) -> None:
        self.catalog = load_catalog()
        self.block_at = block_at
        self.error = error
        self.fail_at = fail_at
        self.scale = scale or {}
        self.started = started
        self.shaky_at = shaky_at
        self.warnings = list(warnings or [])
        self.flush_at = flush_at
        self.drive = drive  # the drive's temperature and health, as the real engine records them
        self._stop: asyncio.Event | None = None
        self.stopped = False

    def plan(self, settings):
        return build_plan(self.catalog.get(settings.preset), settings)

    async def run_targets(self, settings, on_event=None):
        """Each target's made-up session (not interleaved: the pictures show the figures):
        the second target a USB drive, slower in sequence, quicker at random reads, the
        same at random writes, so that every verdict shows."""
        from dataclasses import replace

        from diskmark.model.sides import DEVICE, Sharing, TargetsResult

        emit = on_event or (lambda index, event: None)
        result = TargetsResult([s.target for s in settings])
        for i, st in enumerate(settings):
            engine = FakeEngine(started=self.started, scale={} if i == 0 else OTHER_DRIVE)
            session = await engine.run(st, lambda event, i=i: emit(i, event))
            facts = FACTS if i == 0 else USB_FACTS
            session.system = replace(facts, target=st.target)
            result.sessions.append(session)
        if len(settings) > 2:
            result.sharing = [Sharing(settings[1].target, settings[2].target, DEVICE, "sdb")]
        return result

    def stop(self) -> None:
        self.stopped = True
        if self._stop is not None:
            self._stop.set()

    async def run(self, settings, on_event=None):
        emit = on_event or (lambda e: None)
        plan = self.plan(settings)
        if self.error is not None:
            raise self.error
        self._stop = asyncio.Event()
        session = SessionResult(settings=settings, system=FACTS, preset_name=plan.preset.name,
                                profile_name=plan.profile.name, measure=plan.measure,
                                interval=plan.interval, fio_version="fio-3.33",
                                diskmark_version="0.1.0", started=self.started,
                                finished=self.started.replace("T10:00:00", "T10:03:21"),
                                warnings=list(self.warnings), test_file=LAYOUT, drive=self.drive)
        total = len(plan.tests)
        for test in plan.tests:
            spec = test.spec
            base = _base(spec, test.op, bool(settings.sweep))
            base *= self.scale.get((test.row, test.op), 1.0)
            args = run_args("/usr/bin/fio", plan, test)
            result = TestResult(index=test.row, spec=spec, op=test.op, mix_read=test.mix_read,
                                fio_command=args)
            emit(TestStarted(test.index, result))
            if test.index == self.block_at:
                emit(Progress(Phase.MEASURING, test.title, test_index=test.index,
                              test_key=test.key, run=2, runs=settings.count, percent=40.0,
                              mb_s=round(base * 0.97, 2), eta_s=95.0,
                              session_percent=100.0 * test.index / total))
                await self._stop.wait()
                session.status = Status.CANCELLED
                break
            if test.index == self.fail_at:
                session.status = Status.FAILED
                session.error = ("fio failed while RND4K Q32T1 write (exit status 1, error 5).\n"
                                 "fio: io_u error on file /mnt/data/.diskmark-0123456789ab.tmp: "
                                 "Input/output error: write offset=4096, buflen=4096")
                break
            busy = spec.pattern == "RND" and spec.queues >= 32 and test.op is Op.READ
            result.warmup = _run(base, spec, 0.93, busy=busy)
            emit(RunFinished(test.index, result, warmup=True))
            shaky = test.index == self.shaky_at
            factors = (0.91, 1.0, 0.94, 0.97, 0.93) if shaky else (0.97, 1.0, 0.985, 0.99, 0.975)
            for n in range(settings.count):
                shape = DIPPING if shaky and n == 2 else STEADY
                result.runs.append(_run(base, spec, factors[n % 5], shape, busy))
                emit(RunFinished(test.index, result, warmup=False))
            result.cpu_limited = cpu_limit_text(result.best_run.cpu_limit(spec.threads, FACTS.cpus))
            if test.index == self.flush_at:
                emit(Progress(Phase.SYNC, "Flushing to disk", test_index=test.index,
                              test_key=test.key, eta_s=61.0,
                              session_percent=100.0 * (test.index + 1) / total,
                              dirty_bytes=737 * MIB + 262144, writeback_bytes=41 * MIB))
                await self._stop.wait()
                session.status = Status.CANCELLED
                break
            if test.op is not Op.READ:
                result.sync_seconds = 0.42
                result.sync_dirty_bytes, result.sync_writeback_bytes = 48 * MIB, 12 * MIB
            emit(TestFinished(test.index, result))
            session.tests.append(result)
            await asyncio.sleep(0)
        return session
