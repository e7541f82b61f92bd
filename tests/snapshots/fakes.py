"""A deterministic stand-in for the engine, for snapshot tests only.

Same interface as :class:`diskmark.engine.Engine` (``plan``, ``run``, ``stop``) and the real
plan builder, but no fio: it emits the events a real run would and returns fixed figures, so
a picture of the window is the same on every machine. Behaviour is real-engine tested in
``tests/test_app_pilot.py``.
"""

from __future__ import annotations

import asyncio

from diskmark.engine.plan import build_plan, run_args
from diskmark.model import (KIB, MIB, Op, Phase, Progress, RunFinished, RunResult, SessionResult,
                            Status, SystemFacts, TestFinished, TestResult, TestStarted)
from diskmark.presets import load_catalog

FACTS = SystemFacts(target="/mnt/data", mountpoint="/mnt/data", device="/dev/nvme0n1p2",
                    fstype="ext4", total_bytes=931 * 1024 * MIB, free_bytes=814 * 1024 * MIB,
                    model="Samsung SSD 980 PRO 1TB", rotational=False, kernel="6.1.0",
                    os="Debian GNU/Linux 12 (bookworm)")

#: MB/s by (pattern, block, queues, op): an NVMe-ish drive.
SPEEDS = {
    ("SEQ", MIB, 8, Op.READ): 7012.45, ("SEQ", MIB, 8, Op.WRITE): 5123.87,
    ("SEQ", MIB, 1, Op.READ): 3456.12, ("SEQ", MIB, 1, Op.WRITE): 2987.65,
    ("RND", 4 * KIB, 32, Op.READ): 812.34, ("RND", 4 * KIB, 32, Op.WRITE): 654.21,
    ("RND", 4 * KIB, 1, Op.READ): 78.91, ("RND", 4 * KIB, 1, Op.WRITE): 201.56,
}


def facts(_path: str) -> SystemFacts:
    return FACTS


def _run(mb_s: float, spec, factor: float) -> RunResult:
    mb_s = round(mb_s * factor, 2)
    iops = mb_s * 1e6 / spec.block
    lat = spec.queues * spec.threads / iops * 1e6
    return RunResult(mb_s=mb_s, iops=iops, lat_us=lat, io_bytes=int(mb_s * 5e6), runtime_ms=5000,
                     read_mb_s=mb_s, lat_percentiles={"50": lat * 0.9, "90": lat * 1.4,
                                                      "99": lat * 2.5, "99.9": lat * 4.1,
                                                      "99.99": lat * 7.3, "max": lat * 12.0})


class FakeEngine:
    """Emits a plausible event stream. ``block_at``: stop at that plan index mid-measurement
    and wait for ``stop()`` (a run in progress); ``error``: raise it before anything runs;
    ``fail_at``: end the session FAILED at that plan index; ``scale``: a factor per
    (row, op) on the figures, and ``started`` another date, to make a different drive (a
    baseline to compare with)."""

    def __init__(self, *, block_at: int | None = None, error: Exception | None = None,
                 fail_at: int | None = None, scale: dict[tuple[int, Op], float] | None = None,
                 started: str = "2024-05-01T10:00:00+02:00") -> None:
        self.catalog = load_catalog()
        self.block_at = block_at
        self.error = error
        self.fail_at = fail_at
        self.scale = scale or {}
        self.started = started
        self._stop: asyncio.Event | None = None
        self.stopped = False

    def plan(self, settings):
        return build_plan(self.catalog.get(settings.preset), settings)

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
                                finished=self.started.replace("T10:00:00", "T10:03:21"))
        total = len(plan.tests)
        for test in plan.tests:
            spec = test.spec
            base = SPEEDS.get((spec.pattern, spec.block, spec.queues, test.op))
            if base is None:  # mixes and other presets: something in between
                base = 0.8 * SPEEDS.get((spec.pattern, spec.block, spec.queues, Op.READ), 500.0)
            base *= self.scale.get((test.row, test.op), 1.0)
            args = run_args("/usr/bin/fio", plan, test, f"{settings.target}/.diskmark-0123456789ab.tmp")
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
            result.warmup = _run(base, spec, 0.93)
            emit(RunFinished(test.index, result, warmup=True))
            for n in range(settings.count):
                result.runs.append(_run(base, spec, (0.97, 1.0, 0.985, 0.99, 0.975)[n % 5]))
                emit(RunFinished(test.index, result, warmup=False))
            if test.op is not Op.READ:
                result.sync_seconds = 0.42
            emit(TestFinished(test.index, result))
            session.tests.append(result)
            await asyncio.sleep(0)
        return session
