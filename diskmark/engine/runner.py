"""Running a plan: the test file, one fio process per pass, progress events, clean stops.

The engine is UI-agnostic: it reports through a plain callback of model events and returns a
:class:`SessionResult`. Errors found before anything starts raise (exit code 2); anything
that goes wrong once fio runs ends the session with status ``failed`` or ``cancelled`` and the
tests finished so far. Whatever happens, fio's whole process group is stopped and the test
file removed before ``run`` returns or raises.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from diskmark import __version__, system
from diskmark.engine import fileinfo, parse
from diskmark.engine.errors import DiskmarkError, FioFailed, TargetError
from diskmark.engine.fio import Fio, locate
from diskmark.engine.plan import Plan, PlannedTest, build_plan, prepare_args, run_args
from diskmark.engine.target import OwnedDir, OwnedFile, check_target
from diskmark.model import (Event, FileLayout, Notice, Op, Phase, Progress, RunFinished, SessionResult,
                            Status, TestFinished, TestResult, TestStarted)
from diskmark.presets import PresetCatalog, load_catalog

KILL_GRACE_S = 1.5  # after SIGINT, how long fio gets to exit before SIGKILL
PREP_RATE_GUESS = 400e6  # bytes/s, for the ETA until the real preparation rate is known

EventSink = Callable[[Event], None]


class Stopped(Exception):
    """The user asked to stop; not an error."""


def _now() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")


class _Eta:
    """Session ETA from the plan's expected durations, corrected as steps finish."""

    def __init__(self, total: float):
        self.total = total
        self.done = 0.0
        self.step = 0.0
        self.step_started = time.monotonic()

    def begin(self, expected: float) -> None:
        self.step = expected
        self.step_started = time.monotonic()

    def end(self) -> None:
        self.done += self.step
        self.step = 0.0

    def replace_estimate(self, expected: float, actual: float) -> None:
        self.total += actual - expected

    def remaining(self) -> float:
        into = min(time.monotonic() - self.step_started, self.step)
        return max(self.total - self.done - into, 0.0)

    def percent(self) -> float:
        return 100.0 * (1 - self.remaining() / self.total) if self.total else 100.0


