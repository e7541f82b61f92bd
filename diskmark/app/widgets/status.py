"""The status line: CDM's title-bar text (phase, test, run i of n) plus the session's
progress and ETA, which CDM never showed."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from diskmark.app.widgets.tiles import foreground_style
from diskmark.display import shown
from diskmark.formatting import format_duration


class StatusLine(Widget):
    """One line: the message on the left, a session progress bar and ETA on the right."""

    COMPONENT_CLASSES = {"status--bar", "status--track", "status--eta"}

    message: reactive[str] = reactive("Ready")
    percent: reactive[float | None] = reactive(None)  # None hides the bar
    eta_s: reactive[float | None] = reactive(None)

    def show(self, message: str, percent: float | None = None, eta_s: float | None = None) -> None:
        self.message, self.percent, self.eta_s = message, percent, eta_s

    def render(self) -> Text:
        width = self.content_size.width
        right = Text(no_wrap=True)
        if self.percent is not None:
            bar_width = max(min(24, width // 5), 6)
            filled = round(max(0.0, min(100.0, self.percent)) / 100 * bar_width)
            right.append("━" * filled, style=foreground_style(self, "status--bar"))
            right.append("━" * (bar_width - filled), style=foreground_style(self, "status--track"))
            right.append(f" {self.percent:3.0f}%")
            if self.eta_s is not None:
                right.append(f"  ETA {format_duration(self.eta_s)}",
                             style=foreground_style(self, "status--eta"))
        left = Text(shown(self.message, one_line=True), no_wrap=True, overflow="ellipsis")
        room = width - right.cell_len - (2 if right.cell_len else 0)
        if room < 10:  # a narrow terminal: the words matter more than the bar
            return left
        left.truncate(room, overflow="ellipsis")
        gap = width - left.cell_len - right.cell_len
        return Text.assemble(left, " " * max(gap, 1), right, no_wrap=True)
