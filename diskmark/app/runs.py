"""The run controller: every run of the app, the main grid's and the queue-depth sweep's
alike, started, followed and ended in one place.

A screen asks (the All button, a row button, the sweep dialog's Run); :class:`Runs` checks
that nothing runs already, plans, takes the run into the state, announces it and starts the
engine in a worker of the app (:func:`~diskmark.app.run.bench`), whose messages come back
to the app and from it to here. Each step is taken into the state first (a finished test
onto the tiles, the session merged into the result, the comparison worked out again), then
told as :data:`~diskmark.app.core.run_news.RunNews`; the main screen draws the tiles and the
status line from it, the sweep's screen its curve. A check run (the Checks panel's Run) is
followed the same way, never onto the tiles; once it ends its verdicts are judged into the
session, and the panel draws them. An error is a dialog whose "Run buffered" runs the same
run again: the row, All, the sweep or the checks.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from diskmark.app.run import bench, bench_sides
from diskmark.locale import _, ngettext

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from diskmark.app.comparing import Comparing
    from diskmark.app.core.protocol import AppLike
    from diskmark.app.core.run_news import RunNews
    from diskmark.app.ending import Ending
    from diskmark.model.events import Event
    from diskmark.model.results import SessionResult
    from diskmark.model.settings import Mode, Settings
    from diskmark.model.sides import TargetsResult


class Runs:
    """One run at a time, from its start to its end."""

    def __init__(self, app: AppLike, receiver: MessagePump, comparing: Comparing,
                 ending: Ending) -> None:
        """``receiver``: where the worker's messages go (the app, which hands them back)."""
        self.app = app
        self.receiver = receiver
        self.comparing = comparing
        self.ending = ending

    @property
    def sweep(self) -> str | None:
        """The pattern the run under way (or the last) sweeps; None for the grid's."""
        settings = self.app.state.run_settings
        return settings.sweep if settings is not None else None

    @property
    def checks(self) -> tuple[str, ...]:
        """The checks the run under way (or the last) judges; () for the grid's, a sweep's."""
        return self.app.state.run_checks

    def _tell(self, news: RunNews) -> None:
        self.app.signals.run.publish(news)

    def _can_start(self) -> bool:
        from diskmark.app.screens.fleet import fleet_open

        return not (self.app.state.running or fleet_open(self.app))

    def set_running(self, running: bool) -> None:
        """A run or a sweep begins or ends: All turns into Stop, the selectors wait, and
        the keys that change settings leave the footer."""
        app = self.app
        if running == app.state.running:
            return
        app.state.running = running
        app.set_class(running, "-running")
        app.signals.running.publish(running)
        app.refresh_bindings()
        for screen in app.screen_stack[:-1]:  # under a run's own screen (a sweep, several
            screen.refresh_bindings()  # targets): the window's footer loses Stop at once,
            screen.refresh()  # and its buttons are drawn again there

    # --- starting -----------------------------------------------------------------------

    def start_grid(self, only_test: int | None) -> None:
        """All (``only_test`` None) or one row. Builds Settings; the engine does the rest.
        With other targets chosen, every target, side by side (:meth:`start_sides`)."""
        from diskmark.engine.errors import DiskmarkError

        app = self.app
        state = app.state
        if not self._can_start():
            return
        state.run_checks = ()  # an error's retry runs this run again, not the last checks
        if state.other_targets:
            self.start_sides(only_test)
            return
        settings = replace(state.settings, only_test=only_test, comment=state.comment)
        try:
            plan = app.engine.plan(settings)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        # A row button after a run of the same set-up repeats that row within it; anything
        # else is a new result, and every tile of the old one is cleared (it stays in the
        # history, and comes back if this run measures nothing).
        from diskmark.app.core.run_news import Begun

        state.begin_run(plan, settings)
        self.comparing.refresh()
        self._tell(Begun())
        self.set_running(True)  # before the worker starts: a second press starts nothing
        app.run_worker(bench(app.engine, settings, self.receiver), group="bench", exclusive=True,
                       exit_on_error=False)

    def start_sweep(self, pattern: str, mode: Mode) -> None:
        """Run ``pattern`` at every queue depth; the results go to the sweep's screen, never
        the tiles."""
        from diskmark.app.screens.sweep import SweepScreen
        from diskmark.engine.errors import DiskmarkError

        app = self.app
        state = app.state
        if not self._can_start():
            return
        state.run_checks = ()
        settings = replace(state.settings, sweep=pattern, mode=mode, mix=None, only_test=None,
                           comment=state.comment)
        try:
            app.engine.plan(settings)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        from diskmark.app.core.run_news import Begun

        state.plan = {}  # nothing of the grid moves during a sweep
        state.run_settings = settings
        mounted = app.push_screen(SweepScreen(pattern, mode, state.unit))
        self.set_running(True)
        self._tell(Begun(pattern))

        async def sweep() -> None:
            await mounted  # the sweep's screen listens once it is up
            await bench(app.engine, settings, self.receiver)

        app.run_worker(sweep(), group="bench", exclusive=True, exit_on_error=False)

    def start_checks(self, ids: list[str]) -> None:
        """Run the checks ``ids`` on the target with the settings on screen (no mix, no
        sweep): their tests and their own fio jobs, never onto the tiles."""
        from diskmark.checks.judge import needs
        from diskmark.engine.errors import DiskmarkError

        app = self.app
        state = app.state
        if not self._can_start() or not ids:
            return
        catalog = app.check_catalog()
        tests, jobs = needs([catalog.get(i) for i in ids])
        state.run_checks = tuple(ids)  # an error's retry runs these checks again
        settings = replace(state.settings, comment=state.comment)
        try:
            plan = app.engine.check_plan(settings, [(t.spec, t.op) for t in tests], jobs)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        from diskmark.app.core.run_news import Begun

        state.plan = {}  # nothing of the grid moves during a check run
        state.run_settings = plan.settings
        self.set_running(True)
        self._tell(Begun(checks=state.run_checks))
        app.run_worker(bench(app.engine, plan.settings, self.receiver, plan), group="bench",
                       exclusive=True, exit_on_error=False)

    def start_sides(self, only_test: int | None) -> None:
        """All (or one row) on the target and every other target chosen, each test on every
        target in turn; the figures go to the side-by-side screen, never the tiles."""
        from diskmark.app.core.run_news import Begun
        from diskmark.app.core.state import SidesRun
        from diskmark.app.screens.sides import SidesScreen
        from diskmark.engine.errors import DiskmarkError
        from diskmark.engine.sides import distinct_targets, each_target

        app = self.app
        state = app.state
        settings = replace(state.settings, only_test=only_test, comment=state.comment)
        targets = [settings.target, *state.other_targets]
        try:
            plan = app.engine.plan(settings)
            labels = distinct_targets(targets)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        state.plan = {}  # nothing of the grid moves
        state.run_settings = settings
        state.sides = SidesRun.begin(labels, settings, plan)
        mounted = app.push_screen(SidesScreen(state.unit))
        self.set_running(True)
        self._tell(Begun(sides=True))

        async def sides() -> None:
            await mounted  # the side-by-side screen listens once it is up
            await bench_sides(app.engine, each_target(settings, targets), self.receiver)

        app.run_worker(sides(), group="bench", exclusive=True, exit_on_error=False)

    def retry(self, settings: Settings) -> None:
        """The run ``settings`` was for, again (the settings may have changed since)."""
        if self.checks:
            self.start_checks(list(self.checks))
        elif settings.sweep is not None:
            self.start_sweep(settings.sweep, settings.mode)
        else:
            self.start_grid(settings.only_test)

    def show_error(self, error: BaseException | None, settings: Settings) -> None:
        """Every engine error as a dialog whose buttons are the next steps: the same run
        again without O_DIRECT, another target."""
        from diskmark.app.screens.dialogs import show_error

        show_error(self.app, error, lambda: self.retry(settings))

    def stop(self) -> None:
        if self.app.state.running:
            self.app.engine.stop()
            self.app.signals.said.publish(_("Stopping · fio ends and the test file is removed…"))

    def told_side(self, side: int, event: Event) -> None:
        """An event of one of several targets: a finished test joins its column, a step is
        its status, a notice is said naming the target."""
        from diskmark.app.core.run_news import Told
        from diskmark.app.screens.run_words import notice_severity, progress_text
        from diskmark.model.events import Notice, Progress, TestFinished

        sides = self.app.state.sides
        if sides is None:
            return
        label = sides.labels[side]
        if isinstance(event, Notice):
            # TRANSLATORS: a note about one of several targets: {target} its path
            self.app.notify(_("{target}: {text}").format(target=label, text=event.text),
                            severity=notice_severity(event.severity), timeout=10)
            return
        if isinstance(event, TestFinished):
            sides.tests[side][event.result.key] = event.result
            done, total = len(sides.tests[side]), len(sides.rows)
            # TRANSLATORS: how far one of several targets is, while another one measures
            sides.steps[side] = ngettext("{done} of {total} test measured",
                                         "{done} of {total} tests measured", total).format(
                                             done=done, total=total)
        elif isinstance(event, Progress):
            sides.steps[side] = progress_text(event)
        self._tell(Told(event, side=side))

    # --- following: the worker's messages, through the app ------------------------------

    def checking(self) -> None:
        from diskmark.app.core.run_news import Checking

        self._tell(Checking(self.sweep, self.checks))

    def told(self, event: Event) -> None:
        from diskmark.app.core.run_news import Told
        from diskmark.app.screens.run_words import notice_severity
        from diskmark.model.events import Notice, TestFinished

        state, sweep = self.app.state, self.sweep
        if isinstance(event, Notice):
            self.app.notify(event.text, severity=notice_severity(event.severity), timeout=10)
            return
        if isinstance(event, TestFinished) and sweep is None and not self.checks:
            state.test_finished(event.result)
            if state.baseline is not None:
                self.comparing.refresh()  # deltas appear as the tests finish
        self._tell(Told(event, sweep, self.checks))

    # --- ending -------------------------------------------------------------------------

    def _ended(self) -> None:
        """The worker has ended (the engine has cleaned up): the controls come back, or
        the app leaves as it was asked to."""
        self.ending.run_ended()
        self.set_running(False)

    def finished(self, session: SessionResult) -> None:
        from diskmark.app.core.run_news import Finished
        from diskmark.model.results import Status

        state, sweep, checks = self.app.state, self.sweep, self.checks
        self._ended()
        if checks:
            from diskmark.checks.judge import judge_all

            catalog = self.app.check_catalog()
            session.checks = judge_all([catalog.get(i) for i in checks], catalog, session)
            state.checks_session = session
        elif sweep is not None:
            state.sweep_session = session
        else:
            self._claims(session)
            state.run_returned(session)
            state.result_on_tiles()
            self.comparing.refresh()
        if session.status is Status.COMPLETE:
            self.comparing.keep_history(session)  # a sweep too, as `diskmark run --sweep` does
        self._tell(Finished(session, sweep, checks))
        if sweep is None and not checks and session.status is Status.FAILED and not state.quitting:
            from diskmark.app.screens.dialogs import ErrorDialog

            self.app.push_screen(ErrorDialog(
                _("The benchmark failed"), session.error or _("fio stopped with an error."),
                _("The tiles that finished are kept. Check the target (space, permissions, "
                  "a removed device) and run again.")))

    def _claims(self, session: SessionResult) -> None:
        """What the drive is claimed to do, held against its run: the claims file's for its
        model and those typed at launch (the command line's rule); the file's problems said."""
        from diskmark.checks.claims import claims_of_run

        session.claims, problems = claims_of_run(session.system.model, self.app.state.claims)
        for problem in problems:
            self.app.notify(_("Claims not read: {problem}").format(problem=problem),
                            severity="warning", timeout=10)

    def sides_finished(self, result: TargetsResult) -> None:
        """The engine returned the run on several targets: each complete target's session
        goes to the history as a run of its own."""
        from diskmark.app.core.run_news import SidesEnded
        from diskmark.model.results import Status

        state = self.app.state
        self._ended()
        if state.sides is not None:
            state.sides.result = result
        for session in result.sessions:
            if session.status is Status.COMPLETE:
                self.comparing.keep_history(session)
        self._tell(SidesEnded(result))

    def failed(self, error: BaseException) -> None:
        from diskmark.app.core.run_news import Failed

        state, sweep, checks = self.app.state, self.sweep, self.checks
        self._ended()
        if sweep is None and not checks:
            state.run_abandoned()
            state.result_on_tiles()  # nothing ran: the result is as it was
        self._tell(Failed(error, sweep, checks))
        if not state.quitting:
            self.show_error(error, state.run_settings or state.settings)

    def stopped(self) -> None:
        from diskmark.app.core.run_news import Stopped

        state, sweep, checks = self.app.state, self.sweep, self.checks
        self._ended()
        if sweep is None and not checks:
            state.run_abandoned()
            state.result_on_tiles()
        self._tell(Stopped(sweep, checks))
