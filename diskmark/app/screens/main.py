"""The main screen: CrystalDiskMark's window (the selectors, the tiles, the comment, the
status line) and what its own widgets do when pressed, chosen or resized.

It draws what the app holds (the settings, the unit, the result) and hands every choice
back to the app, which owns the settings and the runs; the app's ``running`` watcher tells
it to switch its controls between All and Stop.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Select

from diskmark.app.widgets.comparison_line import ComparisonLine
from diskmark.app.widgets.grid import ResultGrid
from diskmark.app.widgets.status import StatusLine
from diskmark.app.widgets.tiles import ResultTile, RowButton
from diskmark.app.widgets.topbar import FactsLine, TargetButton, TopBar
from diskmark.report.formatting import MODE_LABELS
from diskmark.model.names import mix_label
from diskmark.model.settings import UNSTABLE_PCT, DataPattern, Mode
from diskmark.model.units import Unit, format_size

if TYPE_CHECKING:
    from diskmark.app.app import DiskmarkApp


class CommentInput(Input):
    """The comment under the tiles. Esc and Enter leave it (back to the tiles), so the
    letters typed next are shortcuts again; n or the palette's Comment… come back to it."""

    BINDINGS = [Binding("escape", "leave", "Leave", show=False),
                Binding("enter", "leave", "Done", show=False)]

    def action_leave(self) -> None:
        screen = self.screen
        grid = screen.query_one("#grid", ResultGrid)
        target = next((t for t in grid.tiles if t.result is not None), None) or screen.query_one("#all")
        target.focus()


class MainScreen(Screen[None]):
    """The window a run is started from and its figures are read on."""

    @property
    def dm(self) -> DiskmarkApp:
        """The app, typed."""
        return cast("DiskmarkApp", self.app)

    @property
    def grid(self) -> ResultGrid:
        return self.query_one("#grid", ResultGrid)

    @property
    def status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    def compose(self) -> ComposeResult:
        app = self.dm
        s = app.state.settings
        yield TopBar(count=s.count, size=s.size, target=s.target, unit=app.state.unit, keys=app.state.keys,
                     id="topbar")
        yield FactsLine(id="facts-line")
        yield ComparisonLine(id="comparison-line")
        yield ResultGrid(app.state.profile, s.mix, app.state.unit, id="grid")
        yield CommentInput(placeholder=f"Comment (goes into the report) · "
                                       f"{app.key('edit_comment')} to type, Esc to leave",
                           id="comment")
        yield StatusLine(id="status")
        yield Footer()

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

    def ready_text(self) -> list[str]:
        """The idle status line, naming the keys the user's keymap gives: its phrases, the
        most important first (the last goes first in a narrow terminal)."""
        app = self.dm
        return ["Ready", f"{app.key('run_all')} or All runs every test",
                f"{app.key('help')} lists the keys", "a green button runs one row"]

    def adapt(self, width: int, height: int) -> None:
        """Borderless tiles and a one-line comment below 34 lines, a compact footer below
        100 columns (the app sets the classes that narrow the controls)."""
        self.query_one("#comment", Input).compact = height < 34
        self.grid.set_separated(height < 34)
        self.query_one(Footer).compact = width < 100

    def sync_controls(self) -> None:
        """Show the current settings in the top bar, the facts line and the grid."""
        app = self.dm
        s = app.state.settings
        fixed = app.state.profile.layout == "peak"
        self.query_one("#unit", Select).display = not fixed
        self.query_one("#unit-fixed").display = fixed
        self.show_setup()
        for select_id, value in (("#count", s.count), ("#size", s.size), ("#unit", app.state.unit)):
            select = self.query_one(select_id, Select)
            if select.value != value:
                with select.prevent(Select.Changed):
                    select.value = value
        self.query_one("#target", TargetButton).set_path(s.target)

    def show_setup(self) -> None:
        self.query_one("#facts-line", FactsLine).show_setup(self.describe_setup(),
                                                           self.describe_setup(compact=True))

    def describe_setup(self, compact: bool = False) -> str:
        """How the next run is set up, in words (``compact``: for a narrow terminal, still
        labelled: "5 s/pass" is the measure time, "5 s rest" the interval)."""
        app = self.dm
        s, preset, profile = app.state.settings, app.state.preset, app.state.profile
        plan_measure, plan_interval = app.state.plan_times()
        name = preset.name
        if profile.name != "Default":
            shown = profile.name.removesuffix(" Performance") if compact else profile.name
            name = f"{name} · {shown}"
        parts = [name]
        if s.mode is not Mode.READ_WRITE:
            parts.append(MODE_LABELS[s.mode])
        if s.mix is not None and profile.mix:
            parts.append(f"+Mix {mix_label(s.mix)}")
        if s.data is DataPattern.ZEROS:
            parts.append("All 0x00")
        elif s.data is DataPattern.REFILL:
            parts.append("fresh random data")
        if not s.direct:
            parts.append("buffered")
        elif self._shown_buffered():
            parts.append("tiles: buffered")  # the shown figures came from a buffered run
        if s.nocow:
            parts.append("NOCOW")
        if s.unstable_pct != UNSTABLE_PCT:
            parts.append(f"~ when passes differ > {s.unstable_pct:g}%")
        if profile.layout == "sustained":  # one write, no passes: how long, how much
            amount = f" or {format_size(s.amount)}" if s.amount else ""
            return " · ".join([*parts, f"write {s.duration:g} s{amount}"])
        parts.append(f"{plan_measure:g} s/pass, {plan_interval:g} s rest" if compact else
                     f"measure {plan_measure:g} s, interval {plan_interval:g} s")
        return " · ".join(parts)

    def _shown_buffered(self) -> bool:
        app = self.dm
        return any(not session.settings.direct for session in app.state.history
                   if any(t is r for t in session.tests for r in app.state.on_tiles.values()))

    def show_running(self, running: bool) -> None:
        """All and the row buttons turn into Stop; the selectors and the target wait."""
        all_button = self.query_one("#all", Button)
        all_button.label = "Stop" if running else "All"
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

    # --- what the widgets ask for -----------------------------------------------------------

    @on(Select.Changed, "#count")
    def _count_changed(self, event: Select.Changed) -> None:
        self.dm.change_settings(count=int(event.value))  # type: ignore[arg-type]

    @on(Select.Changed, "#size")
    def _size_changed(self, event: Select.Changed) -> None:
        self.dm.change_settings(size=int(event.value))  # type: ignore[arg-type]

    @on(Select.Changed, "#unit")
    def _unit_changed(self, event: Select.Changed) -> None:
        self.dm.set_unit(Unit(event.value))

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
            app.start_run(None)
        elif isinstance(button, RowButton):
            app.start_run(button.row)

    @on(ResultTile.Selected)
    def _tile_selected(self, event: ResultTile.Selected) -> None:
        self.dm.open_details(event.tile)
