"""A drive's story: one test's best figure in every saved run on the drive of the run it was
opened from, oldest to newest, baselines marked, every change beyond the runs' noise marked
▲ or ▼ (the comparison's rule, as ``diskmark history trend``). ← and → pick a run; Enter
opens it, c compares the run the trend was opened from with it.

The figures come from the database's ``figures`` table, read in a thread: a few numbers per
run, whatever the number of runs."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from diskmark.app.screens.comparison import ComparisonScreen
from diskmark.app.screens.saved import ResultReportScreen
from diskmark.app.widgets.footer import KeysFooter
from diskmark.app.widgets.plain import PlainStatic
from diskmark.app.widgets.trend_chart import TrendChart
from diskmark.locale import N_, _, ngettext, pgettext
from diskmark.model.results import SessionResult
from diskmark.model.units import Unit
from diskmark.report import trend
from diskmark.report.compare import compare
from diskmark.report.formatting import format_figure, short_date
from diskmark.store import database
from diskmark.store.database import Filters, Row
from diskmark.store.entry import HEADLINE_LABEL, Entry
from diskmark.store.errors import StoreError
from diskmark.store.store import Store

UNITS = (Unit.MB_S, Unit.GB_S, Unit.IOPS, Unit.US)


def kind_word(kind: str, *, title: bool = False) -> str:
    """read, write or mix in the language in use: in a title ("Read") or inside a sentence."""
    if title:
        words = {"read": pgettext("operation", "Read"), "write": pgettext("operation", "Write"),
                 "mix": pgettext("operation", "Mix")}
    else:
        words = {"read": pgettext("operation", "read"), "write": pgettext("operation", "write"),
                 "mix": pgettext("operation", "mix")}
    return words.get(kind, kind)


class TrendScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape,q", "close", N_("Back")),
        Binding("left", "move(-1)", N_("Earlier"), show=False),
        Binding("right", "move(1)", N_("Later"), show=False),
        Binding("home", "move_to(0)", N_("First"), show=False),
        Binding("end", "move_to(-1)", N_("Last"), show=False),
        Binding("enter", "open", N_("Open run"), priority=True),
        Binding("c", "compare", N_("Compare"), tooltip=N_("The run you came from against this one")),
        Binding("s", "test(1)", N_("Next test")),
        Binding("S", "test(-1)", N_("Previous test"), show=False),
        Binding("r", "kind", N_("Read/write/mix")),
        Binding("u", "unit", N_("Unit")),
    ]

    def __init__(self, store: Store, origin: Row, current: SessionResult | None = None,
                 label: str | None = None, kind: str = "read", unit: Unit = Unit.MB_S) -> None:
        super().__init__(classes="saved")
        self.store, self.origin, self.current = store, origin, current
        self.label = label or origin.head_label or HEADLINE_LABEL
        self.kind, self.unit = kind, unit
        self.tests: list[tuple[str, str]] = []  # (label, op) measured on this drive
        self.series: trend.Series | None = None
        self.cursor: int | None = None
        self.loaded = False

    @property
    def drive_filter(self) -> Filters:
        return Filters(device=self.origin.device, host=self.origin.host, exact=True)

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-box"):
            yield PlainStatic("", id="trend-summary")
            yield TrendChart(id="trend-chart")
            yield PlainStatic("", id="saved-detail")
            yield PlainStatic("", id="trend-changes")
        yield KeysFooter(compact=self.app.size.width < 100)

    def on_mount(self) -> None:
        self.query_one("#saved-box").border_title = _("Trend")
        self.load()

    # --- reading --------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="trend", exit_on_error=False)
    def load(self) -> None:
        problem = None
        tests: list[tuple[str, str]] = []
        series: list[trend.Series] = []
        try:
            with self.store.existing_db() as conn:
                if conn is not None:
                    tests = [(label, op) for label, op, _n
                             in database.saved_tests(conn, self.drive_filter)]
                    series = trend.trend(conn, self.label, self.kind, self.unit,
                                         self.drive_filter)
        except StoreError as e:
            problem = str(e)
        self.app.call_from_thread(self._show, tests, series, problem)

    def _show(self, tests: list[tuple[str, str]], found: list[trend.Series],
              problem: str | None) -> None:
        self.tests = sorted(tests, key=lambda t: (t[0], ("read", "write", "mix").index(t[1])
                                                  if t[1] in ("read", "write", "mix") else 3))
        a = self.origin
        mine = [s for s in found if (s.host, s.device, s.model) == (a.host, a.device, a.model)]
        self.series = mine[0] if mine else (found[0] if found else None)
        self.cursor = None
        if self.series is not None:
            here = [i for i, p in enumerate(self.series.points) if p.point.result_id == a.id]
            self.cursor = here[0] if here else len(self.series.points) - 1
        box = self.query_one("#saved-box")
        # TRANSLATORS: {test} is a test's name (SEQ1M Q8T1), {operation} Read, Write or Mix
        box.border_title = _("Trend: {test} {operation} in {unit}").format(
            test=self.label, operation=kind_word(self.kind, title=True), unit=self.unit.label)
        summary = self.query_one("#trend-summary", Static)
        if problem:
            summary.update(problem)
        elif self.series is None:
            where = (_("No saved run on {device} measured {test} {operation}.") if a.device
                     else _("No saved run on this drive measured {test} {operation}."))
            summary.update(where.format(device=a.device, test=self.label,
                                        operation=kind_word(self.kind)) + " "
                           + _("s picks another test, r read, write or mix."))
        else:
            s = self.series
            runs = sum(1 for p in s.points if not p.is_baseline_only)
            marked = sum(1 for p in s.points if p.baselines)
            n_runs = ngettext("{count} run", "{count} runs", runs).format(count=runs)
            # TRANSLATORS: {title} names the test and the drive; {runs} is "5 runs",
            # {baselines} "2 baselines (B)"
            head = (_("{title}: {runs}, {baselines}.").format(
                title=s.title, runs=n_runs, baselines=ngettext(
                    "{count} baseline (B)", "{count} baselines (B)", marked).format(count=marked))
                if marked else _("{title}: {runs}.").format(title=s.title, runs=n_runs))
            changes = ngettext("{count} change beyond the runs' noise (▲ better, ▼ worse, each "
                               "against the run before).",
                               "{count} changes beyond the runs' noise (▲ better, ▼ worse, each "
                               "against the run before).", len(s.changes)).format(
                count=len(s.changes))
            summary.update(" ".join((head, changes, _("← → pick a run, s the test, r "
                                                      "read/write/mix, u the unit."))))
        self._update()
        self.loaded = True

    def _update(self) -> None:
        self.query_one(TrendChart).show(self.series, self.unit, self.cursor)
        detail = self.query_one("#saved-detail", Static)
        changes = self.query_one("#trend-changes", Static)
        tp = self.point
        if tp is None or self.series is None or self.cursor is None:
            detail.update("")
            changes.update("")
            return
        unit = self.unit
        where = _("run {n} of {total}").format(n=self.cursor + 1, total=len(self.series.points))
        text = (f"{short_date(tp.point.started)} · {format_figure(tp.value, unit)} {unit.label}"
                f" · {trend.point_label(tp)} · {where}")
        if tp.verdict is not None:
            # TRANSLATORS: {change} is "▲ 12.0% better" or the like
            text += "\n" + _("{change} against the run before").format(
                change=trend.describe_change(tp, unit))
        if tp.point.result_id == self.origin.id:
            text += " " + _("(the run you came from)")
        detail.update(text)
        recent = self.series.changes[-3:]
        changes.update("\n".join(f"{short_date(p.point.started)}  {format_figure(p.value, unit)}"
                                 f"  {trend.describe_change(p, unit)}" for p in recent)
                       if recent else _("No change beyond the runs' noise."))

    @property
    def point(self) -> trend.TrendPoint | None:
        if self.series is None or self.cursor is None:
            return None
        return self.series.points[self.cursor]

    # --- moving ---------------------------------------------------------------------------

    def action_move(self, step: int) -> None:
        if self.series is None or self.cursor is None:
            return
        self.cursor = max(0, min(len(self.series.points) - 1, self.cursor + step))
        self._update()

    def action_move_to(self, index: int) -> None:
        if self.series is None:
            return
        self.cursor = index % len(self.series.points)
        self._update()

    def action_test(self, step: int) -> None:
        if not self.tests:
            return
        here = (self.label, self.kind)
        i = self.tests.index(here) if here in self.tests else -1 if step > 0 else 0
        self.label, self.kind = self.tests[(i + step) % len(self.tests)]
        self.loaded = False
        self.load()

    def action_kind(self) -> None:
        kinds = [op for label, op in self.tests if label == self.label] or ["read"]
        self.kind = kinds[(kinds.index(self.kind) + 1) % len(kinds)] if self.kind in kinds \
            else kinds[0]
        self.loaded = False
        self.load()

    def action_unit(self) -> None:
        self.unit = UNITS[(UNITS.index(self.unit) + 1) % len(UNITS)]
        self.loaded = False
        self.load()

    def action_close(self) -> None:
        self.dismiss(None)

    # --- the chosen run -------------------------------------------------------------------

    def _point_entry(self, tp: trend.TrendPoint) -> Entry | None:
        p = tp.point
        try:
            if p.kind == "history":
                return self.store.get_history(p.name)
            return self.store.get_baseline(p.name)
        except StoreError as e:
            self.notify(str(e), severity="error")
            return None

    def _point_name(self, tp: trend.TrendPoint, *, title: bool = False) -> str:
        """The run or baseline at a point, inside a sentence or (``title``) as a title."""
        name, date = tp.point.name, short_date(tp.point.started)
        if tp.point.kind == "baseline":
            return (_("Baseline “{name}”") if title else _("baseline “{name}”")).format(name=name)
        return (_("The run of {date}") if title else _("the run of {date}")).format(date=date)

    def action_open(self) -> None:
        tp = self.point
        if tp is None:
            return
        entry = self._point_entry(tp)
        if entry is not None and entry.session is not None:
            self.app.push_screen(ResultReportScreen(self._point_name(tp, title=True),
                                                    entry.session, entry.note))

    def action_compare(self) -> None:
        tp = self.point
        if tp is None:
            return
        if tp.point.result_id == self.origin.id:
            self.notify(_("This is the run you came from: pick another run (← →) to compare "
                          "it with."), severity="warning")
            return
        other = self._point_entry(tp)
        try:
            mine = self.store.entry(self.origin)
        except StoreError as e:
            self.notify(str(e), severity="error")
            return
        if other is None or other.session is None or mine.session is None:
            if mine.damaged:
                self.notify(_("The run you came from is damaged: {reason}")
                            .format(reason=mine.damaged), severity="error")
            return
        self.app.push_screen(ComparisonScreen(
            compare(mine.session, other.session, other.name),
            _("The run of {date}").format(date=short_date(self.origin.started)),
            self._point_name(tp),
            (mine.session, other.session)))
