"""Per-second bandwidth of every measured pass, side by side, as a block-character chart.

Olli Graf's fio article (raspithek.de) drew fio's bandwidth log over time: a dip shows
thermal throttling or a full SLC cache, which a single MB/s figure hides. The layout is a
pure function of the samples (so it can be tested as text); the widget only colours it from
the theme. Dips are marked with a glyph under the axis as well as a colour, so a monochrome
terminal shows them too.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.widget import Widget

from diskmark.locale import _, ngettext
from diskmark.model.results import RunResult
from diskmark.report.cells import Cell, Cells, as_text, text_cells

# Roles of the chart's cells; each maps to a component class of the widget.
BLANK, BAR, DIP, AXIS, LABEL, MEDIAN = range(6)
EIGHTHS = " ▁▂▃▄▅▆▇█"
DIP_MARK = "▲"
GAP = 2  # columns between two passes
MAX_COLS_PER_SECOND = 8


@dataclass(frozen=True)
class Column:
    """One drawn column: the bandwidth it stands for and whether a dip fell in it."""

    mb_s: float
    dip: bool


def _bucket(run: RunResult, per: int) -> list[Column]:
    """Samples of one pass, ``per`` seconds to a column; the lowest second of each group is
    drawn, so a squeezed chart still shows its dips."""
    dips = {second for second, _ in run.dips()}
    out = []
    for start in range(0, len(run.bw_samples), per):
        chunk = run.bw_samples[start:start + per]
        seconds = range(start + 1, start + len(chunk) + 1)
        out.append(Column(min(chunk), any(s in dips for s in seconds)))
    return out


def axis_label(mb_s: float) -> str:
    return f"{mb_s:.0f}" if mb_s >= 100 else f"{mb_s:.1f}"


def geometry(runs: list[RunResult], width: int) -> tuple[int, int, int]:
    """(width of the y labels, seconds per column, characters per column) of the chart of
    ``runs`` (those with samples): a chart drawn under it with the same geometry lines up
    with it second for second."""
    lab = max(len(axis_label(max(max(r.bw_samples) for r in runs))), len("MB/s"))
    room = width - (lab + 2) - GAP * (len(runs) - 1)  # labels, a space, the axis line
    seconds = sum(len(r.bw_samples) for r in runs)
    per = max(1, math.ceil(seconds / max(room, 1)))
    used = sum(math.ceil(len(r.bw_samples) / per) for r in runs)
    cols = max(1, min(MAX_COLS_PER_SECOND, room // used)) if used <= room else 1
    return lab, per, cols


def chart_cells(runs: list[RunResult], width: int, height: int = 6) -> list[list[Cell]]:
    """The chart as rows of (character, role): ``height`` rows of bars on a y-axis from 0 to
    the highest second (labelled in MB/s), the x-axis with a dip mark under each dipping
    column, and a row naming each pass with its length in seconds. A pass with no sample is
    left out, and the others keep their numbers (pass 2 is the test's second pass)."""
    numbered = [(n, r) for n, r in enumerate(runs, 1) if r.bw_samples]
    runs = [r for _n, r in numbered]
    if not runs or width < 12 or height < 2:
        return []
    top = max(max(r.bw_samples) for r in runs)
    top_label, zero_label = axis_label(top), "0"
    lab, per, cols = geometry(runs, width)
    plot_x = lab + 2
    groups = [_bucket(r, per) for r in runs]

    grid = Cells(width, height + 2, BLANK)
    put = grid.put
    put(0, lab - len(top_label), top_label, LABEL)
    put(height, lab - len(zero_label), zero_label, LABEL)
    if height >= 4:
        put(height // 2, lab - 4, "MB/s", LABEL)
    for y in range(height):
        put(y, lab + 1, "┤" if y == 0 else "│", AXIS)
    put(height, lab + 1, "└", AXIS)
    x = plot_x
    for i, ((n, run), group) in enumerate(zip(numbered, groups), 1):
        start = x
        median = run.bw_median or 0.0
        median_row = height - 1 - min(height - 1, int(median / top * height)) if top else None
        for col in group:
            eighths = round(col.mb_s / top * height * 8) if top > 0 else 0
            for y in range(height):
                level = (height - 1 - y) * 8
                fill = max(0, min(8, eighths - level))
                role = DIP if col.dip else BAR
                if fill:
                    put(y, x, EIGHTHS[fill] * cols, role)
                elif y == median_row:
                    put(y, x, "┄" * cols, MEDIAN)
            put(height, x, "─" * cols, AXIS)
            if col.dip:
                put(height, x + (cols - 1) // 2, DIP_MARK, DIP)
            x += cols
        span = x - start
        secs = len(run.bw_samples)
        # TRANSLATORS: under a pass's bars in the chart, shortened when it is narrow
        for name in (_("pass {n} · {seconds} s").format(n=n, seconds=secs),
                     _("pass {n}").format(n=n), f"#{n}", str(n)):
            if text_cells(name) <= span + (GAP - 1 if i < len(runs) else 0):
                put(height + 1, start, name, LABEL)
                break
        if i < len(runs):
            put(height, x, "─" * GAP, AXIS)
            x += GAP
    return grid.rows


def chart_text(runs: list[RunResult], width: int, height: int = 6) -> str:
    """The chart as plain text (tests, plain-text exports)."""
    return as_text(chart_cells(runs, width, height))


def dip_notes(runs: list[RunResult], limit: int = 6) -> list[str]:
    """Every dip in plain words: which pass, which second, how deep below that pass's median."""
    notes = []
    for n, run in enumerate(runs, 1):
        median = run.bw_median
        for second, mb_s in run.dips():
            # TRANSLATORS: a dip in a pass's bandwidth: {n} the pass, {second} the second,
            # {mb_s} and {median} figures in MB/s, {depth} a percentage
            notes.append(_("pass {n}, second {second}: {mb_s} MB/s, {depth}% below its median "
                           "of {median} MB/s").format(
                n=n, second=second, mb_s=f"{mb_s:.1f}", depth=f"{run.dip_depth_pct(mb_s):.0f}",
                median=f"{median:.1f}"))
    if len(notes) > limit:
        more = len(notes) - limit
        notes[limit:] = [ngettext("… and {count} more", "… and {count} more", more)
                         .format(count=more)]
    return notes


class CellChart(Widget):
    """A chart laid out as :class:`~diskmark.report.cells.Cells` by a pure function, each
    role drawn in the style of its component class (``ROLES``), so a theme colours every
    chart the same way and a test reads the same layout as text."""

    #: role -> the component class that styles it (roles not named are drawn unstyled)
    ROLES: ClassVar[dict[int, str]] = {}
    PLOT_ROWS: ClassVar[int] = 6

    def cells(self, width: int) -> list[list[Cell]]:
        """The chart at ``width`` cells."""
        raise NotImplementedError

    @property
    def text(self) -> str:
        return as_text(self.cells(self.content_size.width or 80))

    def render(self) -> Text:
        styles = {role: self.get_component_rich_style(name, partial=True)
                  for role, name in self.ROLES.items()}
        return paint(self.cells(self.content_size.width), styles)


class BandwidthChart(CellChart):
    """The chart of :func:`chart_cells`, as wide as the widget, in the theme's colours."""

    DEFAULT_CSS = """
    BandwidthChart {
        height: 8;
        width: 1fr;
    }
    BandwidthChart > .chart--bar { color: $primary; }
    BandwidthChart > .chart--dip { color: $warning; text-style: bold; }
    BandwidthChart > .chart--axis { color: $text-muted; }
    BandwidthChart > .chart--label { color: $text-muted; }
    BandwidthChart > .chart--median { color: $text-disabled; }
    """

    ROLES = {BAR: "chart--bar", DIP: "chart--dip", AXIS: "chart--axis", LABEL: "chart--label",
             MEDIAN: "chart--median"}
    COMPONENT_CLASSES = set(ROLES.values())

    def __init__(self, runs: list[RunResult], *, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.runs = list(runs)

    def cells(self, width: int) -> list[list[Cell]]:
        return chart_cells(self.runs, width, self.PLOT_ROWS)


def paint(cells: list[list[Cell]], styles: Mapping[int, Style | None]) -> Text:
    """A grid of ``(character, role)`` cells as one Text, each run of one role styled once
    (a style per cell would make every frame of a large chart slow to draw)."""
    out = Text(no_wrap=True, overflow="crop")
    for y, row in enumerate(cells):
        if y:
            out.append("\n")
        run_text, run_role = "", -1  # roles are 0 and up
        for ch, role in row:
            if role == run_role:
                run_text += ch
                continue
            if run_text:
                out.append(run_text, styles.get(run_role))
            run_text, run_role = ch, role
        if run_text:
            out.append(run_text, styles.get(run_role))
    return out
