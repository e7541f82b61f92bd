"""A grid of terminal cells, each a character and a role: what every chart and tile draws on.

The bandwidth and temperature charts, the trend chart and the result tiles lay themselves out
as pure functions of their data, so they can be tested as text; the app then gives each role
a colour, and the CLI prints the characters alone. A label may be a translation in a script
whose characters take two cells (Japanese, Chinese, Korean): such a character fills its cell
and the next one (which holds ``""``), so the columns after it stay where they belong.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Sequence

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


#: What never starts a line (closing punctuation, small kana, the long vowel mark) and what
#: never ends one (opening punctuation), as Japanese and Chinese typesetting keep them.
_NO_BREAK_BEFORE = frozenset("、。，．：；！？）」』】〕〉》・ー々ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
                             ",.;:!?)]}%")
_NO_BREAK_AFTER = frozenset("（「『【〔〈《([{")
#: The non-breaking space: a translation joins with it what must stay on one line; a line
#: never breaks next to it.
NO_BREAK_SPACE = "\u00a0"
#: Hiragana, which after a Latin word is its particle or ending ("Esc で", "fio は", "1 つ"):
#: a line never starts with it there, space or not.
HIRAGANA = "\u3041-\u3096"
_PARTICLE = re.compile(f"[{HIRAGANA}]")


def _tokens(text: str) -> list[tuple[int, str]]:
    """``text`` as the pieces a line may break between, each with where it starts: a space,
    a run of narrow characters (a word), or one wide character (CJK is written without
    spaces, so a line may break between any two of its characters)."""
    tokens: list[tuple[int, str]] = []
    for i, ch in enumerate(text):
        if ch != " " and tokens and tokens[-1][1] != " " and char_cells(ch) < 2 \
                and char_cells(tokens[-1][1][-1]) < 2:
            tokens[-1] = (tokens[-1][0], tokens[-1][1] + ch)
        else:
            tokens.append((i, ch))
    return tokens


def _joined(before: str, after: str) -> bool:
    """Whether no line may break between two tokens (spaces between them aside)."""
    return (after[0] in _NO_BREAK_BEFORE or before[-1] in _NO_BREAK_AFTER
            or before[-1] == NO_BREAK_SPACE or after[0] == NO_BREAK_SPACE
            or (char_cells(before[-1]) == 1 and _PARTICLE.match(after[0]) is not None)
            or _one_letter(before))


def _one_letter(word: str) -> bool:
    """A word of one letter or digit, which never ends a line: a key before what it does
    ("c compares…", in every language), Polish, Czech and Slovak one-letter prepositions
    and conjunctions ("w", "z", "i", "a"), whose typography keeps them with the next word,
    a figure before its unit."""
    return len(word) == 1 and word.isalnum() and char_cells(word) == 1


def _folded(token: str, width: int, first: int) -> list[str]:
    """A word wider than ``width`` in pieces of at most ``width`` cells, the first of at most
    ``first`` (a wide character is never cut in two)."""
    pieces = [""]
    for ch in token:
        room = first if len(pieces) == 1 else width
        if pieces[-1] and text_cells(pieces[-1]) + char_cells(ch) > room:
            pieces.append("")
        pieces[-1] += ch
    return pieces


def line_starts(text: str, width: int, fold: bool = False) -> list[int]:
    """Where each line after the first starts when ``text`` (one paragraph) is set in lines
    of at most ``width`` terminal cells: broken at spaces and between wide characters, never
    before a closing mark, after an opening one, beside a non-breaking space, between a
    Latin word and the hiragana after it (a key and its particle: "Esc で"), nor after a
    word of one letter (a key and what it does: "c compares"); what must stay
    together moves to the next line together. A word wider than ``width`` gets a line of its
    own, or, with ``fold``, is cut in pieces of ``width`` cells, the words after it going on
    after its last piece. The one rule of line breaking for every language: the command
    line's help, and Rich's and Textual's wrapping in the app."""
    starts: list[int] = []
    line: list[tuple[int, str]] = []
    used = 0
    for start, token in _tokens(text):
        if token == " ":
            if line or not starts:  # the spaces a text starts with count; a break's do not
                line.append((start, token))
                used += 1
            continue
        size = text_cells(token)
        if fold and size > width:
            alone = not any(t != " " for _s, t in line)  # after the spaces a text starts with
            if not alone:
                starts.append(start)
            pieces = _folded(token, max(width, 1), max(width - used, 1) if alone else max(width, 1))
            at = start
            for piece in pieces[:-1]:
                at += len(piece)
                starts.append(at)
            line, used = [(at, pieces[-1])], text_cells(pieces[-1])
            continue
        if line and used + size > width and any(t != " " for _s, t in line):
            between: list[tuple[int, str]] = []  # the spaces before the token
            while line[-1][1] == " ":
                between.insert(0, line.pop())
            keep, after = len(line), token  # line[keep:] goes down with the token
            while True:  # the word before it (spaces between aside), if it must go along
                k = keep - 1
                while k > 0 and line[k][1] == " ":
                    k -= 1
                if k < 1 or line[k][1] == " " or not _joined(line[k][1], after):
                    break
                keep, after = k, line[k][1]
            if keep < len(line) and text_cells(text[line[keep][0]:start]) + size > width:
                keep = len(line)  # together they do not fit a line: the rules give way
            line = line[keep:]
            while line and line[0][1] == " ":
                line.pop(0)
            if line:  # words went down with the token: the spaces between them too
                line += between
            starts.append(line[0][0] if line else start)
            used = sum(text_cells(t) for _s, t in line)
        line.append((start, token))
        used += size
    return starts


