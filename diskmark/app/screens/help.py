"""The keys, in one place, for people who prefer a list to the footer and the palette; the
user's own keys where the settings file remaps a binding."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from diskmark.app.core.keymap import DEFAULT, Keymap, spell
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.widgets.paragraph import Paragraph
from diskmark.locale import N_, _

#: What the help lists: binding ids (shown with their keys, the user's own when the settings
#: file remaps them) or, for what is not a binding of the app, the words to show. A binding
#: id in braces in the words is replaced by its key. The words are translated where shown; a
#: key's name (ctrl+p) is not.
Row = tuple["tuple[str, ...] | str", str]
KEYS: list[tuple[str, list[Row]]] = [
    (N_("Measure"), [
        (("run_all",), N_("All: run every test of the profile")),
        (N_("click a green button"), N_("run that row only")),
        (("stop", "stop_ctrl_c"), N_("Stop: fio ends within 2 s, the test file is removed")),
        (("sweep",), N_("queue-depth sweep: one pattern at Q1 … Q32, as a curve")),
    ]),
    (N_("Results"), [
        (("unit_mb_s", "unit_gb_s", "unit_iops", "unit_us", "cycle_unit"),
         N_("unit: MB/s, GB/s, IOPS, µs ({cycle_unit} cycles)")),
        (N_("enter / click a tile"), N_("every pass, spread, latency, bandwidth chart, fio command")),
        (("save_report",), N_("save the text report to a file")),
        (("copy_report",), N_("copy the text report to the clipboard")),
        (("save_svg",), N_("save a PNG screenshot")),
        (("edit_comment",), N_("type a comment for the report; Esc or Enter leaves it")),
    ]),
    (N_("Baselines"), [
        (("save_baseline",), N_("save the result on screen as a named baseline")),
        (("baselines",), N_("baselines: compare, view, rename, delete, export, import")),
        (("compare_with",), N_("compare the tiles with a baseline: ▲ better  ▼ worse  = within noise")),
        (("show_comparison",), N_("the comparison: every test and unit, side by side")),
        (("clear_comparison",), N_("stop comparing")),
        (("history",), N_("history of every completed run; p there saves one as a baseline")),
    ]),
    (N_("Setup"), [
        (("pick_target",), N_("choose the target directory")),
        (("settings",), N_("settings: preset, profile, mode, +Mix, test data, times")),
        (("toggle_mix",), N_("+Mix column on / off")),
        ("ctrl+p", N_("command palette: every action and setting, themes")),
    ]),
    (N_("Move around"), [
        (("focus_next", "focus_previous"), N_("next / previous control")),
        (("help",), N_("this help")),
        (("quit",), N_("quit (a running test is stopped and cleaned up first)")),
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
        return _(row) if " " in row else row  # "click a green button", not "ctrl+p"
    return "  ".join(_spell(k) for i in row for k in keymap.keys[i]) or _("(no key)")


def keys_table(keymap: Keymap = DEFAULT) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(justify="right", style="bold", no_wrap=True)
    table.add_column()
    names = {i: keymap.key(i) for i in keymap.keys}
    for i, (section, rows) in enumerate(KEYS):
        if i:
            table.add_row("", "")
        table.add_row(Text(_(section), style="bold underline"), "")
        for keys, what in rows:
            table.add_row(spelled(keys, keymap), Paragraph(_(what).format_map(names)))
    return table


class HelpScreen(Dialog[None]):
    """The key list in the dialogs' frame; the keys that open it close it too."""

    BINDINGS = [Binding("escape,q,question_mark,f1", "cancel", N_("Close"))]

    def __init__(self, keymap: Keymap = DEFAULT) -> None:
        super().__init__(_("diskmark keys"), classes="help")
        self.keymap = keymap

    def body(self) -> ComposeResult:
        with VerticalScroll(classes="help-body"):
            yield Static(keys_table(self.keymap))
            yield Static(Paragraph(_(
                "Figures: MB/s = 1,000,000 bytes/s as in CrystalDiskMark; sizes are binary "
                "(MiB, GiB). Each test runs a discarded warm-up pass, then `count` passes; the "
                "tile shows the best.")), classes="dialog-hint")

    def buttons(self) -> ComposeResult:
        yield Button(_("Close"), id="close", variant="primary")

    def pressed(self, button: str) -> None:
        self.dismiss(None)
