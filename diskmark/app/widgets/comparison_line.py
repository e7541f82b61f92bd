"""The line that says what the tiles are compared with, and warns when that comparison
misleads (another size, preset, filesystem or device). Shown only while comparing; on short
terminals it takes the place of the facts line, so the tiles keep their height."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from diskmark.app.widgets.tiles import foreground_style
from diskmark.files.text_safety import shown
from diskmark.report.formatting import BETTER, DELTA_GLYPHS, SAME, WORSE, short_date


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
        text.append("Comparing with " if wordy else "vs ")
        text.append(f"“{shown(s.name, one_line=True)}”",
                    style=foreground_style(self, "comparison--name"))
        text.append(f" ({short_date(s.started, time=False)})")
        if s.differences:
            text.append(" · ")
            text.append(("⚠ settings differ: " if wordy else "⚠ ")
                        + shown("; ".join(s.differences), one_line=True),
                        style=foreground_style(self, "comparison--warning"))
        if s.counts is None:
            text.append(" · run to see the change on every tile",
                        style=foreground_style(self, "comparison--hint"))
        else:
            text.append(" · ")
            for verdict, word in ((BETTER, "better"), (WORSE, "worse"), (SAME, "same")):
                if verdict != BETTER:
                    text.append("  ")
                count = f"{DELTA_GLYPHS[verdict]} {s.counts.get(verdict, 0)}"
                text.append(f"{count} {word}" if wordy else count,
                            style=foreground_style(self, f"comparison--{verdict}"))
            text.append(f" in {s.unit_label}", style=foreground_style(self, "comparison--hint"))
        return text
