"""A terminal's picture (the SVG Rich exports for a screenshot) with every character in its
own cell, in any language.

Rich gives each run of text one ``x`` and a ``textLength`` of its characters times a cell's
width: a Japanese character takes two cells, so a run of them was given half the room it
needs, and a renderer squeezed its glyphs onto each other (測定対象 overlapped) and took
the spaces out of a line to make it fit. Its font, "Fira Code, monospace", has no Japanese
either, so each renderer chose another font, glyph by glyph.

Here each character is placed at its own cell (an ``x`` per character, no ``textLength``:
nothing to stretch or squeeze), and the font families named after Rich's are monospace
fonts that draw Japanese, Chinese and Korean on Linux (fonts-noto-cjk, fonts-wqy-microhei),
after DejaVu Sans Mono for the rest.
"""

from __future__ import annotations

import html
import re

from diskmark.report.cells import char_cells

#: After Rich's "Fira Code": Latin in DejaVu Sans Mono, then monospace fonts with CJK.
FONTS = ("'DejaVu Sans Mono', 'Noto Sans Mono CJK JP', 'Noto Sans Mono CJK SC', "
         "'WenQuanYi Micro Hei Mono', 'WenQuanYi Zen Hei Mono', monospace")

_TEXT = re.compile(r'<text (?P<before>[^>]*?)x="(?P<x>[0-9.]+)" (?P<middle>[^>]*?)'
                   r'textLength="(?P<length>[0-9.]+)"(?P<after>[^>]*)>(?P<words>[^<]*)</text>')
_FAMILY = re.compile(r"(font-family:\s*Fira Code,\s*)monospace;")


def _placed(found: re.Match[str]) -> str:
    words = html.unescape(found.group("words"))
    length = float(found.group("length"))
    cell = length / len(words) if words else 0.0  # Rich's textLength: a cell per character
    x = float(found.group("x"))
    xs: list[str] = []
    for ch in words:
        size = char_cells(ch)
        xs.append(xs[-1] if size == 0 and xs else f"{x:g}")  # a mark goes on its letter
        x += cell * size
    return (f'<text {found.group("before")}x="{" ".join(xs)}" {found.group("middle")}'
            f'{found.group("after").lstrip()}>{found.group("words")}</text>').replace(" >", ">")


def in_cells(svg: str) -> str:
    """``svg`` (Rich's export of a terminal) with each character at its cell and fonts that
    draw every language the app speaks."""
    return _FAMILY.sub(lambda m: f"{m.group(1)}{FONTS};", _TEXT.sub(_placed, svg))
