"""The app's keys: every binding with an id, so that a user can give it other keys from the
settings file (``"keymap": {"run_all": "r"}``, as posting does), and what each does. The
ids, their default keys and what they do are declared without Textual in
:mod:`diskmark.app.core.keymap`, which resolves a user's keymap (conflicts, unknown ids) for
the app and the command line alike; the help screen and the README's table list the same
keys, and a test holds them to these. Keys that change settings wait while a run is on
(:func:`available`). Each key's action (:class:`KeyActions`, a part of the app) hands the
key to what owns it: the run controller, the comparison, the reports, a screen's opener.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from textual.binding import Binding, BindingsMap

from diskmark.app.core.keymap import BY_ID, Keymap
from diskmark.locale import N_, _
from diskmark.model.units import Unit
from diskmark.presets.words import said_name

if TYPE_CHECKING:
    from diskmark.app.comparing import Comparing
    from diskmark.app.core.protocol import AppLike
    from diskmark.app.runs import Runs

    class Parts(AppLike, Protocol):
        """The app as its keys' actions need it: what every screen sees, and the parts it
        owns (only for the type checker: the first frame makes no type it does not use)."""

        @property
        def runs(self) -> Runs: ...

        @property
        def comparing(self) -> Comparing: ...

UNITS = list(Unit)


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


class KeyActions:
    """What each key does (and the palette's entry of the same name): a part of the app,
    handing every key to what owns it."""

    def action_run_all(self: Parts) -> None:
        self.runs.start_grid(None)

    def action_stop(self: Parts) -> None:
        self.runs.stop()

    def action_unit(self: Parts, index: int) -> None:
        self.set_unit(UNITS[index])

    def action_cycle_unit(self: Parts) -> None:
        self.set_unit(UNITS[(UNITS.index(self.state.unit) + 1) % len(UNITS)])

    def action_toggle_mix(self: Parts) -> None:
        if not self.state.profile.mix:
            self.notify(_("The {profile} profile has no +Mix column.")
                        .format(profile=said_name(self.state.profile.name)))
            return
        self.change_settings(mix=None if self.state.settings.mix is not None else 70)

    def action_edit_comment(self: Parts) -> None:
        self.signals.comment.publish(None)

    def action_pick_target(self: Parts) -> None:
        from diskmark.app.screens.target_picker import choose_target

        choose_target(self)

    def action_settings(self: Parts) -> None:
        from diskmark.app.screens.settings import edit_settings

        edit_settings(self)

    def action_queues_threads(self: Parts) -> None:
        from diskmark.app.screens.queues_threads import edit_queues_threads

        edit_queues_threads(self)

    def action_help(self: Parts) -> None:
        from diskmark.app.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.state.keys))

    def action_save_report(self: Parts) -> None:
        from diskmark.app.reporting import save_report

        save_report(self)

    def action_copy_report(self: Parts) -> None:
        from diskmark.app.reporting import copy_report

        copy_report(self)

    def action_save_image(self: Parts) -> None:
        from diskmark.app.reporting import save_screenshot

        save_screenshot(self)

    def action_save_svg(self: Parts) -> None:
        from diskmark.app.reporting import save_screenshot

        save_screenshot(self, "svg")

    def action_save_baseline(self: Parts) -> None:
        self.comparing.offer_to_save_baseline()

    def action_baselines(self: Parts) -> None:
        self.comparing.show_baselines()

    def action_history(self: Parts) -> None:
        self.comparing.show_history()

    def action_compare_with(self: Parts) -> None:
        self.comparing.offer_baselines_to_compare_with()

    def action_clear_comparison(self: Parts) -> None:
        self.comparing.stop_comparing()

    def action_show_comparison(self: Parts) -> None:
        self.comparing.show_comparison()

    def action_why(self: Parts) -> None:
        from diskmark.app.screens.why import WhyScreen

        self.push_screen(WhyScreen(self))

    def action_measure_below(self: Parts) -> None:
        from diskmark.app.screens.why import WhyScreen

        self.push_screen(WhyScreen(self, measure=True))

    def action_sweep(self: Parts) -> None:
        from diskmark.app.screens.sweep import offer_sweep

        offer_sweep(self)

    def action_checks(self: Parts) -> None:
        from diskmark.app.screens.checks import ChecksScreen

        self.push_screen(ChecksScreen())

    def action_fleet(self: Parts) -> None:
        from diskmark.app.screens.fleet import open_fleet

        state = self.state

        def typed(hosts: str) -> None:
            state.fleet_hosts = hosts  # offered again next time

        open_fleet(self, state.fleet_hosts, typed)
