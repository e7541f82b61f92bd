"""The result tiles and the green row buttons: the part of the window a CDM user reads first.

A tile draws itself line by line (rather than nesting Digits and ProgressBar widgets) so that
CrystalDiskMark's meter can sit *behind* the figure, the figure can switch between big
3×3 digits and one bold line as the terminal shrinks, and a unit switch re-renders every tile
without a single widget being mounted or removed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.color import Color as RichColor
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.color import Color, ColorParseError
from textual.message import Message
from textual.reactive import reactive
from textual.renderables.digits import Digits
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button

from diskmark.locale import N_, _, pgettext
from diskmark.model.notes import unstable_text
from diskmark.model.results import TestResult, TestSpec
from diskmark.model.settings import Op
from diskmark.model.units import Unit
from diskmark.report.cells import Cell, Cells, text_cells
from diskmark.report.formatting import BETTER, WORSE, format_delta, format_figure, meter_fraction

if TYPE_CHECKING:
    from diskmark.report.claim_marks import ClaimMark
    from diskmark.report.compare import Delta


@dataclass(frozen=True)
class Live:
    """What a running tile shows: how far the whole test is, and the live bandwidth."""

    fraction: float  # 0..1 over the warm-up and all measured passes
    mb_s: float | None
    caption: str  # "warm-up", "2/5", "sync"


def foreground_style(widget: Widget, component: str) -> Style:
    """A component's colour and text attributes without its background, so it can be laid
    over the meter. The full style is used because it has alpha colours (``$x 35%``)
    already blended with what is behind."""
    full = widget.get_component_rich_style(component)
    return Style(color=full.color, bold=full.bold, italic=full.italic, dim=full.dim,
                 underline=full.underline)


# Roles of the cells a tile draws: a component class styled in app.tcss, or a theme colour.
_BLANK, _FIGURE, _LIVE, _PLACEHOLDER, _CAPTION, _ERROR, _SEPARATOR, _UNSTABLE = range(8)
_BETTER, _WORSE, _SAME = range(8, 11)


def unstable_mark(result: TestResult | None) -> str | None:
    """``~9%`` on a tile whose passes differ by more than the threshold (R/Avg), else None.
    A glyph, not only a colour, so a monochrome terminal shows it too."""
    if result is None or result.unstable() is None:
        return None
    return f"~{result.spread().r_avg_pct:.0f}%"


def last_cells(text: str, width: int) -> str:
    """The end of ``text`` that fits in ``width`` cells (a figure keeps its last digits);
    a double-width character is never cut in half."""
    out = ""
    for ch in reversed(text):
        if text_cells(ch + out) > width:
            break
        out = ch + out
    return out


def cpu_mark(result: TestResult | None) -> str | None:
    """``cpu`` on a tile whose figure the CPU set, not the drive (the reason is in the
    tooltip and the details)."""
    return "cpu" if result is not None and result.cpu_limited else None


def layer_mark(result: TestResult | None) -> str | None:
    """``zip``, ``mem``, ``loop``… on a tile whose figure a layer under the target explains
    (compression, memory, a cache; which layer and why is in the tooltip and the details):
    the first such layer's, as the tile has room for one word."""
    if result is None or not result.marks:
        return None
    from diskmark.report.stack_words import mark_word  # a result with marks: not at start

    return mark_word(result.marks[0].effect)


#: Roles whose colour is blended with what is behind it (``$tile-foreground 35%``): styled
#: in app.tcss as component classes, which Textual blends.
_ROLE_COMPONENTS = {_FIGURE: "tile--figure", _LIVE: "tile--live", _PLACEHOLDER: "tile--placeholder",
                    _CAPTION: "tile--caption"}
#: The other colours are the theme's variables as they are, so they are read from it rather
#: than declared as component classes: Textual styles every component class of a tile each
#: time the tile is styled (13 for each of 8 tiles at start, 4 ms of the first frame), though
#: an idle tile draws one of them. (variable, bold) for a role, the variable for a layer.
_ROLE_VARIABLES = {_ERROR: ("error", True), _SEPARATOR: ("background", False),
                   _BETTER: ("better-color", True), _WORSE: ("worse-color", True),
                   _SAME: ("same-color", False), _UNSTABLE: ("text-warning", True)}
