"""A result (or a result against a reference) as one SVG picture, the PNG's source.

What people share of CrystalDiskMark is a picture of its window, so the picture is the
page's first screen drawn without a browser: the heading, the grid of tiles in the theme's
colours (CDM's log-scale meter behind each figure; with a reference, each tile's change),
every test's per-second bandwidth (the page's own charts), where it ran and the notes. The
fio commands stay on the HTML page, which has room for them.

An SVG has no layout engine, so every box is placed here and every line of text is fitted
to its box by an estimate of its width (wider for East Asian characters, which take two
cells in a terminal and about a full em in a font): a long value is cut with "…" rather
than drawn over its neighbour. Every string from the data is escaped and its control and
format characters shown as ``\\x1b``, ``\\u202e``, as on the page. Each tile carries
``data-test`` and each rectangle its colour as an attribute, so a test can find a tile and
the colour its pixels should have.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from diskmark import __version__
from diskmark.locale import _, pgettext
from diskmark.locale.kept import said_kept
from diskmark.model.results import SessionResult, TestResult
from diskmark.model.units import Unit
from diskmark.presets.words import said_name
from diskmark.report.compare import Comparison, compare
from diskmark.report.formatting import format_figure, meter_fraction, op_word
from diskmark.report.share.page import _GLYPH, _date, _e, _facts, caption_parts
from diskmark.report.share.svg import HEIGHT as CHART_H
from diskmark.report.share.svg import WIDTH as CHART_W
from diskmark.report.share.svg import bandwidth_svg
from diskmark.report.text import _grid

WIDTH = 1100
PAD = 24
INNER = WIDTH - 2 * PAD
ROW_BUTTON_W, GAP, TILE_H, HEAD_H = 120, 8, 72, 26
SANS = "'DejaVu Sans','Liberation Sans',sans-serif"
MONO = "'DejaVu Sans Mono','Liberation Mono',monospace"


def text_width(text: str, size: float, mono: bool = False) -> float:
    """About how wide ``text`` is at ``size`` px: DejaVu's average advance, a full em for
    wide East Asian characters."""
    narrow = 0.602 if mono else 0.58
    return sum(size if unicodedata.east_asian_width(c) in "WF" else size * narrow for c in text)


def fit(text: str, size: float, room: float, mono: bool = False) -> str:
    """``text``, cut with "…" where it would pass ``room`` px."""
    if text_width(text, size, mono) <= room:
        return text
    while text and text_width(text + "…", size, mono) > room:
        text = text[:-1]
    return text + "…"


def wrap(text: str, size: float, room: float, lines: int = 3) -> list[str]:
    """``text`` broken at spaces into at most ``lines`` lines of ``room`` px (the last cut)."""
    out: list[str] = []
    line = ""
    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if line and text_width(candidate, size) > room:
            out.append(line)
            line = word
        else:
            line = candidate
    out.append(line)
    if len(out) > lines:
        out = out[:lines - 1] + [fit(" ".join(out[lines - 1:]), size, room)]
    return [fit(one, size, room) for one in out]


@dataclass
class Canvas:
    """What is drawn so far, top to bottom; ``y`` is where the next thing goes."""

    colours: dict[str, str]
    parts: list[str] = field(default_factory=list)
    y: float = PAD
    clips: int = 0

    def text(self, x: float, y: float, words: str, size: float, fill: str, *,
             anchor: str = "start", bold: bool = False, mono: bool = False,
             opacity: float = 1.0, css: str = "") -> None:
        attrs = [f'x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" fill="{fill}"']
        if anchor != "start":
            attrs.append(f'text-anchor="{anchor}"')
        if bold:
            attrs.append('font-weight="bold"')
        if mono:
            attrs.append(f'font-family="{MONO}"')
        if opacity < 1:
            attrs.append(f'fill-opacity="{opacity:g}"')
        if css:
            attrs.append(f'class="{css}"')
        self.parts.append(f"<text {' '.join(attrs)}>{_e(words)}</text>")

    def rect(self, x: float, y: float, w: float, h: float, fill: str, *, stroke: str = "",
             rx: float = 0, extra: str = "") -> None:
        line = f' stroke="{stroke}" stroke-width="1"' if stroke else ""
        corner = f' rx="{rx:g}"' if rx else ""
        self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
                          f'fill="{fill}"{line}{corner}{extra}/>')

    def heading(self, words: str) -> None:
        self.y += 28
        self.text(PAD, self.y, fit(words, 16, INNER), 16, self.colours["column-header-foreground"],
                  bold=True)
        self.y += 10


def _tile(c: Canvas, x: float, y: float, w: float, test: TestResult | None, unit: Unit,
          cmp: Comparison | None) -> None:
    col = c.colours
    right, fig_y = x + w - 12, y + TILE_H / 2 + 11
    if test is None or not test.complete:
        c.rect(x, y, w, TILE_H, col["meter-background"], stroke=col["tile-border"], rx=6)
        why = pgettext("cell", "error") if test is not None and test.error else "-"
        c.text(right, fig_y, why, 30, col["tile-foreground"], anchor="end", bold=True, mono=True,
               opacity=0.4)
        return
    value = test.figure(unit)
    c.clips += 1
    clip = f"tile{c.clips}"
    c.parts.append(f'<clipPath id="{clip}"><rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" '
                   f'height="{TILE_H}" rx="6"/></clipPath>')
    c.rect(x, y, w, TILE_H, col["meter-background"], stroke=col["tile-border"], rx=6,
           extra=f' data-test="{_e(test.key)}"')
    meter = meter_fraction(value, unit) * w
    if meter > 0:
        c.rect(x, y, meter, TILE_H, col["meter-color"], extra=f' clip-path="url(#{clip})" '
                                                              'class="meter"')
    delta = cmp.delta(test.key, unit) if cmp is not None else None
    below = [] if delta is None else [(
        f"{_GLYPH[delta.verdict]} " + (_("n/a") if delta.pct is None else f"{delta.pct:+.1f}%"),
        col[f"{delta.verdict}-color"])]
    if test.cpu_limited:
        below.append((_("CPU-limited"), col["warning"]))
    if test.marks:  # a layer under the target explains the figure (zip, mem, loop…)
        from diskmark.report.stack_words import marks_text

        below.append((marks_text(test), col["warning"]))
    fig_y -= 8 * len(below)
    c.text(right, fig_y, format_figure(value, unit), 30, col["tile-foreground"], anchor="end",
           bold=True, mono=True)
    for n, (words, colour) in enumerate(below, 1):
        c.text(right, fig_y + 16 * n, fit(words, 13, w - 24), 13, colour, anchor="end", bold=True)


def _grid_part(c: Canvas, session: SessionResult, unit: Unit, cmp: Comparison | None) -> None:
    col = c.colours
    rows, columns, cells = _grid(session)
    n = max(len(columns), 1)
    tile_w = (INNER - 24 - ROW_BUTTON_W - GAP * n) / n
    top = c.y
    height = 24 + HEAD_H + len(rows) * (TILE_H + GAP)
    c.rect(PAD, top, INNER, height, col["surface"], stroke=col["tile-border"], rx=8)
    x0, y = PAD + 12, top + 12
    profile = said_name(session.profile_name or session.settings.profile) or pgettext("button",
                                                                                     "All")
    head = col["column-header-foreground"]
    c.text(x0 + ROW_BUTTON_W / 2, y + HEAD_H - 8, fit(profile, 14, ROW_BUTTON_W), 14, head,
           anchor="middle", bold=True)
    for i, (name, _col, _mix) in enumerate(columns):
        x = x0 + ROW_BUTTON_W + GAP + i * (tile_w + GAP)
        c.text(x + tile_w / 2, y + HEAD_H - 8, fit(f"{name} ({unit.label})", 14, tile_w), 14,
               head, anchor="middle", bold=True)
    y += HEAD_H
    for label in rows:
        name, _sep, qt = label.partition(" ")
        c.rect(x0, y, ROW_BUTTON_W, TILE_H, col["row-button-background"], rx=6,
               extra=' class="rowbtn"')
        for line, words in ((-2, name), (18, qt)):
            c.text(x0 + ROW_BUTTON_W / 2, y + TILE_H / 2 + line, fit(words, 14, ROW_BUTTON_W - 8),
                   14, col["row-button-foreground"], anchor="middle", bold=True)
        for i, (_name, key, _mix) in enumerate(columns):
            _tile(c, x0 + ROW_BUTTON_W + GAP + i * (tile_w + GAP), y, tile_w,
                  cells.get((label, key)), unit, cmp)
        y += TILE_H + GAP
    c.y = top + height


def _charts_part(c: Canvas, session: SessionResult) -> None:
    charts = [(t, bandwidth_svg(t.runs, c.colours, f"{t.label} {op_word(t.op)}"))
              for t in session.tests if t.complete]
    charts = [(t, svg) for t, svg in charts if svg]
    if not charts:
        return
    c.heading(_("Every second of every pass"))
    box_w = (INNER - 12) / 2
    chart_w = box_w - 16
    chart_h = chart_w * CHART_H / CHART_W
    box_h = 8 + 18 + chart_h + 8
    for i, (test, svg) in enumerate(charts):
        x = PAD + (i % 2) * (box_w + 12)
        y = c.y + (i // 2) * (box_h + 12)
        c.rect(x, y, box_w, box_h, c.colours["surface"], stroke=c.colours["tile-border"], rx=6)
        name, figures = caption_parts(test)
        name = fit(name, 13, box_w / 2)
        rest = fit(figures, 13, chart_w - text_width(name, 13) * 1.08)
        c.parts.append(f'<text x="{x + 8:.1f}" y="{y + 20:.1f}" font-size="13" '
                       f'fill="{c.colours["foreground"]}"><tspan font-weight="bold">{_e(name)}'
                       f"</tspan>{_e(rest)}</text>")
        c.parts.append(svg.replace("<svg ", f'<svg x="{x + 8:.1f}" y="{y + 26:.1f}" '
                                            f'width="{chart_w:.1f}" height="{chart_h:.1f}" ', 1))
    c.y += ((len(charts) + 1) // 2) * (box_h + 12) - 12


def _facts_part(c: Canvas, session: SessionResult) -> None:
    col = c.colours
    c.heading(_("Where it ran"))
    rows = _facts(session)
    key_w = max(140.0, min(220.0, max(text_width(k, 13) for k, _v in rows) + 16))
    c.rect(PAD, c.y, INNER, 24 * len(rows), col["surface"], stroke=col["panel"])
    for n, (key, value) in enumerate(rows):
        y = c.y + 24 * n
        if n:
            c.parts.append(f'<line x1="{PAD}" y1="{y:.1f}" x2="{PAD + INNER}" y2="{y:.1f}" '
                           f'stroke="{col["panel"]}"/>')
        c.text(PAD + 8, y + 17, fit(key, 13, key_w - 12), 13, col["foreground"], bold=True)
        c.text(PAD + key_w, y + 17, fit(value, 13, INNER - key_w - 8), 13, col["foreground"])
    c.y += 24 * len(rows)


def render_svg(session: SessionResult, colours: dict[str, str], unit: Unit = Unit.MB_S,
               reference: SessionResult | None = None, reference_name: str | None = None,
               title: str = "") -> str:
    """The picture as SVG text, ``WIDTH`` px wide and as tall as it needs."""
    cmp = compare(session, reference, reference_name or "") if reference is not None else None
    c = Canvas(colours)
    heading = title or _("diskmark result")
    c.y += 22
    c.text(PAD, c.y, fit(heading, 22, INNER), 22, colours["primary"], bold=True)
    where = session.system.target or session.settings.target
    sub = " · ".join(x for x in (_date(session.started), where, session.system.device,
                                 session.system.fstype, session.system.hostname) if x)
    c.y += 24
    c.text(PAD, c.y, fit(sub, 14, INNER), 14, colours["foreground"], opacity=0.8)
    if cmp is not None:
        c.y += 22
        against = _("Against {name}").format(name=reference_name or _("the reference"))
        c.text(PAD, c.y, fit(against, 14, INNER), 14, colours["column-header-foreground"],
               bold=True)
        if cmp.settings_differences:
            c.y += 20
            text = _("Settings differ; this comparison may mislead: {differences}").format(
                differences="; ".join(cmp.settings_differences))
            c.text(PAD, c.y, fit(text, 13, INNER), 13, colours["warning"], bold=True)
    c.y += 16
    _grid_part(c, session, unit, cmp)
    _charts_part(c, session)
    _facts_part(c, session)
    for note in session.warnings:
        for line in wrap(_("Note: {note}").format(note=said_kept(note)), 13, INNER):
            c.y += 20
            c.text(PAD, c.y, line, 13, colours["warning"], bold=True)
    footer = _("Made by diskmark {version}. MB/s = 1,000,000 bytes/s; sizes are binary (MiB, "
               "GiB). Each figure is the best of the passes after a discarded warm-up (latency: "
               "the lowest).").format(version=__version__)
    c.y += 12
    for line in wrap(footer, 12, INNER):
        c.y += 17
        c.text(PAD, c.y, line, 12, colours["foreground"], opacity=0.7)
    height = round(c.y + PAD)
    style = (f"text{{font-family:{SANS}}} svg.chart text{{font-size:10px;"
             f"fill:{colours['foreground']}}}")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}"><style>{style}</style>'
            f'<rect width="{WIDTH}" height="{height}" fill="{colours["background"]}"/>'
            + "".join(c.parts) + "</svg>\n")
