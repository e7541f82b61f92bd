"""A translated sentence set in lines as its language sets them.

Rich and Textual break lines only at spaces: a Japanese or Chinese sentence, written without
them, is one long "word" to both, which a table's column cut with "…" (the help lost the end
of its sentences) and a widget folds wherever the width falls, a closing 。 at the start of a
line. A :class:`Paragraph` breaks by :func:`diskmark.report.cells.line_starts`, the rule the
command line's help follows too: at spaces, between wide characters, never before a closing
mark nor beside a non-breaking space. Inline code written `so` in a message is shown in bold,
without its backticks, in every language.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.style import Style
from rich.text import Text

from diskmark.report.cells import line_starts, text_cells, wrap_cells

_CODE = re.compile(r"`([^`\n]+)`")

def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Rich's ``divide_line`` (where a paragraph's lines start), by the rule of every
    language: Rich broke only at spaces, so a Japanese sentence was one word, cut with "…"
    or folded wherever the width fell (a line could start with 。 or with the particle after
    a key, "Esc / で"); a no-break space did not hold either."""
    return line_starts(text, width, fold=fold)


def keep_joined_words() -> None:
    """Rich's and Textual's wrapping follow :func:`divide_line` (once; the app does it as
    it is imported), so every widget wraps as the help and the command line do."""
    import rich._wrap
    import rich.text
    import textual.content

    for module in (rich._wrap, rich.text, textual.content):
        module.divide_line = divide_line  # type: ignore[attr-defined]


def marked_code(text: str, style: str | Style = "", code: str | Style = "bold") -> Text:
    """``text`` as Rich text, each `inline code` in ``code``'s style and without its
    backticks."""
    out = Text(style=style)
    at = 0
    for found in _CODE.finditer(text):
        out.append(text[at:found.start()])
        out.append(found.group(1), style=code)
        at = found.end()
    out.append(text[at:])
    return out


class Paragraph:
    """``text`` (a translated message, or several paragraphs of one) wrapped to the width it
    is given by the line-breaking rule of every language. Its narrowest width is that of its
    widest piece no line may break inside, so a table gives it at least that."""

    def __init__(self, text: str, style: str | Style = "", code: str | Style = "bold") -> None:
        self.text = marked_code(text, style, code)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        paragraphs = self.text.plain.split("\n")
        least = max((text_cells(piece) for p in paragraphs for piece in wrap_cells(p, 1)),
                    default=0)
        most = max(text_cells(p) for p in paragraphs)
        return Measurement(least, most).clamp(max_width=options.max_width)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        width = max(options.max_width, 1)
        for paragraph in self.text.split("\n", allow_blank=True):
            for line in paragraph.divide(line_starts(paragraph.plain, width)):
                line.rstrip()
                line.overflow = "fold"  # only a word wider than the whole width is folded
                line.justify = "left"
                line.end = "\n"
                yield line
