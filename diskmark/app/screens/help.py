"""The keys, in one place, for people who prefer a list to the footer and the palette."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

KEYS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Measure", [
        ("a", "All: run every test of the profile"),
        ("click a green button", "run that row only"),
        ("Esc  ctrl+c", "Stop: fio ends within 2 s, the test file is removed"),
        ("w", "queue-depth sweep: one pattern at Q1 … Q32, as a curve"),
    ]),
    ("Results", [
        ("1 2 3 4  u", "unit: MB/s, GB/s, IOPS, μs (u cycles)"),
        ("enter / click a tile", "every pass, spread, latency, bandwidth chart, fio command"),
        ("s", "save the text report to a file"),
        ("c", "copy the text report to the clipboard"),
        ("p  ctrl+s", "save an SVG screenshot"),
        ("n", "type a comment for the report; Esc or Enter leaves it"),
    ]),
    ("Baselines", [
        ("B  (shift+b)", "save the result on screen as a named baseline"),
        ("b", "baselines: compare, view, rename, delete, export, import"),
        ("x", "compare the tiles with a baseline: ▲ better  ▼ worse  = within noise"),
        ("v", "the comparison: every test and unit, side by side"),
        ("X  (shift+x)", "stop comparing"),
        ("h", "history of every completed run; p there saves one as a baseline"),
    ]),
    ("Setup", [
        ("t", "choose the target directory"),
        ("o  F2", "settings: preset, profile, mode, +Mix, test data, times"),
        ("m", "+Mix column on / off"),
        ("ctrl+p", "command palette: every action and setting, themes"),
    ]),
    ("Move around", [
        ("tab  shift+tab", "next / previous control"),
        ("?  F1", "this help"),
        ("ctrl+q", "quit (a running test is stopped and cleaned up first)"),
    ]),
]


def keys_table() -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column()
    for i, (section, rows) in enumerate(KEYS):
        if i:
            table.add_row("", "")
        table.add_row(Text(section, style="bold underline"), "")
        for keys, what in rows:
            table.add_row(keys, what)
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,question_mark,f1", "dismiss(None)", "Close")]

    def __init__(self) -> None:
        super().__init__(classes="dialog help")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog-box"):
            yield Label("diskmark keys", classes="dialog-title")
            with VerticalScroll(classes="help-body"):
                yield Static(keys_table())
                yield Static("Figures: MB/s = 1,000,000 bytes/s as in CrystalDiskMark; sizes are "
                             "binary (MiB, GiB). Each test runs a discarded warm-up pass, then "
                             "`count` passes; the tile shows the best.", classes="dialog-hint")
            with Horizontal(classes="dialog-buttons"):
                yield Button("Close", id="close", variant="primary")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(None)