class Engine:
    """Runs diskmark sessions with fio. One session at a time per engine."""

    def __init__(self, fio: Fio | None = None, catalog: PresetCatalog | None = None):
        self._fio = fio
        self.catalog = catalog
        self._proc: asyncio.subprocess.Process | None = None
        self._stopping = False
        self._wake: asyncio.Event | None = None

    @property
    def fio(self) -> Fio:
        if self._fio is None:
            self._fio = locate()
        return self._fio

    @property
    def running(self) -> bool:
        return self._wake is not None

    def stop(self) -> None:
        """Ask a running session to stop: fio's group gets SIGINT, the session returns
        ``cancelled`` with the tests finished so far."""
        self._stopping = True
        if self._wake is not None:
            self._wake.set()
        self._signal(signal.SIGINT)

    def _signal(self, sig: int) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None:
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                pass

    def plan(self, settings) -> Plan:
        catalog = self.catalog or load_catalog()
        try:
            preset = catalog.get(settings.preset)
            return build_plan(preset, settings)
        except (KeyError, ValueError) as e:
            raise TargetError(str(e).strip("'\"")) from None

    async def run(self, settings, on_event: EventSink | None = None) -> SessionResult:
        emit = on_event or (lambda event: None)
        self._stopping = False
        fio = self.fio
        plan = self.plan(settings)
        check = check_target(settings.target, settings.size, settings.direct, settings.nocow)
        for note in check.notes:
            emit(Notice(note, "information"))
        session = SessionResult(
            settings=settings, system=system.facts_for(check.path),
            preset_name=plan.preset.name, profile_name=plan.profile.name,
            measure=plan.measure, interval=plan.interval, fio_version=fio.version,
            diskmark_version=__version__, started=_now(), warnings=list(check.notes))
        nocow = None
        if settings.nocow and check.fstype == "btrfs":
            nocow = OwnedDir.create_nocow(check.path)
        try:
            testfile = OwnedFile.create(nocow.path if nocow else check.path, size=settings.size)
            try:
                await self._measure(fio, plan, session, testfile, emit)
            finally:
                await self._kill()
                emit(Progress(Phase.CLEANUP, "Removing the test file", eta_s=0.0,
                              session_percent=100.0))
                if not testfile.remove() and testfile.path.exists():
                    emit(Notice(f"{testfile.path} was replaced by another program; diskmark "
                                f"left it alone. Remove it yourself if it is not needed."))
        finally:
            if nocow:
                nocow.remove()
        session.finished = _now()
        return session

    async def _measure(self, fio: Fio, plan: Plan, session: SessionResult, testfile: OwnedFile,
                       emit: EventSink) -> None:
        """Prepare the file and run every test; a stop or an error ends the session early
        with what was finished."""
        self._wake = asyncio.Event()
        prep_guess = plan.settings.size / PREP_RATE_GUESS
        eta = _Eta(prep_guess + plan.total_seconds())
        try:
            await self._prepare(fio, plan, testfile, eta, prep_guess, emit)
            session.test_file = _layout(testfile, session.system)
            if session.test_file and session.test_file.fragmented:
                note = (f"The test file is fragmented ({session.test_file.fragments} pieces): "
                        f"sequential figures may be lower than the device can do.")
                session.warnings.append(note)
                emit(Notice(note, "information"))
            for test in plan.tests:
                if test.index and plan.interval:
                    await self._interval(plan, test, eta, emit)
                result = await self._run_test(fio, plan, test, testfile, eta, emit)
                session.tests.append(result)
                emit(TestFinished(test.index, result))
                note = _faster_than_link(result, session.system)
                if note:
                    session.warnings.append(note)
                    emit(Notice(note))
        except Stopped:
            session.status = Status.CANCELLED
        except DiskmarkError as e:
            session.status = Status.FAILED
            session.error = str(e)
        finally:
            self._wake = None

    # --- steps ------------------------------------------------------------------------

    async def _prepare(self, fio: Fio, plan: Plan, testfile: OwnedFile, eta: _Eta,
                       guess: float, emit: EventSink) -> None:
        size = plan.settings.size
        eta.begin(guess)
        started = time.monotonic()
        emit(Progress(Phase.PREPARING, "Preparing the test file", eta_s=eta.remaining()))

        def on_status(obj: dict[str, Any], rate: float | None) -> None:
            done = parse.io_bytes(obj)
            emit(Progress(Phase.PREPARING, "Preparing the test file",
                          percent=min(100.0, 100.0 * done / size), mb_s=rate,
                          eta_s=eta.remaining(), session_percent=eta.percent()))

        final = await self._run_fio(prepare_args(fio.path, plan.settings, str(testfile.path)),
                                    on_status, "preparing the test file")
        if parse.io_bytes(final) < size:
            raise FioFailed(f"fio wrote only {parse.io_bytes(final)} of {size} bytes of the test file.")
        eta.replace_estimate(guess, time.monotonic() - started)
        eta.step = time.monotonic() - started
        eta.end()

    async def _interval(self, plan: Plan, test: PlannedTest, eta: _Eta, emit: EventSink) -> None:
        eta.begin(plan.interval)
        total = plan.interval
        end = time.monotonic() + total
        while (left := end - time.monotonic()) > 0:
            emit(Progress(Phase.INTERVAL, f"Interval Time {total - left:.0f}/{total:.0f} sec",
                          test_index=test.index, test_key=test.key,
                          percent=100.0 * (1 - left / total), eta_s=eta.remaining(),
                          session_percent=eta.percent()))
            await self._sleep(min(1.0, left))
        eta.end()

    async def _sleep(self, seconds: float) -> None:
        assert self._wake is not None
        try:
            await asyncio.wait_for(self._wake.wait(), seconds)
        except TimeoutError:
            pass
        if self._stopping:
            raise Stopped

    async def _run_test(self, fio: Fio, plan: Plan, test: PlannedTest, testfile: OwnedFile,
                        eta: _Eta, emit: EventSink) -> TestResult:
        args = run_args(fio.path, plan, test, str(testfile.path))
        result = TestResult(index=test.row, spec=test.spec, op=test.op, mix_read=test.mix_read,
                            fio_command=args, unstable_pct=plan.settings.unstable_pct)
        emit(TestStarted(test.index, result))
        count = plan.settings.count
        for n in range(count + 1):  # pass 0 is CDM's discarded warm-up
            run = await self._run_pass(plan, test, args, n, count, eta, emit)
            if n == 0:
                result.warmup = run
            else:
                result.runs.append(run)
            emit(RunFinished(test.index, result, warmup=n == 0))
        if test.op is not Op.READ:
            result.sync_seconds = await self._sync(testfile, test, result, eta, emit)
        return result

    async def _run_pass(self, plan: Plan, test: PlannedTest, args: list[str], n: int,
                        count: int, eta: _Eta, emit: EventSink):
        phase = Phase.WARMUP if n == 0 else Phase.MEASURING
        expected = plan.pass_seconds(test)
        eta.begin(expected)
        started = time.monotonic()
        rate = parse.LiveRate()

        def progress(mb_s: float | None) -> Progress:
            return Progress(phase, test.title, test_index=test.index, test_key=test.key,
                            run=n, runs=count,
                            percent=min(100.0, 100.0 * (time.monotonic() - started) / expected),
                            mb_s=mb_s, eta_s=eta.remaining(), session_percent=eta.percent())

        emit(progress(None))

        def on_status(obj: dict[str, Any], live: float | None) -> None:
            emit(progress(live))

        final = await self._run_fio(args, on_status, f"{test.spec.label} {test.op.value}", rate)
        eta.end()
        return parse.run_result(final, test.op, rate.samples)

    async def _sync(self, testfile: OwnedFile, test: PlannedTest, result: TestResult,
                    eta: _Eta, emit: EventSink) -> float:
        """How long the kernel needs to get what a write test left in the cache onto the disk
        (seed 002 timed `sync` after each write); the peak Dirty/Writeback goes on ``result``."""
        started = time.monotonic()

        def flush() -> None:
            fd = os.open(testfile.path, os.O_RDONLY | os.O_CLOEXEC)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)

        task = asyncio.ensure_future(asyncio.to_thread(flush))
        while not task.done():
            mem = fileinfo.meminfo()
            for name, attr in (("Dirty", "sync_dirty_bytes"), ("Writeback", "sync_writeback_bytes")):
                if name in mem:
                    setattr(result, attr, max(getattr(result, attr) or 0, mem[name]))
            emit(Progress(Phase.SYNC, "Flushing to disk", test_index=test.index,
                          test_key=test.key, eta_s=eta.remaining(), session_percent=eta.percent(),
                          dirty_bytes=mem.get("Dirty"), writeback_bytes=mem.get("Writeback")))
            await asyncio.wait([task], timeout=0.25)
        try:
            task.result()
        except OSError as e:
            raise FioFailed(f"Flushing the test file to disk failed: {e.strerror}.") from None
        return time.monotonic() - started

    # --- fio process --------------------------------------------------------------------

    async def _run_fio(self, args: list[str], on_status: Callable[[dict[str, Any], float | None], None],
                       what: str, rate: parse.LiveRate | None = None) -> dict[str, Any]:
        """Run one fio process to its end and return its final JSON object."""
        if self._stopping:
            raise Stopped
        rate = rate or parse.LiveRate()
        proc = await asyncio.create_subprocess_exec(
            *args, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, start_new_session=True)
        self._proc = proc
        assert proc.stdout is not None and proc.stderr is not None
        stderr_task = asyncio.ensure_future(proc.stderr.read())
        stream = parse.JsonStream()
        last: dict[str, Any] | None = None
        try:
            while chunk := await proc.stdout.read(65536):
                for obj in stream.feed(chunk.decode("utf-8", errors="replace")):
                    last = obj
                    if obj.get("jobs"):
                        on_status(obj, rate.update(obj))
            rc = await proc.wait()
            err = (await stderr_task).decode("utf-8", errors="replace")
        finally:
            if not stderr_task.done():
                stderr_task.cancel()
            await self._kill()
        if self._stopping:
            raise Stopped
        if rc != 0 or last is None or parse.job_error(last):
            raise FioFailed(_fio_failure(what, rc, err, stream.noise, last))
        return last

    async def _kill(self) -> None:
        """Stop fio's whole process group: SIGINT, then SIGKILL after a grace period."""
        proc = self._proc
        if proc is None:
            return
        if proc.returncode is None:
            self._signal(signal.SIGINT)
            try:
                await asyncio.wait_for(proc.wait(), KILL_GRACE_S)
            except TimeoutError:
                self._signal(signal.SIGKILL)
                await proc.wait()
        try:  # numjobs > 1 forks workers into the same group: make sure none outlive fio
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self._proc = None


