"""Many hosts from one place, on fio's own client/server mode: each host runs ``fio
--server`` and nothing else; diskmark runs fio's client here, once per host and step, with
job files rendered from the same plan as a local run (:mod:`diskmark.engine.jobfile`).

A session per host: a probe before anything starts on any host (the server answers, the
target exists, O_DIRECT is accepted, no other user can write in the target:
:mod:`diskmark.engine.fleet_privacy`), then the test file laid out, every test, and the file
removed by fio itself, whatever happened. Hosts run at once or one at a time; one host
failing ends only its own session. Each host's figures come from the ``client_stats`` of
fio's final JSON (fio 3.33 prints no status objects in client mode, so live progress is the
step and its expected time).

What only a local run can know (free space, the filesystem and device, the test file's
extents, Dirty/Writeback and the flush after writes, the machine's CPU load) is not
guessed: a remote result says in its warnings that it is not available.
"""

from __future__ import annotations

import asyncio
import signal
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diskmark import __version__
from diskmark.engine import fleet_privacy, jobfile, parse
from diskmark.engine.clock import now_iso
from diskmark.engine.control import RunControl, Stopped
from diskmark.engine.errors import PREPARING, FioFailed, NotStarted, TargetError, doing, fio_failure
from diskmark.engine.fio import Fio, locate
from diskmark.engine.fleet_jobs import JobsDir
from diskmark.engine.fleet_privacy import Access
from diskmark.engine.hosts import Host, unreachable
from diskmark.engine.plan import Plan, PlannedTest, build_plan
from diskmark.engine.process import FioProcess, Outcome
from diskmark.engine.sentence import Sentence
from diskmark.locale import N_, _
from diskmark.model.events import Event, Notice, Phase, Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.facts import SystemFacts
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import Settings
from diskmark.presets import PresetCatalog, load_catalog

#: fio's client prints nothing until a step ends: it is given the step's expected time and
#: this much more before it is taken for hung (fio notices a lost server itself in ~5 s).
CLIENT_SLACK_S = 60.0
PREP_RATE_GUESS = 200e6  # bytes/s, for the expected time of laying the file out
ALL_CLIENTS = "All clients"
#: Kept in English in every host's result (its warnings); a view may translate it.
REMOTE_NOTE = N_("Measured through fio's client/server mode: free space, the device and "
               "filesystem, the test file's layout, the flush after writes (Dirty/Writeback) "
               "and the machine's CPU load are not available for a remote host.")

# TRANSLATORS: what fio was doing, put where {what} stands in "… while {what}."
PROBING = N_("checking the target")

HostSink = Callable[[Host, Event], None]


class FleetNotStarted(NotStarted):
    """One or more hosts cannot be used; nothing was started on any host."""

    def __init__(self, problems: list[tuple[Host, str]]):
        self.hosts = [h for h, _why in problems]
        lines = ["  " + why.replace("\n", "\n    ") for _h, why in problems]  # fio's words indented
        # TRANSLATORS: {hosts} is a list of hosts; {problems} one indented line or more each
        super().__init__(_("nothing was started; not usable: {hosts}\n{problems}").format(
            hosts=", ".join(h.label for h in self.hosts), problems="\n".join(lines)))


@dataclass
class FleetResult:
    """One session per host, in the order the hosts were given."""

    hosts: list[Host]
    sessions: list[SessionResult] = field(default_factory=list)
    one_at_a_time: bool = False

    def pairs(self) -> list[tuple[Host, SessionResult]]:
        return list(zip(self.hosts, self.sessions))

    def failed(self) -> list[Host]:
        return [h for h, s in self.pairs() if s.status is Status.FAILED]

    def cancelled(self) -> bool:
        return any(s.status is Status.CANCELLED for s in self.sessions)


