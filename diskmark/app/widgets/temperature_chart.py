"""The drive's temperature during each pass, drawn under the bandwidth chart on the same
columns, so a bandwidth dip and a temperature peak line up by eye.

Like :mod:`diskmark.app.widgets.chart`, the layout is a pure function (tested as text) and
the widget only colours it; a column where a dip fell at the session's temperature peak is
drawn in the dip's colour and marked under the axis, so throttling shows in monochrome too.
"""

from __future__ import annotations

import math

from diskmark.app.widgets.chart import AXIS, BAR, BLANK, DIP, DIP_MARK, EIGHTHS, GAP, LABEL, CellChart, geometry
from diskmark.model.drive_record import DriveRecord
from diskmark.model.results import RunResult
from diskmark.report.cells import Cell, Cells, as_text


def pass_temperatures(record: DriveRecord, key: str, runs: list[RunResult]) -> list[list[float | None]]:
    """The temperature of each second of each measured pass (pass n is the record's n-th
    start after the warm-up's)."""
    return [record.pass_temperatures(key, n, len(run.bw_samples)) for n, run in enumerate(runs, 1)]


def hot_seconds(record: DriveRecord, key: str, runs: list[RunResult]) -> set[tuple[int, int]]:
    """(pass, second) of every bandwidth dip that fell at the session's temperature peak."""
    dips = [(n, found) for n, run in enumerate(runs, 1) if (found := run.dips())]
    return {(p, s) for p, s, _, _ in record.hot_dips(key, dips)}


def temperature_cells(runs: list[RunResult], temps: list[list[float | None]],
                      hot: set[tuple[int, int]], width: int,
                      height: int = 3) -> list[list[Cell]]:
    """``height`` rows of the hottest second of each column on a °C axis from just below the
    coolest to the hottest reading, and the x-axis with a mark under each column holding a
    second of ``hot`` ((pass, second) of a dip at the temperature peak); [] when there is
    nothing to draw. The columns are the bandwidth chart's (same runs, same width)."""
    pairs = [(n, r, t) for n, (r, t) in enumerate(zip(runs, temps), 1) if r.bw_samples]
    known = [c for _, _, t in pairs for c in t if c is not None]
    if not pairs or not known or width < 12 or height < 2:
        return []
    runs = [r for _, r, _ in pairs]
    lab, per, cols = geometry(runs, width)
    low, high = math.floor(min(known)) - 1, math.ceil(max(known))
    grid = Cells(width, height + 1, BLANK)
    put = grid.put
    put(0, lab - len(f"{high}"), f"{high}", LABEL)
    put(height - 1, lab - len(f"{low}"), f"{low}", LABEL)
    if height >= 3:
        put(height // 2, lab - 2, "°C", LABEL)
    for y in range(height):
        put(y, lab + 1, "┤" if y == 0 else "│", AXIS)
    put(height, lab + 1, "└", AXIS)
    x = lab + 2
    for i, (n, run, seconds) in enumerate(pairs, 1):
        for start in range(0, len(run.bw_samples), per):
            chunk = [c for c in seconds[start:start + per] if c is not None]
            peak = any((n, s) in hot for s in range(start + 1, start + per + 1))
            if chunk:
                eighths = max(1, round((max(chunk) - low) / (high - low) * height * 8))
                for y in range(height):
                    fill = max(0, min(8, eighths - (height - 1 - y) * 8))
                    if fill:
                        put(y, x, EIGHTHS[fill] * cols, DIP if peak else BAR)
            put(height, x, "─" * cols, AXIS)
            if peak:
                put(height, x + (cols - 1) // 2, DIP_MARK, DIP)
            x += cols
        if i < len(pairs):
            put(height, x, "─" * GAP, AXIS)
            x += GAP
    return grid.rows


def temperature_text(runs: list[RunResult], temps: list[list[float | None]],
                     hot: set[tuple[int, int]], width: int, height: int = 3) -> str:
    """The chart as plain text (tests)."""
    return as_text(temperature_cells(runs, temps, hot, width, height))


class TemperatureChart(CellChart):
    """:func:`temperature_cells` for one test, as wide as the widget, in the theme's colours."""

    DEFAULT_CSS = """
    TemperatureChart {
        height: 4;
        width: 1fr;
    }
    TemperatureChart > .chart--bar { color: $secondary; }
    TemperatureChart > .chart--dip { color: $warning; text-style: bold; }
    TemperatureChart > .chart--axis { color: $text-muted; }
    TemperatureChart > .chart--label { color: $text-muted; }
    """

    ROLES = {BAR: "chart--bar", DIP: "chart--dip", AXIS: "chart--axis", LABEL: "chart--label"}
    COMPONENT_CLASSES = set(ROLES.values())
    PLOT_ROWS = 3

    def __init__(self, runs: list[RunResult], record: DriveRecord, key: str, *,
                 id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.runs = list(runs)
        self.temps = pass_temperatures(record, key, self.runs)
        self.hot = hot_seconds(record, key, self.runs)

    def cells(self, width: int) -> list[list[Cell]]:
        return temperature_cells(self.runs, self.temps, self.hot, width, self.PLOT_ROWS)
