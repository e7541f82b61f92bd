"""One session's tests run on its opened target: the test file laid out, the kernel's
write-back waited for, a rest between tests, each test's passes (one continuous fio job cut
into windows, or a fio process per pass), and the flush after a write.

Every step shares the same seven things: the run's control (its stop), fio, the plan, the
result being filled, where fio works, the session's ETA and where events go. One
:class:`SessionRun` holds them for the session, so a step takes only what is its own (the
test, the pass). The engine (:mod:`diskmark.engine.runner`) opens the target before and
removes what was made after, whatever happens here.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from diskmark.engine import fileinfo, ioengine, parse
from diskmark.engine.clock import Eta, MachineLoad, now_iso
from diskmark.engine.control import RunControl, Stopped
from diskmark.engine.errors import PREPARING, DiskmarkError, FioFailed, doing, reading_output
from diskmark.engine.fio import Fio
from diskmark.engine.fio_run import run_fio
from diskmark.engine.parse import pass_bounds
from diskmark.engine.place import Place, Throttle, check_place
from diskmark.engine.plan import (
    PROCESS_OVERHEAD_S,
    STATUS_MS,
    Plan,
    PlannedTest,
    continuous_args,
    job_args,
    not_measured,
    prepare_args,
    run_args,
)
from diskmark.engine.sentence import Sentence
from diskmark.engine.sustained_run import run_sustained
from diskmark.locale import N_, _
from diskmark.model.events import Event, Notice, Phase, Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import FioJob, JobResult, RunResult, SessionResult, Status, TestResult
from diskmark.model.settings import Op
from diskmark.model.stack import marks_for
from diskmark.model.units import MIB

PREP_RATE_GUESS = 400e6  # bytes/s, for the ETA until the real preparation rate is known
#: Before a test is measured, the kernel's Dirty + Writeback (system-wide) should be back
#: within this of where it was when the session started (bytes) …
SETTLE_BYTES = 16 * MIB
#: … but a busy machine may never get there: wait at most this long, or the measure time
#: if that is longer (seconds). With O_DIRECT there is nothing to wait for; a buffered run
#: without the fsync diskmark does would leave the kernel ~30 s of writing.
SETTLE_CAP_S = 10.0

EventSink = Callable[[Event], None]
#: How busy the machine was over a stretch: /proc/stat's (busy, total) at its start and end.
CpuSpan = tuple[tuple[float, float], tuple[float, float]]


@dataclass
class SessionRun:
    """What every step of one session's run shares."""

    control: RunControl
    fio: Fio
    plan: Plan
    session: SessionResult  # filled as the tests finish
    place: Place
    eta: Eta
    emit: EventSink
    #: the target is a block device, read as it is: nothing is laid out on it
    device: bool
    #: the kernel's Dirty + Writeback (system-wide) when the session began, in bytes
    pending_at_start: int
    #: what the ETA assumed for laying the test file out, until it is known (seconds)
    prep_guess: float

    @classmethod
    def begin(cls, control: RunControl, fio: Fio, plan: Plan, session: SessionResult,
              place: Place, device: bool, emit: EventSink, eta: Eta | None = None) -> SessionRun:
        """The session as it starts: the kernel's write-back now, and the ETA of the plan
        and of laying the test file out (or ``eta``, one several sessions share)."""
        mem = fileinfo.meminfo()
        prep_guess = 0.0 if device or plan.sustained else plan.settings.size / PREP_RATE_GUESS
        return cls(control, fio, plan, session, place,
                   eta or Eta(prep_guess + plan.total_seconds()), emit, device,
                   mem.get("Dirty", 0) + mem.get("Writeback", 0), prep_guess)

    async def run(self) -> None:
        """Prepare the file and run every test; a stop or an error ends the session early
        with what was finished."""
        if await self.attempt(self.lay_out()):
            for test in self.plan.tests:
                if not await self.attempt(self.measure(test, rest=bool(test.index))):
                    break
            else:
                if await self.attempt(self.run_jobs()):
                    await self.attempt(self.finish())
        self.close()

    # --- the steps, which several sessions take in turn --------------------------------

    @property
    def going(self) -> bool:
        """Neither stopped nor failed so far."""
        return self.session.status is Status.COMPLETE

    async def attempt(self, step: Coroutine[Any, Any, None]) -> bool:
        """Take ``step``: a stop or an error ends the session (its status and error say
        which) and returns False."""
        session = self.session
        try:
            await step
            return True
        except Stopped:
            session.status = Status.CANCELLED
        except DiskmarkError as e:
            session.status = Status.FAILED
            session.error = str(e)
        except OSError as e:  # the workspace or the test file failed under us
            session.status = Status.FAILED
            session.error = _("The test file could not be used: {error}.").format(
                error=e.strerror or e)
        return False

    async def lay_out(self) -> None:
        """The test file made and written full (a device is read as it is), its layout
        read, and the kernel's write-back waited for."""
        plan, session, place = self.plan, self.session, self.place
        if self.control.stopping:  # asked before the file was made (while smartctl answered)
            raise Stopped
        await asyncio.to_thread(place.create_test_file, plan.settings.size)
        if not self.device:  # a device is read as it is: nothing is laid out
            await self._prepare()
        session.test_file = await asyncio.to_thread(fileinfo.layout_of, place.open_test_file,
                                                    session.system.total_bytes)
        if session.test_file and session.test_file.fragmented:
            self._note(Sentence(N_("The test file is fragmented ({count} pieces): sequential "
                                   "figures may be lower than the device can do."),
                                count=session.test_file.fragments))
        await self._settle()

    async def measure(self, test: PlannedTest, rest: bool) -> None:
        """``test``, after CrystalDiskMark's rest when ``rest`` (every test but the first)."""
        session, place = self.session, self.place
        if rest and self.plan.interval:
            await self._interval(test)
        check_place(place)
        result = await self._run_test(test)
        session.tests.append(result)
        self.emit(TestFinished(test.index, result))
        ceiling = fileinfo.faster_than_link(result, session.system)
        if ceiling:
            session.warnings.append(ceiling.english())
            self.emit(Notice(ceiling.said()))

    async def run_jobs(self) -> None:
        """A check run's own fio jobs (etcd's fdatasync test), after its tests, each after
        CrystalDiskMark's rest."""
        plan, session = self.plan, self.session
        for n, job in enumerate(plan.jobs):
            if (plan.tests or n) and plan.interval:
                await self._interval(None)
            check_place(self.place)
            session.jobs.append(await self._run_job(job))

    async def finish(self) -> None:
        """After the last test: a sustained write's file was sparse before the write, so
        where the write put it is read now."""
        if self.plan.sustained:
            self.session.test_file = await asyncio.to_thread(
                fileinfo.layout_of, self.place.open_test_file, self.session.system.total_bytes)

    def close(self) -> None:
        """The session has ended: one stopped part-way says so, and every test it did not
        finish is named without figures."""
        session = self.session
        if session.status is Status.COMPLETE and len(session.tests) < len(self.plan.tests):
            session.status = Status.CANCELLED  # a stop came while another session ran
        if session.status is not Status.COMPLETE:
            session.tests.extend(not_measured(self.plan, session.tests))

    def _note(self, note: Sentence) -> None:
        """Tell the user ``note`` now and keep it (in English) in the result."""
        self.session.warnings.append(note.english())
        self.emit(Notice(note.said(), "information"))

    # --- steps ------------------------------------------------------------------------

    async def _prepare(self) -> None:
        """Lay the test file out with fio, falling back to libaio once if io_uring fails in
        use; the ETA learns the real preparation time."""
        plan, session, place, eta = self.plan, self.session, self.place, self.eta
        if plan.sustained:  # it must meet the drive's cache empty: nothing is written first
            return
        size = plan.settings.size
        eta.begin(self.prep_guess)
        started = time.monotonic()
        preparing = _("Preparing the test file")
        self.emit(Progress(Phase.PREPARING, preparing, eta_s=eta.remaining()))
        rate = parse.LiveRate()
        throttle = Throttle()  # the target is checked now and then while fio runs

        def on_status(obj: dict[str, Any]) -> None:
            check_place(place, throttle)
            done = parse.io_bytes(parse.job(obj))
            self.emit(Progress(Phase.PREPARING, preparing, percent=min(100.0, 100.0 * done / size),
                               mb_s=rate.update(parse.job(obj)), eta_s=eta.remaining(),
                               session_percent=eta.percent()))

        async def lay_out() -> dict[str, Any]:
            args = prepare_args(self.fio.path, plan.settings, session.ioengine)
            return await run_fio(self.control, place, args, on_status, _(PREPARING))

        try:
            final = await lay_out()
        except FioFailed as e:
            if session.ioengine != ioengine.IO_URING or e.no_space:
                raise
            # the kernel offered io_uring but this filesystem or fio refused it in use
            session.ioengine = ioengine.LIBAIO
            # TRANSLATORS: {failure} is the first line of fio's failure
            self._note(Sentence(N_("io_uring failed here, so fio uses libaio ({failure})"),
                                failure=str(e).splitlines()[0]))
            final = await lay_out()
        written = parse.io_bytes(parse.job(final))  # read as a status object already
        if written < size:
            raise FioFailed(_("fio wrote only {written} of {size} bytes of the test file.").format(
                written=written, size=size))
        check_place(place)
        eta.replace_estimate(self.prep_guess, time.monotonic() - started)
        eta.step = time.monotonic() - started
        eta.end()

    async def _interval(self, test: PlannedTest | None) -> None:
        """CrystalDiskMark's rest before ``test`` (None: before a check's own job)."""
        eta = self.eta
        total = self.plan.interval
        eta.begin(total)
        end = time.monotonic() + total
        while (left := end - time.monotonic()) > 0:
            # TRANSLATORS: CrystalDiskMark's rest between tests: seconds rested of seconds
            message = _("Interval Time {done}/{total} sec").format(done=f"{total - left:.0f}",
                                                                   total=f"{total:.0f}")
            self.emit(Progress(Phase.INTERVAL, message, test_index=test.index if test else None,
                               test_key=test.key if test else None,
                               percent=100.0 * (1 - left / total),
                               eta_s=eta.remaining(), session_percent=eta.percent()))
            await self.control.sleep(min(1.0, left))
        eta.end()

    async def _settle(self, test: PlannedTest | None = None) -> float:
        """Wait until what the kernel still has to write (Dirty + Writeback, system-wide)
        is back near where it was when the session began, so no test is measured while
        the previous one is still being written out. Other programs' writes count too,
        hence the start level and not zero, and a cap. Returns the seconds waited."""
        started = time.monotonic()
        cap = max(SETTLE_CAP_S, self.plan.measure)
        while True:
            mem = fileinfo.meminfo()
            pending = mem.get("Dirty", 0) + mem.get("Writeback", 0)
            waited = time.monotonic() - started
            if pending <= self.pending_at_start + SETTLE_BYTES or waited >= cap:
                return waited
            message = _("Letting the kernel write back {mib} MiB ({seconds} s at most)").format(
                mib=f"{pending / MIB:.0f}", seconds=f"{cap - waited:.0f}")
            self.emit(Progress(Phase.SETTLE, message, test_index=test.index if test else None,
                               test_key=test.key if test else None,
                               percent=100.0 * waited / cap, eta_s=self.eta.remaining(),
                               session_percent=self.eta.percent(), dirty_bytes=mem.get("Dirty"),
                               writeback_bytes=mem.get("Writeback")))
            await self.control.sleep(0.1)

    async def _run_test(self, test: PlannedTest) -> TestResult:
        plan, session = self.plan, self.session
        result = TestResult(index=test.row, spec=test.spec, op=test.op, mix_read=test.mix_read,
                            fio_command=run_args(self.fio.path, plan, test, session.ioengine),
                            unstable_pct=plan.settings.unstable_pct,
                            started=now_iso("milliseconds"))
        self.emit(TestStarted(test.index, result))
        if plan.sustained:
            await run_sustained(self.control, self.fio.path, plan, session.ioengine, test,
                                result, self.place, self.eta, self.emit)
        elif plan.process_per_pass(test):
            for n in range(plan.settings.count + 1):
                self._record(test, result, n, await self._run_pass(test, n))
        else:
            await self._run_windows(test, result)
        best = result.best_run
        if best is not None:
            result.cpu_limited = cpu_limit_text(best.cpu_limit(test.spec.threads,
                                                               session.system.cpus))
            result.marks = marks_for(test.op, result.best_mb_s, session.stack,
                                     plan.settings.data)
        if test.op is not Op.READ:
            result.sync_seconds = await self._sync(test, result)
        result.finished = now_iso("milliseconds")
        if test.op is not Op.READ:
            await self._settle(test)
        return result

    def _record(self, test: PlannedTest, result: TestResult, n: int, run: RunResult) -> None:
        """Pass ``n`` (0: the discarded warm-up) is finished: keep it and say so."""
        if n == 0:
            result.warmup = run
        else:
            result.runs.append(run)
        self.emit(RunFinished(test.index, result, warmup=n == 0))

    def _progress(self, test: PlannedTest, n: int, into_s: float, mb_s: float | None) -> Progress:
        """Pass ``n`` of ``test``, ``into_s`` seconds in."""
        per_pass = self.plan.pass_seconds(test)
        return Progress(Phase.WARMUP if n == 0 else Phase.MEASURING, test.title,
                        test_index=test.index, test_key=test.key, run=n,
                        runs=self.plan.settings.count,
                        percent=min(100.0, 100.0 * into_s / per_pass) if per_pass else 0.0,
                        mb_s=mb_s, eta_s=self.eta.remaining(), session_percent=self.eta.percent())

    async def _run_windows(self, test: PlannedTest, result: TestResult) -> None:
        """The warm-up and the passes as one continuous fio job. Pass *k* ends at the status
        object nearest k × measure on the job's own clock, and its figures are the
        difference of the objects around it. While it runs a pass is announced as soon as
        an object crosses its end; the figures kept are worked out from every object once
        fio has finished."""
        plan, place, emit = self.plan, self.place, self.emit
        count, measure_ms = plan.settings.count, plan.measure * 1000
        threads = test.spec.threads
        self.eta.begin((count + 1) * plan.pass_seconds(test) + PROCESS_OVERHEAD_S)
        seconds = parse.SecondRate()
        snaps: list[parse.Snapshot] = []
        live: list[parse.Snapshot] = [parse.ZERO]  # where each pass began, as seen so far
        t0, cpu0 = time.monotonic(), MachineLoad.now()
        throttle = Throttle()  # the target is checked now and then while fio runs

        def on_status(obj: dict[str, Any]) -> None:
            check_place(place, throttle)
            snap = parse.snapshot(parse.job(obj), test.op, threads)
            wall_ms = (time.monotonic() - t0) * 1000
            last_ms = snaps[-1].t_ms if snaps else 0.0
            if not sum(snap.ios) or not last_ms <= snap.t_ms <= wall_ms + 250:
                # around the first I/O fio's job_runtime can be meaningless (time since it
                # started, or garbage); the job's clock never runs ahead of the wall clock
                # and never goes back
                emit(self._progress(test, len(live) - 1, 0.0, None))
                return
            snaps.append(snap)
            rate = seconds.update(snap)
            n = len(live) - 1
            if n < count and snap.t_ms >= (n + 1) * measure_ms - STATUS_MS / 2:
                live.append(snap)
                self._record(test, result, n, _window(test, live[n], snap, seconds, None))
                n += 1
            emit(self._progress(test, n, (snap.t_ms - live[n].t_ms) / 1000, rate))

        emit(self._progress(test, 0, 0.0, None))
        what = doing(test.spec.label, test.op)
        args = continuous_args(self.fio.path, plan, test, self.session.ioengine)
        final = await run_fio(self.control, place, args, on_status, what)
        with reading_output(what):
            end = parse.snapshot(parse.job(final), test.op, threads)
            if not snaps or snaps[-1] != end:
                snaps.append(end)
            # How busy the machine was: over the whole job, for every pass. Status objects can
            # arrive in a burst at the end when fio's threads outnumber the cores (the reader
            # waits for a core too), so the counters read on their arrival fit no pass.
            job_load = (cpu0, MachineLoad.now())
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
                runs.append(_window(test, a, b, seconds, job_load))
        for n in range(len(live) - 1, count + 1):  # passes not announced while running
            self._record(test, result, n, runs[n])
        result.warmup, result.runs = runs[0], runs[1:]
        self.eta.end()

    async def _run_pass(self, test: PlannedTest, n: int) -> RunResult:
        """Pass ``n`` of a test with delays, as a fio process of its own."""
        self.eta.begin(self.plan.pass_seconds(test) + PROCESS_OVERHEAD_S)
        rate = parse.LiveRate(threads=test.spec.threads)
        load = MachineLoad()
        cpu, since = MachineLoad.now(), time.monotonic()
        self.emit(self._progress(test, n, 0.0, None))
        throttle = Throttle()  # the target is checked now and then while fio runs

        def on_status(obj: dict[str, Any]) -> None:
            nonlocal cpu
            check_place(self.place, throttle)
            now = MachineLoad.now()
            load.add(cpu, now)
            cpu = now
            self.emit(self._progress(test, n, time.monotonic() - since,
                                     rate.update(parse.job(obj))))

        what = doing(test.spec.label, test.op)
        args = run_args(self.fio.path, self.plan, test, self.session.ioengine)
        final = await run_fio(self.control, self.place, args, on_status, what)
        with reading_output(what):
            run = parse.run_result(parse.job(final), test.op, rate.samples)
        run.machine_busy_pct = load.pct
        self.eta.end()
        return run

    async def _run_job(self, job: FioJob) -> JobResult:
        """A check's own fio job on the test file, to its size or the run's time for a
        test, whichever comes first: its figures, with the fdatasync latencies."""
        plan, session = self.plan, self.session
        args = job_args(self.fio.path, plan, job, session.ioengine)
        result = JobResult(job=job, fio_command=args)
        self.eta.begin(plan.job_seconds() + PROCESS_OVERHEAD_S)
        rate = parse.LiveRate(threads=job.numjobs)
        throttle = Throttle()  # the target is checked now and then while fio runs
        title = f"fio {job.title}"

        def on_status(obj: dict[str, Any]) -> None:
            check_place(self.place, throttle)
            entry = parse.job(obj)
            self.emit(Progress(Phase.MEASURING, title,
                               percent=min(100.0, 100.0 * parse.io_bytes(entry) / job.size),
                               mb_s=rate.update(entry), eta_s=self.eta.remaining(),
                               session_percent=self.eta.percent()))

        self.emit(Progress(Phase.MEASURING, title, eta_s=self.eta.remaining(),
                           session_percent=self.eta.percent()))
        what = doing(title, job.op)
        final = await run_fio(self.control, self.place, args, on_status, what)
        with reading_output(what):
            entry = parse.job(final)
            result.run = parse.run_result(entry, job.op, rate.samples)
            result.sync_percentiles = parse.sync_percentiles(entry)
        # fio moves whole blocks: a size that is no multiple of bs ends up to a block short
        result.cut_short = result.run.io_bytes < (job.size - job.bs) * job.numjobs
        self.eta.end()
        if job.op is not Op.READ:
            await self._settle()
        return result

    async def _sync(self, test: PlannedTest, result: TestResult) -> float:
        """How long the kernel needs to get what a write test left in the cache onto the disk
        (black_cat timed `sync` after each write, "Linux でディスクのアクセス速度を測定する
        その4"); the peak Dirty/Writeback goes on ``result``. An fsync cannot be interrupted:
        a stop meanwhile says so and ends the session as soon as it returns."""
        started = time.monotonic()
        fd = self.place.open_test_file()
        task = asyncio.ensure_future(asyncio.to_thread(os.fsync, fd))
        try:
            while not task.done():
                mem = fileinfo.meminfo()
                for name, attr in (("Dirty", "sync_dirty_bytes"), ("Writeback", "sync_writeback_bytes")):
                    if name in mem:
                        setattr(result, attr, max(getattr(result, attr) or 0, mem[name]))
                message = (_("Stopping once the kernel has written the cached data (a flush "
                             "cannot be interrupted)") if self.control.stopping
                           else _("Flushing to disk"))
                self.emit(Progress(Phase.SYNC, message, test_index=test.index,
                                   test_key=test.key, eta_s=self.eta.remaining(),
                                   session_percent=self.eta.percent(),
                                   dirty_bytes=mem.get("Dirty"),
                                   writeback_bytes=mem.get("Writeback")))
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
        if self.control.stopping:
            raise Stopped
        return time.monotonic() - started


def _window(test: PlannedTest, a: parse.Snapshot, b: parse.Snapshot, seconds: parse.SecondRate,
            cpu: CpuSpan | None) -> RunResult:
    """One pass of a continuous job: the figures between status objects ``a`` and ``b``,
    and how busy the machine was over ``cpu`` when it is known."""
    run = parse.window(a, b, test.op, seconds.between(a.t_ms, b.t_ms))
    if cpu is not None:
        load = MachineLoad()
        load.add(*cpu)
        run.machine_busy_pct = load.pct
    return run
