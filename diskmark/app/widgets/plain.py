"""Widgets for text that comes from data: baseline names, notes, paths, device and model
strings, preset names and descriptions, error messages.

Textual reads a ``str`` given to Label, Static, Button or Select as markup, so a baseline
named ``[/]`` would end the app with a MarkupError, and ``[bold]x`` would show as a bold x.
These never parse markup and show control characters escaped (diskmark.display.shown), so
an escape sequence in a note cannot reach the terminal either.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.visual import VisualType
from textual.widgets import Label, Static

from diskmark.locale.text_safety import shown


def plain(text: str) -> Content:
    """``text`` as content that is shown as is: for Select options, Button labels and the
    like, which would otherwise read a ``str`` as markup."""
    return Content(shown(text))


def _shown(content: VisualType) -> VisualType:
    return shown(content) if isinstance(content, str) else content


class PlainStatic(Static):
    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(_shown(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(_shown(content), layout=layout)


class PlainLabel(Label):
    def __init__(self, content: VisualType = "", **kwargs: Any) -> None:
        super().__init__(_shown(content), markup=False, **kwargs)

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        super().update(_shown(content), layout=layout)
