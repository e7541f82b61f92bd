"""Two results side by side: every test in every unit, current, baseline and the change,
coloured by verdict, with the settings that differ said plainly at the top, because a
comparison of another size, preset or filesystem misleads."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from diskmark.app.core.protocol import diskmark_app
from diskmark.app.widgets.plain import PlainLabel, PlainStatic
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shown
from diskmark.model.numerals import digits_only
from diskmark.model.results import SessionResult
from diskmark.model.settings import DEFAULT_NOISE_PCT
from diskmark.model.units import format_size
from diskmark.report.compare import UNITS, Comparison, comparison_text
from diskmark.report.formatting import BETTER, DELTA_GLYPHS, SAME, WORSE, format_delta, format_figure, short_date


def describe_session(session: SessionResult) -> str:
    """``2024/05/01 10:00 · 1GiB ×5 · /dev/nvme0n1p2 ext4``"""
    parts = [short_date(session.started), f"{format_size(session.settings.size)} ×"
             f"{session.settings.count}"]
    where = " ".join(x for x in (session.system.device, session.system.fstype) if x)
    if where:
        parts.append(where)
    return " · ".join(parts)


def in_sentence(name: str) -> str:
    """A side's name as a title gives it ("This run", "The run of …") inside a sentence: its
    first letter small, as in English, German or French ("this run", "dieser Durchlauf");
    a quoted name keeps its letters."""
    return name[:1].lower() + name[1:]


def verdict_count(verdict: str, count: int) -> str:
    """``▲ 3 better``: how many figures got better, worse or stayed the same."""
    glyph = DELTA_GLYPHS[verdict]
    if verdict == BETTER:
        text = _("{glyph} {count} better")
    elif verdict == WORSE:
        text = _("{glyph} {count} worse")
    else:
        text = _("{glyph} {count} same")
    return text.format(glyph=glyph, count=count)


#: The comparison table's columns, the noise's last: it gives way first.
COLUMNS = ("test", "unit", "current", "baseline", "change", "noise")


class ComparisonScreen(ModalScreen[None]):
    """``current`` against ``baseline`` for every test measured on both sides."""

    COMPONENT_CLASSES = {"delta--better", "delta--worse", "delta--same"}

    BINDINGS = [
        Binding("escape,q", "dismiss(None)", N_("Close")),
        Binding("c", "copy", N_("Copy as text")),
        Binding("e", "share", N_("Share"), tooltip=N_("Save the comparison as an HTML page (and a "
                                                      "PNG) in the reports directory")),
    ]

    def __init__(self, comparison: Comparison, current_name: str | None = None,
                 baseline_name: str | None = None,
                 sessions: tuple[SessionResult, SessionResult] | None = None) -> None:
        """``current_name``, ``baseline_name``: the sides' names as titles, translated ("This
        run" and the baseline's quoted name by default). ``sessions``: (this result, the
        reference), when the comparison can be shared."""
        super().__init__(classes="details comparison")
        self.comparison = comparison
        self.sessions = sessions
        self.current_name = shown(current_name or _("This run"), one_line=True)
        self.baseline_name = shown(baseline_name or (
            _("“{name}”").format(name=comparison.baseline_name) if comparison.baseline_name
            else _("Baseline")), one_line=True)

    def compose(self) -> ComposeResult:
        cmp = self.comparison
        with Vertical(classes="details-box"):
            # TRANSLATORS: both are names as titles: "This run", "“new NVMe”", "The run of …"
            yield PlainLabel(_("{current} compared with {baseline}").format(
                current=self.current_name, baseline=self.baseline_name), classes="dialog-title")
            yield Static(self._sides(), id="sides")
            diffs = cmp.settings_differences
            if diffs:
                # TRANSLATORS: {differences} lists the settings that differ, separated by "; "
                yield PlainStatic(_("⚠ The settings differ ({current} vs {baseline}), so this "
                                    "comparison may mislead: {differences}.").format(
                    current=in_sentence(self.current_name), baseline=self.baseline_name,
                    differences="; ".join(diffs)), id="differences")
            if cmp.other_differences:
                yield PlainStatic(_("Also changed: {differences}.").format(
                    differences="; ".join(cmp.other_differences)), classes="dialog-hint")
            yield Static("", id="summary")
            yield DataTable(cursor_type="row", id="comparison")
            if cmp.missing:
                lines = []
                for m in cmp.missing:
                    where = self.current_name if m.side == "current" else self.baseline_name
                    # TRANSLATORS: {test} is a test (SEQ1M Q8T1 Read), {side} a side's name,
                    # {reason} why the other side lacks it
                    lines.append(_("{test}: only in {side} ({reason})").format(
                        test=m.said, side=where, reason=m.reason))
                yield PlainStatic(_("Not compared: {tests}.").format(tests="; ".join(lines)),
                                  id="missing", classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Copy as text"), id="copy")
                if self.sessions is not None:
                    yield Button(_("Share as a page"), id="share",
                                 tooltip=_("An HTML page (and a PNG) in the reports directory: e"))
                yield Button(_("Close"), id="close", variant="primary")

    def on_mount(self) -> None:
        # filled once mounted: the verdict colours come from the stylesheet
        self.query_one("#summary", Static).update(self._summary())
        self.query_one(DataTable).focus()
        # and once laid out: which columns fit depends on the table's width
        self.call_after_refresh(self._fill, self.query_one(DataTable))

    def _sides(self) -> Text:
        width = max(cell_len(self.current_name), cell_len(self.baseline_name)) + 2

        def label(name: str) -> str:  # padded in cells: a Japanese name is twice as wide
            return name + ":" + " " * (width - cell_len(name) - 1)

        text = Text()
        text.append(label(self.current_name), style="bold")
        text.append(shown(describe_session(self.comparison.current), one_line=True) + "\n")
        text.append(label(self.baseline_name), style="bold")
        text.append(shown(describe_session(self.comparison.baseline), one_line=True))
        return text

    def _summary(self) -> Text:
        counts = self.comparison.counts()
        text = Text("MB/s: ")
        for verdict in (BETTER, WORSE, SAME):
            text.append(verdict_count(verdict, counts[verdict]),
                        style=self.get_component_rich_style(f"delta--{verdict}", partial=True))
            text.append("   ")
        text.append(_("Same = within the passes' own spread (R/Avg), or ±{pct}% when neither "
                      "side has two (*). 2× the latency is 50% worse, as ½ the MB/s is.")
                    .format(pct=f"{DEFAULT_NOISE_PCT:g}"), style="dim")
        return text

    def _fill(self, table: DataTable[str | Text]) -> None:
        """The table, its columns as wide as their words; the noise's column (the line above
        says what it holds) is left out whole where the table would not fit its box (German
        and French headings and names are longer), rather than cut or scrolled."""
        heads = [Text(_("Test")), Text(_("Unit")), Text(self.current_name, justify="right"),
                 Text(self.baseline_name, justify="right"), Text(_("Change"), justify="right"),
                 Text(_("Noise"), justify="right")]
        rows: list[tuple[str, list[Text]]] = []
        for t in self.comparison.tests:
            for i, unit in enumerate(u for u in UNITS if u in t.deltas):
                d = t.deltas[unit]
                style = self.get_component_rich_style(f"delta--{d.verdict}", partial=True)
                noise = f"±{d.noise_pct:.1f}%" + ("" if d.noise_from_runs else "*")
                rows.append((f"{t.key}/{unit.value}", [
                    Text(t.said if i == 0 else "", style="bold"), Text(unit.label),
                    Text(format_figure(d.current, unit), justify="right"),
                    Text(format_figure(d.baseline, unit), justify="right"),
                    Text(format_delta(d.pct, d.verdict), style=style, justify="right"),
                    Text(noise, justify="right", style="dim")]))
        widths = [max(cell_len(cell.plain) for cell in [head] + [row[c] for _key, row in rows])
                  for c, head in enumerate(heads)]
        # the scrollbar's two cells kept free, and each column's padding
        room = table.size.width - 2 - 2 * table.cell_padding * len(heads)
        kept = len(heads) - 1 if sum(widths) > room else len(heads)
        none = Text(_("No test was measured on both sides."), style="italic")
        if not rows:
            widths[0] = max(widths[0], cell_len(none.plain))
        for c, (head, key) in enumerate(zip(heads[:kept], COLUMNS, strict=False)):
            table.add_column(head, key=key, width=widths[c])
        for key, row in rows:
            table.add_row(*row[:kept], key=key)
        if not rows:
            table.add_row(none, *[""] * (kept - 1))

    def action_copy(self) -> None:
        diskmark_app(self).copy(comparison_text(self.comparison, in_sentence(self.current_name)),
                                _("Comparison copied"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.sessions is not None if action == "share" else True

    def action_share(self) -> None:
        """Both results as one page: the tiles with their change, the table, the charts."""
        from diskmark.app.screens.sharing import share_page

        if self.sessions is None:
            return
        current, reference = self.sessions
        stamp = "".join(ch for ch in current.started[:16] if digits_only(ch)) or "now"
        share_page(self, current, f"diskmark-comparison-{stamp}",
                   _("diskmark: {current} against {baseline}").format(
                       current=self.current_name, baseline=self.baseline_name),
                   reference=reference, reference_name=self.comparison.baseline_name)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy()
        elif event.button.id == "share":
            self.action_share()
        else:
            self.dismiss(None)

