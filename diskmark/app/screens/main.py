"""The main screen: CrystalDiskMark's window (the selectors, the tiles, the comment, the
status line), drawing what the app holds and asking the app for everything else.

It draws :class:`~diskmark.app.core.state.AppState` (the settings, the unit, the result, the
baseline, the run under way) and listens to what the app announces
(:class:`~diskmark.app.core.news.AppSignals`): a changed setting, unit or baseline, the
target's facts, each step of a run, the main grid's and a sweep's. Every choice made here
(a selector, the comment, All, a row button) is asked of the app, which changes the state
and announces it; the screen writes no state of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.command import Hit, Hits, Provider
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Select

from diskmark.app.core.news import listen
from diskmark.app.core.protocol import AppLike, diskmark_app
from diskmark.app.screens.run_words import (
    checks_ended_line,
    live_tile,
    progress_text,
    run_ended_line,
    sides_ended_line,
    sweep_ended_line,
)
from diskmark.app.screens.setup_words import describe_setup, setup_name
from diskmark.app.widgets.comparison_line import ComparisonLine, ComparisonSummary
from diskmark.app.widgets.footer import KeysFooter
from diskmark.app.widgets.grid import ResultGrid
from diskmark.app.widgets.status import StatusLine
from diskmark.app.widgets.tiles import Live, ResultTile, RowButton, stop_word
from diskmark.app.widgets.topbar import FactsLine, TargetButton, TopBar
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shown
from diskmark.model.settings import Op
from diskmark.model.units import Unit
from diskmark.report.formatting import op_word

if TYPE_CHECKING:
    from textual.geometry import Size

    from diskmark.app.core.run_news import RunNews
    from diskmark.model.events import Event
    from diskmark.model.facts import SystemFacts
    from diskmark.model.settings import Settings

#: The palette's entry for a tile's details, by the tile's operation.
DETAILS = {Op.READ: N_("Details: {test} read"), Op.WRITE: N_("Details: {test} write"),
           Op.MIX: N_("Details: {test} mix")}


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


class TileDetails(Provider):
    """The palette's entries of the main screen: the details of each tile holding a figure
    (one per test: Peak's rows in IOPS and µs repeat the MB/s row's)."""

    async def search(self, query: str) -> Hits:
        screen = self.screen
        if not isinstance(screen, MainScreen):
            return
        matcher = self.matcher(query)
        for tile in screen.grid.tiles:
            if tile.result is None or not tile.result.runs or tile.fixed_unit not in (None, Unit.MB_S):
                continue
            # TRANSLATORS: {test} is a test's name as CrystalDiskMark writes it (SEQ1M Q8T1)
            title = shown(_(DETAILS[tile.op]).format(test=tile.spec.label))
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(screen.open_details, tile),
                          help=escape(shown(_("Every pass and the fio command line"))))


T = TypeVar("T")


class MainScreen(Screen[None]):
    """The window a run is started from and its figures are read on."""

    COMMANDS = {TileDetails}

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
        signals, built = self.dm.signals, self._once_built
        listen(signals.settings, self, built(self._settings_changed))
        listen(signals.targets, self, built(lambda _none: self.sync_controls()))  # and the setup
        listen(signals.unit, self, built(self._unit_changed))
        listen(signals.running, self, built(self.show_running))
        listen(signals.baseline, self, built(lambda _none: self.show_comparison()))
        listen(signals.facts, self, built(self._facts_read))
        listen(signals.run, self, built(self._run_news))
        listen(signals.said, self, built(lambda text: self.status.show(text)))
        listen(signals.language, self, self._language_changed)
        listen(signals.comment, self, built(lambda _none: self.query_one("#comment", Input).focus()))
        listen(signals.size, self, built(self._size_changed))
        self.dm.main_screen_ready()

    #: While the window is composed anew (a language chosen), the news that arrives for it,
    #: handed on once it is built; None the rest of the time.
    _waiting: list[Callable[[], object]] | None = None

    def _once_built(self, callback: Callable[[T], object]) -> Callable[[T], None]:
        """``callback`` as a signal's listener that holds what arrives while the window is
        half built (its widgets gone or not yet there: the target's facts, read on a thread,
        stopped the app so once) and hands it on, in order, once it is built."""

        def call(data: T) -> None:
            if self._waiting is not None:
                self._waiting.append(partial(callback, data))
            else:
                callback(data)

        return call

    def _language_changed(self, _language: str) -> None:
        self.run_worker(self.speak_again(), group="language", exclusive=True)

    def _size_changed(self, size: Size) -> None:
        self.adapt(size.width, size.height)

    async def speak_again(self) -> None:
        """The window in the language now in use: composed anew from the app's state (the
        settings, the result on the tiles, the comparison, the facts), as the language
        changed; nothing is measured or read again."""
        self._waiting = []
        try:
            await self.recompose()
        finally:
            waiting, self._waiting = self._waiting, None
        state = self.dm.state
        self.adapt(*self.app.size)
        self.sync_controls()
        self.show_result_tiles()
        self.status.show(self.ready_text())
        self.show_comparison()
        if state.facts is not None:
            self.query_one("#facts-line", FactsLine).show_facts(state.facts)
        for news in waiting:
            news()
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
        self.query_one("#target", TargetButton).set_path(s.target, state.other_targets)

    def _settings_changed(self, old: Settings) -> None:
        """The app has taken new settings (it was ``old``): the controls show them, and
        another preset, profile or +Mix lays the grid out again."""
        state = self.dm.state
        new = state.settings
        self.sync_controls()
        if (old.preset, old.profile, old.mix) != (new.preset, new.profile, new.mix) or (
                self.grid.profile != state.profile):  # a preset saved again with other rows
            self.app.call_later(self.relayout)
        elif state.result is None:
            self.show_comparison()  # before any run, the line compares the settings

    def _unit_changed(self, unit: Unit) -> None:
        """Every tile in the app's unit at once; nothing is measured again."""
        self.grid.set_unit(unit)
        self.sync_controls()
        self.show_comparison()  # the line counts verdicts in the unit on screen

    def show_setup(self) -> None:
        state = self.dm.state
        self.query_one("#facts-line", FactsLine).show_setup(
            describe_setup(state), describe_setup(state, compact=True))

    def show_running(self, running: bool) -> None:
        """All and the row buttons turn into Stop; the selectors and the target wait."""
        all_button = self.query_one("#all", Button)
        all_button.label = stop_word() if running else _("All")
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

    def show_result_tiles(self) -> None:
        """The tiles the state holds (the result's, when it fits the layout), the others
        empty."""
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        state = self.dm.state
        for test in state.on_tiles.values():
            self.grid.show_result(test, final=True)
        result = state.result
        if result is not None and result.claims:
            from diskmark.report.claim_marks import claim_marks

            self.grid.show_claims(claim_marks(result))

    async def relayout(self) -> None:
        """Another preset, profile or +Mix: the grid changes shape. The result keeps its own
        set-up; its tiles come back whenever the layout is the one it ran under, and are
        cleared (with a word why) under any other, so no tile ever sits under a button of a
        test it did not measure."""
        state = self.dm.state
        await self.grid.rebuild(state.profile, state.settings.mix, state.unit)
        self.show_result_tiles()
        back = state.result is not None and state.fits_layout(state.result)
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
        """The deltas of every tile and the comparison line, as the app worked them out."""
        state = self.dm.state
        line = self.query_one("#comparison-line", ComparisonLine)
        base, compared = state.baseline, state.compared
        if base is None or compared is None:
            self.grid.show_comparison(None)
            line.summary = None
            return
        comparison = state.comparison
        self.grid.show_comparison(comparison)
        unit = self.grid.header_unit
        line.summary = ComparisonSummary(base.name, base.started or base.saved,
                                         compared.settings_differences,
                                         comparison.counts(unit) if comparison else None,
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

    def _facts_read(self, facts: SystemFacts | str) -> None:
        """The target's facts, or why there are none."""
        line = self.query_one("#facts-line", FactsLine)
        if isinstance(facts, str):
            line.show_facts(None, facts)
            return
        line.show_facts(facts)
        if self.dm.state.result is None:
            self.show_comparison()  # another device or filesystem than the baseline's?

    # --- a run, as the app tells it ---------------------------------------------------------

    def _run_news(self, news: RunNews) -> None:
        """A step of the run under way: the grid's run fills the tiles; of a sweep (on its
        own screen) the status line says how far it is."""
        from diskmark.app.core.run_news import (
            Begun,
            Checking,
            Failed,
            Finished,
            SidesEnded,
            Stopped,
            Told,
        )

        state = self.dm.state
        if isinstance(news, Begun):
            if news.sides:
                self.status.show(_("Targets side by side · checking the targets…"), 0.0)
                return
            if news.sweep is not None:
                self.status.show(_("Queue-depth sweep {pattern} · checking the target…")
                                 .format(pattern=news.sweep), 0.0)
                return
            if news.checks:
                self.status.show(_("Checks {checks} · checking the target…")
                                 .format(checks=", ".join(news.checks)), 0.0)
                return
            self.show_result_tiles()  # the tiles a row run keeps; a new result clears them
            self.show_comparison()
        elif isinstance(news, Checking):
            if state.running:
                self.status.show(_("Checking the target…"), 0.0)
        elif isinstance(news, Told) and news.side is not None:
            self._side_event(news.event, news.side)
        elif isinstance(news, Told):
            self._engine_event(news.event, sweep=not news.on_grid)
        elif isinstance(news, SidesEnded):
            self.status.show(sides_ended_line(news.result))
        elif isinstance(news, Finished):
            if news.sweep is not None:
                self.status.show(sweep_ended_line(news.session))
                return
            if news.checks:
                self.status.show(checks_ended_line(news.session))
                return
            self.grid.end_live()
            session = news.session
            self.show_result_tiles()
            self.focus_a_result()
            self.show_comparison()
            self.show_setup()
            self.status.show(run_ended_line(
                session, measured=any(t.runs for t in session.tests), keys=state.keys,
                comparison=state.comparison,
                baseline_name=state.baseline.name if state.baseline is not None else None,
                unit=self.grid.header_unit, shown=state.on_tiles.values()))
        elif isinstance(news, Failed):
            if news.on_grid:
                self.grid.end_live()
                self.show_result_tiles()  # nothing ran: the result is as it was
            self.status.show(_("Not started · see the message"))
        elif isinstance(news, Stopped) and news.on_grid:
            self.grid.end_live()
            self.show_result_tiles()

    def _side_event(self, event: Event, side: int) -> None:
        """A step of one of several targets (their table is on its own screen): the status
        line says which target does what."""
        from diskmark.model.events import Progress

        state = self.dm.state
        if isinstance(event, Progress) and state.running and not state.quitting \
                and state.sides is not None:
            self.status.show(_("{target}: {text}").format(
                target=state.sides.labels[side], text=progress_text(event)),
                event.session_percent, event.eta_s)

    def _engine_event(self, event: Event, *, sweep: bool) -> None:
        from diskmark.model.events import Progress, TestFinished, TestStarted
        from diskmark.model.events import RunFinished as PassFinished

        grid, state = self.grid, self.dm.state
        if isinstance(event, Progress):
            if not state.running or (sweep and state.quitting):
                return
            if not state.quitting:
                # the ETA goes to the right of the status line, next to the session's bar
                self.status.show(progress_text(event), event.session_percent, event.eta_s)
            test = state.plan.get(event.test_index) if event.test_index is not None else None
            live = live_tile(event) if test is not None else None
            if test is not None and live is not None:
                grid.show_live(test.row, test.op, live)
        elif sweep:
            return  # the sweep's screen draws its depths
        elif isinstance(event, TestStarted):
            grid.show_live(event.result.index, event.result.op, Live(0.0, None, _("warm-up")))
            grid.mark_current_row(event.result.index)
        elif isinstance(event, PassFinished):
            if not event.warmup:
                grid.show_result(event.result, final=False)
        elif isinstance(event, TestFinished):
            grid.show_result(event.result, final=True)
            if state.baseline is not None:
                self.show_comparison()  # deltas appear as the tests finish

    # --- what the widgets ask for -----------------------------------------------------------

    @on(Select.Changed, "#count")
    def _count_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.dm.change_settings(count=event.value)

    @on(Select.Changed, "#size")
    def _size_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.dm.change_settings(size=event.value)

    @on(Select.Changed, "#unit")
    def _unit_chosen(self, event: Select.Changed) -> None:
        if isinstance(event.value, Unit):
            self.dm.set_unit(event.value)

    @on(Input.Changed, "#comment")
    def _comment_changed(self, event: Input.Changed) -> None:
        self.dm.set_comment(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        app, button = self.dm, event.button
        if isinstance(button, TargetButton):
            app.action_pick_target()
        elif app.state.running and (button.id == "all" or isinstance(button, RowButton)):
            app.action_stop()
        elif button.id == "all":
            app.start_run(None)
        elif isinstance(button, RowButton):
            app.start_run(button.row)

    @on(ResultTile.Selected)
    def _tile_selected(self, event: ResultTile.Selected) -> None:
        self.open_details(event.tile)