class Fleet:
    """Runs one diskmark session on every host. :meth:`stop` stops every host's jobs."""

    def __init__(self, hosts: list[Host], fio: Fio | None = None,
                 catalog: PresetCatalog | None = None, one_at_a_time: bool = False,
                 target_private: bool = False):
        self.hosts = hosts
        self._fio = fio
        self.catalog = catalog
        self.one_at_a_time = one_at_a_time
        #: the user states that only the server's user can write in the target, for hosts
        #: where that cannot be checked (:mod:`diskmark.engine.fleet_privacy`)
        self.target_private = target_private
        self._control = RunControl()
        self._jobs_dir: Path | None = None

    def stop(self) -> None:
        """SIGINT to every fio client, which tells its server to end the jobs; a second
        request kills the clients. The test files are removed afterwards all the same."""
        self._control.stop()

    def plan(self, settings: Settings) -> Plan:
        if self.catalog is None:
            self.catalog = load_catalog()
        try:
            return build_plan(self.catalog.get(settings.preset), settings)
        except (KeyError, ValueError) as e:
            raise TargetError(str(e).strip("'\"")) from None

    async def run(self, settings: Settings, on_event: HostSink | None = None) -> FleetResult:
        emit = on_event or (lambda host, event: None)
        if settings.nocow:
            raise TargetError(_("--nocow changes a local directory; it cannot be used with "
                                "hosts."))
        directory = jobfile.check_remote_target(settings.target)
        if self._fio is None:
            self._fio = await asyncio.to_thread(locate)
        plan = await asyncio.to_thread(self.plan, settings)
        filename = jobfile.fresh_file_name()
        jobs = await asyncio.to_thread(JobsDir.create, [h.label for h in self.hosts], directory,
                                       filename)
        self._jobs_dir = jobs.path
        try:
            await self._preflight(directory, settings.direct, emit)
            result = FleetResult(self.hosts, one_at_a_time=self.one_at_a_time)
            if self.one_at_a_time:
                for host in self.hosts:
                    result.sessions.append(await self._session(host, plan, directory,
                                                               filename, emit))
            else:
                result.sessions = list(await asyncio.gather(
                    *(self._session(h, plan, directory, filename, emit) for h in self.hosts)))
            return result
        finally:
            jobs.remove()
            self._jobs_dir = None

    # --- before anything starts ---------------------------------------------------------

    async def _preflight(self, directory: str, direct: bool, emit: HostSink) -> None:
        """Every host answers, can run the probe job, and lets no other user write in the
        target, or nothing starts anywhere."""
        async def check(host: Host) -> str | None:
            emit(host, Progress(Phase.CHECKING, on_host(host, _("checking fio's server"))))
            why = await unreachable(host)
            if why:
                return on_host(host, why)
            try:
                await self._client(host, jobfile.probe_job(directory, jobfile.fresh_file_name(),
                                                           direct), _(PROBING), 0.0)
                return await self._private(host, directory)
            except FioFailed as e:
                return e.message
            except Stopped:
                return None  # said by the sessions, each cancelled before it started

        problems = [(h, why) for h, why in zip(self.hosts, await asyncio.gather(
            *(check(h) for h in self.hosts))) if why]
        if problems:
            raise FleetNotStarted(problems)

    async def _private(self, host: Host, directory: str) -> str | None:
        """Why ``directory`` on ``host`` is not private enough for the test file, or None."""
        outcome = await self._run_client(
            host, jobfile.others_probe_job(directory, jobfile.fresh_file_name()), _(PROBING), 0.0)
        found = fleet_privacy.access(outcome, _host_entries(outcome.last, host))
        if found is Access.OTHERS:
            return fleet_privacy.others_can_write(host.label, directory)
        if found is Access.UNKNOWN and not self.target_private:
            return fleet_privacy.cannot_check(host.label, directory)
        if found is Access.FAILED:
            return (client_problem(host, _(PROBING), outcome)
                    or on_host(host, _("fio's client ended unexpectedly while {what}.").format(
                        what=_(PROBING))))
        return None

    # --- one host -----------------------------------------------------------------------

    async def _session(self, host: Host, plan: Plan, directory: str, filename: str,
                       emit: HostSink) -> SessionResult:
        settings = plan.settings
        session = SessionResult(
            settings=settings, system=SystemFacts(target=directory, hostname=host.label),
            preset_name=plan.preset.name, profile_name=plan.profile.name,
            measure=plan.measure, interval=plan.interval, fio_version=self.fio_version,
            diskmark_version=__version__, started=now_iso(), warnings=[REMOTE_NOTE],
            ioengine=jobfile.REMOTE_IOENGINE)
        if self._control.stopping:
            session.status, session.error = Status.CANCELLED, _("stopped before this host's turn")
            session.finished = now_iso()
            return session
        total = settings.size / PREP_RATE_GUESS + plan.total_seconds()
        clock = {"start": time.monotonic(), "total": total}
        try:
            prep_s = settings.size / PREP_RATE_GUESS
            final = await self._client(
                host, jobfile.prepare_job(settings, directory, filename),
                _(PREPARING), prep_s,
                self._ticker(host, clock, Phase.PREPARING, _("Preparing the test file"), prep_s,
                             emit))
            entries = _entries(final, host, 1, _(PREPARING))
            written = parse.io_bytes(entries[0])
            if written < settings.size:
                raise FioFailed(on_host(host, _("fio wrote only {written} of {size} bytes of the "
                                                "test file.").format(written=written,
                                                                      size=settings.size)))
            session.system.device = _disk(final)
            for test in plan.tests:
                if test.index and plan.interval:
                    await self._control.sleep(plan.interval)
                result = await self._test(host, plan, test, directory, filename, clock, emit)
                session.tests.append(result)
                emit(host, TestFinished(test.index, result))
        except Stopped:
            session.status = Status.CANCELLED
        except (FioFailed, parse.FioOutputError, OSError) as e:
            # one host's failure ends its own session only; the others go on
            message = str(e) if isinstance(e, FioFailed) else on_host(host, str(e))
            session.status, session.error = Status.FAILED, message
            emit(host, Notice(message, "error"))
        finally:
            note = await self._cleanup(host, directory, filename, emit)
            if note:
                session.warnings.append(note.english())
        session.finished = now_iso()
        return session

    async def _test(self, host: Host, plan: Plan, test: PlannedTest, directory: str,
                    filename: str, clock: dict[str, float], emit: HostSink) -> TestResult:
        result = TestResult(index=test.row, spec=test.spec, op=test.op, mix_read=test.mix_read,
                            fio_command=[], unstable_pct=plan.settings.unstable_pct)
        emit(host, TestStarted(test.index, result))
        what = doing(test.spec.label, test.op)
        count = plan.settings.count
        every = range(count + 1)
        groups = [range(n, n + 1) for n in every] if plan.process_per_pass(test) else [every]
        seconds = plan.test_seconds(test) / len(groups)
        runs = []
        for passes in groups:
            final = await self._client(
                host, jobfile.passes_job(plan, test, directory, filename, passes), what,
                seconds, self._ticker(host, clock, Phase.MEASURING, test.title, seconds, emit,
                                      test))
            try:
                runs += [parse.run_result(e, test.op)
                         for e in _entries(final, host, len(passes), what)]
            except parse.FioOutputError as e:
                raise FioFailed(on_host(host, _("fio's output could not be read for {what}: "
                                                "{problem}").format(what=what, problem=e))) from None
        result.warmup, result.runs = runs[0], runs[1:]
        for n in range(count + 1):
            emit(host, RunFinished(test.index, result, warmup=n == 0))
        best = result.best_run
        if best is not None:
            result.cpu_limited = cpu_limit_text(best.cpu_limit(test.spec.threads, None))
        return result

    async def _cleanup(self, host: Host, directory: str, filename: str,
                       emit: HostSink) -> Sentence | None:
        """fio removes the test file; a stop does not skip this. What could not be removed
        is said, never raised."""
        emit(host, Progress(Phase.CLEANUP, on_host(host, _("removing the test file"))))
        try:
            await self._client(host, jobfile.cleanup_job(directory, filename),
                               # TRANSLATORS: what fio was doing, put where {what} stands in
                               # "… while {what}."
                               _("removing the test file"), 0.0,
                               stoppable=False)
        except FioFailed as e:
            # TRANSLATORS: {problem} is what fio's client said went wrong
            note = Sentence(N_("The test file {file} may be left on {host}: {problem}"),
                            file=f"{directory}/*{filename}", host=host.label, problem=str(e))
            emit(host, Notice(note.said(), "warning"))
            return note
        return None

    # --- fio's client -------------------------------------------------------------------

    @property
    def fio_version(self) -> str:
        return self._fio.version if self._fio else ""

    def _ticker(self, host: Host, clock: dict[str, float], phase: Phase, message: str,
                seconds: float, emit: HostSink,
                test: PlannedTest | None = None) -> Callable[[], None]:
        """Progress once a second while a step runs: fio's client says nothing until the end,
        so the step's share is its expected time."""
        started = time.monotonic()

        def tick() -> None:
            now = time.monotonic()
            done = now - clock["start"]
            emit(host, Progress(
                phase, on_host(host, message),
                test_index=test.index if test else None, test_key=test.key if test else None,
                # a time-based test's share is its time; how fast a file is laid out is unknown
                percent=(min(99.0, 100.0 * (now - started) / seconds)
                         if seconds and phase is not Phase.PREPARING else 0.0),
                eta_s=max(0.0, clock["total"] - done),
                session_percent=min(99.0, 100.0 * done / clock["total"]) if clock["total"] else 0.0))
        return tick

    async def _client(self, host: Host, job: str, what: str, seconds: float,
                      tick: Callable[[], None] | None = None,
                      stoppable: bool = True) -> dict[str, Any]:
        """Run one job file on ``host`` through fio's client; its final JSON object, or
        FioFailed saying what went wrong."""
        outcome = await self._run_client(host, job, what, seconds, tick, stoppable)
        problem = client_problem(host, what, outcome)
        if problem:
            raise FioFailed(problem)
        assert outcome.last is not None
        return outcome.last

    async def _run_client(self, host: Host, job: str, what: str, seconds: float,
                          tick: Callable[[], None] | None = None,
                          stoppable: bool = True) -> Outcome:
        """Run one job file on ``host`` through fio's client; how it ended."""
        if stoppable and self._control.stopping:
            raise Stopped
        assert self._jobs_dir is not None
        fd, name = tempfile.mkstemp(suffix=".fio", dir=self._jobs_dir)
        path = Path(name)
        with open(fd, "w", encoding="utf-8") as f:
            f.write(job)
        proc = FioProcess([self.fio_path, host.client_arg(), "--output-format=json", str(path)],
                          watchdog=seconds + CLIENT_SLACK_S)
        if stoppable:
            self._control.add(proc)
        run = asyncio.ensure_future(proc.run(lambda obj: None))
        try:
            while not run.done():
                await asyncio.wait([run], timeout=1.0)
                if tick is not None and not run.done():
                    tick()
            outcome = run.result()
        except parse.FioOutputError as e:
            raise FioFailed(on_host(host, _("fio's output could not be read while {what}: "
                                            "{problem}").format(what=what, problem=e))) from None
        finally:
            if not run.done():
                proc.kill()
            self._control.discard(proc)
            path.unlink(missing_ok=True)
        if stoppable and self._control.stopping:
            raise Stopped
        return outcome

    @property
    def fio_path(self) -> str:
        assert self._fio is not None
        return self._fio.path


