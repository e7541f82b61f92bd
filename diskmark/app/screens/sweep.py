"""The queue-depth sweep: one pattern at Q1, 2, 4, 8, 16, 32, drawn as a curve (the RAID6
offset/fragmentation article swept the queue depth the same way).

A dialog picks the pattern and the operation; the app's run controller runs it through the
same engine as everything else (``Settings.sweep``: the UI never builds fio options) and
tells its steps; the sweep's screen draws the depths as they finish, and the main window's
status line says how far it is. The curve shows where a device stops gaining from a deeper
queue.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Label, Select, Static

from diskmark.app.core.news import listen
from diskmark.app.core.protocol import diskmark_app
from diskmark.app.core.run_news import Failed, Finished, RunNews, Told
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.screens.run_words import progress_text
from diskmark.app.widgets.plain import PlainStatic
from diskmark.engine.plan import operations
from diskmark.locale import N_, _, ngettext, pgettext
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import SWEEP_DEPTHS, Mode, Op
from diskmark.model.units import Unit, format_size
from diskmark.report.formatting import format_duration, format_figure, op_word
from diskmark.report.text import curve_report

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike

#: The patterns a sweep offers, each with what it is (translated where shown).
PATTERNS = [("RND4K", N_("random 4 KiB")), ("SEQ1M", N_("sequential 1 MiB")),
            ("SEQ128K", N_("sequential 128 KiB"))]
UNITS = list(Unit)


def sweep_modes() -> list[tuple[str, Mode]]:
    """The operations a sweep can measure, named in the language in use."""
    return [(pgettext("operation", "Read"), Mode.READ), (pgettext("operation", "Write"), Mode.WRITE),
            (pgettext("operation", "Read & Write"), Mode.READ_WRITE)]


_PARTIAL = " ▏▎▍▌▋▊▉"


class SweepDialog(Dialog[tuple[str, Mode]]):
    """Which pattern and operation to sweep; dismisses with ``(pattern, mode)`` or None."""

    def __init__(self, estimate: Callable[[str, Mode], str], pattern: str = "RND4K",
                 mode: Mode = Mode.READ) -> None:
        """``estimate(pattern, mode)`` says how long the sweep will take, in words."""
        super().__init__(_("Queue-depth sweep"), classes="sweep-dialog")
        self.estimate = estimate
        self.pattern = pattern
        self.mode = mode

    def body(self) -> ComposeResult:
        # TRANSLATORS: {depths} is "1, 2, 4, 8, 16, 32"
        yield Static(_("One pattern at queue depths {depths} (one thread), drawn as a curve: "
                       "where the figures stop growing, the device is saturated. Size, count "
                       "and measure time are the window's.")
                     .format(depths=", ".join(str(q) for q in SWEEP_DEPTHS)),
                     classes="dialog-hint")
        with Grid(classes="form"):
            yield Label(_("Pattern"))
            yield Select([(f"{pattern}: {_(what)}", pattern) for pattern, what in PATTERNS],
                         value=self.pattern, allow_blank=False, compact=True, id="pattern")
            yield Label(_("Operation"))
            yield Select(sweep_modes(), value=self.mode, allow_blank=False, compact=True,
                         id="sweep-mode")
        yield Static(self._estimate(), id="estimate", classes="dialog-hint", markup=False)

    def buttons(self) -> ComposeResult:
        yield Button(_("Run sweep"), id="run", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#pattern", Select).focus()

    def _choice(self) -> tuple[str, Mode]:
        mode = self.query_one("#sweep-mode", Select).value
        return (str(self.query_one("#pattern", Select).value),
                mode if isinstance(mode, Mode) else Mode(str(mode)))

    def _estimate(self) -> str:
        try:
            return self.estimate(self.pattern, self.mode)
        except Exception as e:  # an estimate decorates; it never blocks the dialog
            return _("No estimate: {error}").format(error=e)

    @on(Select.Changed)
    def _changed(self) -> None:
        self.pattern, self.mode = self._choice()
        self.query_one("#estimate", Static).update(self._estimate())

    def pressed(self, button: str) -> None:
        if button == "run":
            self.dismiss(self._choice())


def curve_cells(points: list[tuple[int, float | None]], unit: Unit, width: int,
                current: int | None = None) -> list[tuple[str, str, str, bool]]:
    """Per depth: the label, the bar (eighth-block precision, scaled to the highest point),
    the figure, and whether it is the depth running now."""
    top = max((v for _q, v in points if v), default=0.0)
    label_w, value_w = 5, 12
    bar_w = max(width - label_w - value_w - 2, 4)
    out = []
    for q, value in points:
        bar = ""
        if value and top:
            eighths = round(value / top * bar_w * 8)
            bar = "█" * (eighths // 8) + (_PARTIAL[eighths % 8] if eighths % 8 else "")
        figure = format_figure(value, unit) if value is not None else ("…" if q == current else "")
        out.append((f"Q{q}", bar, figure, q == current))
    return out


class SweepCurve(Widget):
    """Horizontal bars, one line per queue depth, in the theme's colours."""

    DEFAULT_CSS = """
    SweepCurve {
        height: auto;
        width: 1fr;
    }
    SweepCurve > .curve--bar { color: $primary; }
    SweepCurve > .curve--label { color: $text-muted; }
    SweepCurve > .curve--current { color: $text-warning; text-style: bold; }
    """

    COMPONENT_CLASSES = {"curve--bar", "curve--label", "curve--current"}

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.points: list[tuple[int, float | None]] = [(q, None) for q in SWEEP_DEPTHS]
        self.unit = Unit.MB_S
        self.current: int | None = None

    def show(self, points: list[tuple[int, float | None]], unit: Unit, current: int | None) -> None:
        self.points, self.unit, self.current = points, unit, current
        self.refresh(layout=True)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self.points)

    @property
    def text(self) -> str:
        return "\n".join(f"{label:<5}{bar} {figure}".rstrip() for label, bar, figure, _now in
                         curve_cells(self.points, self.unit, self.content_size.width or 70,
                                     self.current))

    def render(self) -> Text:
        bar_style = self.get_component_rich_style("curve--bar", partial=True)
        label_style = self.get_component_rich_style("curve--label", partial=True)
        current_style = self.get_component_rich_style("curve--current", partial=True)
        out = Text(no_wrap=True, overflow="crop")
        cells = curve_cells(self.points, self.unit, self.content_size.width, self.current)
        for i, (label, bar, figure, current) in enumerate(cells):
            if i:
                out.append("\n")
            out.append(f"{label:<5}", current_style if current else label_style)
            out.append(bar, bar_style)
            out.append(f" {figure}", current_style if current else "")
        return out


