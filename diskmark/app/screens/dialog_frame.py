"""The one frame every small dialog is drawn in: a title, the dialog's own body, a row of
buttons, and Escape (or a Cancel button) answering "no answer".

Each dialog used to write this frame by hand, so a change of wording, of look or of the
cancel key had to be made in every one of them and was missed in some. Drawn here once, a
translation or a theme changes them all at once, and Escape means the same in each.
"""

from __future__ import annotations

from typing import TypeVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button

from diskmark.app.widgets.plain import PlainLabel
from diskmark.locale import N_

T = TypeVar("T")


class Dialog(ModalScreen[T]):
    """A dialog in the shared frame. A subclass yields its widgets from :meth:`body` and its
    buttons from :meth:`buttons`, and answers a button in :meth:`pressed` (not in
    ``on_button_pressed``: Textual would call both, this frame's and the subclass's).

    Escape, and a button with the id ``cancel``, dismiss with :attr:`cancel_answer`.
    """

    BINDINGS = [Binding("escape", "cancel", N_("Cancel"))]

    #: What Escape and the Cancel button answer: "nothing chosen".
    cancel_answer: T | None = None

    def __init__(self, title: str, *, classes: str = "") -> None:
        """``classes``: the dialog's own, beside ``dialog`` (for its width, its severity)."""
        super().__init__(classes=f"dialog {classes}".rstrip())
        self.title_text = title

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield from self.body()
            with Horizontal(classes="dialog-buttons"):
                yield from self.buttons()

    def on_mount(self) -> None:
        self.call_after_refresh(self._focus_what_scrolls)

    def _focus_what_scrolls(self) -> None:
        """A dialog that focuses nothing of its own (the help) gives the focus to what
        scrolls in it, so that the arrows and PageDown scroll it at once, not after Tab."""
        if self.focused is None:
            for scroll in self.query(VerticalScroll):
                scroll.focus()
                return

    def body(self) -> ComposeResult:
        """Between the title and the buttons: what the dialog says and asks."""
        return ()

    def buttons(self) -> ComposeResult:
        """The dialog's buttons, left to right."""
        return ()

    def pressed(self, button: str) -> None:
        """A button other than Cancel was pressed; ``button`` is its id."""

    def action_cancel(self) -> None:
        self.dismiss(self.cancel_answer)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "cancel":
            self.action_cancel()
        else:
            self.pressed(event.button.id or "")
