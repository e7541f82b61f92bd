"""The full-screen app: CrystalDiskMark's window, driving the same engine as the CLI.

The app never builds fio options. It turns the user's choices into a
:class:`~diskmark.model.Settings`, hands it to the engine in a worker on the app's own event
loop, and takes the worker's typed messages back (:mod:`diskmark.app.running`). What it
holds is drawn by :class:`~diskmark.app.screens.main.MainScreen`. Stopping, quitting and
errors all go through the engine, which stops fio and removes the test file itself; the app
only waits for it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Input

from diskmark.app.commands import DiskmarkCommands
from diskmark.app.comparing import Comparing
from diskmark.app.lifetime import Lifetime
from diskmark.app.target import Target, default_facts
from diskmark.app.theming import Theming
from diskmark.app import keys
from diskmark.app.results import Results
from diskmark.app.running import Runs
from diskmark.app.screens.main import MainScreen
from diskmark.app.preferences import Preferences, load_preferences, save_preferences
from diskmark.app.state import AppState
from diskmark.app.widgets.grid import ResultGrid
from diskmark.app.widgets.status import StatusLine
from diskmark.store.app_settings import config_path
from diskmark.files.text_safety import shown
from diskmark.app.keymap import DEFAULT, resolve
from diskmark.model.settings import Settings
from diskmark.model.facts import SystemFacts
from diskmark.model.units import Unit
from diskmark.presets import PresetCatalog, load_catalog

if TYPE_CHECKING:
    from diskmark.store.store import Store
    from diskmark.app.screens.sweep import SweepScreen

EngineFactory = Callable[[], Any]  # returns an object with the Engine interface
FactsProvider = Callable[[str], SystemFacts]

UNITS = list(Unit)


def _default_engine(catalog: PresetCatalog) -> Any:
    from diskmark.engine.runner import Engine

    return Engine(catalog=catalog)  # one catalogue: the engine plans from what the app shows


DIALOGS_CSS = Path(__file__).with_name("dialogs.tcss")


class DiskmarkApp(Lifetime, Theming, Target, Runs, Results, Comparing, App[int]):
    """CrystalDiskMark for the terminal: what it holds (settings, unit, the result, the
    history, the baseline), its keys and its lifetime; the main screen draws it, and
    the mixins add their ideas: themes, the target, runs, the result, baselines."""

    CSS_PATH = "app.tcss"
    TITLE = "diskmark"
    COMMANDS = App.COMMANDS | {DiskmarkCommands}
    NOTIFICATION_TIMEOUT = 6
    AUTO_FOCUS = "#all"

    BINDINGS: ClassVar[list[BindingType]] = list(keys.BINDINGS)

    #: Actions that change settings: unavailable (greyed in the footer) while a run is on.
    IDLE_ONLY = frozenset({"run_all", "pick_target", "settings", "toggle_mix", "save_baseline",
                           "sweep", "save_report", "copy_report"})

    def __init__(self, target: str | None = None, *, engine_factory: EngineFactory | None = None,
                 settings: Settings | None = None, unit: Unit | None = None,
                 theme: str | None = None, persist: bool = True,
                 facts_provider: FactsProvider | None = None,
                 catalog: PresetCatalog | None = None, store: Store | None = None) -> None:
        """``settings``/``unit``/``theme`` override what was saved (tests, scripts);
        ``persist=False`` keeps the saved settings untouched. ``store`` holds the history and
        the baselines (default: the data directory, or ``DISKMARK_HOME``)."""
        super().__init__()
        prefs, self._notices = load_preferences(target)
        resolved = resolve(prefs.keymap, str(config_path())) if prefs.keymap else DEFAULT
        self.state = AppState(
            settings=replace(settings) if settings is not None else prefs.settings,
            unit=unit if unit is not None else prefs.unit,
            catalog=catalog if catalog is not None else load_catalog(),
            keys=resolved, keymap=prefs.keymap)
        self._notices.extend(self.state.fix_preset_choice())
        self.persist = persist
        self._engine_factory = engine_factory or (lambda: _default_engine(self.state.catalog))
        self._engine: Any = None
        self.facts_provider = facts_provider or default_facts
        self._store = store
        self._wanted_baseline = prefs.compare
        self._sweep: SweepScreen | None = None  # the sweep under way, fed instead of the grid
        self._quit_requested = False
        self._hung_up = False  # the terminal is gone (SIGHUP)
        self._notices.extend(resolved.problems)
        if prefs.keymap:
            self._bindings = keys.bindings_map(resolved, self._bindings)
        self._register_themes()
        self._preset_theme(theme if theme is not None else prefs.theme)
        self._theme_started = False
        self._main: MainScreen | None = None
        self._main_up = False  # the main screen has mounted
        self._early_keys: list[events.Key] = []

    def key(self, binding_id: str) -> str:
        """The key a text names for a binding, as the user's keymap made it (Esc, ?, B)."""
        return self.state.keys.key(binding_id)

    @property
    def engine(self) -> Any:
        """The engine, made when first needed: importing it (fio's runner, its parser, the
        workspace) costs a sixth of the first frame, which never uses it."""
        if self._engine is None:
            self._engine = self._engine_factory()
        return self._engine

    @property
    def store(self) -> Store:
        """The history and the baselines, opened when first needed: SQLite and the saved
        files are not for the first frame."""
        if self._store is None:
            from diskmark.store.store import Store

            self._store = Store()
        return self._store

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's palette entries, less the two diskmark has its own of: "Keys" (our help
        lists diskmark's keys) and "Screenshot" (ours never replaces a file)."""
        for command in super().get_system_commands(screen):
            if command.title not in ("Keys", "Screenshot"):
                yield command

    # --- screens --------------------------------------------------------------------------

    def get_default_screen(self) -> MainScreen:
        # The size classes before anything is styled (the terminal's size is known here):
        # set at the first resize instead, they restyled the whole window once more.
        self._size_classes(*self.size, update=False)
        self._main = MainScreen()
        return self._main

    def update_styles(self, node: Any, animate: bool = True) -> None:
        """A widget made but not mounted yet (Textual's Button sets its own classes as it is
        made) is styled when it mounts: styling it before was work thrown away."""
        if node is self or node.is_attached:
            super().update_styles(node, animate)

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Any screen over the main one: the dialogs' CSS is read before the first of them
        composes. The first frame never needs it, and parsing it cost that frame 3 ms."""
        if not self.stylesheet.has_source(str(DIALOGS_CSS)):
            self.stylesheet.read(DIALOGS_CSS)
        return super().push_screen(screen, *args, **kwargs)

    @property
    def main(self) -> MainScreen:
        """The main screen (the tiles), whatever screen is on top of it."""
        assert self._main is not None, "the app has not started"
        return self._main

    @property
    def grid(self) -> ResultGrid:
        return self.main.grid

    @property
    def status(self) -> StatusLine:
        return self.main.status

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notice, the screens' too (they pass markup=True), shown as typed: notices
        carry names, notes, paths and error messages, and a name like ``[/]`` parsed as
        markup would end the app. Control characters are shown escaped."""
        super().notify(shown(message), title=shown(title), severity=severity, timeout=timeout,
                       markup=False)

    def on_resize(self, event: events.Resize) -> None:
        """Adapt to the terminal: narrower controls below 100 columns, borderless tiles and
        a one-line comment below 34 lines."""
        width, height = event.size
        self._size_classes(width, height)
        if self._main is not None and self._main.is_mounted:
            self._main.adapt(width, height)

    def _size_classes(self, width: int, height: int, update: bool = True) -> None:
        self.set_class(width < 100, "-narrow", update=update)
        self.set_class(height < 34, "-short", update=update)

    # --- settings -------------------------------------------------------------------------

    def _save(self) -> None:
        if not self.persist:
            return
        compare_with = self.state.baseline.name if self.state.baseline is not None else None
        problem = save_preferences(Preferences(self.state.settings, self.state.unit, self.theme,
                                               compare_with, self.state.keymap))
        if problem:
            self.notify(problem, severity="warning")

    def change_settings(self, **changes: Any) -> None:
        """Apply setting changes from any control; refused while a run is under way."""
        if self.state.running:
            self.notify(f"Settings cannot change while a test runs; stop it first "
                        f"({self.key('stop')}).", severity="warning")
            return
        new = self.state.changed(**changes)
        if new == self.state.settings:
            return
        old, self.state.settings = self.state.settings, new
        relayout = (old.preset, old.profile, old.mix) != (new.preset, new.profile, new.mix)
        if old.target != new.target:
            self._load_facts()
        self.main.sync_controls()
        if relayout:
            self.call_later(self._relayout)
        elif self.state.result is None:
            self._update_comparison()  # before any run, the line compares the settings
        self.refresh_bindings()
        self._save()

    def set_unit(self, unit: Unit) -> None:
        """Re-render every tile in ``unit`` at once; nothing is measured again."""
        if unit == self.state.unit:
            return
        self.state.unit = unit
        self.grid.set_unit(unit)
        self.main.sync_controls()
        self._update_comparison()  # the line counts verdicts in the unit on screen
        self._save()

    def set_running(self, running: bool) -> None:
        """A run or a sweep begins or ends: All turns into Stop, the selectors wait, and
        the keys that change settings leave the footer."""
        if running == self.state.running:
            return
        self.state.running = running
        self.set_class(running, "-running")
        self.main.show_running(running)
        self.refresh_bindings()

    # --- actions --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":
            return self.state.running  # False: the key falls through (ctrl+c, Esc in dialogs)
        if action in self.IDLE_ONLY and self.state.running:
            # hidden while a run is on: the footer keeps room for Stop and what still works
            # (greyed entries cut the footer at 80 columns); the palette says why
            return False
        if action in ("unit", "cycle_unit") and self.state.profile.layout == "peak":
            return None  # Peak and Real World fix the unit of each row
        return True

    def action_run_all(self) -> None:
        self.start_run(None)

    def action_stop(self) -> None:
        if not self.state.running:
            return
        self.engine.stop()
        self.status.show("Stopping · fio ends and the test file is removed…")

    def action_unit(self, index: int) -> None:
        self.set_unit(UNITS[index])

    def action_cycle_unit(self) -> None:
        self.set_unit(UNITS[(UNITS.index(self.state.unit) + 1) % len(UNITS)])

    def action_toggle_mix(self) -> None:
        if not self.state.profile.mix:
            self.notify(f"The {self.state.profile.name} profile has no +Mix column.")
            return
        self.change_settings(mix=None if self.state.settings.mix is not None else 70)

    def action_edit_comment(self) -> None:
        self.main.query_one("#comment", Input).focus()

    def action_help(self) -> None:
        from diskmark.app.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.state.keys))

    def action_settings(self) -> None:
        from diskmark.app.screens.settings import SettingsScreen

        def done(new: Settings | None) -> None:
            if new is not None:
                self.change_settings(**{name: getattr(new, name) for name in (
                    "preset", "profile", "mode", "mix", "data", "direct", "nocow", "measure",
                    "interval", "unstable_pct")})

        self.push_screen(SettingsScreen(self.state.settings, self.state.catalog), done)


def run_app(target: str | None = None) -> int:
    """Entry point for ``diskmark`` without a command."""
    # What the imports made (modules, classes, Textual's tables) lives as long as the app:
    # frozen, the garbage collector no longer walks it, and the full collection that fell
    # in the middle of composing the window (13 ms of the first frame) costs next to nothing.
    # The collector was off while the modules loaded (diskmark.launch) and stays off until
    # the first frame is drawn (Lifetime.main_screen_ready): its passes over what composing
    # the window allocates cost that frame 7 ms, and nothing it frees is needed before.
    gc.freeze()
    app = DiskmarkApp(target=target)
    code = app.run()
    return code if isinstance(code, int) else 0
