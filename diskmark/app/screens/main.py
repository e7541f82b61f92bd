"""The main screen: CrystalDiskMark's window (the selectors, the tiles, the comment, the
status line), the run started from it and the result drawn on it.

It draws what the app holds (:class:`~diskmark.app.state.AppState`: the settings, the unit,
the result, the baseline) and hands every choice of setting back to the app, which owns the
settings and saves them. A run started here runs the engine in a worker
(:func:`~diskmark.app.run.bench`) whose messages come back here, to the tiles and the status
line; the app only learns that a run is under way (its keys change) and when it has ended.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Select

from diskmark.app.comparing import keep_history
from diskmark.app.protocol import AppLike, diskmark_app
from diskmark.app.run import EngineEvent, RunFailed, RunFinished, RunStarted, RunStopped, bench
from diskmark.app.run_words import live_tile, notice_severity, progress_text, run_ended_line
from diskmark.app.setup_words import describe_setup, setup_name
from diskmark.app.target import NotADirectory, filesystem_advice
from diskmark.app.widgets.comparison_line import ComparisonLine, ComparisonSummary
from diskmark.app.widgets.footer import KeysFooter
from diskmark.app.widgets.grid import ResultGrid
from diskmark.app.widgets.status import StatusLine
from diskmark.app.widgets.tiles import Live, ResultTile, RowButton
from diskmark.app.widgets.topbar import FactsLine, TargetButton, TopBar
from diskmark.engine.errors import DiskmarkError
from diskmark.locale import N_, _
from diskmark.model.results import Status
from diskmark.model.units import Unit
from diskmark.report.formatting import op_word

if TYPE_CHECKING:
    from diskmark.model.facts import SystemFacts
    from diskmark.model.settings import Settings



class CommentInput(Input):
    """The comment under the tiles. Esc and Enter leave it (back to the tiles), so the
    letters typed next are shortcuts again; n or the palette's Comment… come back to it."""

    BINDINGS = [Binding("escape", "leave", N_("Leave"), show=False),
                Binding("enter", "leave", N_("Done"), show=False)]

    def action_leave(self) -> None:
        screen = self.screen
        grid = screen.query_one("#grid", ResultGrid)
        target = next((t for t in grid.tiles if t.result is not None), None) or screen.query_one("#all")
        target.focus()


