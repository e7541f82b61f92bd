"""Inline SVG charts for a shared page: the per-second bandwidth of every pass of a test.

Olli Graf's fio article drew fio's bandwidth log over time; a dip (throttling, a full SLC
cache) is what a single figure hides. Passes are drawn side by side on one time axis, each
a line, dips (30% below the pass's median) as dots. Pure text, no scripts, no fonts fetched.
"""

from __future__ import annotations

from html import escape

from diskmark.locale import _
from diskmark.model.results import RunResult

WIDTH, HEIGHT = 420, 150
LEFT, BOTTOM, TOP, RIGHT = 46, 22, 10, 8


def _label(mb_s: float) -> str:
    return f"{mb_s:.0f}" if mb_s >= 100 else f"{mb_s:.1f}"


def bandwidth_svg(runs: list[RunResult], colours: dict[str, str], title: str) -> str:
    """An ``<svg>`` element: MB/s over the seconds of each pass (gaps between passes)."""
    runs = [r for r in runs if r.bw_samples]
    if not runs:
        return ""
    top = max(max(r.bw_samples) for r in runs) or 1.0
    gap = 1
    seconds = sum(len(r.bw_samples) for r in runs) + gap * (len(runs) - 1)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    step = plot_w / max(seconds - 1, 1)

    def y(v: float) -> float:
        return TOP + plot_h * (1 - v / top)

    fg, line, warn = colours["foreground"], colours["primary"], colours["worse-color"]
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
             f'role="img" aria-label="{escape(title)}" class="chart">',
             f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}" stroke="{fg}" '
             f'stroke-opacity="0.5"/>',
             f'<line x1="{LEFT}" y1="{TOP + plot_h}" x2="{WIDTH - RIGHT}" y2="{TOP + plot_h}" '
             f'stroke="{fg}" stroke-opacity="0.5"/>',
             f'<text x="{LEFT - 4}" y="{TOP + 8}" text-anchor="end">{_label(top)}</text>',
             f'<text x="{LEFT - 4}" y="{TOP + plot_h}" text-anchor="end">0</text>',
             f'<text x="{LEFT - 4}" y="{TOP + plot_h / 2 + 4}" text-anchor="end">MB/s</text>']
    # TRANSLATORS: a bandwidth dip at second {second} of pass {n}
    dip = _("pass {n}, second {second}: {speed} MB/s")
    # TRANSLATORS: under a pass's line in the chart: keep it short
    label = _("pass {n}")
    x0 = 0
    for n, run in enumerate(runs, 1):
        points = " ".join(f"{LEFT + (x0 + i) * step:.1f},{y(v):.1f}"
                          for i, v in enumerate(run.bw_samples))
        if len(run.bw_samples) == 1:
            parts.append(f'<circle cx="{LEFT + x0 * step:.1f}" cy="{y(run.bw_samples[0]):.1f}" '
                         f'r="2.5" fill="{line}"/>')
        else:
            parts.append(f'<polyline points="{points}" fill="none" stroke="{line}" '
                         f'stroke-width="1.8"/>')
        for second, mb_s in run.dips():
            parts.append(f'<circle cx="{LEFT + (x0 + second - 1) * step:.1f}" cy="{y(mb_s):.1f}" '
                         f'r="3" fill="{warn}"><title>{escape(dip.format(n=n, second=second, speed=f"{mb_s:.1f}"))}'
                         f'</title></circle>')
        # a pass of one second at the right edge: its label still inside the picture
        mid = min(LEFT + (x0 + (len(run.bw_samples) - 1) / 2) * step, WIDTH - RIGHT - 18)
        parts.append(f'<text x="{mid:.1f}" y="{HEIGHT - 6}" text-anchor="middle">'
                     f'{escape(label.format(n=n))}</text>')
        x0 += len(run.bw_samples) + gap
    parts.append("</svg>")
    return "".join(parts)