class SweepScreen(ModalScreen[None]):
    """The sweep's results as they come: a curve and a table (MB/s, IOPS, µs, p99) per
    operation. Esc stops a running sweep, then closes; u changes the curve's unit."""

    BINDINGS = [
        Binding("escape", "close", N_("Stop / Close")),
        Binding("u", "cycle_unit", N_("Unit")),
        Binding("c", "copy", N_("Copy the curve")),
    ]

    def __init__(self, pattern: str, mode: Mode, unit: Unit = Unit.MB_S) -> None:
        super().__init__(classes="details sweep")
        self.pattern = pattern
        self.ops = operations(mode)
        self.unit = unit
        self.results: dict[tuple[Op, int], TestResult] = {}
        self.current: tuple[Op, int] | None = None
        self.running = True
        self.session: SessionResult | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="details-box"):
            # TRANSLATORS: {pattern} is RND4K, SEQ1M…; {operations} "read", "write" or
            # "read & write"
            yield Label(_("Queue-depth sweep · {pattern} {operations}").format(
                pattern=self.pattern, operations=" & ".join(op_word(op) for op in self.ops)),
                classes="dialog-title")
            yield PlainStatic(_("Starting…"), id="sweep-status", classes="details-verdict")
            with VerticalScroll(classes="details-body"):
                for op in self.ops:
                    yield Label(self._curve_title(op), id=f"curve-title-{op.value}",
                                classes="section")
                    yield SweepCurve(id=f"curve-{op.value}")
                    yield self._table(op)
            short = self.app.has_class("-short")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Copy curve"), id="copy", compact=short)
                yield Button(_("Stop"), id="close", variant="error", compact=short)

    def on_mount(self) -> None:
        for table in self.query(DataTable):
            table.can_focus = False  # arrows scroll the whole body
        self.query_one(".details-body", VerticalScroll).focus()
        self._refresh_all()
        listen(diskmark_app(self).signals.run, self, self._run_news)

    def on_resize(self, event: events.Resize) -> None:
        """Borderless buttons on a short terminal leave the lines to the content."""
        for button in self.query(Button):
            button.compact = event.size.height < 34

    def _curve_title(self, op: Op) -> str:
        # TRANSLATORS: {operation} is Read, Write or Mix; {unit} MB/s, IOPS…
        return _("{operation}: {unit} by queue depth (T1)").format(
            operation=op_word(op, title=True), unit=self.unit.label)

    @staticmethod
    def _table(op: Op) -> DataTable[str | Text]:
        table: DataTable[str | Text] = DataTable(cursor_type="none", zebra_stripes=True,
                                     id=f"table-{op.value}")
        table.add_column(_("Depth"), key="depth")
        for name in (Unit.MB_S.label, Unit.IOPS.label, Unit.US.label,
                     f"p99 {Unit.US.label}", "R/Avg"):
            table.add_column(Text(name, justify="right"), key=name)
        return table

    # --- the run, as the app tells it -----------------------------------------------------

    def _run_news(self, news: RunNews) -> None:
        """The sweep's steps (the main window's status line says how far it is)."""
        from diskmark.model.events import Progress, TestFinished, TestStarted
        from diskmark.model.events import RunFinished as PassFinished

        if news.sweep is None:
            return
        if isinstance(news, Told):
            event, state = news.event, diskmark_app(self).state
            if isinstance(event, Progress):
                if state.running and not state.quitting:
                    text = progress_text(event)
                    percent = f"{event.session_percent:.0f}"
                    if event.eta_s is not None:
                        # TRANSLATORS: {progress} says what runs now; ETA: the time still to go
                        line = _("{progress} · {percent}% · ETA {eta}").format(
                            progress=text, percent=percent, eta=format_duration(event.eta_s))
                    else:
                        line = f"{text} · {percent}%"
                    self.show_progress(line)
            elif isinstance(event, (TestStarted, TestFinished)) or (
                    isinstance(event, PassFinished) and not event.warmup):
                self.show_result(event.result)
        elif isinstance(news, Finished):
            self.finish(news.session)
        elif isinstance(news, Failed):
            self.dismiss(None)

    # --- what it shows -------------------------------------------------------------------

    def show_progress(self, text: str) -> None:
        if self.running:
            depth = f"Q{self.current[1]} · " if self.current else ""
            self.query_one("#sweep-status", Static).update(depth + text)

    def show_result(self, result: TestResult) -> None:
        """A test started or a pass finished: redraw that depth."""
        key = (result.op, result.spec.queues)
        self.results[key] = result
        self.current = key
        self._refresh_all()

    def finish(self, session: SessionResult) -> None:
        self.running, self.session, self.current = False, session, None
        for t in session.tests:
            self.results[(t.op, t.spec.queues)] = t
        done = sum(1 for t in session.tests if t.runs)
        total = len(SWEEP_DEPTHS) * len(self.ops)
        measured = ngettext("{done} of {total} point", "{done} of {total} points",
                            total).format(done=done, total=total)
        if session.status is Status.COMPLETE:
            # TRANSLATORS: {measured} is "5 of 6 points"
            status = _("Finished · {measured} · c copies the curve, u changes its unit").format(
                measured=measured)
        elif session.status is Status.CANCELLED:
            status = _("Stopped · {measured} measured; fio ended and the test file was "
                       "removed").format(measured=measured)
        else:
            status = _("Failed · {error}").format(
                error=session.error or _("fio stopped with an error"))
        self.query_one("#sweep-status", Static).update(status)
        button = self.query_one("#close", Button)
        button.label, button.variant = _("Close"), "primary"
        button.refresh(layout=True)  # as wide as its new word ("Schließen" is wider than "Stopp")
        self._refresh_all()

    # --- drawing --------------------------------------------------------------------------

    def points(self, op: Op) -> list[tuple[int, float | None]]:
        out = []
        for q in SWEEP_DEPTHS:
            r = self.results.get((op, q))
            out.append((q, r.figure(self.unit) if r is not None and r.runs else None))
        return out

    def _refresh_all(self) -> None:
        for op in self.ops:
            current = self.current[1] if self.current and self.current[0] is op else None
            self.query_one(f"#curve-{op.value}", SweepCurve).show(self.points(op), self.unit, current)
            self.query_one(f"#curve-title-{op.value}", Label).update(self._curve_title(op))
            table = self.query_one(f"#table-{op.value}", DataTable)
            for q in SWEEP_DEPTHS:
                r = self.results.get((op, q))
                if r is None or not r.runs:
                    continue
                p99 = r.best_run.lat_percentiles.get("99") if r.best_run else None
                cells = [Text(format_figure(r.figure(u), u), justify="right")
                         for u in (Unit.MB_S, Unit.IOPS, Unit.US)]
                cells += [Text(f"{p99:.2f}" if p99 is not None else "—", justify="right"),
                          Text(f"{r.spread().r_avg_pct:.1f} %" if len(r.runs) > 1 else "—",
                               justify="right")]
                key = f"Q{q}"
                if key in table.rows:  # a later pass of the same depth: update in place
                    for column, cell in zip(table.ordered_columns[1:], cells):
                        table.update_cell(key, column.key, cell, update_width=True)
                else:
                    table.add_row(key, *cells, key=key)

    # --- actions --------------------------------------------------------------------------

    def action_close(self) -> None:
        if self.running:
            diskmark_app(self).action_stop()
        else:
            self.dismiss(None)

    def action_cycle_unit(self) -> None:
        self.unit = UNITS[(UNITS.index(self.unit) + 1) % len(UNITS)]
        self._refresh_all()

    def action_copy(self) -> None:
        if self.session is None:
            self.notify(_("The curve can be copied once the sweep has finished."))
            return
        diskmark_app(self).copy(curve_report(self.session, self.unit), _("Curve copied"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy()
        else:
            self.action_close()


def offer_sweep(app: AppLike) -> None:
    """Which pattern and operation, with how long each choice would take; then the app
    runs the sweep."""

    def estimate(pattern: str, mode: Mode) -> str:
        s = replace(app.state.settings, sweep=pattern, mode=mode, mix=None, only_test=None)
        plan = app.engine.plan(s)
        n = len(plan.tests)
        return " · ".join((
            ngettext("{count} test", "{count} tests", n).format(count=n),
            ngettext("{size} × {count} pass after a warm-up",
                     "{size} × {count} passes after a warm-up", s.count).format(
                size=format_size(s.size), count=s.count),
            _("measure {measure} s, interval {interval} s").format(
                measure=f"{plan.measure:g}", interval=f"{plan.interval:g}"),
            _("about {duration} plus writing the test file").format(
                duration=format_duration(plan.total_seconds()))))

    def chosen(answer: tuple[str, Mode] | None) -> None:
        if answer is not None:
            app.start_sweep(*answer)

    app.push_screen(SweepDialog(estimate), chosen)