class MainScreen(Screen[None]):
    """The window a run is started from and its figures are read on."""

    @property
    def dm(self) -> AppLike:
        """The app, typed."""
        return diskmark_app(self)

    @property
    def grid(self) -> ResultGrid:
        return self.query_one("#grid", ResultGrid)

    @property
    def status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    def compose(self) -> ComposeResult:
        state = self.dm.state
        s = state.settings
        yield TopBar(count=s.count, size=s.size, target=s.target, unit=state.unit,
                     keys=state.keys, id="topbar")
        yield FactsLine(id="facts-line")
        yield ComparisonLine(id="comparison-line")
        yield ResultGrid(state.profile, s.mix, state.unit, id="grid")
        # TRANSLATORS: the comment field's placeholder; {key} is the key that types in it (n)
        yield CommentInput(placeholder=_("Comment (goes into the report) · {key} to type, "
                                         "Esc to leave").format(key=state.keys.key("edit_comment")),
                           id="comment")
        yield StatusLine(id="status")
        yield KeysFooter()

    _resumed = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """The first resume comes moments after every widget here was styled as it mounted
        (in the theme and size classes already set): Textual would style them all again,
        which cost a sixth of the first frame. Later resumes (back from a dialog, perhaps in
        another theme) restyle as usual."""
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        self.adapt(*self.app.size)
        self.sync_controls()
        self.status.show(self.ready_text())
        self.dm.main_screen_ready()

    async def speak_again(self) -> None:
        """The window in the language now in use: composed anew from the app's state (the
        settings, the result on the tiles, the comparison, the facts), as the language
        changed; nothing is measured or read again."""
        await self.recompose()
        state = self.dm.state
        self.adapt(*self.app.size)
        self.sync_controls()
        self.show_result_tiles()
        self.status.show(self.ready_text())
        self.show_comparison()
        if state.facts is not None:
            self.query_one("#facts-line", FactsLine).show_facts(state.facts)
        self.app.refresh_bindings()  # the new footer draws its keys

    def ready_text(self) -> list[str]:
        """The idle status line, naming the keys the user's keymap gives: its phrases, the
        most important first (the last goes first in a narrow terminal)."""
        keys = self.dm.state.keys
        # TRANSLATORS: the idle status line's phrases, shown joined by " · " as far as the
        # terminal's width allows; {key} is a key's name, "All" the button that runs every test
        return [_("Ready"), _("{key} or All runs every test").format(key=keys.key("run_all")),
                _("{key} lists the keys").format(key=keys.key("help")),
                _("a green button runs one row")]

    def adapt(self, width: int, height: int) -> None:
        """Borderless tiles and a one-line comment below 34 lines, a compact footer below
        100 columns (the app sets the classes that narrow the controls)."""
        self.query_one("#comment", Input).compact = height < 34
        self.grid.set_separated(height < 34)
        self.query_one(Footer).compact = width < 100

    def sync_controls(self) -> None:
        """Show the current settings in the top bar, the facts line and the grid."""
        state = self.dm.state
        s = state.settings
        fixed = state.profile.layout == "peak"
        self.query_one("#unit", Select).display = not fixed
        self.query_one("#unit-fixed").display = fixed
        self.show_setup()
        values: tuple[tuple[str, object], ...] = (("#count", s.count), ("#size", s.size),
                                                  ("#unit", state.unit))
        for select_id, value in values:
            select: Select[object] = self.query_one(select_id, Select)
            if select.value != value:
                with select.prevent(Select.Changed):
                    select.value = value
        self.query_one("#target", TargetButton).set_path(s.target)

    def settings_changed(self, old: Settings) -> None:
        """The app has taken new settings (it was ``old``): the controls show them, and
        another preset, profile or +Mix lays the grid out again."""
        new = self.dm.state.settings
        if old.target != new.target:
            self.load_facts()
        self.sync_controls()
        if (old.preset, old.profile, old.mix) != (new.preset, new.profile, new.mix):
            self.app.call_later(self.relayout)
        elif self.dm.state.result is None:
            self.show_comparison()  # before any run, the line compares the settings

    def unit_changed(self) -> None:
        """Every tile in the app's unit at once; nothing is measured again."""
        self.grid.set_unit(self.dm.state.unit)
        self.sync_controls()
        self.show_comparison()  # the line counts verdicts in the unit on screen

    def show_setup(self) -> None:
        state = self.dm.state
        self.query_one("#facts-line", FactsLine).show_setup(
            describe_setup(state), describe_setup(state, compact=True))

    def show_running(self, running: bool) -> None:
        """All and the row buttons turn into Stop; the selectors and the target wait."""
        all_button = self.query_one("#all", Button)
        all_button.label = _("Stop") if running else _("All")
        all_button.set_class(running, "-stop")
        self.grid.set_running(running)
        for select in self.query("#topbar Select").results(Select):
            select.disabled = running
        self.query_one("#target", TargetButton).disabled = running

    def focus_a_result(self) -> None:
        """After a run, Enter must show a tile's details, not start another run over it: the
        focus moves from All or a row button to the first measured tile (a comment being
        typed keeps it)."""
        focused = self.focused
        if focused is not None and not isinstance(focused, Button):
            return
        tile = next((t for t in self.grid.tiles if t.result is not None and t.result.runs), None)
        if tile is not None:
            tile.focus()

    # --- the result on the tiles ------------------------------------------------------------

    def show_result_tiles(self) -> bool:
        """Fill the tiles from the result when it fits the layout, else leave them empty.
        Returns whether it was shown."""
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        if not self.dm.state.result_on_tiles():
            return False
        for test in self.dm.state.on_tiles.values():
            self.grid.show_result(test, final=True)
        return True

    async def relayout(self) -> None:
        """Another preset, profile or +Mix: the grid changes shape. The result keeps its own
        set-up; its tiles come back whenever the layout is the one it ran under, and are
        cleared (with a word why) under any other, so no tile ever sits under a button of a
        test it did not measure."""
        state = self.dm.state
        await self.grid.rebuild(state.profile, state.settings.mix, state.unit)
        back = self.show_result_tiles()
        key = state.keys.key
        if state.result is not None and state.result.tests and not back:
            # TRANSLATORS: {setup} names a preset and profile; the others are keys' names
            self.status.show(_("Tiles cleared: the last run used {setup}; {save_report}, "
                               "{save_baseline} and {show_comparison} still use it, switching "
                               "back shows it").format(
                setup=setup_name(state.result), save_report=key("save_report"),
                save_baseline=key("save_baseline"), show_comparison=key("show_comparison")))
        elif back and state.result is not None:
            self.status.show(_("The last run's tiles ({setup}) are back")
                             .format(setup=setup_name(state.result)))
        self.show_comparison()

    def show_comparison(self) -> None:
        """Recompute the deltas of every tile and the comparison line."""
        state = self.dm.state
        line = self.query_one("#comparison-line", ComparisonLine)
        base = state.baseline
        if base is None or base.session is None:
            state.comparison = None
            self.grid.show_comparison(None)
            line.summary = None
            return
        from diskmark.report.compare import compare  # only once there is a baseline: not at start

        session = state.session_for_comparison(base.session)
        comparison = compare(session, base.session, base.name)
        measured = any(t.complete for t in session.tests)
        state.comparison = comparison if measured else None
        self.grid.show_comparison(state.comparison)
        unit = self.grid.header_unit
        line.summary = ComparisonSummary(base.name, base.started or base.saved,
                                         comparison.settings_differences,
                                         comparison.counts(unit) if measured else None,
                                         unit.label)

    def open_details(self, tile: ResultTile) -> None:
        from diskmark.app.screens.details import DetailsScreen

        result = tile.result
        if result is None or not (result.runs or result.error):
            # TRANSLATORS: {test} is a test's name (SEQ1M Q8T1), {operation} read, write or mix
            self.notify(_("{test} {operation} has not run yet.").format(
                test=tile.spec.label, operation=op_word(tile.op)))
            return
        session = self.dm.state.session_of(result)
        buffered = session is not None and not session.settings.direct
        self.app.push_screen(DetailsScreen(result, buffered=buffered, session=session))

    # --- the target's facts -------------------------------------------------------------

    @work(exclusive=True, group="facts", thread=True, exit_on_error=False)
    def load_facts(self) -> None:
        """The target's device, filesystem and free space, read off the event loop."""
        app = self.dm
        target = app.state.settings.target
        line = self.query_one("#facts-line", FactsLine)
        try:
            facts = app.facts_provider(target)
        except NotADirectory:
            self.app.call_from_thread(
                line.show_facts, None, _("{target} is not a directory: press {key} to choose the "
                                         "target").format(target=target,
                                                          key=app.state.keys.key("pick_target")))
            return
        except FileNotFoundError as e:
            self.app.call_from_thread(line.show_facts, None, str(e))
            return
        except Exception as e:  # facts decorate; they never stop anything
            self.app.call_from_thread(line.show_facts, None, _("No details about {target}: "
                                                               "{error}").format(target=target, error=e))
            return
        self.app.call_from_thread(self._facts_loaded, facts)

    def _facts_loaded(self, facts: SystemFacts) -> None:
        state = self.dm.state
        state.facts = facts
        self.query_one("#facts-line", FactsLine).show_facts(facts)
        if state.result is None:
            self.show_comparison()  # another device or filesystem than the baseline's?
        key = (facts.target, facts.fstype)
        if key in state.advised:
            return
        state.advised.add(key)
        advice = filesystem_advice(facts, state.settings.nocow, state.keys)
        if advice is not None:
            title, text = advice
            self.app.notify(text, title=title, severity="warning", timeout=12)

    # --- a run --------------------------------------------------------------------------

    def start_run(self, only_test: int | None) -> None:
        """All (``only_test`` None) or one row. Builds Settings; the engine does the rest."""
        from diskmark.app.screens.fleet import fleet_open

        app = self.dm
        state = app.state
        if state.running or fleet_open(self.app):
            return
        settings = replace(state.settings, only_test=only_test, comment=state.comment)
        try:
            plan = app.engine.plan(settings)
        except DiskmarkError as e:
            app.show_error(e, settings)
            return
        # A row button after a run of the same set-up repeats that row within it; anything
        # else is a new result, and every tile of the old one is cleared (it stays in the
        # history, and comes back if this run measures nothing).
        kept = state.begin_run(plan, settings)
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        for test in kept:
            self.grid.show_result(test, final=True)
        self.show_comparison()
        app.set_running(True)  # before the worker starts: a second press starts nothing
        self.run_worker(bench(app.engine, settings, self), group="bench", exclusive=True,
                        exit_on_error=False)

    def on_run_started(self, _message: RunStarted) -> None:
        if self.dm.state.running:
            self.status.show(_("Checking the target…"), 0.0)

    def on_engine_event(self, message: EngineEvent) -> None:
        from diskmark.model.events import Notice, Progress, TestFinished, TestStarted
        from diskmark.model.events import RunFinished as PassFinished

        event, grid, state = message.event, self.grid, self.dm.state
        if isinstance(event, Progress):
            if not state.running:
                return
            if not self.dm.state.quitting:
                # the ETA goes to the right of the status line, next to the session's bar
                self.status.show(progress_text(event), event.session_percent, event.eta_s)
            test = state.plan.get(event.test_index) if event.test_index is not None else None
            live = live_tile(event) if test is not None else None
            if test is not None and live is not None:
                grid.show_live(test.row, test.op, live)
        elif isinstance(event, TestStarted):
            grid.show_live(event.result.index, event.result.op, Live(0.0, None, _("warm-up")))
            grid.mark_current_row(event.result.index)
        elif isinstance(event, PassFinished):
            if not event.warmup:
                grid.show_result(event.result, final=False)
        elif isinstance(event, TestFinished):
            state.test_finished(event.result)
            grid.show_result(event.result, final=True)
            if state.baseline is not None:
                self.show_comparison()  # deltas appear as the tests finish
        elif isinstance(event, Notice):
            self.app.notify(event.text, severity=notice_severity(event.severity), timeout=10)

    def on_run_finished(self, message: RunFinished) -> None:
        from diskmark.app.screens.dialogs import ErrorDialog

        app = self.dm
        self._run_ending()
        session, state = message.session, app.state
        measured = any(t.runs for t in session.tests)
        state.run_returned(session)
        self.show_result_tiles()
        self.focus_a_result()
        self.show_comparison()
        self.show_setup()
        if session.status is Status.COMPLETE:
            keep_history(self.app, session)
        self.status.show(run_ended_line(
            session, measured=measured, keys=state.keys, comparison=state.comparison,
            baseline_name=state.baseline.name if state.baseline is not None else None,
            unit=self.grid.header_unit, shown=state.on_tiles.values()))
        if session.status is Status.FAILED and not app.state.quitting:
            self.app.push_screen(ErrorDialog(
                _("The benchmark failed"), session.error or _("fio stopped with an error."),
                _("The tiles that finished are kept. Check the target (space, permissions, "
                  "a removed device) and run again.")))

    def on_run_failed(self, message: RunFailed) -> None:
        app = self.dm
        self._run_ending()
        app.state.run_abandoned()
        self.show_result_tiles()  # nothing ran: the result is as it was
        self.status.show(_("Not started · see the message"))
        if not app.state.quitting:
            app.show_error(message.error, app.state.run_settings)

    def on_run_stopped(self, _message: RunStopped) -> None:
        self._run_ending()
        self.dm.state.run_abandoned()
        self.show_result_tiles()

    def _run_ending(self) -> None:
        self.dm.run_ended()
        self.grid.end_live()

    # --- what the widgets ask for -----------------------------------------------------------

    @on(Select.Changed, "#count")
    def _count_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.dm.change_settings(count=event.value)

    @on(Select.Changed, "#size")
    def _size_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.dm.change_settings(size=event.value)

    @on(Select.Changed, "#unit")
    def _unit_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, Unit):
            self.dm.set_unit(event.value)

    @on(Input.Changed, "#comment")
    def _comment_changed(self, event: Input.Changed) -> None:
        self.dm.state.comment = event.value

    def on_button_pressed(self, event: Button.Pressed) -> None:
        app, button = self.dm, event.button
        if isinstance(button, TargetButton):
            app.action_pick_target()
        elif app.state.running and (button.id == "all" or isinstance(button, RowButton)):
            app.action_stop()
        elif button.id == "all":
            self.start_run(None)
        elif isinstance(button, RowButton):
            self.start_run(button.row)

    @on(ResultTile.Selected)
    def _tile_selected(self, event: ResultTile.Selected) -> None:
        self.open_details(event.tile)
