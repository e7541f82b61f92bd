"""One test's figures over time on one drive, as bars in the theme's colours, with a cursor
on one run. The layout is :func:`diskmark.trend.chart_cells` (the CLI prints the same
chart as text); marks under the axis (▲ ▼ B) say what the colours say, so a monochrome
terminal shows them too."""

from __future__ import annotations

from diskmark.app.widgets.chart import CellChart
from diskmark.model.units import Unit
from diskmark.report import trend
from diskmark.report.cells import Cell


class TrendChart(CellChart):
    DEFAULT_CSS = """
    TrendChart {
        height: 12;
        width: 1fr;
    }
    TrendChart > .trend--bar { color: $primary; }
    TrendChart > .trend--baseline { color: $accent; }
    TrendChart > .trend--better { color: $better-color; text-style: bold; }
    TrendChart > .trend--worse { color: $worse-color; text-style: bold; }
    TrendChart > .trend--axis { color: $foreground 60%; }
    TrendChart > .trend--label { color: $foreground; }
    TrendChart > .trend--cursor { color: $warning; text-style: bold; }
    """

    ROLES = {trend.BAR: "trend--bar", trend.BASELINE: "trend--baseline",
             trend.BETTER_MARK: "trend--better", trend.WORSE_MARK: "trend--worse",
             trend.AXIS: "trend--axis", trend.LABEL: "trend--label",
             trend.CURSOR: "trend--cursor"}
    COMPONENT_CLASSES = set(ROLES.values())
    PLOT_ROWS = 10

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.series: trend.Series | None = None
        self.unit = Unit.MB_S
        self.cursor: int | None = None

    def show(self, series: trend.Series | None, unit: Unit, cursor: int | None) -> None:
        self.series, self.unit, self.cursor = series, unit, cursor
        self.refresh()

    def cells(self, width: int) -> list[list[Cell]]:
        if self.series is None:
            return []
        return trend.chart_cells(self.series, self.unit, width, self.PLOT_ROWS, self.cursor)
