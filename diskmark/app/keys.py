"""The app's keys: every binding with an id, so that a user can give it other keys from the
settings file (``"keymap": {"run_all": "r"}``, as posting does). The help screen and the
README's table list the same keys; a test holds them to these."""

from __future__ import annotations

from textual.binding import Binding

BINDINGS: tuple[Binding, ...] = (
    Binding("a", "run_all", "All", tooltip="Run every test of the profile", id="run_all"),
    Binding("escape", "stop", "Stop", tooltip="Stop the run; fio ends, the test file goes", id="stop"),
    Binding("ctrl+c", "stop", "Stop", show=False, priority=True, id="stop_ctrl_c"),
    Binding("u", "cycle_unit", "Unit", id="cycle_unit"),
    Binding("1", "unit(0)", "MB/s", show=False, id="unit_mb_s"),
    Binding("2", "unit(1)", "GB/s", show=False, id="unit_gb_s"),
    Binding("3", "unit(2)", "IOPS", show=False, id="unit_iops"),
    Binding("4", "unit(3)", "μs", show=False, id="unit_us"),
    Binding("s", "save_report", "Save", id="save_report"),
    Binding("c", "copy_report", "Copy", show=False, id="copy_report"),
    Binding("p,ctrl+s", "save_svg", "Screenshot", show=False, id="save_svg"),
    Binding("t", "pick_target", "Target", id="pick_target"),
    Binding("o,f2", "settings", "Settings", id="settings"),
    Binding("m", "toggle_mix", "+Mix", show=False, id="toggle_mix"),
    Binding("b", "baselines", "Baselines", tooltip="Saved baselines: compare, view, rename, "
            "delete, export, import", id="baselines"),
    Binding("B", "save_baseline", "Save as baseline", show=False, id="save_baseline"),
    Binding("h", "history", "History", show=False, id="history"),
    Binding("x", "compare_with", "Compare with…", show=False, id="compare_with"),
    Binding("X", "clear_comparison", "Stop comparing", show=False, id="clear_comparison"),
    Binding("v", "show_comparison", "Comparison", show=False, id="show_comparison"),
    Binding("w", "sweep", "Queue-depth sweep", show=False, id="sweep"),
    Binding("n", "edit_comment", "Comment", show=False, id="edit_comment"),
    Binding("question_mark,f1", "help", "Help", id="help"),
    Binding("ctrl+q", "quit", "Quit", priority=True, id="quit"),
    # Focus moves at once, before the next key is handed on: typed fast, "name<tab>note"
    # would otherwise land whole in the first field (keys go to the field focused when
    # they arrive, and a tab still queued behind letters has not moved the focus yet).
    Binding("tab", "focus_next", "Next", show=False, priority=True, id="focus_next"),
    Binding("shift+tab", "focus_previous", "Previous", show=False, priority=True, id="focus_previous"),
)
