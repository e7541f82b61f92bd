"""The app's keys: every binding with an id, so that a user can give it other keys from the
settings file (``"keymap": {"run_all": "r"}``, as posting does). The ids, their default keys
and what they do are declared without Textual in :mod:`diskmark.app.keymap`, which resolves a
user's keymap (conflicts, unknown ids) for the app and the command line alike; the help
screen and the README's table list the same keys, and a test holds them to these. Keys that
change settings wait while a run is on (:func:`available`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from textual.binding import Binding, BindingsMap

from diskmark.app.keymap import BY_ID, Keymap
from diskmark.locale import N_
from diskmark.model.units import Unit


def _bind(binding_id: str, action: str, description: str, **kw: Any) -> Binding:
    """A binding with its id and its default keys from :data:`diskmark.keymap.KEYS`."""
    return Binding(BY_ID[binding_id].keys, action, description, id=binding_id, **kw)


BINDINGS: tuple[Binding, ...] = (
    _bind("run_all", "run_all", N_("All"), tooltip=N_("Run every test of the profile")),
    _bind("stop", "stop", N_("Stop"), tooltip=N_("Stop the run; fio ends, the test file goes")),
    _bind("stop_ctrl_c", "stop", N_("Stop"), show=False, priority=True),
    _bind("cycle_unit", "cycle_unit", N_("Unit")),
    _bind("unit_mb_s", "unit(0)", "MB/s", show=False),
    _bind("unit_gb_s", "unit(1)", "GB/s", show=False),
    _bind("unit_iops", "unit(2)", "IOPS", show=False),
    _bind("unit_us", "unit(3)", Unit.US.label, show=False),
    _bind("save_report", "save_report", N_("Save")),
    _bind("copy_report", "copy_report", N_("Copy"), show=False),
    _bind("save_svg", "save_image", N_("Screenshot"), show=False),
    _bind("pick_target", "pick_target", N_("Target")),
    _bind("settings", "settings", N_("Settings")),
    _bind("toggle_mix", "toggle_mix", "+Mix", show=False),
    _bind("baselines", "baselines", N_("Baselines"),
          tooltip=N_("Saved baselines: compare, view, rename, delete, export, import")),
    _bind("save_baseline", "save_baseline", N_("Save as baseline"), show=False),
    _bind("history", "history", N_("History"), show=False),
    _bind("compare_with", "compare_with", N_("Compare with…"), show=False),
    _bind("clear_comparison", "clear_comparison", N_("Stop comparing"), show=False),
    _bind("show_comparison", "show_comparison", N_("Comparison"), show=False),
    _bind("sweep", "sweep", N_("Queue-depth sweep"), show=False),
    _bind("edit_comment", "edit_comment", N_("Comment"), show=False),
    _bind("help", "help", N_("Help")),
    _bind("quit", "quit", N_("Quit"), priority=True),
    # Focus moves at once, before the next key is handed on: typed fast, "name<tab>note"
    # would otherwise land whole in the first field (keys go to the field focused when
    # they arrive, and a tab still queued behind letters has not moved the focus yet).
    _bind("focus_next", "focus_next", N_("Next"), show=False, priority=True),
    _bind("focus_previous", "focus_previous", N_("Previous"), show=False, priority=True),
)


#: Actions that change settings: hidden from the footer while a run is on.
IDLE_ONLY = frozenset({"run_all", "pick_target", "settings", "toggle_mix", "save_baseline",
                       "sweep", "save_report", "copy_report"})


def available(action: str, running: bool, fixed_units: bool) -> bool | None:
    """Whether a key's action runs now (Textual's ``check_action``: None greys it)."""
    if action == "stop":
        return running  # False: the key falls through (ctrl+c, Esc in dialogs)
    if action in IDLE_ONLY and running:
        # hidden while a run is on: the footer keeps room for Stop and what still works
        # (greyed entries cut the footer at 80 columns); the palette says why
        return False
    if action in ("unit", "cycle_unit") and fixed_units:
        return None  # Peak and Real World fix the unit of each row
    return True


def bindings_map(keymap: Keymap, current: BindingsMap) -> BindingsMap:
    """The app's bindings (``current``, as Textual merged them) with the keys ``keymap``
    resolved, each where it was, so the footer keeps its order; bindings without an id
    (Textual's palette key) as they are.

    Built here rather than through Textual's own keymap: that keeps both bindings on a key
    two entries of a keymap share (which one runs then depends on which is enabled), and
    it cannot take a key from a binding without giving it another, so it could not apply
    the rule the user is told about."""
    bindings: list[Binding] = []
    placed: set[str] = set()
    for _key, binding in current:
        if binding.id is None:
            bindings.append(binding)
        elif binding.id not in placed:
            placed.add(binding.id)
            keys = keymap.keys.get(binding.id, ())
            if keys:
                bindings.append(replace(binding, key=",".join(keys), key_display=None))
    return BindingsMap(bindings)
