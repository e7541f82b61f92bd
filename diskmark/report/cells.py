"""A grid of terminal cells, each a character and a role: what every chart and tile draws on.

The bandwidth and temperature charts, the trend chart and the result tiles lay themselves out
as pure functions of their data, so they can be tested as text; the app then gives each role
a colour, and the CLI prints the characters alone. A label may be a translation in a script
whose characters take two cells (Japanese, Chinese, Korean): such a character fills its cell
and the next one (which holds ``""``), so the columns after it stay where they belong.
"""

from __future__ import annotations

import unicodedata

#: One cell: its character ("" for the second cell of a double-width character) and role.
Cell = tuple[str, int]


def char_cells(ch: str) -> int:
    """How many terminal cells ``ch`` takes: two for East Asian wide and full-width
    characters, none for a combining mark, one for the rest."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def text_cells(text: str) -> int:
    """How many terminal cells ``text`` takes."""
    return sum(char_cells(ch) for ch in text)


class Cells:
    """``height`` rows of ``width`` cells, blank (role ``blank``) until something is put."""

    def __init__(self, width: int, height: int, blank: int = 0) -> None:
        self.width, self.height = max(width, 0), max(height, 0)
        self.rows: list[list[Cell]] = [[(" ", blank)] * self.width for _ in range(self.height)]

    def put(self, y: int, x: int, text: str, role: int) -> None:
        """``text`` from column ``x`` of row ``y``; whatever falls outside is left out, and a
        wide character that would stick out of the right edge is not drawn."""
        if not 0 <= y < self.height:
            return
        row = self.rows[y]
        for ch in text:
            size = char_cells(ch)
            if size == 0:  # a combining mark joins the character before it
                if 0 < x <= self.width and row[x - 1][0]:
                    row[x - 1] = (row[x - 1][0] + ch, row[x - 1][1])
                continue
            if 0 <= x and x + size <= self.width:
                row[x] = (ch, role)
                if size == 2:
                    row[x + 1] = ("", role)
            x += size

    def text(self) -> str:
        """The characters alone, a line a row, without trailing blanks."""
        return as_text(self.rows)


def as_text(rows: list[list[Cell]]) -> str:
    """Rows of cells as plain text, a line a row, without trailing blanks."""
    return "\n".join("".join(ch for ch, _ in row).rstrip() for row in rows)




def parts_that_fit(parts: list[str], width: int, sep: str = " · ") -> int:
    """How many of ``parts``, joined by ``sep``, fit in ``width`` cells whole: all of them,
    or the first few with " …" after them for those left out (at least the first: the
    cells cut what even it overflows). A line of facts or notes is shortened by its parts,
    never through a word ("· S…" said nothing of "Samsung SSD 980")."""
    if text_cells(sep.join(parts)) <= width:
        return len(parts)
    kept = len(parts) - 1
    while kept > 1 and text_cells(sep.join(parts[:kept]) + " …") > width:
        kept -= 1
    return kept


def whole_parts(parts: list[str], width: int, sep: str = " · ") -> str:
    """``parts`` joined by ``sep``, those that fit in ``width`` cells whole, then " …"
    (:func:`parts_that_fit`)."""
    kept = parts_that_fit(parts, width, sep)
    return sep.join(parts[:kept]) + ("" if kept == len(parts) else " …")
