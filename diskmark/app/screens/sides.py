"""Several targets side by side: the run on every target chosen (the target, the reference,
and those added in the target picker), each test on every target in turn, drawn as a table
of one row per test and one column per target, every target but the first with its verdict
against the first (▲ better, ▼ worse, = within the passes' noise), as ``diskmark run --target
A --target B`` prints it (:mod:`diskmark.report.side_by_side`).

The app's run controller runs it and tells its steps; this screen draws them from the
state (``state.sides``). Esc stops a run under way, then closes; u changes the unit, c copies
the table, o goes back to measuring the target alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Label, Static

from diskmark.app.core.news import listen
from diskmark.app.core.protocol import diskmark_app
from diskmark.app.core.run_news import Failed, RunNews, SidesEnded, Told
from diskmark.app.widgets.plain import PlainStatic
from diskmark.locale import N_, _, ngettext
from diskmark.locale.text_safety import shown
from diskmark.model.units import Unit
from diskmark.report.cells import text_cells
from diskmark.report.side_by_side import (
    aligned,
    label_tail,
    legend,
    sharing_text,
    side_cells,
    status_text,
)

if TYPE_CHECKING:
    from diskmark.app.core.state import SidesRun

UNITS = list(Unit)


class SidesView:
    """The targets of ``state.sides`` as a side by side (the protocol the reports read)."""

    def __init__(self, sides: SidesRun) -> None:
        self.labels = sides.labels
        self.sessions = sides.sessions()


class SidesScreen(ModalScreen[None]):
    """The targets' table as the tests finish, each target's step, then how each ended."""

    BINDINGS = [
        Binding("escape", "close", N_("Stop / Close")),
        Binding("u", "cycle_unit", N_("Unit")),
        Binding("c", "copy", N_("Copy the table")),
        Binding("o", "one_target", N_("One target")),
    ]

    def __init__(self, unit: Unit = Unit.MB_S) -> None:
        super().__init__(classes="details sides")
        self.unit = unit
        self.running = True

    def compose(self) -> ComposeResult:
        sides = diskmark_app(self).state.sides
        count = len(sides.labels) if sides is not None else 0
        with Vertical(classes="details-box"):
            # TRANSLATORS: the side-by-side screen's title; {count} targets (2, 3…)
            yield Label(ngettext("{count} target side by side · each test on every target in turn",
                                 "{count} targets side by side · each test on every target in "
                                 "turn", count).format(count=count), classes="dialog-title")
            yield PlainStatic(_("Starting…"), id="sides-status", classes="details-verdict")
            with VerticalScroll(classes="details-body"):
                yield DataTable(cursor_type="none", zebra_stripes=True, id="sides-table")
                yield PlainStatic("", id="sides-notes", classes="details-note")
            short = self.app.has_class("-short")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Copy"), id="copy", compact=short)
                yield Button(_("One target"), id="one", compact=short, disabled=True)
                yield Button(_("Stop"), id="close", variant="error", compact=short)

    def on_mount(self) -> None:
        self.query_one(DataTable).can_focus = False  # arrows scroll the whole body
        self.query_one(".details-body", VerticalScroll).focus()
        self.draw()
        listen(diskmark_app(self).signals.run, self, self._run_news)

    def on_resize(self, event: events.Resize) -> None:
        """Borderless buttons on a short terminal leave the lines to the content; the
        columns fit the width again."""
        for button in self.query(Button):
            button.compact = event.size.height < 34
        self.draw()

    # --- the run, as the app tells it -----------------------------------------------------

    def _run_news(self, news: RunNews) -> None:
        from diskmark.model.events import Progress, TestFinished

        if isinstance(news, Told) and news.side is not None:
            if isinstance(news.event, Progress):
                self._draw_status()
            elif isinstance(news.event, TestFinished):
                self.draw()
        elif isinstance(news, SidesEnded):
            self.running = False
            button = self.query_one("#close", Button)
            button.label, button.variant = _("Close"), "primary"
            button.refresh(layout=True)  # as wide as its new word ("Schließen" is wider than "Stopp")
            self.query_one("#one", Button).disabled = False
            self.draw()
        elif isinstance(news, Failed):
            self.dismiss(None)  # the error's dialog says why

    # --- what it shows -------------------------------------------------------------------

    def status_lines(self) -> list[str]:
        """A line per target: what it does now, or how it ended."""
        sides = diskmark_app(self).state.sides
        if sides is None:
            return []
        lines = []
        for i, label in enumerate(sides.labels):
            if sides.result is not None:
                state = status_text(sides.result.sessions[i])
            else:
                state = sides.steps[i] or _("waiting")
            name = shown(label, one_line=True)
            # TRANSLATORS: the first target, the others are judged against: {target} its path
            who = _("{target} (reference)").format(target=name) if i == 0 else name
            lines.append(f"{who}: {state}")
        return lines

    def _draw_status(self) -> None:
        self.query_one("#sides-status", Static).update("\n".join(self.status_lines()))

    def draw(self) -> None:
        """The table in the screen's unit, each column as wide as the screen allows."""
        sides = diskmark_app(self).state.sides
        self._draw_status()
        table = self.query_one("#sides-table", DataTable)
        table.clear(columns=True)
        if sides is None:
            return
        view = SidesView(sides)
        rows, cells = side_cells(view, self.unit, judged=True, rows=sides.rows)
        if sides.result is None:  # not measured yet, rather than not measured at all
            cells = [[("" if figure == "-" else figure, change) for figure, change in row]
                     for row in cells]
        texts = aligned(cells)
        test_width = max([text_cells(_("Test"))] + [text_cells(title) for _key, title in rows])
        room = max((self.size.width or 80) - test_width - 12, 24) // len(sides.labels)
        # every column as wide as its widest text, set here: the table's own measure of a
        # column added to a table being cleared and filled again lagged a draw behind
        table.add_column(_("Test"), key="test", width=test_width)
        for i, label in enumerate(sides.labels):
            # TRANSLATORS: a column's heading: a target's path and the unit (MB/s, IOPS…)
            heading = _("{target} {unit}").format(
                target=shown(label_tail(label, max(room - 6, 8)), one_line=True),
                unit=self.unit.label)
            width = max([text_cells(heading)] + [text_cells(row[i]) for row in texts])
            table.add_column(Text(heading, justify="right"), key=f"t{i}", width=width)
        for (key, title), row in zip(rows, texts):
            table.add_row(title, *(Text(cell, justify="right") for cell in row), key=key)
        notes = [legend()]
        if any(t.cpu_limited for s in view.sessions for t in s.tests):
            notes.insert(0, "* " + _("the CPU, not the drive, set this figure"))
        if sides.result is not None:
            notes += [sharing_text(shared) for shared in sides.result.sharing]
            # TRANSLATORS: the side-by-side screen's keys, once the run has ended
            notes.append(_("u changes the unit, c copies the table, o measures the target "
                           "alone again"))
        self.query_one("#sides-notes", Static).update("\n".join(notes))

    def figures(self) -> list[dict[str, str]]:
        """Per target, per test: the figure and change shown (tests read this)."""
        sides = diskmark_app(self).state.sides
        if sides is None:
            return []
        rows, cells = side_cells(SidesView(sides), self.unit, judged=True, rows=sides.rows)
        return [{key: " ".join(part for part in row[i] if part)
                 for (key, _title), row in zip(rows, cells) if row[i][0] != "-"}
                for i in range(len(sides.labels))]

    # --- actions --------------------------------------------------------------------------

    def action_close(self) -> None:
        if self.running:
            diskmark_app(self).action_stop()
        else:
            self.dismiss(None)

    def action_cycle_unit(self) -> None:
        self.unit = UNITS[(UNITS.index(self.unit) + 1) % len(UNITS)]
        self.draw()

    def action_copy(self) -> None:
        from diskmark.report.side_by_side import targets_text

        sides = diskmark_app(self).state.sides
        if sides is None or sides.result is None:
            self.notify(_("The table can be copied once the run has ended."))
            return
        diskmark_app(self).copy(targets_text(sides.result, self.unit), _("Table copied"))

    def action_one_target(self) -> None:
        """Measure the target alone again, and close."""
        if self.running:
            return
        diskmark_app(self).one_target()
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy()
        elif event.button.id == "one":
            self.action_one_target()
        else:
            self.action_close()