def wrap_cells(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` terminal cells, by :func:`line_starts`."""
    bounds = [0, *line_starts(text, width), len(text)]
    return [text[a:b].rstrip() for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]


def _widest_word(text: str) -> int:
    """The cells of the widest word of ``text`` (between spaces)."""
    return max((text_cells(word) for line in text.split("\n") for word in line.split(" ")),
               default=0)


def _widest_piece(text: str) -> int:
    """The cells of the widest piece of ``text`` that no line may break inside."""
    return max((text_cells(piece) for line in text.split("\n") for piece in wrap_cells(line, 1)),
               default=0)


def _widest_line(text: str) -> int:
    return max((text_cells(line) for line in text.split("\n")), default=0)


def fit_widths(headings: Sequence[str], rows: Sequence[Sequence[str]], room: int,
               wrapping: Collection[int] = ()) -> list[int]:
    """The width in cells of each column of a table, so that together they take at most
    ``room`` cells: each as wide as its widest cell while they fit; when they do not, the
    widest column that can give a cell gives one, and again, its heading wrapped (and its
    cells, for the columns in ``wrapping``): first at spaces only, then, if that is not
    enough, between any two characters a line may break between (a Japanese word). A heading
    in German or Russian is longer than the figures under it; a label in Japanese is as wide
    as a sentence. If the words alone are wider than ``room``, the columns are as narrow as
    their words."""
    columns = [[heading, *(row[i] for row in rows)] for i, heading in enumerate(headings)]
    widths = [max(_widest_line(cell) for cell in column) for column in columns]
    for narrowest in (_widest_word, _widest_piece):
        least = [max([narrowest(column[0])]
                     + [(narrowest if i in wrapping else _widest_line)(cell) for cell in column[1:]])
                 for i, column in enumerate(columns)]
        while sum(widths) > room:
            giving = [i for i, width in enumerate(widths) if width > least[i]]
            if not giving:
                break
            widths[max(giving, key=lambda i: widths[i])] -= 1
    return widths


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
    kept = max(len(parts) - 1, 1)
    while kept > 1 and text_cells(sep.join(parts[:kept]) + " …") > width:
        kept -= 1
    return kept


def whole_parts(parts: list[str], width: int, sep: str = " · ") -> str:
    """``parts`` joined by ``sep``, those that fit in ``width`` cells whole, then " …"
    (:func:`parts_that_fit`); where even the first is too wide, its words that fit, then
    " …" ("tylko do …", never "tylko do odczy…")."""
    kept = parts_that_fit(parts, width, sep)
    text = sep.join(parts[:kept]) + ("" if kept == len(parts) else " …")
    if text_cells(text) > width and sep != " " and " " in parts[0].strip():
        return whole_parts(parts[0].split(" ") + (["…"] if len(parts) > 1 else []), width, " ")
    return text


def clip(text: str, width: int, *, keep_end: bool = False) -> str:
    """``text`` in at most ``width`` cells, its start and then … where it is cut (a
    double-width character is never cut in half); ``keep_end``: … and then its end, as a
    device's or a path's end tells it apart ("…nvme0n1p2", not "/dev/nv…")."""
    if width <= 0:
        return ""
    if text_cells(text) <= width:
        return text
    kept, room = "", width - 1
    for ch in (reversed(text) if keep_end else text):
        room -= char_cells(ch)
        if room < 0:
            break
        kept = ch + kept if keep_end else kept + ch
    return "…" + kept if keep_end else kept + "…"
