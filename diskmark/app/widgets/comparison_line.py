"""The line that says what the tiles are compared with, and warns when that comparison
misleads (another size, preset, filesystem or device). Shown only while comparing; on short
terminals it takes the place of the facts line, so the tiles keep their height."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from diskmark.app.widgets.tiles import foreground_style
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shown
from diskmark.report.formatting import BETTER, DELTA_GLYPHS, SAME, WORSE, short_date

#: The tiles' verdicts counted, by verdict. TRANSLATORS: {glyph} is ▲, ▼ or =; {count} a
#: number of tiles.
COUNTED = {BETTER: N_("{glyph} {count} better"), WORSE: N_("{glyph} {count} worse"),
           SAME: N_("{glyph} {count} same")}


@dataclass(frozen=True)
class ComparisonSummary:
    """What the line shows: the baseline, where the settings differ, and the verdicts of
    the tiles in the unit on screen (None before anything was compared)."""

    name: str
    started: str
    differences: list[str] = field(default_factory=list)
    counts: dict[str, int] | None = None
    unit_label: str = "MB/s"


class ComparisonLine(Widget):
    """``Comparing with “new NVMe” (2024/05/01) · ⚠ settings differ: … · ▲ 3 better …``"""

    COMPONENT_CLASSES = {"comparison--name", "comparison--warning", "comparison--better",
                         "comparison--worse", "comparison--same", "comparison--hint"}

    summary: reactive[ComparisonSummary | None] = reactive(None)

    def render(self) -> Text:
        text = self._line(wordy=True)
        if text.cell_len > self.content_size.width:  # a narrow terminal: the warning first
            text = self._line(wordy=False)
        return text

    def _line(self, wordy: bool) -> Text:
        s = self.summary
        text = Text(no_wrap=True, overflow="ellipsis")
        if s is None:
            return text
        # Most telling first: the line is cut from the right on narrow terminals.
        name = _("“{name}”").format(name=s.name)  # 「…」 in Japanese, « … » in French
        date = short_date(s.started, time=False)
        # TRANSLATORS: the line above the tiles while comparing; {name} is the baseline's
        # name in quotes and {date} the day it ran. The second is the short form, for
        # narrow terminals ("vs" as in versus).
        line = _("Comparing with {name} ({date})") if wordy else _("vs {name} ({date})")
        before, found, after = line.partition("{name}")
        text.append(before.format(date=date))
        if found:  # the name in its own colour, wherever the language puts it
            text.append(name, style=foreground_style(self, "comparison--name"))
            text.append(after.format(date=date))
        if s.differences:
            text.append(" · ")
            differences = shown("; ".join(s.differences), one_line=True)
            # TRANSLATORS: {differences} lists the settings that differ from the baseline's
            text.append((_("⚠ settings differ: {differences}") if wordy else "⚠ {differences}")
                        .format(differences=differences),
                        style=foreground_style(self, "comparison--warning"))
        if s.counts is None:
            text.append(" · " + _("run to see the change on every tile"),
                        style=foreground_style(self, "comparison--hint"))
        else:
            text.append(" · ")
            for verdict in (BETTER, WORSE, SAME):
                if verdict != BETTER:
                    text.append("  ")
                glyph, count = DELTA_GLYPHS[verdict], s.counts.get(verdict, 0)
                text.append(_(COUNTED[verdict]).format(glyph=glyph, count=count) if wordy
                            else f"{glyph} {count}",
                            style=foreground_style(self, f"comparison--{verdict}"))
            # TRANSLATORS: after the counts of better and worse tiles: the unit they are in
            text.append(" " + _("in {unit}").format(unit=s.unit_label),
                        style=foreground_style(self, "comparison--hint"))
        return text
