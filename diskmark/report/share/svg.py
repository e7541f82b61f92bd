"""Inline SVG charts for a shared page: the per-second bandwidth of every pass of a test.

Olli Graf's fio article drew fio's bandwidth log over time; a dip (throttling, a full SLC
cache) is what a single figure hides. Passes are drawn side by side on one time axis, a
slot a second and an empty slot between passes, each pass a line, dips (30% below the pass's
median) as dots. fio samples once a second, so a pass of a second or two has too few
seconds for a line (one sample drew a dot in an empty frame): its seconds are bars with
their figures, and the chart says why there is no curve. A pass with no sample keeps its
place and its number, marked "-" as a tile with no figure is. Pure text, no scripts, no
fonts fetched.
"""

from __future__ import annotations

from html import escape

from diskmark.locale import _
from diskmark.model.results import RunResult
from diskmark.report.cells import text_cells

WIDTH, HEIGHT = 420, 150
LEFT, BOTTOM, TOP, RIGHT = 46, 22, 10, 8
#: The fewest seconds a pass is drawn as a line with (dips, too, need three).
CURVE_MIN = 3
#: Room above the highest bar for the sentence and the bars' figures, in px.
HEADROOM = 24
#: About how wide a cell of text is at the charts' 10 px (DejaVu Sans; a wide character
#: takes two cells).
CELL_PX = 6.0
BAR_MAX_W = 36.0


def _label(mb_s: float) -> str:
    return f"{mb_s:.0f}" if mb_s >= 100 else f"{mb_s:.1f}"


def bandwidth_svg(runs: list[RunResult], colours: dict[str, str], title: str) -> str:
    """An ``<svg>`` element: MB/s over the seconds of each pass ("" when no pass has a
    sample). Pass ``n`` is the test's ``n``-th pass, whatever came before it."""
    if not any(r.bw_samples for r in runs):
        return ""
    top = max(max(r.bw_samples) for r in runs if r.bw_samples) or 1.0
    short = any(len(r.bw_samples) < CURVE_MIN for r in runs)
    gap = 1
    slots = sum(max(len(r.bw_samples), 1) for r in runs) + gap * (len(runs) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / slots
    ceiling = TOP + (HEADROOM if short else 0)  # where the highest second reaches

    def x(i: float) -> float:
        return LEFT + (i + 0.5) * slot

    def y(v: float) -> float:
        return ceiling + (TOP + plot_h - ceiling) * (1 - v / top)

    fg, line, warn = colours["foreground"], colours["primary"], colours["worse-color"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'role="img" aria-label="{escape(title)}" class="chart">',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="{fg}" '
             f'stroke-opacity="0.5"/>',
             f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" '
             f'stroke="{fg}" stroke-opacity="0.5"/>',
             f'<text x="{LEFT - 4}" y="{ceiling + 8}" text-anchor="end">{_label(top)}</text>',
             f'<text x="{LEFT - 4}" y="{TOP + plot_h}" text-anchor="end">0</text>',
             f'<text x="{LEFT - 4}" y="{TOP + plot_h / 2 + 4}" text-anchor="end">MB/s</text>']
    if short:
        # TRANSLATORS: in a bandwidth chart whose passes lasted a second or two (fio samples
        # once a second), drawn as a bar a second instead of a line; about 60 characters at most
        why = _("One sample a second: too few for a curve")
        parts.append(f'<text x="{LEFT + plot_w / 2:.1f}" y="{TOP + 8}" text-anchor="middle" '
                     f'font-style="italic" class="why">{escape(why)}</text>')
    # TRANSLATORS: a second of pass {n} in a bandwidth chart (a dip, or a bar of a short pass)
    second_words = _("pass {n}, second {second}: {speed} MB/s")
    # TRANSLATORS: under a pass's line in the chart: keep it short
    label = _("pass {n}")
    bar_w = min(slot * 0.7, BAR_MAX_W)
    figures = all(text_cells(_label(v)) * CELL_PX <= slot * 0.95
                  for r in runs if len(r.bw_samples) < CURVE_MIN for v in r.bw_samples)
    x0 = 0
    for n, run in enumerate(runs, 1):
        samples = run.bw_samples
        if len(samples) >= CURVE_MIN:
            points = " ".join(f"{x(x0 + i):.1f},{y(v):.1f}" for i, v in enumerate(samples))
            parts.append(f'<polyline points="{points}" fill="none" stroke="{line}" '
                         f'stroke-width="1.8"/>')
        for i, v in enumerate(samples if len(samples) < CURVE_MIN else []):
            words = escape(second_words.format(n=n, second=i + 1, speed=f"{v:.1f}"))
            parts.append(f'<rect class="second" x="{x(x0 + i) - bar_w / 2:.1f}" y="{y(v):.1f}" '
                         f'width="{bar_w:.1f}" height="{TOP + plot_h - y(v):.1f}" fill="{line}">'
                         f'<title>{words}</title></rect>')
            if figures:
                parts.append(f'<text x="{x(x0 + i):.1f}" y="{y(v) - 3:.1f}" '
                             f'text-anchor="middle">{_label(v)}</text>')
        if not samples:  # no second was sampled: the pass keeps its place, marked
            parts.append(f'<text x="{x(x0):.1f}" y="{TOP + plot_h - 4}" '
                         f'style="font-size:14px" text-anchor="middle" class="none">-</text>')
        for second, mb_s in run.dips():
            parts.append(f'<circle cx="{x(x0 + second - 1):.1f}" cy="{y(mb_s):.1f}" '
                         f'r="3" fill="{warn}"><title>'
                         f'{escape(second_words.format(n=n, second=second, speed=f"{mb_s:.1f}"))}'
                         f'</title></circle>')
        width = max(len(samples), 1)
        room = (width + gap) * slot  # its slots and a gap: a neighbour's label starts past it
        name = next((w for w in (label.format(n=n), f"#{n}", str(n))
                     if text_cells(w) * CELL_PX <= room), str(n))
        # a pass at the right edge: its label still inside the picture
        mid = min(x(x0 + (width - 1) / 2), WIDTH - RIGHT - text_cells(name) * CELL_PX / 2)
        parts.append(f'<text x="{mid:.1f}" y="{HEIGHT - 6}" text-anchor="middle">'
                     f'{escape(name)}</text>')
        x0 += width + gap
    parts.append("</svg>")
    return "".join(parts)