def on_host(host: Host, message: str) -> str:
    """``message`` about ``host``, said with the host's name first."""
    # TRANSLATORS: a message about one host of a fleet: "db1:8765: checking fio's server"
    return _("{host}: {message}").format(host=host.label, message=message)


def _lines(outcome: Outcome) -> list[str]:
    return [ln.strip() for ln in outcome.stderr.splitlines() + outcome.noise if ln.strip()]


def client_problem(host: Host, what: str, outcome: Outcome) -> str | None:
    """What went wrong on ``host`` in words a user can act on, or None. fio's client exits 0
    when the server refused the job file (a missing directory): no ``client_stats`` then."""
    lines = _lines(outcome)
    text = "\n".join(lines)
    tail = "\n".join(lines[-6:])
    low = text.lower()
    head = None
    if outcome.hung:
        head = _("fio's server on {host} did not answer while {what}; fio was stopped.")
    elif "failed to connect" in low or "connection refused" in low:
        head = _("cannot connect to fio's server on {host} while {what}.")
    elif "version" in low and ("bad" in low or "mismatch" in low):
        head = _("fio on {host} is another version than this machine's: fio's client/server "
                 "mode needs the same fio on both sides.")
    elif outcome.returncode == -signal.SIGPIPE:
        # the other end closed the socket as fio's client wrote: seen when the server is
        # another fio version (it may hang up before saying so) or no fio server at all
        head = _("fio's server on {host} closed the connection while {what}: it may be another "
                 "fio version than this machine's (client/server mode needs the same fio on "
                 "both sides), or not a fio server.")
    elif "disconnected" in low or "timeout on" in low or "connection reset" in low:
        head = _("the connection to fio's server on {host} was lost while {what} (the server "
                 "stopped or the host went down).")
    elif "is not a directory" in low or "no such file or directory" in low:
        head = _("the target directory does not exist on {host} (or is not a directory).")
    elif "permission denied" in low or "read-only file system" in low:
        head = _("fio's server on {host} cannot write in the target directory.")
    elif "does not support o_direct" in low or (
            outcome.last is not None and _errno(outcome.last, host) == 22 and what == _(PROBING)):
        head = _("the target on {host} refuses O_DIRECT (ramfs, old tmpfs, some FUSE and "
                 "network filesystems); run with --buffered.")
    if head:
        head = head.format(host=host.label, what=what)
        return f"{head}\n{tail}" if tail else head
    if outcome.returncode is None:
        return _("fio's client for {host} did not exit while {what}.").format(host=host.label,
                                                                             what=what)
    entries = _host_entries(outcome.last, host)
    err = next((e.get("error") for e in entries if e.get("error")), 0)
    if outcome.returncode != 0 or not entries or err:
        last = {"jobs": entries} if entries else None
        detail = fio_failure(what, outcome.returncode, outcome.stderr, outcome.noise, last)
        return on_host(host, detail)
    return None