def _faster_than_link(result: TestResult, facts) -> str | None:
    """A figure above what the device's link can carry came from a cache, not the disk."""
    ceiling = facts.interface_mb_s
    if not ceiling or result.best_mb_s <= ceiling * 1.05:
        return None
    return (f"{result.label} {result.op.value}: {result.best_mb_s:.0f} MB/s is faster than the "
            f"{facts.interface} link can carry ({ceiling:.0f} MB/s): a cache answered, not the disk.")


def _layout(testfile: OwnedFile, facts) -> FileLayout | None:
    exts = fileinfo.extents(testfile.path)
    if not exts:
        return None
    start = exts[0].physical
    fraction = start / facts.total_bytes if facts.total_bytes else None
    return FileLayout(len(exts), fileinfo.fragments(exts), start,
                      min(fraction, 1.0) if fraction is not None else None)


def _fio_failure(what: str, rc: int, stderr: str, noise: list[str], last: dict[str, Any] | None) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() + noise if ln.strip()]
    text = "\n".join(lines[-6:])
    errno_ = parse.job_error(last) if last else 0
    if errno_ == 28 or "No space left" in text:
        head = f"The target ran out of space while {what}."
    elif rc < 0:
        head = f"fio was killed by signal {-rc} while {what}."
    else:
        head = f"fio failed while {what} (exit status {rc}{f', error {errno_}' if errno_ else ''})."
    return f"{head}\n{text}" if text else head