_LAYER_VARIABLES = {"meter": "meter-color", "bar": "progress-color", "track": "meter-background"}


class Palette(dict[tuple[str | None, int], Style]):
    """A tile's cell styles: (layer, role) -> the tile's style, then a background layer
    (the meter, the progress bar or its track, or none), then the role's colours. Each is
    worked out when first drawn (an idle tile draws two of the 44), and the same object is
    returned after, so equal neighbours join one Segment."""

    def __init__(self, tile: Widget) -> None:
        super().__init__()
        self.tile = tile
        self.base = tile.rich_style

    def __missing__(self, key: tuple[str | None, int]) -> Style:
        layer, role = key
        style = self.base
        if layer is not None:
            style += Style(bgcolor=self._theme_colour(_LAYER_VARIABLES[layer]))
        if role in _ROLE_VARIABLES:
            name, bold = _ROLE_VARIABLES[role]
            style += Style(color=self._theme_colour(name), bold=bold)
        elif role != _BLANK:
            style += foreground_style(self.tile, _ROLE_COMPONENTS[role])
        self[key] = style
        return style

    def _theme_colour(self, name: str) -> RichColor | None:
        """A theme variable's colour over the tile, as CSS would draw it (a colour with
        alpha, possible in a user's theme, is blended with the tile's background)."""
        try:
            colour = Color.parse(self.tile.app.theme_variables[name])
        except (KeyError, ColorParseError):
            return None
        if colour.a < 1 and self.base.bgcolor is not None:
            colour = Color.from_rich_color(self.base.bgcolor) + colour
        return colour.rich_color