def _errno(obj: dict[str, Any], host: Host) -> int:
    found = next((e.get("error") for e in _host_entries(obj, host) if e.get("error")), 0)
    return found if isinstance(found, int) else 0


def _host_entries(obj: dict[str, Any] | None, host: Host) -> list[dict[str, Any]]:
    """The job entries of ``host`` in one final object, in the order of their groups."""
    stats = obj.get("client_stats") if isinstance(obj, dict) else None
    if not isinstance(stats, list):
        return []
    mine = [e for e in stats if isinstance(e, dict) and e.get("jobname") != ALL_CLIENTS
            and e.get("port", host.port) == host.port]
    return sorted(mine, key=lambda e: e.get("groupid", 0) if isinstance(e.get("groupid"), int) else 0)


def _entries(obj: dict[str, Any], host: Host, expected: int, what: str) -> list[dict[str, Any]]:
    found = _host_entries(obj, host)
    if len(found) != expected:
        raise FioFailed(on_host(host, _("fio reported {found} jobs for {what}, not "
                                        "{expected}.").format(found=len(found), what=what,
                                                              expected=expected)))
    return found


def _disk(obj: dict[str, Any]) -> str:
    """The device under the target as fio's ``disk_util`` names it on the host ('' when
    fio does not say: tmpfs, a network filesystem)."""
    utils = obj.get("disk_util") if isinstance(obj, dict) else None
    if isinstance(utils, list) and utils and isinstance(utils[0], dict):
        name = utils[0].get("name")
        return f"/dev/{name}" if isinstance(name, str) and name.isprintable() else ""
    return ""
