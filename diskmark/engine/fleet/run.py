"""Many hosts from one place, on fio's own client/server mode: each host runs ``fio
--server``, started over SSH on a private socket (:mod:`diskmark.engine.fleet.ssh_tunnel`), or by
the host's owner on a TCP port (``fio://``); diskmark runs fio's client here, once per host
and step, with job files rendered from the same plan as a local run
(:mod:`diskmark.engine.fleet.jobfile`).

A session per host: a probe before anything starts on any host (SSH connects and fio's
server starts in a private directory, or the raw server answers and no other user can write
in its target: :mod:`diskmark.engine.fleet.privacy`; the target exists, O_DIRECT is
accepted), then the test file laid out, every test, and the file removed by fio itself,
whatever happened; over SSH the private directory goes with it. Hosts run at once or one at a time; one host
failing ends only its own session. Each host's figures come from the ``client_stats`` of
fio's final JSON (fio 3.33 prints no status objects in client mode, so live progress is the
step and its expected time).

What only a local run can know (free space, the filesystem and device, the test file's
extents, Dirty/Writeback and the flush after writes, the machine's CPU load) is not
guessed: a remote result says in its warnings that it is not available.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diskmark import __version__
from diskmark.engine import parse
from diskmark.engine.clock import now_iso
from diskmark.engine.control import RunControl, Stopped
from diskmark.engine.errors import PREPARING, FioFailed, NotStarted, TargetError, doing, unreadable_output
from diskmark.engine.fio import Fio, locate
from diskmark.engine.fleet import jobfile, privacy
from diskmark.engine.fleet.client import (
    PROBING,
    client_arg,
    client_problem,
    disk,
    entries,
    host_entries,
    on_host,
)
from diskmark.engine.fleet.hosts import check_ssh_config, unreachable
from diskmark.engine.fleet.jobs_dir import JobsDir
from diskmark.engine.fleet.privacy import Access
from diskmark.engine.fleet.ssh_remote import SUN_PATH_MAX, check_ssh_target
from diskmark.engine.fleet.ssh_tunnel import SshSetup, Tunnel
from diskmark.engine.plan import Plan, PlannedTest, build_plan, not_measured
from diskmark.engine.process import FioProcess, Outcome
from diskmark.engine.sentence import Sentence
from diskmark.locale import N_, _
from diskmark.locale.said import Said, joined, lines_said
from diskmark.model.events import Event, Notice, Phase, Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.facts import SystemFacts
from diskmark.model.fleet import FleetResult, Host
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import Settings
from diskmark.presets import PresetCatalog, load_catalog

#: fio's client prints nothing until a step ends: it is given the step's expected time and
#: this much more before it is taken for hung (fio notices a lost server itself in ~5 s).
CLIENT_SLACK_S = 60.0
PREP_RATE_GUESS = 200e6  # bytes/s, for the expected time of laying the file out
#: Kept in English in every host's result (its warnings); a view may translate it.
REMOTE_NOTE = N_("Measured through fio's client/server mode: free space, the device and "
               "filesystem, the test file's layout, the flush after writes (Dirty/Writeback) "
               "and the machine's CPU load are not available for a remote host.")

HostSink = Callable[[Host, Event], None]


class FleetNotStarted(NotStarted):
    """One or more hosts cannot be used; nothing was started on any host."""

    def __init__(self, problems: list[tuple[Host, str]]):
        self.hosts = [h for h, _why in problems]
        # each host's problem indented, its later lines (ssh's or fio's words) further
        lines = [Said("  " + lines_said(why).replace("\n", "\n    ")) for _h, why in problems]
        # TRANSLATORS: {hosts} is a list of hosts; {problems} one indented line or more each
        super().__init__(_("nothing was started; not usable: {hosts}\n{problems}").format(
            hosts=", ".join(h.label for h in self.hosts), problems=joined("\n", lines)))


class Fleet:
    """Runs one diskmark session on every host. :meth:`stop` stops every host's jobs."""

    def __init__(self, hosts: list[Host], fio: Fio | None = None,
                 catalog: PresetCatalog | None = None, one_at_a_time: bool = False,
                 target_private: bool = False, ssh: SshSetup | None = None,
                 accept_shared_target: bool = False):
        self.hosts = hosts
        self._fio = fio
        self.catalog = catalog
        self.one_at_a_time = one_at_a_time
        #: the user states that only the server's user can write in the target, for hosts
        #: where that cannot be checked (:mod:`diskmark.engine.fleet.privacy`)
        self.target_private = target_private
        #: the user accepts that other users can write in a raw server's target
        self.accept_shared_target = accept_shared_target
        self.ssh = ssh or SshSetup()
        self._control = RunControl()
        self._jobs_dir: Path | None = None
        self._tunnels: dict[Host, Tunnel] = {}
        self._notes: dict[Host, list[Sentence]] = {}

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
        raw = any(not h.ssh for h in self.hosts)
        directory = (jobfile.check_remote_target(settings.target) if raw
                     else check_ssh_target(settings.target))
        if any(h.ssh for h in self.hosts):
            check_ssh_target(directory)
            if self.ssh.config:
                await asyncio.to_thread(check_ssh_config, self.ssh.config)
        if self._fio is None:
            self._fio = await asyncio.to_thread(locate)
        plan = await asyncio.to_thread(self.plan, settings)
        filename = jobfile.fresh_file_name()
        # only a raw server's test file stays on its host when diskmark is killed outright
        jobs = await asyncio.to_thread(JobsDir.create, [h.label for h in self.hosts], directory,
                                       filename if raw else "")
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
            await asyncio.gather(*(self._close(h) for h in list(self._tunnels)))
            jobs.remove()
            self._jobs_dir = None

    # --- before anything starts ---------------------------------------------------------

    async def _preflight(self, directory: str, direct: bool, emit: HostSink) -> None:
        """Every host answers, can run the probe job, and lets no other user write in the
        target (over SSH: in fio's private directory there), or nothing starts anywhere."""
        async def check(index: int, host: Host) -> str | None:
            try:
                if host.ssh:
                    emit(host, Progress(Phase.CHECKING, on_host(host, _("starting fio's server "
                                                                        "over SSH"))))
                    why = await self._control.until_stopped(self._open(index, host, directory))
                else:
                    emit(host, Progress(Phase.CHECKING, on_host(host,
                                                                _("checking fio's server"))))
                    why = await self._control.until_stopped(unreachable(host))
                    why = on_host(host, why) if why else None
            except Stopped:
                return None  # said by the sessions, each cancelled before it started
            if why or self._control.stopping:
                return why
            try:
                await self._client(host, jobfile.probe_job(self._where(host, directory),
                                                           jobfile.fresh_file_name(), direct),
                                   _(PROBING), 0.0)
                return None if host.ssh else await self._private(host, directory)
            except FioFailed as e:
                return e.message
            except Stopped:
                return None  # said by the sessions, each cancelled before it started

        problems = [(h, why) for h, why in zip(self.hosts, await asyncio.gather(
            *(check(i, h) for i, h in enumerate(self.hosts)))) if why]
        if problems and not self._control.stopping:  # a stop is no host's fault
            raise FleetNotStarted(problems)

    async def _private(self, host: Host, directory: str) -> str | None:
        """Why ``directory`` on ``host`` is not private enough for the test file, or None."""
        outcome = await self._run_client(
            host, jobfile.others_probe_job(directory, jobfile.fresh_file_name()), _(PROBING), 0.0)
        found = privacy.access(outcome, host_entries(outcome.last, host))
        if found in (Access.OTHERS, Access.UNKNOWN) and self.accept_shared_target:
            self._notes.setdefault(host, []).append(privacy.risk_accepted(
                host.label, directory))
            return None
        if found is Access.OTHERS:
            return privacy.others_can_write(host.label, directory)
        if found is Access.UNKNOWN and not self.target_private:
            return privacy.cannot_check(host.label, directory)
        if found is Access.FAILED:
            return (client_problem(host, _(PROBING), outcome)
                    or on_host(host, _("fio's client ended unexpectedly while {what}.").format(
                        what=_(PROBING))))
        return None

    # --- SSH ----------------------------------------------------------------------------

    async def _open(self, index: int, host: Host, directory: str) -> str | None:
        """fio's server started over SSH in a private directory of ``directory``; why not."""
        assert self._jobs_dir is not None
        local = self._jobs_dir / f"{index}.sock"
        if len(os.fsencode(local)) >= SUN_PATH_MAX:
            return on_host(host, _("the temporary directory {path} is too deep for the socket "
                                   "diskmark forwards to the host ({limit} bytes at most); set "
                                   "TMPDIR to a shorter one.").format(path=self._jobs_dir.parent,
                                                                      limit=SUN_PATH_MAX - 1))
        tunnel = Tunnel(host, self.ssh, str(local), directory)
        self._tunnels[host] = tunnel
        why = await tunnel.open(self.fio_version)
        if tunnel.swept:
            # TRANSLATORS: {names} are directories' names, {host} a host of the fleet
            self._notes.setdefault(host, []).append(Sentence(N_(
                "Removed {names} in {directory} on {host}, left by a fleet run that was stopped "
                "abruptly."), names=", ".join(tunnel.swept), directory=directory,
                host=host.label))
        return why

    async def _close(self, host: Host) -> bool:
        """End fio's server on ``host`` and remove its private directory; said when that
        cannot be confirmed (the connection is lost: the host removes it itself when it
        notices, or the next run there does)."""
        tunnel = self._tunnels.pop(host, None)
        if tunnel is None or tunnel.proc is None:
            return False
        if await tunnel.close():
            return True
        self._notes.setdefault(host, []).append(Sentence(N_(
            "diskmark's private directory {directory}/{name} may be left on {host} (the SSH "
                "connection was lost); the host removes it when it notices, or the next run "
                "there does."), directory=tunnel.target, name=tunnel.name, host=host.label))
        return False

    def _where(self, host: Host, directory: str) -> str | None:
        """The ``directory`` of ``host``'s jobs: none over SSH, where fio's server works in
        its private directory."""
        return None if host.ssh else directory

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
            session.tests.extend(not_measured(plan, session.tests))
            session.finished = now_iso()
            return session
        where = self._where(host, directory)
        total = settings.size / PREP_RATE_GUESS + plan.total_seconds()
        clock = {"start": time.monotonic(), "total": total}
        try:
            prep_s = settings.size / PREP_RATE_GUESS
            final = await self._client(
                host, jobfile.prepare_job(settings, where, filename),
                _(PREPARING), prep_s,
                self._ticker(host, clock, Phase.PREPARING, _("Preparing the test file"), prep_s,
                             emit))
            written = parse.io_bytes(entries(final, host, 1, _(PREPARING))[0])
            if written < settings.size:
                raise FioFailed(on_host(host, _("fio wrote only {written} of {size} bytes of the "
                                                "test file.").format(written=written,
                                                                      size=settings.size)))
            session.system.device = disk(final)
            for test in plan.tests:
                if test.index and plan.interval:
                    await self._control.sleep(plan.interval)
                result = await self._test(host, plan, test, where, filename, clock, emit)
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
            note = await self._cleanup(host, where, filename, emit)
            if await self._close(host):
                note = None  # the private directory went, and the test file with it
            notes = ([note] if note else []) + self._notes.pop(host, [])
            session.warnings += [n.english() for n in notes]
        if session.status is not Status.COMPLETE:  # every test of the run is named in a report
            session.tests.extend(not_measured(plan, session.tests))
        session.finished = now_iso()
        return session

    async def _test(self, host: Host, plan: Plan, test: PlannedTest, directory: str | None,
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
                         for e in entries(final, host, len(passes), what)]
            except parse.FioOutputError as e:
                raise FioFailed(on_host(host, unreadable_output(what, e))) from None
        result.warmup, result.runs = runs[0], runs[1:]
        for n in range(count + 1):
            emit(host, RunFinished(test.index, result, warmup=n == 0))
        best = result.best_run
        if best is not None:
            result.cpu_limited = cpu_limit_text(best.cpu_limit(test.spec.threads, None))
        return result

    async def _cleanup(self, host: Host, directory: str | None, filename: str,
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
                            file=f"{directory or '.'}/*{filename}", host=host.label,
                            problem=str(e))
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
        tunnel = self._tunnels.get(host)
        if problem and tunnel is not None and not tunnel.alive:
            problem = _("{host}: the SSH connection was lost while {what}.\n{said}").format(
                host=host.label, what=what, said=tunnel.ssh_said() or problem)
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
        tunnel = self._tunnels.get(host)
        client = tunnel.client_arg if tunnel else client_arg(host)
        proc = FioProcess([self.fio_path, client, "--output-format=json", str(path)],
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
            raise FioFailed(on_host(host, unreadable_output(what, e))) from None
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
