"""The keys, in one place, for people who prefer a list to the footer and the palette; the
user's own keys where the settings file remaps a binding."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from diskmark.app.keymap import DEFAULT, Keymap, spell
from diskmark.app.screens.dialog_frame import Dialog

#: What the help lists: binding ids (shown with their keys, the user's own when the settings
#: file remaps them) or, for what is not a binding of the app, the words to show. A binding
#: id in braces in the words is replaced by its key.
Row = tuple["tuple[str, ...] | str", str]
KEYS: list[tuple[str, list[Row]]] = [
    ("Measure", [
        (("run_all",), "All: run every test of the profile"),
        ("click a green button", "run that row only"),
        (("stop", "stop_ctrl_c"), "Stop: fio ends within 2 s, the test file is removed"),
        (("sweep",), "queue-depth sweep: one pattern at Q1 … Q32, as a curve"),
    ]),
    ("Results", [
        (("unit_mb_s", "unit_gb_s", "unit_iops", "unit_us", "cycle_unit"),
         "unit: MB/s, GB/s, IOPS, μs ({cycle_unit} cycles)"),
        ("enter / click a tile", "every pass, spread, latency, bandwidth chart, fio command"),
        (("save_report",), "save the text report to a file"),
        (("copy_report",), "copy the text report to the clipboard"),
        (("save_svg",), "save an SVG screenshot"),
        (("edit_comment",), "type a comment for the report; Esc or Enter leaves it"),
    ]),
    ("Baselines", [
        (("save_baseline",), "save the result on screen as a named baseline"),
        (("baselines",), "baselines: compare, view, rename, delete, export, import"),
        (("compare_with",), "compare the tiles with a baseline: ▲ better  ▼ worse  = within noise"),
        (("show_comparison",), "the comparison: every test and unit, side by side"),
        (("clear_comparison",), "stop comparing"),
        (("history",), "history of every completed run; p there saves one as a baseline"),
    ]),
    ("Setup", [
        (("pick_target",), "choose the target directory"),
        (("settings",), "settings: preset, profile, mode, +Mix, test data, times"),
        (("toggle_mix",), "+Mix column on / off"),
        ("ctrl+p", "command palette: every action and setting, themes"),
    ]),
    ("Move around", [
        (("focus_next", "focus_previous"), "next / previous control"),
        (("help",), "this help"),
        (("quit",), "quit (a running test is stopped and cleaned up first)"),
    ]),
]

def _spell(key: str) -> str:
    if len(key) == 1 and key.isupper():
        return f"{key}  (shift+{key.lower()})"
    return spell(key)


def spelled(row: tuple[str, ...] | str, keymap: Keymap = DEFAULT) -> str:
    """The keys of a row as the help shows them: the keymap's for a remapped binding id;
    "(no key)" for one whose only key a conflict in the keymap took."""
    if isinstance(row, str):
        return row
    return "  ".join(_spell(k) for i in row for k in keymap.keys[i]) or "(no key)"


def keys_table(keymap: Keymap = DEFAULT) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column()
    names = {i: keymap.key(i) for i in keymap.keys}
    for i, (section, rows) in enumerate(KEYS):
        if i:
            table.add_row("", "")
        table.add_row(Text(section, style="bold underline"), "")
        for keys, what in rows:
            table.add_row(spelled(keys, keymap), what.format_map(names))
    return table


class HelpScreen(Dialog[None]):
    """The key list in the dialogs' frame; the keys that open it close it too."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "cancel", "Close")]

    def __init__(self, keymap: Keymap = DEFAULT) -> None:
        super().__init__("diskmark keys", classes="help")
        self.keymap = keymap

    def body(self) -> ComposeResult:
        with VerticalScroll(classes="help-body"):
            yield Static(keys_table(self.keymap))
            yield Static("Figures: MB/s = 1,000,000 bytes/s as in CrystalDiskMark; sizes are "
                         "binary (MiB, GiB). Each test runs a discarded warm-up pass, then "
                         "`count` passes; the tile shows the best.", classes="dialog-hint")

    def buttons(self) -> ComposeResult:
        yield Button("Close", id="close", variant="primary")

    def pressed(self, button: str) -> None:
        self.dismiss(None)
