"""The grid of row buttons and tiles, laid out the way CrystalDiskMark lays out each profile.

Default: one row per test, Read | Write (| Mix) columns in the chosen unit. Peak and Real
World: the SEQ test in MB/s, then the RND test in MB/s, IOPS and µs (four rows, fixed
units). Demo: one test, two large tiles. Sustained: one large Write tile, the whole write's
MB/s (its course over time and its knee are behind the tile, in the details). The grid only
displays; the app feeds it events.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.containers import Container
from textual.widgets import Static

from diskmark.app.widgets.tiles import Live, ResultTile, RowButton
from diskmark.locale import _, pgettext
from diskmark.model.names import mix_label
from diskmark.model.results import TestResult, TestSpec
from diskmark.model.settings import Op
from diskmark.model.units import Unit
from diskmark.presets import Profile

if TYPE_CHECKING:
    from diskmark.report.claim_marks import ClaimMark
    from diskmark.report.compare import Comparison


@dataclass(frozen=True)
class GridRow:
    """One displayed row: which profile row its button runs and how its tiles read."""

    row: int
    spec: TestSpec
    second_line: str | None = None  # replaces Q8T1 on the button (Peak: "(IOPS)")
    unit: Unit | None = None  # a fixed unit, or None to follow the unit selector


def layout_rows(profile: Profile) -> list[GridRow]:
    tests = profile.tests
    if profile.layout in ("demo", "sustained"):
        return [GridRow(0, tests[0])]
    if profile.layout == "peak" and len(tests) >= 2:
        seq, rnd = tests[0], tests[1]
        return [GridRow(0, seq, unit=Unit.MB_S), GridRow(1, rnd, unit=Unit.MB_S),
                GridRow(1, rnd, "(IOPS)", Unit.IOPS), GridRow(1, rnd, f"({Unit.US.label})", Unit.US)]
    return [GridRow(i, spec) for i, spec in enumerate(tests)]


def column_name(op: Op) -> str:
    """A column's header word, in the language in use: CrystalDiskMark's Read, Write, Mix."""
    if op is Op.READ:
        return pgettext("tile header", "Read")
    if op is Op.WRITE:
        return pgettext("tile header", "Write")
    return pgettext("tile header", "Mix")


def column_title(op: Op, unit: Unit, mix_read: int | None = None) -> str:
    if op is Op.MIX and mix_read is not None:
        # TRANSLATORS: a column's header over the tiles: {column} is Mix, {ratio} R70/W30,
        # {unit} MB/s
        return _("{column} {ratio} ({unit})").format(column=column_name(op),
                                                      ratio=mix_label(mix_read), unit=unit.label)
    # TRANSLATORS: a column's header over the tiles: {column} is Read or Write, {unit} MB/s
    return _("{column} ({unit})").format(column=column_name(op), unit=unit.label)


class ResultGrid(Container):
    """Row buttons on the left, a tile per operation to their right, column headers on top."""

    def __init__(self, profile: Profile, mix_read: int | None, unit: Unit, *,
                 id: str | None = None) -> None:
        super().__init__(id=id)
        self.profile = profile
        self.mix_read = mix_read
        self.unit = unit

    # --- structure ------------------------------------------------------------------------

    @property
    def ops(self) -> list[Op]:
        if self.profile.layout == "sustained":
            return [Op.WRITE]
        ops = [Op.READ, Op.WRITE]
        if self.mix_read is not None and self.profile.mix and self.profile.layout != "demo":
            ops.append(Op.MIX)
        return ops

    @property
    def header_unit(self) -> Unit:
        return Unit.MB_S if self.profile.layout == "peak" else self.unit

    def compose(self) -> ComposeResult:
        rows = layout_rows(self.profile)
        ops = self.ops
        self.set_class(self.profile.layout in ("demo", "sustained"), "-demo")
        self.set_class(len(ops) == 3, "-mix")
        self.styles.grid_size_columns = 1 + len(ops)
        self.styles.grid_size_rows = 1 + len(rows)
        self.styles.grid_rows = " ".join(["1"] + ["1fr"] * len(rows))
        self._update_columns()
        yield Static("", classes="corner")
        for op in ops:
            yield Static(column_title(op, self.header_unit, self.mix_read),
                         classes=f"col-header col-{op.value}")
        for i, grid_row in enumerate(rows):
            yield RowButton(grid_row.row, grid_row.spec, grid_row.second_line, id=f"row-{i}")
            for op in ops:
                tile = ResultTile(grid_row.row, op, grid_row.spec, grid_row.unit,
                                  id=f"tile-{i}-{op.value}", classes=f"tile-{op.value}")
                if grid_row.unit is None:
                    tile.set_reactive(ResultTile.unit, self.unit)
                tile.set_reactive(ResultTile.separated, self.app.has_class("-short"))
                yield tile

    def on_resize(self) -> None:
        self._update_columns()
        self.call_after_refresh(self.even_figures)  # once the tiles have their new size

    def _update_columns(self) -> None:
        width = self.size.width or self.app.size.width
        button = 13 if width >= 110 else 10
        if self.profile.layout in ("demo", "sustained"):
            button = 12 if width >= 100 else 10
        self.styles.grid_columns = " ".join([str(button)] + ["1fr"] * len(self.ops))

    async def rebuild(self, profile: Profile, mix_read: int | None, unit: Unit) -> None:
        """Swap in another profile or +Mix setting; the results of the old layout go."""
        self.profile, self.mix_read, self.unit = profile, mix_read, unit
        await self.recompose()

    # --- content --------------------------------------------------------------------------

    @property
    def tiles(self) -> list[ResultTile]:
        return list(self.query(ResultTile))

    @property
    def row_buttons(self) -> list[RowButton]:
        return list(self.query(RowButton))

    def tiles_for(self, row: int, op: Op) -> Iterator[ResultTile]:
        return (t for t in self.tiles if t.row == row and t.op is op)

    def even_figures(self) -> None:
        """Give every tile of a column the length of the column's longest figure, so all its
        rows draw digits at the same size (a wide 7012.45 would otherwise drop to a smaller
        font than the 812.34 under it)."""
        columns: dict[Op, list[ResultTile]] = {}
        for tile in self.tiles:
            columns.setdefault(tile.op, []).append(tile)
        for tiles in columns.values():
            longest = max((len(t.text) for t in tiles), default=0)
            lowest = min((t.content_size.height for t in tiles), default=0)
            for tile in tiles:
                tile.figure_chars = longest
                tile.fit_rows = lowest

    def set_unit(self, unit: Unit) -> None:
        self.unit = unit
        for tile in self.tiles:
            tile.set_unit(unit)
        self.even_figures()
        for header in self.query(".col-header").results(Static):
            for op in self.ops:
                if header.has_class(f"col-{op.value}"):
                    header.update(column_title(op, self.header_unit, self.mix_read))

    def clear(self, slots: Iterable[tuple[int, Op]]) -> None:
        wanted = set(slots)
        for tile in self.tiles:
            if (tile.row, tile.op) in wanted:
                tile.clear()
        self.even_figures()

    def show_live(self, row: int, op: Op, live: Live | None) -> None:
        for tile in self.tiles_for(row, op):
            tile.live = live
        self.even_figures()

    def show_result(self, result: TestResult, *, final: bool) -> None:
        for tile in self.tiles_for(result.index, result.op):
            tile.result = result
            if final:
                tile.live = None
        self.even_figures()

    def show_claims(self, marks: dict[str, ClaimMark]) -> None:
        """Give every tile with a result the share of its claim it reached (the drive's
        claims; none: no mark)."""
        for tile in self.tiles:
            tile.claim = marks.get(tile.result.key) if tile.result is not None else None

    def show_comparison(self, comparison: Comparison | None) -> None:
        """Give every tile its deltas against the baseline (None: not comparing). A tile
        whose test the baseline lacks, or that has no result, shows no delta."""
        for tile in self.tiles:
            test = None
            if comparison is not None and tile.result is not None:
                test = comparison.test(tile.result.key)
            tile.deltas = dict(test.deltas) if test is not None else None

    def end_live(self) -> None:
        for tile in self.tiles:
            tile.live = None
        self.mark_current_row(None)
        self.even_figures()

    def mark_current_row(self, row: int | None) -> None:
        """Mark the row button of the test running now (▶), so the eye finds it at once."""
        for button in self.row_buttons:
            button.set_current(button.row == row)

    def set_separated(self, separated: bool) -> None:
        for tile in self.tiles:
            tile.separated = separated

    def set_running(self, running: bool) -> None:
        for button in self.row_buttons:
            button.set_running(running)
