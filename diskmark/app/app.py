"""The full-screen app: CrystalDiskMark's window, driving the same engine as the CLI.

:class:`DiskmarkApp` is what only the app can be: the owner of one
:class:`~diskmark.app.core.state.AppState` and the one that changes it, announcing each
change (:class:`~diskmark.app.core.news.AppSignals`) to the screens that draw it, its main
screen (:class:`~diskmark.app.screens.main.MainScreen`) first; the owner of the run
controller (:class:`~diskmark.app.runs.Runs`) and the comparison
(:class:`~diskmark.app.comparing.Comparing`); the target of every key's action; the one
place the settings change (refused while a run is on) and are saved; the maker of the
engine and the store when first needed; Textual's hooks for a first frame drawn at once.
Screens ask; the app changes and tells; it never calls into a screen. The app never builds
fio options; the engine stops fio and removes the test file itself, and the app only waits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import events
from textual.app import App
from textual.binding import BindingType
from textual.notifications import SeverityLevel
from textual.widget import AwaitMount

from diskmark.app import keys, reporting, theming
from diskmark.app.commands import DiskmarkCommands
from diskmark.app.comparing import Comparing
from diskmark.app.compositing import keep_wide_characters_whole
from diskmark.app.core.keymap import DEFAULT, resolve
from diskmark.app.core.news import AppSignals
from diskmark.app.core.protocol import Engine
from diskmark.app.core.state import AppState
from diskmark.app.ending import Ending
from diskmark.app.language_switch import unreadable_catalog_notice
from diskmark.app.lost_terminal import driver_for
from diskmark.app.palette import PaletteHooks
from diskmark.app.preferences import load_preferences
from diskmark.app.run import (
    EngineEvent,
    RunFailed,
    RunFinished,
    RunStarted,
    RunStopped,
    SideEvent,
    SidesFinished,
    default_engine,
)
from diskmark.app.runs import Runs
from diskmark.app.screens.main import MainScreen
from diskmark.app.startup import EarlyKeys, after_first_frame
from diskmark.app.state_changes import StateChanges, save
from diskmark.app.target import default_facts, read_facts
from diskmark.app.themes import variable_defaults
from diskmark.app.widgets.paragraph import keep_joined_words
from diskmark.locale import _, set_language
from diskmark.locale.text_safety import shown
from diskmark.model.facts import SystemFacts
from diskmark.model.settings import Settings
from diskmark.model.units import Unit
from diskmark.presets import PresetCatalog, load_catalog
from diskmark.store.app_settings import config_path

if TYPE_CHECKING:
    from textual.driver import Driver

    from diskmark.app.commands import PaletteApp
    from diskmark.checks import CheckCatalog
    from diskmark.model.claims import Claim
    from diskmark.model.settings import Mode
    from diskmark.store.store import Store

EngineFactory = Callable[[], Engine]
FactsProvider = Callable[[str], SystemFacts]

DIALOGS_CSS = Path(__file__).with_name("dialogs.tcss")

keep_wide_characters_whole()  # a notice over a tile's edge lost the wide character across it
keep_joined_words()  # "Esc で" broke before its particle


class DiskmarkApp(keys.KeyActions, StateChanges, PaletteHooks, App[int]):
    """CrystalDiskMark for the terminal: its state, its keys and its lifetime; the main
    screen draws the state."""

    CSS_PATH = "app.tcss"
    TITLE = "diskmark"
    COMMANDS = App.COMMANDS | {DiskmarkCommands}
    NOTIFICATION_TIMEOUT = 6
    AUTO_FOCUS = "#all"

    BINDINGS: ClassVar[list[BindingType]] = list(keys.BINDINGS)

    #: Whether mounting waits for the main screen (None: only when headless).
    wait_for_main: bool | None = None

    #: Textual's App.__init__ works out the CSS variables of its default theme, which
    #: diskmark replaces at once (theming.preset_theme): until then there are none to work out.
    _theme_chosen = False

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, made to survive a terminal that goes away mid-run (a full
        output queue would otherwise block the app before it could stop fio)."""
        return driver_for(super().get_driver_class())

    def __init__(self, target: str | None = None, *, engine_factory: EngineFactory | None = None,
                 settings: Settings | None = None, unit: Unit | None = None,
                 theme: str | None = None, persist: bool = True,
                 facts_provider: FactsProvider | None = None,
                 catalog: PresetCatalog | None = None, store: Store | None = None,
                 language: str | None = None, claims: list[Claim] | None = None) -> None:
        """``settings``/``unit``/``theme`` override what was saved (tests, scripts);
        ``persist=False`` keeps the saved settings untouched. ``store`` holds the history and
        the baselines (default: the data directory, or ``DISKMARK_HOME``); ``claims``, what
        the drive is claimed to do (``diskmark --claim``)."""
        super().__init__()
        prefs, self._notices = load_preferences(target)
        # --lang (``language``) over the language chosen in the app over the environment's
        # (which the command line has set already)
        if language or prefs.language:
            set_language(language or prefs.language)
        if (notice := unreadable_catalog_notice()) is not None:
            self._notices.append(notice)
        resolved = resolve(prefs.keymap, str(config_path())) if prefs.keymap else DEFAULT
        self.state = AppState(
            settings=replace(settings) if settings is not None else prefs.settings,
            unit=unit if unit is not None else prefs.unit,
            catalog=catalog if catalog is not None else load_catalog(),
            keys=resolved, keymap=prefs.keymap, language=prefs.language,
            claims=list(claims or []))
        self._notices.extend(self.state.fix_preset_choice())
        self.persist = persist
        self._engine_factory = engine_factory or (lambda: default_engine(self.state.catalog))
        self._engine: Engine | None = None
        self.facts_provider: FactsProvider = facts_provider or default_facts
        self._store = store
        self._wanted_baseline = prefs.compare
        self.signals = AppSignals(self)
        self.comparing = Comparing(self)
        self._ending = Ending(self)
        self.runs = Runs(self, self, self.comparing, self._ending)
        self._notices.extend(resolved.problems)
        if prefs.keymap:
            self._bindings = keys.bindings_map(resolved, self._bindings)
        self._notices.extend(theming.register_themes(self))
        self._notices.extend(theming.preset_theme(
            self, theme if theme is not None else prefs.theme))
        self._theme_chosen = True
        self.stylesheet.set_variables(self.get_css_variables())  # nothing is parsed yet
        self._theme_started = False
        self._main: MainScreen | None = None
        self._main_up = False  # the main screen has mounted
        self._early_keys = EarlyKeys()

    @property
    def engine(self) -> Engine:
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

    @property
    def main(self) -> MainScreen:
        """The main screen (the tiles), whatever screen is on top of it: for the app to
        mount, and for tests and scripts to look at; the app tells it, never calls it."""
        assert self._main is not None, "the app has not started"
        return self._main

    # --- Textual's hooks ----------------------------------------------------------------

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
        self._size_classes(*event.size)
        self.signals.size.publish(event.size)

    def _size_classes(self, width: int, height: int, update: bool = True) -> None:
        self.set_class(width < 100, "-narrow", update=update)
        self.set_class(height < 34, "-short", update=update)

    def get_css_variables(self) -> dict[str, str]:
        return super().get_css_variables() if self._theme_chosen else {}

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our own variables ($tile-background, $meter-color …), derived from the current
        theme when it does not set them, so Textual's built-in themes get coherent tiles."""
        return variable_defaults(self.current_theme)

    def set_theme(self, name: str) -> None:
        self.theme = name

    def _start_theme(self) -> None:
        """From now on every change of theme is saved (once, whichever of the app and its
        main screen mounts first)."""
        if not self._theme_started:
            self._theme_started = True
            self.theme_changed_signal.subscribe(self, lambda _theme: save(self))

    # --- start and end ------------------------------------------------------------------

    async def on_mount(self) -> None:
        # The main screen composes in its own task. In a terminal the app does not wait for
        # it: while the app mounts nothing is displayed, so a window laid out and drawn in
        # that time was drawn for nothing, then drawn again in pieces (60 ms of the first
        # frame); keys typed before the window is there wait for it (on_event). Headless (a
        # pilot, a snapshot) the app is ready only once the window is all there.
        if self.wait_for_main if self.wait_for_main is not None else self.is_headless:
            await AwaitMount(self.main, [self.main])
        self._start_theme()
        if not self.is_headless:
            self._ending.catch_signals()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not self._main_up:
            self._early_keys.keys.append(event)  # typed ahead: replayed once the window is up
            return
        if isinstance(event, events.Key) and not self.screen_stack:
            return  # typed (or replayed) as the app closes: no window is left to take it
        await super().on_event(event)

    def main_screen_ready(self) -> None:
        """The main screen is up: the keys typed ahead, then what the first frame did not
        wait for."""
        self._main_up = True
        self.call_after_refresh(self._early_keys.replay, self)
        self._start_theme()
        after_first_frame(self, self._notices, self._wanted_baseline, self.load_facts)

    async def action_quit(self) -> None:
        """Quitting mid-run stops fio and waits for the test file to be removed."""
        if self._ending.quit():
            self.signals.said.publish(_("Quitting · stopping fio and removing the test file "
                                        "first…"))

    def on_unmount(self) -> None:
        """Last line of defence (the app ended some other way mid-run): fio's process group
        gets SIGINT now; the engine's own clean-up removes the test file as its task ends."""
        if self.state.running:
            self.engine.stop()

    def load_facts(self) -> None:
        """The target's facts, read in a thread, kept and announced."""
        read_facts(self, self.comparing.refresh)

    def copy(self, text: str, title: str) -> None:
        reporting.copy_with_notice(self, text, title)

    # --- a run: the screens ask, the run controller starts and follows it -----------------

    def start_run(self, only_test: int | None) -> None:
        self.runs.start_grid(only_test)

    def start_sweep(self, pattern: str, mode: Mode) -> None:
        self.runs.start_sweep(pattern, mode)

    def start_checks(self, ids: list[str]) -> None:
        self.runs.start_checks(ids)

    def check_catalog(self) -> CheckCatalog:
        if self.state.check_catalog is None:
            from diskmark.checks import load_catalog as load_checks

            self.state.check_catalog = load_checks()
        return self.state.check_catalog

    def on_run_started(self, _message: RunStarted) -> None:
        self.runs.checking()

    def on_engine_event(self, message: EngineEvent) -> None:
        self.runs.told(message.event)

    def on_run_finished(self, message: RunFinished) -> None:
        self.runs.finished(message.session)

    def on_side_event(self, message: SideEvent) -> None:
        self.runs.told_side(message.side, message.event)

    def on_sides_finished(self, message: SidesFinished) -> None:
        self.runs.sides_finished(message.result)

    def on_run_failed(self, message: RunFailed) -> None:
        self.runs.failed(message.error)

    def on_run_stopped(self, _message: RunStopped) -> None:
        self.runs.stopped()

    # --- the keys (their actions: keys.KeyActions) ------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return keys.available(action, self.state.running, self.state.profile.layout == "peak")


if TYPE_CHECKING:  # the app is what its screens and its palette take it for
    _IS_APP_LIKE: type[PaletteApp] = DiskmarkApp
