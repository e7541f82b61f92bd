"""The status line: CDM's title-bar text (phase, test, run i of n) plus the session's
progress and ETA, which CDM never showed."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from diskmark.app.widgets.tiles import foreground_style
from diskmark.locale import _
from diskmark.locale.text_safety import shown
from diskmark.report.formatting import format_duration

#: Between the phrases of a line given in parts.
SEPARATOR = " · "


def fitted(parts: Sequence[str], room: int) -> Text:
    """As many of ``parts`` as fit in ``room`` cells, from the first, each whole: a line
    too long for the terminal loses its least important phrases (the last), never half of
    one. Only a first phrase that alone does not fit is cut, with an ellipsis."""
    line = Text(shown(parts[0], one_line=True) if parts else "", no_wrap=True,
                overflow="ellipsis")
    for part in parts[1:]:
        more = Text(SEPARATOR + shown(part, one_line=True))
        if line.cell_len + more.cell_len > room:
            break
        line.append_text(more)
    line.truncate(max(room, 0), overflow="ellipsis")
    return line


class StatusLine(Widget):
    """One line: the message on the left, a session progress bar and ETA on the right."""

    COMPONENT_CLASSES = {"status--bar", "status--track", "status--eta"}

    message: reactive[str] = reactive("")  # "Ready", in the language in use (__init__)
    percent: reactive[float | None] = reactive(None)  # None hides the bar
    eta_s: reactive[float | None] = reactive(None)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        ready = _("Ready")
        self.parts: tuple[str, ...] = (ready,)
        self.set_reactive(StatusLine.message, ready)

    def show(self, message: str | Sequence[str], percent: float | None = None,
             eta_s: float | None = None) -> None:
        """``message``: the line, or its phrases, the most important first (shown joined
        by " · ", as many as the terminal's width has room for)."""
        self.parts = (message,) if isinstance(message, str) else tuple(message)
        self.message, self.percent, self.eta_s = SEPARATOR.join(self.parts), percent, eta_s

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
                # TRANSLATORS: the time left of the run (1m 05s), short
                right.append("  " + _("ETA {duration}").format(
                    duration=format_duration(self.eta_s)),
                             style=foreground_style(self, "status--eta"))
        room = width - right.cell_len - (2 if right.cell_len else 0)
        if room < 10:  # a narrow terminal: the words matter more than the bar
            return fitted(self.parts, width)
        left = fitted(self.parts, room)
        if not right.cell_len:
            return left
        gap = width - left.cell_len - right.cell_len
        return Text.assemble(left, " " * max(gap, 1), right, no_wrap=True)
