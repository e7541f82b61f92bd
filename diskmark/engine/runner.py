"""Running a plan: fio found, the target opened (a private workspace and its test file, or
a block device: :mod:`diskmark.engine.side`), the session's facts, its tests run
(:mod:`diskmark.engine.session_run`), and everything removed, whatever happened; or the same
on several targets at once, interleaved test by test (:mod:`diskmark.engine.sides`).

The engine is UI-agnostic: it reports through a plain callback of model events and returns a
:class:`SessionResult`. Errors found before anything starts raise (nothing was started);
anything that goes wrong once fio runs ends the session with status ``failed`` or
``cancelled`` and the tests finished so far. Whatever happens, fio is stopped and the
workspace removed before ``run`` returns or raises; what could not be removed is said in a
notice and in the result's warnings, never by an exception that loses the result.
"""

from __future__ import annotations

import asyncio

from diskmark.engine.control import RunControl
from diskmark.engine.drive_watch import DriveWatch
from diskmark.engine.errors import TargetError
from diskmark.engine.fio import Fio, locate
from diskmark.engine.plan import Plan, build_plan, check_plan
from diskmark.engine.session_run import EventSink, SessionRun
from diskmark.engine.side import Side
from diskmark.engine.sides import SideSink, run_interleaved
from diskmark.model.results import FioJob, SessionResult, TestSpec
from diskmark.model.settings import Op, Settings
from diskmark.model.sides import TargetsResult
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

    async def run_targets(self, settings: list[Settings], on_event: SideSink | None = None,
                          destroy: str | None = None) -> TargetsResult:
        """A session on several targets, interleaved test by test
        (:mod:`diskmark.engine.sides`): ``settings`` holds each target's (the same but for
        the target: :func:`~diskmark.engine.sides.each_target`), the first the reference."""
        emit = on_event or (lambda index, event: None)
        self._control = RunControl()
        try:
            fio = await self._found_fio()
            plan = await asyncio.to_thread(self.plan, settings[0])  # the first reads the presets
            return await run_interleaved(self._ctl, fio, plan, settings, emit, destroy)
        finally:
            self._control = None

    async def _found_fio(self) -> Fio:
        if self._fio is None:  # `fio --version` is a subprocess: not on the event loop
            self._fio = await asyncio.to_thread(locate)
        return self._fio

    async def _run(self, settings: Settings, emit: EventSink, destroy: str | None,
                   given: Plan | None) -> SessionResult:
        fio = await self._found_fio()
        # a first plan reads the presets
        plan = given if given is not None else await asyncio.to_thread(self.plan, settings)
        side = await Side.open(plan, destroy)
        try:
            session = await side.begin(fio, emit)
            async with DriveWatch(session, side.check.path, self._ctl.wake) as drive:  # temperature, health
                await SessionRun.begin(self._ctl, fio, side.plan, session, side.check.workspace,
                                       side.check.device, drive.observe(emit)).run()
        finally:
            self._ctl.kill_all()
            side.close(emit)
        return session