class ResultTile(Widget, can_focus=True):
    """One figure of the grid (e.g. SEQ1M Q8T1 read) with CDM's log-scale meter behind it."""

    COMPONENT_CLASSES = {
        "tile--figure",  # the measured number
        "tile--live",  # the number while a test runs
        "tile--placeholder",  # 0.00 before anything ran
        "tile--caption",  # small text: warm-up, 2/5
    }

    BINDINGS = [Binding("enter", "select", N_("Details"), show=False)]

    unit: reactive[Unit] = reactive(Unit.MB_S)
    result: reactive[TestResult | None] = reactive(None, always_update=True)
    live: reactive[Live | None] = reactive(None)
    #: Borderless (small terminals): keep the last line for the progress bar and a thin
    #: separator, so stacked tiles do not run into each other.
    separated: reactive[bool] = reactive(False)
    #: The result against the comparison baseline, per unit; None when not comparing or
    #: when the baseline has no counterpart of this test.
    deltas: reactive[dict[Unit, Delta] | None] = reactive(None)
    #: The longest figure in this tile's column (set by the grid): the font is chosen for
    #: it, so every row of a column shows its digits at one size.
    figure_chars: reactive[int] = reactive(0)
    #: The height of the column's lowest tile (set by the grid; 0: this tile's own): rows
    #: a line apart in height would otherwise draw different fonts.
    fit_rows: reactive[int] = reactive(0)
    #: The share of the drive's claim the figure reached (None: no claim for this test).
    claim: reactive[ClaimMark | None] = reactive(None)

    class Selected(Message):
        """The user asked for the details behind a tile."""

        def __init__(self, tile: ResultTile) -> None:
            super().__init__()
            self.tile = tile

    def __init__(self, row: int, op: Op, spec: TestSpec, fixed_unit: Unit | None = None,
                 *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.row = row
        self.op = op
        self.spec = spec
        self.fixed_unit = fixed_unit  # Peak / Real World rows show one unit whatever is chosen
        if fixed_unit is not None:
            self.set_reactive(ResultTile.unit, fixed_unit)
        self._strips: tuple[tuple[int, int], list[Strip]] | None = None
        self._palette: Palette | None = None

    # --- what the tile shows -----------------------------------------------------------

    @property
    def shown_unit(self) -> Unit:
        return self.fixed_unit or self.unit

    @property
    def value(self) -> float | None:
        """The number on the tile right now (live while running), or None when empty."""
        if self.live is not None and self.live.mb_s is not None:
            return self.spec.figure_from_mb_s(self.live.mb_s, self.shown_unit)
        if self.result is not None and self.result.runs:
            return self.result.figure(self.shown_unit)
        return None

    @property
    def text(self) -> str:
        """The figure as printed (what tests and screen readers want), ``""`` when empty."""
        value = self.value
        return "" if value is None else format_figure(value, self.shown_unit)

    @property
    def delta(self) -> Delta | None:
        """The change shown under the figure: none while the test runs (a live figure is
        not a result) or when the result failed."""
        if self.live is not None or not self.deltas or self.result is None or self.result.error:
            return None
        return self.deltas.get(self.shown_unit)

    @property
    def delta_text(self) -> str:
        """The change as printed (``▲ +4.2%``), ``""`` when there is none."""
        delta = self.delta
        return format_delta(delta.pct, delta.verdict) if delta is not None else ""

    def set_unit(self, unit: Unit) -> None:
        if self.fixed_unit is None:
            self.unit = unit

    def clear(self) -> None:
        self.live = None
        self.result = None
        self.deltas = None

    # --- rendering -----------------------------------------------------------------------

    def watch_unit(self) -> None:
        self._invalidate()

    def watch_result(self) -> None:
        self._invalidate()
        self.set_class(self.result is not None and bool(self.result.runs), "-done")
        reason = unstable_text(self.result.unstable()) if self.result is not None else None
        cpu = self.result.cpu_limited if self.result is not None else None
        self.set_class(reason is not None, "-unstable")
        self.set_class(bool(cpu), "-cpu-limited")
        marks = self.result.marks if self.result is not None else []
        self.set_class(bool(marks), "-layer-marked")
        tips = []
        if reason:
            # TRANSLATORS: {reason} says by how much the passes differ
            tips.append(_("Unstable: {reason} (R/Avg above the threshold).").format(reason=reason))
        if cpu and self.result is not None:
            from diskmark.report.text import cpu_limited_words

            # TRANSLATORS: {reason} says why the CPU set the figure
            tips.append(_("CPU-limited: {reason}; the drive may be faster.").format(
                reason=cpu_limited_words(self.result, None)))  # the result keeps it English
        if self.claim is not None and self.claim_text:
            from diskmark.report.claim_marks import mark_words

            tips.append(mark_words(self.claim))
        if marks:
            from diskmark.report.stack_words import mark_phrase

            tips += [mark_phrase(m) for m in marks]
        self.tooltip = " ".join([*tips, _("Enter shows every pass.")]) if tips else None

    def watch_separated(self) -> None:
        self._invalidate()

    def watch_figure_chars(self) -> None:
        self._invalidate()

    def watch_fit_rows(self) -> None:
        self._invalidate()

    def watch_deltas(self) -> None:
        self._invalidate()

    def watch_claim(self) -> None:
        self._invalidate()
        self.watch_result()

    @property
    def claim_text(self) -> str:
        """The claim's mark as drawn (``97%``, ``82%!`` short of it), "" without one."""
        from diskmark.report.claim_marks import mark_text

        return mark_text(self.claim) if self.result is not None and self.result.runs else ""

    def watch_live(self) -> None:
        self._invalidate()
        self.set_class(self.live is not None, "-running")

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._palette = None  # a theme, a class or :hover/:focus changed the colours
        self._invalidate()

    def _invalidate(self) -> None:
        self._strips = None
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width, height = self.content_size
        if self._strips is None or self._strips[0] != (width, height):
            self._strips = ((width, height), self._render_strips(width, height))
        strips = self._strips[1]
        return strips[y] if 0 <= y < len(strips) else Strip.blank(width, self.rich_style)

    def _figure(self) -> tuple[str, int]:
        result, live = self.result, self.live
        if result is not None and result.error and live is None:
            # TRANSLATORS: on a tile whose test failed, in place of the figure (narrow)
            return _("Error"), _ERROR
        if self.value is None:
            return format_figure(0.0, self.shown_unit), _PLACEHOLDER
        return self.text, _FIGURE if live is None else _LIVE

    def _layout(self, width: int, height: int) -> tuple[list[list[Cell]], int | None]:
        """A grid of (character, role) cells, and the row of the progress bar (if any)."""
        grid = Cells(width, height, _BLANK)
        if width <= 0 or height <= 0:
            return grid.rows, None
        put = grid.put
        bottom, bar_row = height, None
        live = self.live
        if (live is not None or self.separated) and height >= 2:
            bottom = height - 1
        if live is not None and height >= 2:
            bar_row = bottom
            if live.caption and width >= text_cells(live.caption) + 6:
                put(bar_row, 1, live.caption, _CAPTION)
        text, role = self._figure()
        # the font is chosen for the column's longest figure, so rows never differ in size
        sizing = text.rjust(self.figure_chars, "8")
        rows_free = min(bottom, self.fit_rows - (height - bottom)) if self.fit_rows else bottom
        delta = self.delta if role == _FIGURE and bottom >= 2 else None
        extra = 1 if delta is not None else 0  # the delta's own line, under the figure
        if role != _ERROR and rows_free >= BLOCK_ROWS + 2 + extra and block_width(sizing) + 4 <= width:
            rows, right = BLOCK_ROWS, width - 2
            y0 = (bottom - rows - extra + 1) // 2
            for dy, line in enumerate(_block_lines(text)):
                put(y0 + dy, right - len(line), line, role)
        elif role != _ERROR and rows_free >= 3 + extra and Digits.get_width(sizing) + 2 <= width:
            rows, right = 3, width - 1
            y0 = (bottom - rows - extra + 1) // 2
            for dy, line in enumerate(_digit_lines(text, bold=role in (_FIGURE, _ERROR))):
                put(y0 + dy, right - len(line), line, role)
        else:
            rows, right = 1, width - 1
            text = last_cells(text, width - 1)
            y0 = max((bottom - rows - extra + 1) // 2, 0)
            put(y0, right - text_cells(text), text, role)
        if delta is not None:
            change = format_delta(delta.pct, delta.verdict)
            if len(change) > width - 1:  # a very narrow tile: the glyph and the number
                change = change.replace(" ", "", 1)[-max(width - 1, 0):]
            put(y0 + rows, right - len(change), change,
                {BETTER: _BETTER, WORSE: _WORSE}.get(delta.verdict, _SAME))
        if live is None and role == _FIGURE:
            for mark in (unstable_mark(self.result), cpu_mark(self.result), self.claim_text,
                         layer_mark(self.result)):
                if mark:
                    self._put_mark(grid, mark, bottom)
        if self.separated and height >= 2:
            grid.rows[height - 1] = [("▁", _SEPARATOR) if role == _BLANK else (ch, role)
                                     for ch, role in grid.rows[height - 1]]
        return grid.rows, bar_row

    @staticmethod
    def _put_mark(grid: Cells, mark: str, bottom: int) -> None:
        """A mark (unstable ``~9%``, ``cpu``, a claim's ``97%``, a layer's ``zip``) in the
        first free corner (top-left, then bottom-left), shortened to its first character when
        the figure leaves no room (a figure's mark is never cut to a stray digit)."""
        width = grid.width
        rows = [0] + ([bottom - 1] if bottom - 1 > 0 else [])
        for text in (mark,) if mark[0] in "0123456789" else (mark, mark[0]):
            size = text_cells(text)
            for y in rows:
                x0 = 1 if width > size + 1 else 0
                span = grid.rows[y][max(x0 - 1, 0):x0 + size + 1]
                if x0 + size <= width and all(role == _BLANK for _, role in span):
                    grid.put(y, x0, text, _UNSTABLE)
                    return

    def _styles(self) -> Palette:
        """Every cell style a tile draws with, kept until the styles change: worked out for
        every frame of a running test, they were half its cost."""
        if self._palette is None:
            self._palette = Palette(self)
        return self._palette

    def _render_strips(self, width: int, height: int) -> list[Strip]:
        grid, bar_row = self._layout(width, height)
        styles = self._styles()
        value = self.value
        meter_cols = round(meter_fraction(value, self.shown_unit) * width) if value is not None else 0
        bar_cols = round(max(0.0, min(1.0, self.live.fraction)) * width) if (
            self.live is not None and bar_row is not None) else 0
        strips = []
        for y, row in enumerate(grid):
            lay_of: Callable[[int], str | None]
            if y == bar_row:
                lay_of = lambda x: "bar" if x < bar_cols else "track"  # noqa: E731
            else:
                lay_of = lambda x: "meter" if x < meter_cols else None  # noqa: E731
            segments: list[Segment] = []
            run_text, run_style = "", None
            for x, (ch, role) in enumerate(row):
                style = styles[(lay_of(x), role)]
                if style is run_style:
                    run_text += ch
                else:
                    if run_text:
                        segments.append(Segment(run_text, run_style))
                    run_text, run_style = ch, style
            if run_text:
                segments.append(Segment(run_text, run_style))
            strips.append(Strip(segments, width))
        return strips

    # --- input -----------------------------------------------------------------------------

    def action_select(self) -> None:
        self.post_message(self.Selected(self))

    def on_click(self) -> None:
        self.post_message(self.Selected(self))



def _digit_lines(text: str, bold: bool = True) -> list[str]:
    """The three text lines of textual's 3×3 digit font (heavy strokes when ``bold``; a
    running test's live figure uses the thin strokes)."""
    segments = list(Digits(text).render(Style(bold=bold)))
    lines = [seg.text for seg in segments
             if isinstance(seg, Segment) and seg.text and seg.text != "\n"]
    return lines[:3]


# A 3×5 pixel font, each pixel two cells wide: the figure of a large tile (Demo, big
# terminals), readable across a room like CrystalDiskMark's demo mode.
_BLOCK_FONT = {
    "0": ("###", "#.#", "#.#", "#.#", "###"), "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"), "3": ("###", "..#", "###", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"), "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"), "7": ("###", "..#", "..#", "..#", "..#"),
    "8": ("###", "#.#", "###", "#.#", "###"), "9": ("###", "#.#", "###", "..#", "###"),
    ".": (".", ".", ".", ".", "#"), "-": ("...", "...", "###", "...", "..."),
}
BLOCK_ROWS = 5


def block_width(text: str) -> int:
    return sum(2 * len(_BLOCK_FONT.get(ch, ("...",))[0]) + 1 for ch in text) - 1 if text else 0


def _block_lines(text: str) -> list[str]:
    rows = []
    for y in range(BLOCK_ROWS):
        cells = [_BLOCK_FONT.get(ch, ("...",) * BLOCK_ROWS)[y] for ch in text]
        rows.append(" ".join("".join("██" if px == "#" else "  " for px in glyph) for glyph in cells))
    return rows


def stop_word() -> str:
    """The word on CrystalDiskMark's All and row buttons while a run is on: a short form of
    its own, as the buttons are narrow (Hungarian's "Leállítás" lost its end in them)."""
    # TRANSLATORS: the word on the All button and on a row's button while a run is on: the
    # buttons have 8 cells at 80 columns, with "▶ " before it on the row's button: a short
    # word ("Stopp", "停止"), as CrystalDiskMark's translation has on its buttons
    return pgettext("grid button", "Stop")


class RowButton(Button):
    """CDM's green button left of a row (``SEQ1M`` over ``Q8T1``); runs that row only, and
    turns into Stop while anything runs."""

    def __init__(self, row: int, spec: TestSpec, second_line: str | None = None,
                 *, id: str | None = None) -> None:
        self.row = row
        self.spec = spec
        self.idle_label = f"{spec.name}\n{second_line or spec.qt}"
        super().__init__(self.idle_label, id=id, classes="row-button")
        # TRANSLATORS: {test} is a test's name as CrystalDiskMark writes it (SEQ1M Q8T1)
        self.tooltip = _("Run {test} only").format(test=spec.label)
        self.running = False

    def set_running(self, running: bool) -> None:
        self.running = running
        if not running:
            self.set_class(False, "-current")
        self._relabel()
        self.set_class(running, "-stop")

    def set_current(self, current: bool) -> None:
        """This row's test is the one running: ``▶ Stop`` (a glyph, so monochrome shows it)."""
        self.set_class(current and self.running, "-current")
        self._relabel()

    def _relabel(self) -> None:
        if not self.running:
            self.label = self.idle_label
        else:
            stop = stop_word()
            self.label = f"▶ {stop}" if self.has_class("-current") else stop
