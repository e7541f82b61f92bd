"""Everything behind one tile: every pass, the spread across them, latency percentiles, the
sync time and the exact fio command line, so a figure can be checked and reproduced by hand.
"""

from __future__ import annotations

import shlex

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Label, Static

from diskmark.app.widgets.figures import format_figure
from diskmark.model import Op, RunResult, TestResult, Unit

PERCENTILES = ("50", "90", "99", "99.9", "99.99", "max")


def test_title(result: TestResult) -> str:
    kind = {"SEQ": "Sequential", "RND": "Random"}.get(result.spec.pattern, result.spec.pattern)
    op = result.op.value.capitalize()
    if result.op is Op.MIX and result.mix_read is not None:
        op = f"Mix R{result.mix_read}/W{100 - result.mix_read}"
    return f"{result.spec.label} · {kind} {op}"


class DetailsScreen(ModalScreen[None]):
    """All runs of one test (min / mean / max, R/Avg %) and its fio command, ready to copy."""

    BINDINGS = [
        Binding("escape,q", "dismiss(None)", "Close"),
        Binding("c", "copy_command", "Copy fio command"),
    ]

    def __init__(self, result: TestResult, buffered: bool = False) -> None:
        super().__init__(classes="details")
        self.result = result
        self.buffered = buffered

    @property
    def command(self) -> str:
        return shlex.join(self.result.fio_command)

    def compose(self) -> ComposeResult:
        r = self.result
        with Vertical(classes="details-box"):
            yield Label(test_title(r), classes="dialog-title")
            yield Static(self._verdict(), classes="details-verdict")
            with VerticalScroll(classes="details-body"):
                yield Label("Passes", classes="section")
                yield self._runs_table()
                if len(r.runs) >= 1:
                    yield Label("Spread across the measured passes", classes="section")
                    yield self._spread_table()
                best = r.best_run
                if best is not None and best.lat_percentiles:
                    yield Label(f"Completion latency of the best pass ({Unit.US.label})",
                                classes="section")
                    yield self._percentile_table(best)
                if r.sync_seconds is not None:
                    yield Static(f"Flushing to disk after this test took {r.sync_seconds:.2f} s.",
                                 classes="details-note")
                if r.error:
                    yield Static(f"Error: {r.error}", classes="details-error", markup=False)
            yield Label("fio command of one pass (c copies it)", classes="section")
            yield Static(self.command or "(not recorded)", id="command", markup=False)
            with Horizontal(classes="dialog-buttons"):
                yield Button("Copy fio command", id="copy", variant="primary")
                yield Button("Close", id="close")

    def _verdict(self) -> Text:
        r = self.result
        if not r.runs:
            return Text("No measured pass finished.", style="italic")
        text = Text()
        for unit in (Unit.MB_S, Unit.IOPS, Unit.US):
            if text:
                text.append("   ")
            text.append(format_figure(r.figure(unit), unit), style="bold")
            text.append(f" {unit.label}")
        text.append(f"   best of {len(r.runs)}", style="dim")
        if self.buffered:
            text.append("   buffered (page cache)", style="italic")
        return text

    def _runs_table(self) -> DataTable:
        r = self.result
        table: DataTable = DataTable(cursor_type="none", zebra_stripes=True, id="runs")
        table.add_column("Pass", key="pass")
        for unit in (Unit.MB_S, Unit.IOPS, Unit.US):
            table.add_column(Text(unit.label, justify="right"), key=unit.value)
        table.add_column(Text(f"p99 {Unit.US.label}", justify="right"), key="p99")
        table.add_column(Text("Runtime", justify="right"), key="runtime")
        best = r.best_run

        def add(name: str | Text, run: RunResult) -> None:
            p99 = run.lat_percentiles.get("99")
            table.add_row(
                name,
                *(Text(format_figure(run.figure(u), u), justify="right")
                  for u in (Unit.MB_S, Unit.IOPS, Unit.US)),
                Text(f"{p99:.2f}" if p99 is not None else "—", justify="right"),
                Text(f"{run.runtime_ms / 1000:.1f} s", justify="right"),
            )

        if r.warmup is not None:
            add(Text("warm-up (discarded)", style="dim italic"), r.warmup)
        for n, run in enumerate(r.runs, 1):
            add(Text(f"{n} ★ best" if run is best else str(n),
                     style="bold" if run is best else ""), run)
        return table

    def _spread_table(self) -> DataTable:
        table: DataTable = DataTable(cursor_type="none", id="spread")
        table.add_column("")
        for name in ("min", "mean", "max", "R/Avg"):
            table.add_column(Text(name, justify="right"), key=name)
        for unit in (Unit.MB_S, Unit.IOPS, Unit.US):
            sp = self.result.spread(unit)
            table.add_row(unit.label, *(Text(format_figure(v, unit), justify="right")
                                        for v in (sp.min, sp.mean, sp.max)),
                          Text(f"{sp.r_avg_pct:.1f} %", justify="right"))
        return table

    def _percentile_table(self, run: RunResult) -> DataTable:
        table: DataTable = DataTable(cursor_type="none", id="percentiles")
        keys = [k for k in PERCENTILES if k in run.lat_percentiles]
        keys += [k for k in run.lat_percentiles if k not in keys]
        for key in keys:
            table.add_column(Text("max" if key == "max" else f"p{key}", justify="right"), key=key)
        table.add_row(*(Text(f"{run.lat_percentiles[k]:.2f}", justify="right") for k in keys))
        return table

    def action_copy_command(self) -> None:
        if not self.result.fio_command:
            self.notify("No fio command was recorded for this test.", severity="warning")
            return
        self.app.copy_to_clipboard(self.command)
        self.notify("fio command copied to the clipboard.", title="Copied")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy_command()
        else:
            self.dismiss(None)
