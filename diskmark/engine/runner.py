"""Running a plan: fio found, the target opened (a private workspace and its test file, or
a block device), the session's facts, its tests run (:mod:`diskmark.engine.session_run`),
and everything removed, whatever happened.

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

from diskmark import __version__
from diskmark.drive.stack.resolve import stack_of
from diskmark.engine import ioengine
from diskmark.engine.clock import now_iso, usable_cpus
from diskmark.engine.control import RunControl
from diskmark.engine.drive_watch import DriveWatch
from diskmark.engine.errors import TargetError
from diskmark.engine.fio import Fio, locate
from diskmark.engine.plan import Plan, build_plan, check_plan
from diskmark.engine.sentence import Sentence
from diskmark.engine.session_run import EventSink, SessionRun
from diskmark.engine.target import open_target
from diskmark.locale import N_, _
from diskmark.model.events import Notice, Phase, Progress
from diskmark.model.results import FioJob, SessionResult, TestSpec
from diskmark.model.settings import Op, Settings
from diskmark.presets import PresetCatalog, load_catalog


class Engine:
    """Runs diskmark sessions with fio. One session at a time per engine."""

    def __init__(self, fio: Fio | None = None, catalog: PresetCatalog | None = None):
        self._fio = fio
        self.catalog = catalog
        self._control: RunControl | None = None  # the running session's

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

    def check_plan(self, settings: Settings, tests: list[tuple[TestSpec, Op]],
                   jobs: list[FioJob]) -> Plan:
        """What a check run of ``tests`` and ``jobs`` runs (see
        :func:`~diskmark.engine.plan.check_plan`); its settings out of their rules are a
        TargetError, as a preset's plan's are."""
        try:
            return check_plan(settings, tests, jobs)
        except ValueError as e:
            raise TargetError(str(e).strip("'\"")) from None

    async def run(self, settings: Settings, on_event: EventSink | None = None,
                  destroy: str | None = None, plan: Plan | None = None) -> SessionResult:
        """Run ``settings`` (planned from the presets), or ``plan`` when one is given (a
        check run's, :meth:`check_plan`)."""
        emit = on_event or (lambda event: None)
        self._control = RunControl()
        try:
            return await self._run(plan.settings if plan else settings, emit, destroy, plan)
        finally:
            self._control = None

    async def _run(self, settings: Settings, emit: EventSink, destroy: str | None,
                   given: Plan | None) -> SessionResult:
        if self._fio is None:  # `fio --version` is a subprocess: not on the event loop
            self._fio = await asyncio.to_thread(locate)
        fio = self._fio
        # a first plan reads the presets
        plan = given if given is not None else await asyncio.to_thread(self.plan, settings)
        check = await asyncio.to_thread(open_target, settings.target, settings.size,
                                        settings.direct, settings.nocow, plan, destroy)
        plan = check.plan or plan  # a device without consent runs its read tests only
        workspace = check.workspace
        session: SessionResult | None = None
        try:
            for note in check.notes:
                emit(Notice(note.said(), "information"))
            facts = await asyncio.to_thread(check.facts)
            stack = await asyncio.to_thread(stack_of, check.path)
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
                warnings=[note.english() for note in check.notes], ioengine=engine,
                stack=stack)
            async with DriveWatch(session, check.path, self._ctl.wake) as drive:  # temperature, health
                await SessionRun.begin(self._ctl, fio, plan, session, check.workspace,
                                       check.device, drive.observe(emit)).run()
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
