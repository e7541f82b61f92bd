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
from textual.reactive import var
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
from diskmark.app.state import UiState, load_state, save_state
from diskmark.app.widgets.grid import ResultGrid
from diskmark.app.widgets.status import StatusLine
from diskmark.store.app_settings import config_path
from diskmark.files.text_safety import shown
from diskmark.engine.times import times as plan_times
from diskmark.app.keymap import DEFAULT, Keymap, resolve
from diskmark.model.settings import Op, Settings
from diskmark.model.results import SessionResult, TestResult
from diskmark.model.facts import SystemFacts
from diskmark.model.units import Unit
from diskmark.presets import PresetCatalog, Profile, load_catalog

if TYPE_CHECKING:
    from diskmark.report.compare import Comparison
    from diskmark.store.entry import Entry
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

    #: A run or a sweep is under way; the watcher switches the controls.
    running: var[bool] = var(False, init=False)

    def __init__(self, target: str | None = None, *, engine_factory: EngineFactory | None = None,
                 settings: Settings | None = None, unit: Unit | None = None,
                 theme: str | None = None, persist: bool = True,
                 facts_provider: FactsProvider | None = None,
                 catalog: PresetCatalog | None = None, store: Store | None = None) -> None:
        """``settings``/``unit``/``theme`` override what was saved (tests, scripts);
        ``persist=False`` keeps the saved settings untouched. ``store`` holds the history and
        the baselines (default: the data directory, or ``DISKMARK_HOME``)."""
        super().__init__()
        state, self._notices = load_state(target)
        if settings is not None:
            state.settings = replace(settings)
        if unit is not None:
            state.unit = unit
        if theme is not None:
            state.theme = theme
        self.settings: Settings = state.settings
        self.unit: Unit = state.unit
        self.persist = persist
        self.catalog = catalog if catalog is not None else load_catalog()
        self._fix_preset_choice()
        self._engine_factory = engine_factory or (lambda: _default_engine(self.catalog))
        self._engine: Any = None
        self.facts_provider = facts_provider or default_facts
        self.history: list[SessionResult] = []  # this process's runs; the store keeps all
        self._store = store
        self.baseline: Entry | None = None  # what the tiles are compared with
        self.comparison: Comparison | None = None
        self._wanted_baseline = state.compare
        self.facts: SystemFacts | None = None
        #: The tiles: (row, op) -> the result each shows (always of ``result``, or the run
        #: under way).
        self.results: dict[tuple[int, Op], TestResult] = {}
        #: The result: the last run's own settings, preset, profile and tests (a row run that
        #: repeats one row of the same set-up is merged in). Every view of a result — report,
        #: copy, baseline, comparison — uses this, never the selectors as they are now.
        self.result: SessionResult | None = None
        self._live: SessionResult | None = None  # the run under way, as its tests finish
        self._merge_into: SessionResult | None = None  # the result a row run repeats a row of
        self.sweep_session: SessionResult | None = None  # the last queue-depth sweep
        self._sweep: SweepScreen | None = None  # the sweep under way, fed instead of the grid
        self.comment = ""
        self._plan: dict[int, Any] = {}  # plan index -> PlannedTest of the run under way
        self._run_settings: Settings | None = None
        self._quit_requested = False
        self._hung_up = False  # the terminal is gone (SIGHUP)
        self._advised: set[tuple[str, str]] = set()  # (target, fstype) already warned about
        self.keymap = state.keymap  # as the settings file has it, saved back unchanged
        #: The keys in effect: the user's keymap resolved, its conflicts and unknown ids
        #: told at start; every text that names a key asks :meth:`key`.
        self.keys: Keymap = resolve(state.keymap, str(config_path())) if state.keymap else DEFAULT
        self._notices.extend(self.keys.problems)
        if state.keymap:
            self._bindings = keys.bindings_map(self.keys, self._bindings)
        self._register_themes()
        self._preset_theme(state.theme)
        self._theme_started = False
        self._main: MainScreen | None = None
        self._main_up = False  # the main screen has mounted
        self._early_keys: list[events.Key] = []

    def key(self, binding_id: str) -> str:
        """The key a text names for a binding, as the user's keymap made it (Esc, ?, B)."""
        return self.keys.key(binding_id)

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

    def plan_times(self) -> tuple[float, float]:
        """The measure and interval seconds a run would use now (the engine's rule)."""
        return plan_times(self.preset, self.profile, self.settings)

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

    @property
    def preset(self):
        return self.catalog.get(self.settings.preset)

    @property
    def profile(self) -> Profile:
        return self.preset.profile(self.settings.profile)

    def _fix_preset_choice(self) -> None:
        """A saved preset or profile may have gone (a deleted user preset): fall back."""
        if self.settings.preset not in self.catalog.presets:
            self._notices.append(f"Preset {self.settings.preset!r} is not available; "
                                 f"using the Default preset.")
            self.settings.preset = "default" if "default" in self.catalog.presets else next(
                iter(self.catalog.presets))
        if self.settings.profile not in self.preset.profiles:
            self._notices.append(f"Profile {self.settings.profile!r} is not in the "
                                 f"{self.preset.name} preset; using its first profile.")
            self.settings.profile = next(iter(self.preset.profiles))

    # --- settings -------------------------------------------------------------------------

    def _save(self) -> None:
        if not self.persist:
            return
        compare_with = self.baseline.name if self.baseline is not None else None
        problem = save_state(UiState(self.settings, self.unit, self.theme, compare_with,
                                     self.keymap))
        if problem:
            self.notify(problem, severity="warning")

    def change_settings(self, **changes: Any) -> None:
        """Apply setting changes from any control; refused while a run is under way."""
        if self.running:
            self.notify(f"Settings cannot change while a test runs; stop it first "
                        f"({self.key('stop')}).", severity="warning")
            return
        new = replace(self.settings, **changes)
        if new.preset != self.settings.preset and new.profile not in self.catalog.get(new.preset).profiles:
            new.profile = "default" if "default" in self.catalog.get(new.preset).profiles else next(
                iter(self.catalog.get(new.preset).profiles))
        if new == self.settings:
            return
        old, self.settings = self.settings, new
        relayout = (old.preset, old.profile, old.mix) != (new.preset, new.profile, new.mix)
        if old.target != new.target:
            self._load_facts()
        self.main.sync_controls()
        if relayout:
            self.call_later(self._relayout)
        elif self.result is None:
            self._update_comparison()  # before any run, the line compares the settings
        self.refresh_bindings()
        self._save()

    def set_unit(self, unit: Unit) -> None:
        """Re-render every tile in ``unit`` at once; nothing is measured again."""
        if unit == self.unit:
            return
        self.unit = unit
        self.grid.set_unit(unit)
        self.main.sync_controls()
        self._update_comparison()  # the line counts verdicts in the unit on screen
        self._save()

    def watch_running(self, running: bool) -> None:
        self.set_class(running, "-running")
        self.main.show_running(running)
        self.refresh_bindings()

    # --- actions --------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "stop":
            return self.running  # False: the key falls through (ctrl+c, Esc in dialogs)
        if action in self.IDLE_ONLY and self.running:
            # hidden while a run is on: the footer keeps room for Stop and what still works
            # (greyed entries cut the footer at 80 columns); the palette says why
            return False
        if action in ("unit", "cycle_unit") and self.profile.layout == "peak":
            return None  # Peak and Real World fix the unit of each row
        return True

    def action_run_all(self) -> None:
        self.start_run(None)

    def action_stop(self) -> None:
        if not self.running:
            return
        self.engine.stop()
        self.status.show("Stopping · fio ends and the test file is removed…")

    def action_unit(self, index: int) -> None:
        self.set_unit(UNITS[index])

    def action_cycle_unit(self) -> None:
        self.set_unit(UNITS[(UNITS.index(self.unit) + 1) % len(UNITS)])

    def action_toggle_mix(self) -> None:
        if not self.profile.mix:
            self.notify(f"The {self.profile.name} profile has no +Mix column.")
            return
        self.change_settings(mix=None if self.settings.mix is not None else 70)

    def action_edit_comment(self) -> None:
        self.main.query_one("#comment", Input).focus()

    def action_help(self) -> None:
        from diskmark.app.screens.help import HelpScreen

        self.push_screen(HelpScreen(self.keys))

    def action_settings(self) -> None:
        from diskmark.app.screens.settings import SettingsScreen

        def done(new: Settings | None) -> None:
            if new is not None:
                self.change_settings(**{name: getattr(new, name) for name in (
                    "preset", "profile", "mode", "mix", "data", "direct", "nocow", "measure",
                    "interval", "unstable_pct")})

        self.push_screen(SettingsScreen(self.settings, self.catalog), done)


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
