"""A table that fits its width in every language instead of scrolling sideways.

A DataTable is as wide as its widest cells, and a narrower terminal clips it: at 80 columns
the passes of a tile's details lost their last columns in German (`Laufzeit fi`), and in
English too. A :class:`FittedTable` measures its columns in cells for the width it is given
(:func:`diskmark.report.cells.fit_widths`) and wraps its headings, and the text of the
columns said to wrap, by the line-breaking rule of every language; its figures never wrap.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.widgets import DataTable

from diskmark.report.cells import fit_widths, line_starts


def wrapped(text: Text, width: int) -> Text:
    """``text`` broken into lines of ``width`` cells, its styles and justification kept."""
    lines: list[Text] = []
    for paragraph in text.split("\n", allow_blank=True):
        for line in paragraph.divide(line_starts(paragraph.plain, width)):
            line.rstrip()
            lines.append(line)
    return Text("\n", justify=text.justify).join(lines)


class FittedTable(DataTable[str | Text]):
    """Its columns (key and heading) and rows given once; laid out again for each width."""

    def __init__(self, columns: Sequence[tuple[str, Text]], rows: Sequence[Sequence[Text]],
                 wrapping: Collection[int] = (), **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.headings = list(columns)
        self.lines = [list(row) for row in rows]
        self.wrapping = set(wrapping)
        self._laid_out_for: int | None = None
        self._lay_out(None)

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out(event.size.width)

    def _lay_out(self, width: int | None) -> None:
        """Every column as wide as its cells (``width`` None: before the table has a
        size), or wrapped to fit ``width`` less the cells' padding and a scroll bar."""
        if width is not None and width == self._laid_out_for:
            return
        self._laid_out_for = width
        headings = [heading for _key, heading in self.headings]
        room = None if width is None else (width - self.styles.scrollbar_size_vertical
                                           - 2 * self.cell_padding * len(headings))
        widths = None if room is None else fit_widths(
            [h.plain for h in headings], [[c.plain for c in row] for row in self.lines], room,
            self.wrapping)
        self.clear(columns=True)
        heights = [1]
        for i, (key, heading) in enumerate(self.headings):
            if widths is None:
                self.add_column(heading, key=key)
                continue
            shown = wrapped(heading, widths[i])
            heights.append(len(shown.plain.split("\n")))
            self.add_column(shown, key=key, width=widths[i])
        self.header_height = max(heights)
        for row in self.lines:
            cells = [wrapped(cell, widths[i]) if widths is not None and i in self.wrapping
                     else cell for i, cell in enumerate(row)]
            self.add_row(*cells, height=max(len(c.plain.split("\n")) for c in cells))
