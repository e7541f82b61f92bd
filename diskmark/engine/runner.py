"""Running a plan: the workspace and its test file, one fio process per test, progress
events, clean stops.

The engine is UI-agnostic: it reports through a plain callback of model events and returns a
:class:`SessionResult`. Errors found before anything starts raise (nothing was started);
anything that goes wrong once fio runs ends the session with status ``failed`` or
``cancelled`` and the tests finished so far. Whatever happens, fio is stopped and the
workspace removed before ``run`` returns or raises; what could not be removed is said in a
notice and in the result's warnings, never by an exception that loses the result.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

from diskmark import __version__
from diskmark.engine import fileinfo, ioengine, parse
from diskmark.engine.clock import Eta, MachineLoad, now_iso, usable_cpus
from diskmark.engine.control import RunControl, Stopped
from diskmark.engine.drive_watch import DriveWatch
from diskmark.engine.errors import (
    PREPARING,
    DiskmarkError,
    FioFailed,
    TargetError,
    doing,
    reading_output,
)
from diskmark.engine.fio import Fio, locate
from diskmark.engine.fio_run import run_fio
from diskmark.engine.parse import pass_bounds
from diskmark.engine.place import Place, Throttle, check_place
from diskmark.engine.plan import (
    PROCESS_OVERHEAD_S,
    STATUS_MS,
    Plan,
    PlannedTest,
    build_plan,
    continuous_args,
    not_measured,
    prepare_args,
    run_args,
)
from diskmark.engine.sentence import Sentence
from diskmark.engine.sustained_run import run_sustained
from diskmark.engine.target import TargetCheck, open_target
from diskmark.locale import N_, _
from diskmark.model.events import Event, Notice, Phase, Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import RunResult, SessionResult, Status, TestResult
from diskmark.model.settings import Op, Settings
from diskmark.model.units import MIB
from diskmark.presets import PresetCatalog, load_catalog

PREP_RATE_GUESS = 400e6  # bytes/s, for the ETA until the real preparation rate is known
#: Before a test is measured, the kernel's Dirty + Writeback (system-wide) should be back
#: within this of where it was when the session started (bytes) …
SETTLE_BYTES = 16 * MIB
#: … but a busy machine may never get there: wait at most this long, or the measure time
#: if that is longer (seconds). With O_DIRECT there is nothing to wait for; a buffered run
#: without the fsync diskmark does would leave the kernel ~30 s of writing.
SETTLE_CAP_S = 10.0

EventSink = Callable[[Event], None]


class Engine:
    """Runs diskmark sessions with fio. One session at a time per engine."""

    def __init__(self, fio: Fio | None = None, catalog: PresetCatalog | None = None):
        self._fio = fio
        self.catalog = catalog
        self._control: RunControl | None = None  # the running session's
        self._pending_at_start = 0  # Dirty + Writeback when the session began

    @property
    def fio(self) -> Fio:
        if self._fio is None:
            self._fio = locate()
        return self._fio

    @property
    def running(self) -> bool:
        return self._control is not None

    @property
    def _ctl(self) -> RunControl:
        assert self._control is not None, "only while a session runs"
        return self._control

    def stop(self) -> None:
        """Ask a running session to stop: fio gets SIGINT (SIGKILL if it has not gone within
        a second and a half, or at once on a second request), and the session returns
        ``cancelled`` with the tests finished so far. Call it on the engine's event loop."""
        if self._control is not None:
            self._control.stop()

    def plan(self, settings: Settings) -> Plan:
        """The tests ``settings`` would run. Presets come from the catalogue the engine was
        given (the app passes the one its selectors show), else from one loaded on first
        use and kept: the plan and the choices on screen never come from two readings."""
        if self.catalog is None:
            self.catalog = load_catalog()
        try:
            preset = self.catalog.get(settings.preset)
            return build_plan(preset, settings)
        except (KeyError, ValueError) as e:
            raise TargetError(str(e).strip("'\"")) from None

    async def run(self, settings: Settings, on_event: EventSink | None = None,
                  destroy: str | None = None) -> SessionResult:
        emit = on_event or (lambda event: None)
        self._control = RunControl()
        try:
            return await self._run(settings, emit, destroy)
        finally:
            self._control = None

    async def _run(self, settings: Settings, emit: EventSink, destroy: str | None) -> SessionResult:
        if self._fio is None:  # `fio --version` is a subprocess: not on the event loop
            self._fio = await asyncio.to_thread(locate)
        fio = self._fio
        plan = await asyncio.to_thread(self.plan, settings)  # a first plan reads the presets
        check = await asyncio.to_thread(open_target, settings.target, settings.size,
                                        settings.direct, settings.nocow, plan, destroy)
        plan = check.plan or plan  # a device without consent runs its read tests only
        workspace = check.workspace
        session: SessionResult | None = None
        try:
            for note in check.notes:
                emit(Notice(note.said(), "information"))
            facts = await asyncio.to_thread(check.facts)
            facts.cpus = usable_cpus()
            facts.as_root = os.geteuid() == 0
            engine, why_not = await asyncio.to_thread(ioengine.choose, fio.path)
            if why_not:
                check.notes.append(Sentence(N_("fio uses libaio: {why}."), why=why_not))
                emit(Notice(check.notes[-1].said(), "information"))
            session = SessionResult(
                settings=plan.settings, system=facts, preset_name=plan.preset.name,
                profile_name=plan.profile.name, measure=plan.measure, interval=plan.interval,
                fio_version=fio.version, diskmark_version=__version__, started=now_iso(),
                warnings=[note.english() for note in check.notes], ioengine=engine)
            async with DriveWatch(session, check.path, self._ctl.wake) as drive:  # temperature, health
                await self._measure(fio, plan, session, check, drive.observe(emit))
        finally:
            self._ctl.kill_all()
            emit(Progress(Phase.CLEANUP, _("Closing the device") if check.device
                          else _("Removing the test file"), eta_s=0.0, session_percent=100.0))
            for problem in workspace.remove():
                # TRANSLATORS: {problem} is what stays and why ("/mnt/x/.diskmark-…: Permission denied")
                note = Sentence(N_("Could not remove {problem}. diskmark leaves nothing else "
                                   "behind; remove it yourself once the target is writable "
                                   "again."), problem=problem)
                emit(Notice(note.said(), "error"))
                if session is not None:
                    session.warnings.append(note.english())
        session.finished = now_iso()
        return session

    async def _measure(self, fio: Fio, plan: Plan, session: SessionResult, check: TargetCheck,
                       emit: EventSink) -> None:
        """Prepare the file and run every test; a stop or an error ends the session early
        with what was finished."""
        mem = fileinfo.meminfo()
        self._pending_at_start = mem.get("Dirty", 0) + mem.get("Writeback", 0)
        prep_guess = 0.0 if check.device or plan.sustained else plan.settings.size / PREP_RATE_GUESS
        eta = Eta(prep_guess + plan.total_seconds())
        ws = check.workspace
        try:
            if self._ctl.stopping:  # asked before the file was made (while smartctl answered)
                raise Stopped
            await asyncio.to_thread(ws.create_test_file, plan.settings.size)
            if not check.device:  # a device is read as it is: nothing is laid out
                await self._prepare(fio, plan, session, ws, eta, prep_guess, emit)
            session.test_file = await asyncio.to_thread(fileinfo.layout_of, ws.open_test_file,
                                                      session.system.total_bytes)
            if session.test_file and session.test_file.fragmented:
                note = Sentence(N_("The test file is fragmented ({count} pieces): sequential "
                                   "figures may be lower than the device can do."),
                                count=session.test_file.fragments)
                session.warnings.append(note.english())
                emit(Notice(note.said(), "information"))
            await self._settle(plan, eta, emit)
            for test in plan.tests:
                if test.index and plan.interval:
                    await self._interval(plan, test, eta, emit)
                check_place(ws)
                result = await self._run_test(fio, plan, session, test, ws, eta, emit)
                session.tests.append(result)
                emit(TestFinished(test.index, result))
                ceiling = fileinfo.faster_than_link(result, session.system)
                if ceiling:
                    session.warnings.append(ceiling.english())
                    emit(Notice(ceiling.said()))
            if plan.sustained:  # its file was sparse before the write: where the write put it
                session.test_file = await asyncio.to_thread(
                    fileinfo.layout_of, ws.open_test_file, session.system.total_bytes)
        except Stopped:
            session.status = Status.CANCELLED
        except DiskmarkError as e:
            session.status = Status.FAILED
            session.error = str(e)
        except OSError as e:  # the workspace or the test file failed under us
            session.status = Status.FAILED
            session.error = _("The test file could not be used: {error}.").format(
                error=e.strerror or e)
        if session.status is not Status.COMPLETE:
            session.tests.extend(not_measured(plan, session.tests))

    # --- steps ------------------------------------------------------------------------

    async def _prepare(self, fio: Fio, plan: Plan, session: SessionResult, ws: Place,
                       eta: Eta, guess: float, emit: EventSink) -> None:
        if plan.sustained:  # it must meet the drive's cache empty: nothing is written first
            return
        size = plan.settings.size
        eta.begin(guess)
        started = time.monotonic()
        emit(Progress(Phase.PREPARING, _("Preparing the test file"), eta_s=eta.remaining()))
        rate = parse.LiveRate()

        throttle = Throttle()  # the target is checked now and then while fio runs

        def on_status(obj: dict[str, Any]) -> None:
            check_place(ws, throttle)
            done = parse.io_bytes(parse.job(obj))
            emit(Progress(Phase.PREPARING, _("Preparing the test file"),
                          percent=min(100.0, 100.0 * done / size),
                          mb_s=rate.update(parse.job(obj)), eta_s=eta.remaining(),
                          session_percent=eta.percent()))

        try:
            final = await run_fio(self._ctl, ws, prepare_args(fio.path, plan.settings, session.ioengine),
                                        on_status, _(PREPARING))
        except FioFailed as e:
            if session.ioengine != ioengine.IO_URING or e.no_space:
                raise
            # the kernel offered io_uring but this filesystem or fio refused it in use
            # TRANSLATORS: {failure} is the first line of fio's failure
            note = N_("io_uring failed here, so fio uses libaio ({failure})")
            session.ioengine = ioengine.LIBAIO
            session.warnings.append(note.format(failure=str(e).splitlines()[0]))
            emit(Notice(_(note).format(failure=str(e).splitlines()[0]), "information"))
            final = await run_fio(self._ctl, ws, prepare_args(fio.path, plan.settings, session.ioengine),
                                        on_status, _(PREPARING))
        written = parse.io_bytes(parse.job(final))
        if written < size:
            raise FioFailed(_("fio wrote only {written} of {size} bytes of the test file.").format(
                written=written, size=size))
        check_place(ws)
        eta.replace_estimate(guess, time.monotonic() - started)
        eta.step = time.monotonic() - started
        eta.end()

    async def _interval(self, plan: Plan, test: PlannedTest, eta: Eta, emit: EventSink) -> None:
        eta.begin(plan.interval)
        total = plan.interval
        end = time.monotonic() + total
        while (left := end - time.monotonic()) > 0:
            # TRANSLATORS: CrystalDiskMark's rest between tests: seconds rested of seconds
            emit(Progress(Phase.INTERVAL, _("Interval Time {done}/{total} sec").format(
                              done=f"{total - left:.0f}", total=f"{total:.0f}"),
                          test_index=test.index, test_key=test.key,
                          percent=100.0 * (1 - left / total), eta_s=eta.remaining(),
                          session_percent=eta.percent()))
            await self._ctl.sleep(min(1.0, left))
        eta.end()

    async def _settle(self, plan: Plan, eta: Eta, emit: EventSink,
                      test: PlannedTest | None = None) -> float:
        """Wait until what the kernel still has to write (Dirty + Writeback, system-wide)
        is back near where it was when the session began, so no test is measured while
        the previous one is still being written out. Other programs' writes count too,
        hence the start level and not zero, and a cap. Returns the seconds waited."""
        started = time.monotonic()
        cap = max(SETTLE_CAP_S, plan.measure)
        while True:
            mem = fileinfo.meminfo()
            pending = mem.get("Dirty", 0) + mem.get("Writeback", 0)
            waited = time.monotonic() - started
            if pending <= self._pending_at_start + SETTLE_BYTES or waited >= cap:
                return waited
            emit(Progress(Phase.SETTLE, _("Letting the kernel write back {mib} MiB ({seconds} s "
                                          "at most)").format(mib=f"{pending / MIB:.0f}",
                                                             seconds=f"{cap - waited:.0f}"),
                          test_index=test.index if test else None,
                          test_key=test.key if test else None,
                          percent=100.0 * waited / cap, eta_s=eta.remaining(),
                          session_percent=eta.percent(), dirty_bytes=mem.get("Dirty"),
                          writeback_bytes=mem.get("Writeback")))
            await self._ctl.sleep(0.1)

    async def _run_test(self, fio: Fio, plan: Plan, session: SessionResult, test: PlannedTest,
                        ws: Place, eta: Eta, emit: EventSink) -> TestResult:
        result = TestResult(index=test.row, spec=test.spec, op=test.op, mix_read=test.mix_read,
                            fio_command=run_args(fio.path, plan, test, session.ioengine),
                            unstable_pct=plan.settings.unstable_pct)
        emit(TestStarted(test.index, result))
        if plan.sustained:
            await run_sustained(self._ctl, fio.path, plan, session.ioengine, test, result, ws, eta, emit)
        elif plan.process_per_pass(test):
            for n in range(plan.settings.count + 1):
                self._record(test, result, n, await self._run_pass(fio, plan, session, test, n,
                                                                   ws, eta, emit), emit)
        else:
            await self._run_windows(fio, plan, session, test, result, ws, eta, emit)
        best = result.best_run
        if best is not None:
            result.cpu_limited = cpu_limit_text(best.cpu_limit(test.spec.threads,
                                                               session.system.cpus))
        if test.op is not Op.READ:
            result.sync_seconds = await self._sync(ws, test, result, eta, emit)
            await self._settle(plan, eta, emit, test)
        return result

    @staticmethod
    def _record(test: PlannedTest, result: TestResult, n: int, run: RunResult,
                emit: EventSink) -> None:
        """Pass ``n`` (0: the discarded warm-up) is finished: keep it and say so."""
        if n == 0:
            result.warmup = run
        else:
            result.runs.append(run)
        emit(RunFinished(test.index, result, warmup=n == 0))

    def _progress(self, plan: Plan, test: PlannedTest, n: int, into_s: float,
                  mb_s: float | None, eta: Eta) -> Progress:
        per_pass = plan.pass_seconds(test)
        return Progress(Phase.WARMUP if n == 0 else Phase.MEASURING, test.title,
                        test_index=test.index, test_key=test.key, run=n,
                        runs=plan.settings.count,
                        percent=min(100.0, 100.0 * into_s / per_pass) if per_pass else 0.0,
                        mb_s=mb_s, eta_s=eta.remaining(), session_percent=eta.percent())

    async def _run_windows(self, fio: Fio, plan: Plan, session: SessionResult,
                           test: PlannedTest, result: TestResult, ws: Place, eta: Eta,
                           emit: EventSink) -> None:
        """The warm-up and the passes as one continuous fio job. Pass *k* ends at the status
        object nearest k × measure on the job's own clock, and its figures are the
        difference of the objects around it. While it runs a pass is announced as soon as
        an object crosses its end; the figures kept are worked out from every object once
        fio has finished."""
        count, measure_ms = plan.settings.count, plan.measure * 1000
        threads = test.spec.threads
        eta.begin((count + 1) * plan.pass_seconds(test) + PROCESS_OVERHEAD_S)
        seconds = parse.SecondRate()
        snaps: list[parse.Snapshot] = []
        live: list[parse.Snapshot] = [parse.ZERO]  # where each pass began, as seen so far
        state: dict[str, Any] = {"t0": time.monotonic(), "cpu0": MachineLoad.now()}

        def last_t() -> float:
            return snaps[-1].t_ms if snaps else 0.0

        throttle = Throttle()  # the target is checked now and then while fio runs

        def on_status(obj: dict[str, Any]) -> None:
            check_place(ws, throttle)
            snap = parse.snapshot(parse.job(obj), test.op, threads)
            wall_ms = (time.monotonic() - state["t0"]) * 1000
            if not sum(snap.ios) or not last_t() <= snap.t_ms <= wall_ms + 250:
                # around the first I/O fio's job_runtime can be meaningless (time since it
                # started, or garbage); the job's clock never runs ahead of the wall clock
                # and never goes back
                emit(self._progress(plan, test, len(live) - 1, 0.0, None, eta))
                return
            snaps.append(snap)
            rate = seconds.update(snap)
            n = len(live) - 1
            if n < count and snap.t_ms >= (n + 1) * measure_ms - STATUS_MS / 2:
                live.append(snap)
                self._record(test, result, n, self._window(test, live[n], snap, seconds,
                                                           None), emit)
                n += 1
            emit(self._progress(plan, test, n, (snap.t_ms - live[n].t_ms) / 1000, rate, eta))

        emit(self._progress(plan, test, 0, 0.0, None, eta))
        what = doing(test.spec.label, test.op)
        final = await run_fio(self._ctl, ws, continuous_args(fio.path, plan, test, session.ioengine),
                                    on_status, what)
        with reading_output(what):
            end = parse.snapshot(parse.job(final), test.op, threads)
            if not snaps or snaps[-1] != end:
                snaps.append(end)
            # How busy the machine was: over the whole job, for every pass. Status objects can
            # arrive in a burst at the end when fio's threads outnumber the cores (the reader
            # waits for a core too), so the counters read on their arrival fit no pass.
            job_load = (state["cpu0"], MachineLoad.now())
            bounds = pass_bounds([s.t_ms for s in snaps], count, measure_ms)
            if bounds is None:
                raise parse.FioOutputError(
                    _("fio's status reports stalled while its writes waited on the disk (a "
                      "buffered write fills the page cache, then waits for the disk to take "
                      "it), so the passes could not be told apart; longer passes or direct "
                      "I/O avoid it")
                    if test.op is not Op.READ and not plan.settings.direct else
                    _("fio's status reports stalled, so the passes could not be told apart "
                      "(the machine may be overloaded)"))
            starts = [-1, *bounds]
            runs = []
            for k in range(count + 1):
                a = snaps[starts[k]] if starts[k] >= 0 else parse.ZERO
                b = snaps[bounds[k] if k < count else len(snaps) - 1]
                runs.append(self._window(test, a, b, seconds, job_load))
        for n in range(len(live) - 1, count + 1):  # passes not announced while running
            self._record(test, result, n, runs[n], emit)
        result.warmup, result.runs = runs[0], runs[1:]
        eta.end()

    @staticmethod
    def _window(test: PlannedTest, a: parse.Snapshot, b: parse.Snapshot,
                seconds: parse.SecondRate,
                cpu: tuple[tuple[float, float], tuple[float, float]] | None) -> RunResult:
        run = parse.window(a, b, test.op, seconds.between(a.t_ms, b.t_ms))
        if cpu is not None:
            load = MachineLoad()
            load.add(*cpu)
            run.machine_busy_pct = load.pct
        return run

    async def _run_pass(self, fio: Fio, plan: Plan, session: SessionResult, test: PlannedTest,
                        n: int, ws: Place, eta: Eta, emit: EventSink) -> RunResult:
        """Pass ``n`` of a test with delays, as a fio process of its own."""
        eta.begin(plan.pass_seconds(test) + PROCESS_OVERHEAD_S)
        rate = parse.LiveRate(threads=test.spec.threads)
        load = MachineLoad()
        state: dict[str, Any] = {"cpu": MachineLoad.now(), "since": time.monotonic()}
        emit(self._progress(plan, test, n, 0.0, None, eta))

        throttle = Throttle()  # the target is checked now and then while fio runs

        def on_status(obj: dict[str, Any]) -> None:
            check_place(ws, throttle)
            cpu = MachineLoad.now()
            load.add(state["cpu"], cpu)
            state["cpu"] = cpu
            emit(self._progress(plan, test, n, time.monotonic() - state["since"],
                                rate.update(parse.job(obj)), eta))

        what = doing(test.spec.label, test.op)
        final = await run_fio(self._ctl, ws, run_args(fio.path, plan, test, session.ioengine),
                                    on_status, what)
        with reading_output(what):
            run = parse.run_result(parse.job(final), test.op, rate.samples)
        run.machine_busy_pct = load.pct
        eta.end()
        return run

    async def _sync(self, ws: Place, test: PlannedTest, result: TestResult,
                    eta: Eta, emit: EventSink) -> float:
        """How long the kernel needs to get what a write test left in the cache onto the disk
        (black_cat timed `sync` after each write, "Linux でディスクのアクセス速度を測定する
        その4"); the peak Dirty/Writeback goes on ``result``. An fsync cannot be interrupted:
        a stop meanwhile says so and ends the session as soon as it returns."""
        started = time.monotonic()
        fd = ws.open_test_file()
        task = asyncio.ensure_future(asyncio.to_thread(os.fsync, fd))
        try:
            while not task.done():
                mem = fileinfo.meminfo()
                for name, attr in (("Dirty", "sync_dirty_bytes"), ("Writeback", "sync_writeback_bytes")):
                    if name in mem:
                        setattr(result, attr, max(getattr(result, attr) or 0, mem[name]))
                message = (_("Stopping once the kernel has written the cached data (a flush "
                             "cannot be interrupted)") if self._ctl.stopping
                           else _("Flushing to disk"))
                emit(Progress(Phase.SYNC, message, test_index=test.index,
                              test_key=test.key, eta_s=eta.remaining(),
                              session_percent=eta.percent(),
                              dirty_bytes=mem.get("Dirty"), writeback_bytes=mem.get("Writeback")))
                await asyncio.wait([task], timeout=0.25)
            try:
                task.result()
            except OSError as e:
                raise FioFailed(_("Flushing the test file to disk failed: {error}.").format(
                    error=e.strerror)) from None
        finally:
            if task.done():
                os.close(fd)
            else:  # cancelled: close once the flush returns
                task.add_done_callback(lambda _task: os.close(fd))
        if self._ctl.stopping:
            raise Stopped
        return time.monotonic() - started
