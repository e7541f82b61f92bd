"""The full-screen app: CrystalDiskMark's window, driving the same engine as the CLI.

The app never builds fio options. It turns the user's choices into a
:class:`~diskmark.model.Settings`, hands it to the engine in a worker on the app's own event
loop, and turns the engine's events (posted as coalescing messages) into tile and status
updates. Stopping, quitting and errors all go through the engine, which stops fio and removes
the test file itself; the app only waits for it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import traceback
from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Select
from textual.worker import Worker, WorkerState

from diskmark.app.commands import DiskmarkCommands
from diskmark.app.screens.baseline_dialogs import (BaselineNameDialog, NameChoice,
                                                   PickBaselineDialog, suggest_name)
from diskmark.app.screens.baselines import BaselinesScreen
from diskmark.app.screens.comparison import ComparisonScreen
from diskmark.app.screens.details import DetailsScreen
from diskmark.app.screens.dialogs import Choice, ErrorDialog, SaveFileDialog
from diskmark.app.screens.help import HelpScreen
from diskmark.app.screens.history import HistoryScreen
from diskmark.app.screens.settings import SettingsScreen
from diskmark.app.screens.sweep import SweepDialog, SweepScreen
from diskmark.app.screens.target_picker import TargetPicker
from diskmark.app.state import UiState, load_state, save_state
from diskmark.app.widgets.comparison_line import ComparisonLine, ComparisonSummary
from diskmark.app.widgets.grid import ResultGrid
from diskmark.app.widgets.status import StatusLine
from diskmark.app.widgets.tiles import Live, ResultTile, RowButton
from diskmark.app.widgets.topbar import FactsLine, TargetButton, TopBar
from diskmark.atomic import write_atomic
from diskmark.paths import reports_dir
from diskmark.display import shown
from diskmark.compare import BETTER, SAME, WORSE, Comparison, compare
from diskmark.engine.errors import DirectIOUnsupported, DiskmarkError, FioMissing, TargetError
from diskmark.engine.workspace import sweep_register
from diskmark.model import (DataPattern, Event, Mode, Notice, Op, Phase, Progress, RunFinished, SessionResult,
                            Settings, Status, SystemFacts, TestFinished, TestResult, TestStarted,
                            UNSTABLE_PCT, Unit, format_size)
from diskmark.presets import PresetCatalog, Profile, load_catalog
from diskmark.formatting import DELTA_GLYPHS, MODE_LABELS, format_duration, mix_label, short_date
from diskmark.report import describe_progress, text_report
from diskmark.store import Entry, NameTaken, Store, StoreError
from diskmark.themes import DEFAULT_THEME, load_themes, variable_defaults

EngineFactory = Callable[[], Any]  # returns an object with the Engine interface
FactsProvider = Callable[[str], SystemFacts]

QUIT_GRACE_S = 10.0  # how long quitting waits for fio to stop and the test file to go
STOP_SIGNALS = (signal.SIGTERM, signal.SIGQUIT, signal.SIGINT)
UNITS = list(Unit)
_OP_ORDER = {Op.READ: 0, Op.WRITE: 1, Op.MIX: 2}


def _default_engine() -> Any:
    from diskmark.engine import Engine

    return Engine()


def _default_facts(path: str) -> SystemFacts:
    from diskmark.system import facts_for

    if not os.path.isdir(path):
        raise FileNotFoundError(f"{path} is not a directory: press t to choose the target")
    return facts_for(path)


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def _duration(session: SessionResult) -> float | None:
    try:
        return (datetime.fromisoformat(session.finished)
                - datetime.fromisoformat(session.started)).total_seconds()
    except (TypeError, ValueError):
        return None


class EngineEvent(Message):
    """An engine event delivered on the app's queue. Progress is coalesced: a newer one
    replaces an older one still waiting, so a fast stream cannot flood the UI; the events
    that carry results are never dropped."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        return (isinstance(message, EngineEvent) and isinstance(message.event, Progress)
                and isinstance(self.event, Progress))


class CommentInput(Input):
    """The comment under the tiles. Esc and Enter leave it (back to the tiles), so the
    letters typed next are shortcuts again; n or the palette's Comment… come back to it."""

    BINDINGS = [Binding("escape", "leave", "Leave", show=False),
                Binding("enter", "leave", "Done", show=False)]

    def action_leave(self) -> None:
        app = self.app
        grid = app.query_one("#grid", ResultGrid)
        target = next((t for t in grid.tiles if t.result is not None), None) or app.query_one("#all")
        target.focus()


class DiskmarkApp(App[int]):
    """CrystalDiskMark for the terminal."""

    CSS_PATH = "app.tcss"
    TITLE = "diskmark"
    COMMANDS = App.COMMANDS | {DiskmarkCommands}
    NOTIFICATION_TIMEOUT = 6
    AUTO_FOCUS = "#all"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "run_all", "All", tooltip="Run every test of the profile"),
        Binding("escape", "stop", "Stop", tooltip="Stop the run; fio ends, the test file goes"),
        Binding("ctrl+c", "stop", "Stop", show=False, priority=True),
        Binding("u", "cycle_unit", "Unit"),
        Binding("1", "unit(0)", "MB/s", show=False),
        Binding("2", "unit(1)", "GB/s", show=False),
        Binding("3", "unit(2)", "IOPS", show=False),
        Binding("4", "unit(3)", "μs", show=False),
        Binding("s", "save_report", "Save"),
        Binding("c", "copy_report", "Copy", show=False),
        Binding("p,ctrl+s", "save_svg", "Screenshot", show=False),
        Binding("t", "pick_target", "Target"),
        Binding("o,f2", "settings", "Settings"),
        Binding("m", "toggle_mix", "+Mix", show=False),
        Binding("b", "baselines", "Baselines", tooltip="Saved baselines: compare, view, rename, "
                "delete, export, import"),
        Binding("B", "save_baseline", "Save as baseline", show=False),
        Binding("h", "history", "History", show=False),
        Binding("x", "compare_with", "Compare with…", show=False),
        Binding("X", "clear_comparison", "Stop comparing", show=False),
        Binding("v", "show_comparison", "Comparison", show=False),
        Binding("w", "sweep", "Queue-depth sweep", show=False),
        Binding("n", "edit_comment", "Comment", show=False),
        Binding("question_mark,f1", "help", "Help"),
        Binding("ctrl+q", "quit", "Quit", priority=True),
        # Focus moves at once, before the next key is handed on: typed fast, "name<tab>note"
        # would otherwise land whole in the first field (keys go to the field focused when
        # they arrive, and a tab still queued behind letters has not moved the focus yet).
        Binding("tab", "focus_next", "Next", show=False, priority=True),
        Binding("shift+tab", "focus_previous", "Previous", show=False, priority=True),
    ]

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
        self.engine = (engine_factory or _default_engine)()
        self.facts_provider = facts_provider or _default_facts
        self.history: list[SessionResult] = []  # this process's runs; the store keeps all
        self.store = store if store is not None else Store()
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
        self.running = False
        self._plan: dict[int, Any] = {}  # plan index -> PlannedTest of the run under way
        self._run_settings: Settings | None = None
        self._quit_requested = False
        self._hung_up = False  # the terminal is gone (SIGHUP)
        self._advised: set[tuple[str, str]] = set()  # (target, fstype) already warned about
        self._register_themes()
        self._wanted_theme = state.theme

    # --- themes ---------------------------------------------------------------------------

    def _register_themes(self) -> None:
        try:
            themes, problems = load_themes()
        except Exception as e:  # a broken built-in theme file must not stop the app
            self._notices.append(f"Themes could not be loaded: {e}")
            return
        self._notices.extend(f"Skipped theme {problem}" for problem in problems)
        for theme in themes:
            self.register_theme(theme)

    def _apply_theme(self, name: str) -> None:
        if name not in self.available_themes:
            fallback = DEFAULT_THEME if DEFAULT_THEME in self.available_themes else "textual-dark"
            if name:
                self._notices.append(f"Theme {name!r} is not available; using {fallback}.")
            name = fallback
        self.theme = name

    def set_theme(self, name: str) -> None:
        self.theme = name

    def _on_theme_change(self, _theme: Any) -> None:
        self._save()

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        """Textual's palette entries, less the two diskmark has its own of: "Keys" (our help
        lists diskmark's keys) and "Screenshot" (ours never replaces a file)."""
        for command in super().get_system_commands(screen):
            if command.title not in ("Keys", "Screenshot"):
                yield command

    def get_theme_variable_defaults(self) -> dict[str, str]:
        """Our own variables ($tile-background, $meter-color, $row-button-background …),
        derived from the current theme when it does not set them, so Textual's built-in
        themes get coherent tiles too."""
        return variable_defaults(self.current_theme)

    # --- layout ---------------------------------------------------------------------------

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

    @property
    def grid(self) -> ResultGrid:
        return self.query_one("#grid", ResultGrid)

    @property
    def status(self) -> StatusLine:
        return self.query_one("#status", StatusLine)

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None:
        """Every notice, the screens' too (they pass markup=True), shown as typed: notices
        carry names, notes, paths and error messages, and a name like ``[/]`` parsed as
        markup would end the app. Control characters are shown escaped."""
        super().notify(shown(message), title=shown(title), severity=severity, timeout=timeout,
                       markup=False)

    def compose(self) -> ComposeResult:
        s = self.settings
        yield TopBar(count=s.count, size=s.size, target=s.target, unit=self.unit, id="topbar")
        yield FactsLine(id="facts-line")
        yield ComparisonLine(id="comparison-line")
        yield ResultGrid(self.profile, s.mix, self.unit, id="grid")
        yield CommentInput(placeholder="Comment (goes into the report) · n to type, Esc to leave",
                           id="comment")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self._apply_theme(self._wanted_theme)
        self.theme_changed_signal.subscribe(self, self._on_theme_change)
        self._sync_controls()
        self.status.show("Ready · a or All runs every test, a green button runs one row, "
                         "? lists the keys")
        self._load_facts()
        self._restore_baseline(self._wanted_baseline)
        for notice in self._notices:
            self.notify(notice, severity="warning", timeout=12)
        for problem in self.catalog.problems:
            self.notify(f"Skipped preset {problem}", severity="warning", timeout=12)
        self._notices.clear()
        self._sweep_leftovers()
        if not self.is_headless:
            loop = asyncio.get_running_loop()
            for sig in STOP_SIGNALS:
                loop.add_signal_handler(sig, self._on_stop_signal)
            loop.add_signal_handler(signal.SIGHUP, self._on_hangup)

    def _on_hangup(self) -> None:
        """The terminal or the SSH session is gone: stop fio and remove the test file, then
        leave at once. Nothing can be drawn any more, and Textual's orderly exit waits for
        writes to a terminal that no longer exists."""
        self._hung_up = True
        if not self.running:
            os._exit(128 + signal.SIGHUP)
        self._on_stop_signal()

    def _on_stop_signal(self) -> None:
        """SIGTERM, SIGQUIT or a SIGINT from outside: stop fio, remove the test file, then
        quit; a second one stops fio at once."""
        if self.running:
            self.engine.stop()
            if not self._quit_requested:
                self._quit_requested = True
                self.set_timer(QUIT_GRACE_S, self._force_quit)
        else:
            self.exit(0)

    @work(thread=True, group="leftovers", exit_on_error=False)
    def _sweep_leftovers(self) -> None:
        """Test files a killed diskmark left (kill -9, a power cut) go at start, saying so."""
        for found in sweep_register():
            self.call_from_thread(self.notify, found.describe(),
                                  severity="information" if found.removed else "warning",
                                  timeout=15)

    def on_resize(self, event: events.Resize) -> None:
        """Adapt to the terminal: borderless tiles and a one-line comment below 34 lines,
        narrower controls below 100 columns."""
        width, height = event.size
        self.set_class(width < 100, "-narrow")
        self.set_class(height < 34, "-short")
        self.query_one("#comment", Input).compact = height < 34
        self.grid.set_separated(height < 34)
        self.query_one(Footer).compact = width < 100

    def _sync_controls(self) -> None:
        """Show the current settings in the top bar, the facts line and the grid."""
        s = self.settings
        fixed = self.profile.layout == "peak"
        self.query_one("#unit", Select).display = not fixed
        self.query_one("#unit-fixed").display = fixed
        self.query_one("#facts-line", FactsLine).show_setup(self._describe_setup(),
                                                           self._describe_setup(compact=True))
        for select_id, value in (("#count", s.count), ("#size", s.size), ("#unit", self.unit)):
            select = self.query_one(select_id, Select)
            if select.value != value:
                with select.prevent(Select.Changed):
                    select.value = value
        self.query_one("#target", TargetButton).set_path(s.target)

    def _plan_times(self) -> tuple[float, float]:
        """The measure and interval seconds a run would use now (settings over presets)."""
        s = self.settings
        measure = s.measure if s.measure is not None else (self.profile.measure or self.preset.measure)
        interval = s.interval if s.interval is not None else (
            self.profile.interval if self.profile.interval is not None else self.preset.interval)
        return measure, interval

    def _describe_setup(self, compact: bool = False) -> str:
        """How the next run is set up, in words (``compact``: for a narrow terminal, still
        labelled: "5 s/pass" is the measure time, "5 s rest" the interval)."""
        s = self.settings
        plan_measure, plan_interval = self._plan_times()
        name = self.preset.name
        if self.profile.name != "Default":
            profile = self.profile.name.removesuffix(" Performance") if compact else self.profile.name
            name = f"{name} · {profile}"
        parts = [name]
        if s.mode is not Mode.READ_WRITE:
            parts.append(MODE_LABELS[s.mode])
        if s.mix is not None and self.profile.mix:
            parts.append(f"+Mix {mix_label(s.mix)}")
        if s.data is DataPattern.ZEROS:
            parts.append("All 0x00")
        elif s.data is DataPattern.REFILL:
            parts.append("fresh random data")
        if not s.direct:
            parts.append("buffered")
        elif self._shown_buffered():
            parts.append("tiles: buffered")  # the shown figures came from a buffered run
        if s.nocow:
            parts.append("NOCOW")
        if s.unstable_pct != UNSTABLE_PCT:
            parts.append(f"~ when passes differ > {s.unstable_pct:g}%")
        parts.append(f"{plan_measure:g} s/pass, {plan_interval:g} s rest" if compact else
                     f"measure {plan_measure:g} s, interval {plan_interval:g} s")
        return " · ".join(parts)

    def _shown_buffered(self) -> bool:
        return any(not session.settings.direct for session in self.history
                   if any(t is r for t in session.tests for r in self.results.values()))

    # --- settings -------------------------------------------------------------------------

    def _save(self) -> None:
        if not self.persist:
            return
        compare_with = self.baseline.name if self.baseline is not None else None
        problem = save_state(UiState(self.settings, self.unit, self.theme, compare_with))
        if problem:
            self.notify(problem, severity="warning")

    def change_settings(self, **changes: Any) -> None:
        """Apply setting changes from any control; refused while a run is under way."""
        if self.running:
            self.notify("Settings cannot change while a test runs; stop it first (Esc).",
                        severity="warning")
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
        self._sync_controls()
        if relayout:
            self.call_later(self._relayout)
        elif self.result is None:
            self._update_comparison()  # before any run, the line compares the settings
        self.refresh_bindings()
        self._save()

    async def _relayout(self) -> None:
        """Another preset, profile or +Mix: the grid changes shape. The result keeps its own
        set-up; its tiles come back whenever the layout is the one it ran under, and are
        cleared (with a word why) under any other, so no tile ever sits under a button of a
        test it did not measure."""
        await self.grid.rebuild(self.profile, self.settings.mix, self.unit)
        shown = self._show_result_tiles()
        if self.result is not None and self.result.tests and not shown:
            self.status.show(f"Tiles cleared: the last run used {self._setup_name(self.result)}; "
                             f"s, B and v still use it, switching back shows it")
        elif shown and self.result is not None:
            self.status.show(f"The last run's tiles ({self._setup_name(self.result)}) are back")
        self._update_comparison()

    @staticmethod
    def _setup_name(session: SessionResult) -> str:
        """``Default · Peak +Mix R70/W30``: how a result was set up, in a few words."""
        st = session.settings
        name = f"{session.preset_name or st.preset} · {session.profile_name or st.profile}"
        return name + (f" +Mix {mix_label(st.mix)}" if st.mix is not None else "")

    def _fits_layout(self, session: SessionResult | None) -> bool:
        """Whether ``session`` ran under the grid's current layout (same preset, profile,
        +Mix and the same test in every row it measured)."""
        if session is None or session.settings.sweep:
            return False
        st, now = session.settings, self.settings
        if (st.preset, st.profile, st.mix) != (now.preset, now.profile, now.mix):
            return False
        tests = self.profile.tests
        return all(t.index < len(tests) and tests[t.index] == t.spec for t in session.tests)

    def _show_result_tiles(self) -> bool:
        """Fill the tiles from ``result`` when it fits the layout, else leave them empty.
        Returns whether it was shown."""
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        self.results = {}
        if not self._fits_layout(self.result):
            return False
        assert self.result is not None
        for test in self.result.tests:
            self.results[(test.index, test.op)] = test
            self.grid.show_result(test, final=True)
        return True

    def set_unit(self, unit: Unit) -> None:
        """Re-render every tile in ``unit`` at once; nothing is measured again."""
        if unit == self.unit:
            return
        self.unit = unit
        self.grid.set_unit(unit)
        self._sync_controls()
        self._update_comparison()  # the line counts verdicts in the unit on screen
        self._save()

    @on(Select.Changed, "#count")
    def _count_changed(self, event: Select.Changed) -> None:
        self.change_settings(count=int(event.value))  # type: ignore[arg-type]

    @on(Select.Changed, "#size")
    def _size_changed(self, event: Select.Changed) -> None:
        self.change_settings(size=int(event.value))  # type: ignore[arg-type]

    @on(Select.Changed, "#unit")
    def _unit_changed(self, event: Select.Changed) -> None:
        self.set_unit(Unit(event.value))

    @on(Input.Changed, "#comment")
    def _comment_changed(self, event: Input.Changed) -> None:
        self.comment = event.value

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
        self.query_one("#comment", Input).focus()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_settings(self) -> None:
        def done(new: Settings | None) -> None:
            if new is not None:
                self.change_settings(**{name: getattr(new, name) for name in (
                    "preset", "profile", "mode", "mix", "data", "direct", "nocow", "measure",
                    "interval", "unstable_pct")})

        self.push_screen(SettingsScreen(self.settings, self.catalog), done)

    def action_pick_target(self) -> None:
        def chosen(path: str | None) -> None:
            if path:
                self.change_settings(target=path)

        self.push_screen(TargetPicker(self.settings.target), chosen)

    async def action_quit(self) -> None:
        """Quitting mid-run stops fio and waits for the test file to be removed."""
        if not self.running:
            self.exit(0)
            return
        if self._quit_requested:
            self.engine.stop()  # asked again: fio is killed at once
            return
        self._quit_requested = True
        self.engine.stop()
        self.status.show("Quitting · stopping fio and removing the test file first…")
        self.set_timer(QUIT_GRACE_S, self._force_quit)

    def on_unmount(self) -> None:
        """Last line of defence (the app ended some other way mid-run): fio's process group
        gets SIGINT now; the engine's own clean-up removes the test file as its task ends."""
        if self.running:
            self.engine.stop()

    def _force_quit(self) -> None:
        self.workers.cancel_group(self, "bench")
        self.exit(1)

    # --- running --------------------------------------------------------------------------

    def on_button_pressed(self, event: Button.Pressed) -> None:
        button = event.button
        if isinstance(button, TargetButton):
            self.action_pick_target()
        elif self.running and (button.id == "all" or isinstance(button, RowButton)):
            self.action_stop()
        elif button.id == "all":
            self.start_run(None)
        elif isinstance(button, RowButton):
            self.start_run(button.row)

    def start_run(self, only_test: int | None) -> None:
        """All (``only_test`` None) or one row. Builds Settings; the engine does the rest."""
        if self.running:
            return
        settings = replace(self.settings, only_test=only_test, comment=self.comment)
        try:
            plan = self.engine.plan(settings)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        self._plan = {t.index: t for t in plan.tests}
        slots = {(t.row, t.op) for t in plan.tests}
        # A row button after a run of the same set-up repeats that row within it; anything
        # else is a new result, and every tile of the old one is cleared (it stays in the
        # history, and comes back if this run measures nothing).
        base = self.result if self._repeats_a_row_of(self.result, settings) else None
        self._merge_into = base
        if base is not None:
            kept = [t for t in base.tests if (t.index, t.op) not in slots]
            self._live = replace(base, tests=kept)
        else:
            kept = []
            self._live = SessionResult(
                settings=replace(settings, only_test=None), preset_name=plan.preset.name,
                system=self.facts or SystemFacts(target=settings.target),
                profile_name=plan.profile.name, measure=plan.measure, interval=plan.interval)
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        self.results = {}
        for test in kept:
            self.results[(test.index, test.op)] = test
            self.grid.show_result(test, final=True)
        self._run_settings = settings
        self._update_comparison()
        self._set_running(True)
        self.status.show("Checking the target…", 0.0)
        self._bench(settings)

    def _repeats_a_row_of(self, result: SessionResult | None, settings: Settings) -> bool:
        """A row run whose every setting but the row, the mode and the comment is the
        result's: its figures belong in that result."""
        if result is None or settings.only_test is None or not self._fits_layout(result):
            return False

        def essence(s: Settings) -> Settings:
            return replace(s, only_test=None, comment="", mode=Mode.READ_WRITE)

        return essence(result.settings) == essence(settings)

    def _set_running(self, running: bool) -> None:
        self.running = running
        self.set_class(running, "-running")
        all_button = self.query_one("#all", Button)
        all_button.label = "Stop" if running else "All"
        all_button.set_class(running, "-stop")
        self.grid.set_running(running)
        for select in self.query("#topbar Select").results(Select):
            select.disabled = running
        self.query_one("#target", TargetButton).disabled = running
        self.refresh_bindings()

    @work(exclusive=True, group="bench", exit_on_error=False)
    async def _bench(self, settings: Settings) -> SessionResult:
        return await self.engine.run(settings, self._forward_engine_event)

    def _forward_engine_event(self, event: Event) -> None:
        """Called by the engine on the app's loop; queue it so the engine never waits on
        drawing and a burst of progress collapses into the latest."""
        self.post_message(EngineEvent(event))

    def on_engine_event(self, message: EngineEvent) -> None:
        event = message.event
        if self._sweep is not None and not isinstance(event, Notice):
            self._sweep_event(event)
            return
        grid = self.grid
        if isinstance(event, Progress):
            self._show_progress(event)
        elif isinstance(event, TestStarted):
            grid.show_live(event.result.index, event.result.op, Live(0.0, None, "warm-up"))
            grid.mark_current_row(event.result.index)
        elif isinstance(event, RunFinished):
            if not event.warmup:
                grid.show_result(event.result, final=False)
        elif isinstance(event, TestFinished):
            self.results[(event.result.index, event.result.op)] = event.result
            if self._live is not None:
                self._live.tests = [t for t in self._live.tests if t.key != event.result.key]
                self._live.tests.append(event.result)
            grid.show_result(event.result, final=True)
            if self.baseline is not None:
                self._update_comparison()  # deltas appear as the tests finish
        elif isinstance(event, Notice):
            severity = event.severity if event.severity in ("information", "warning", "error") else "warning"
            self.notify(event.text, severity=severity, timeout=10)  # type: ignore[arg-type]

    def _show_progress(self, p: Progress) -> None:
        if not self.running:
            return
        if not self._quit_requested:
            # the ETA goes to the right of the status line, next to the session's bar
            self.status.show(describe_progress(replace(p, eta_s=None)), p.session_percent, p.eta_s)
        test = self._plan.get(p.test_index) if p.test_index is not None else None
        if test is None:
            return
        if p.phase in (Phase.WARMUP, Phase.MEASURING):
            runs = max(p.runs, 1)
            fraction = (p.run + p.percent / 100) / (runs + 1)
            caption = "warm-up" if p.phase is Phase.WARMUP else f"{p.run}/{runs}"
            self.grid.show_live(test.row, test.op, Live(fraction, p.mb_s, caption))
        elif p.phase in (Phase.SYNC, Phase.SETTLE):
            pending = (p.dirty_bytes or 0) + (p.writeback_bytes or 0)
            word = "sync" if p.phase is Phase.SYNC else "settle"
            caption = f"{word} {pending / 2**20:.0f} MiB" if pending else word
            self.grid.show_live(test.row, test.op, Live(1.0, None, caption))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.group != "bench" or event.state not in (
                WorkerState.SUCCESS, WorkerState.ERROR, WorkerState.CANCELLED):
            return
        if self._hung_up:  # the engine has cleaned up; there is no terminal to go back to
            os._exit(128 + signal.SIGHUP)
        settings = self._run_settings
        self._set_running(False)
        self.grid.end_live()
        sweep, self._sweep = self._sweep, None
        if sweep is not None and event.state is WorkerState.SUCCESS:
            self._sweep_finished(sweep, event.worker.result)
        elif sweep is not None and event.state is WorkerState.ERROR:
            sweep.dismiss(None)
            self.status.show("Not started · see the message")
            if not self._quit_requested:
                self.show_error(event.worker.error, settings)
        elif event.state is WorkerState.SUCCESS:
            self._finished(event.worker.result)
        elif event.state is WorkerState.ERROR:
            self._live = self._merge_into = None
            self._show_result_tiles()  # nothing ran: the result is as it was
            self.status.show("Not started · see the message")
            if not self._quit_requested:
                self.show_error(event.worker.error, settings)
        elif event.state is WorkerState.CANCELLED:
            self._live = self._merge_into = None
            self._show_result_tiles()
        if self._quit_requested:
            self.exit(0)

    def _finished(self, session: SessionResult) -> None:
        base, self._merge_into, self._live = self._merge_into, None, None
        measured = any(t.runs for t in session.tests)
        if base is not None:
            done = {(t.index, t.op) for t in session.tests}
            tests = [t for t in base.tests if (t.index, t.op) not in done] + session.tests
            notes = base.warnings + [w for w in session.warnings if w not in base.warnings]
            self.result = replace(base, tests=sorted(tests, key=lambda t: (_OP_ORDER[t.op], t.index)),
                                  warnings=notes)
        elif measured or session.status is Status.COMPLETE or self.result is None:
            self.result = session  # the authoritative results, whatever was coalesced
        # else: stopped or failed before anything was measured: the last result stays
        self._show_result_tiles()
        self._focus_a_result()
        self.history.append(session)
        self._update_comparison()
        self.query_one("#facts-line", FactsLine).show_setup(self._describe_setup(),
                                                           self._describe_setup(compact=True))
        took = _duration(session)
        took_text = f" in {format_duration(took)}" if took is not None else ""
        if session.status is Status.COMPLETE:
            self._keep_history(session)
            done = len(session.tests)
            if self.comparison is not None and self.baseline is not None:
                counts = self.comparison.counts(self.grid.header_unit)
                verdicts = "  ".join(f"{DELTA_GLYPHS[v]} {counts[v]} {v}" for v in (BETTER, WORSE, SAME))
                self.status.show(f"Finished{took_text} · against “{self.baseline.name}”: "
                                 f"{verdicts} · v shows the comparison, B saves as baseline")
            else:
                self.status.show(f"Finished{took_text} · {done} test{'s' * (done != 1)} · "
                                 f"{self._unstable_legend()}B saves it as a baseline, s the "
                                 f"report, enter on a tile shows details")
        elif session.status is Status.CANCELLED:
            self.status.show("Stopped · fio ended and the test file was removed; "
                             "finished tiles are kept" if measured else
                             "Stopped · fio ended and the test file was removed; nothing was "
                             "measured")
        else:
            self.status.show("Failed · see the message")
            if not self._quit_requested:
                self.push_screen(ErrorDialog(
                    "The benchmark failed", session.error or "fio stopped with an error.",
                    "The tiles that finished are kept. Check the target (space, permissions, "
                    "a removed device) and run again."))

    def _unstable_legend(self) -> str:
        """What the ``~9%`` and ``cpu`` marks on tiles mean, said once where they appear."""
        out = ""
        shaky = [t for t in self.results.values() if t.unstable() is not None]
        if shaky:
            limit = shaky[0].unstable_pct
            out += (f"~N% on {'a tile' if len(shaky) == 1 else f'{len(shaky)} tiles'}: its "
                    f"passes differ by N% (over {limit:g}%) · ")
        cpu = [t for t in self.results.values() if t.cpu_limited]
        if cpu:
            out += (f"cpu on {'a tile' if len(cpu) == 1 else f'{len(cpu)} tiles'}: the CPU, not "
                    f"the drive, set {'it' if len(cpu) == 1 else 'them'} · ")
        return out

    def _focus_a_result(self) -> None:
        """After a run, Enter must show a tile's details, not start another run over it: the
        focus moves from All or a row button to the first measured tile (a comment being
        typed keeps it)."""
        focused = self.focused
        if focused is not None and not isinstance(focused, Button):
            return
        tile = next((t for t in self.grid.tiles if t.result is not None and t.result.runs), None)
        if tile is not None:
            tile.focus()

    # --- queue-depth sweep ---------------------------------------------------------------

    def action_sweep(self) -> None:
        def chosen(answer: tuple[str, Mode] | None) -> None:
            if answer is not None:
                self.start_sweep(*answer)

        self.push_screen(SweepDialog(self._sweep_estimate), chosen)

    def _sweep_estimate(self, pattern: str, mode: Mode) -> str:
        s = replace(self.settings, sweep=pattern, mode=mode, mix=None, only_test=None)
        plan = self.engine.plan(s)
        return (f"{len(plan.tests)} tests · {format_size(s.size)} × {s.count} "
                f"pass{'es' * (s.count != 1)} after a "
                f"warm-up · measure {plan.measure:g} s, interval {plan.interval:g} s · about "
                f"{format_duration(plan.total_seconds())} plus writing the test file")

    def start_sweep(self, pattern: str, mode: Mode) -> None:
        """Run ``pattern`` at every queue depth; results go to a SweepScreen, never the grid."""
        if self.running:
            return
        settings = replace(self.settings, sweep=pattern, mode=mode, mix=None, only_test=None,
                           comment=self.comment)
        try:
            self.engine.plan(settings)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        self._plan = {}  # nothing of the grid moves during a sweep
        self._run_settings = settings
        self._sweep = SweepScreen(pattern, mode, self.unit)
        self.push_screen(self._sweep)
        self._set_running(True)
        self.status.show(f"Queue-depth sweep {pattern} · checking the target…", 0.0)
        self._bench(settings)

    def _sweep_event(self, event: Event) -> None:
        sweep = self._sweep
        assert sweep is not None
        if isinstance(event, Progress):
            if self.running and not self._quit_requested:
                text = describe_progress(replace(event, eta_s=None))
                self.status.show(text, event.session_percent, event.eta_s)
                eta = f" · ETA {format_duration(event.eta_s)}" if event.eta_s is not None else ""
                sweep.show_progress(f"{text} · {event.session_percent:.0f}%{eta}")
        elif isinstance(event, (TestStarted, TestFinished)) or (
                isinstance(event, RunFinished) and not event.warmup):
            sweep.show_result(event.result)

    def _sweep_finished(self, sweep: SweepScreen, session: SessionResult) -> None:
        self.sweep_session = session
        sweep.finish(session)
        if session.status is Status.COMPLETE:
            self._keep_history(session)  # as `diskmark run --sweep` does
        took = _duration(session)
        took_text = f" in {format_duration(took)}" if took is not None else ""
        words = {Status.COMPLETE: f"Sweep finished{took_text}",
                 Status.CANCELLED: "Sweep stopped · fio ended and the test file was removed",
                 Status.FAILED: "Sweep failed · see the sweep window"}
        self.status.show(words[session.status])

    # --- errors ---------------------------------------------------------------------------

    def show_error(self, error: BaseException | None, settings: Settings | None = None) -> None:
        """Every engine error as a dialog whose buttons are the next steps."""
        settings = settings or self.settings
        if isinstance(error, DirectIOUnsupported):
            def answered(choice: str | None) -> None:
                if choice == "buffered":
                    self.change_settings(direct=False)
                    self.start_run(settings.only_test)
                elif choice == "target":
                    self.action_pick_target()

            self.push_screen(ErrorDialog(
                "Direct I/O is not supported here", error.message, error.hint,
                [Choice("Run buffered", "buffered", "warning"),
                 Choice("Choose another target", "target"), Choice("Cancel", "cancel", "primary")]),
                answered)
        elif isinstance(error, TargetError):
            def answered_target(choice: str | None) -> None:
                if choice == "target":
                    self.action_pick_target()

            self.push_screen(ErrorDialog(
                "The target cannot be used", error.message, error.hint,
                [Choice("Choose another target", "target"), Choice("OK", "ok", "primary")]),
                answered_target)
        elif isinstance(error, FioMissing):
            self.push_screen(ErrorDialog("fio is needed", error.message, error.hint))
        elif isinstance(error, DiskmarkError):
            self.push_screen(ErrorDialog("The benchmark failed", error.message, error.hint))
        else:
            detail = "".join(traceback.format_exception_only(type(error), error)).strip() \
                if error is not None else "unknown error"
            self.push_screen(ErrorDialog(
                "Something went wrong", detail,
                "This is a bug in diskmark. fio was stopped and the test file removed; "
                "please report what you did and this message."))

    # --- results --------------------------------------------------------------------------

    @property
    def last_session(self) -> SessionResult | None:
        return self.result

    def current_session(self) -> SessionResult | None:
        """The result as one session with its own settings, preset, profile and tests (the
        run under way, so far, while one runs), and the comment as typed now."""
        session = self._live if self.running and self._live is not None else self.result
        if session is None:
            return None
        tests = sorted(session.tests, key=lambda t: (_OP_ORDER[t.op], t.index))
        settings = replace(session.settings, comment=self.comment, only_test=None)
        return replace(session, settings=settings, tests=tests)

    def report_text(self) -> str | None:
        if self.running:
            self.notify("A run is under way: its report can be saved once it has finished "
                        "(or been stopped).", severity="warning")
            return None
        session = self.current_session()
        if session is None or not session.tests:
            self.notify("Nothing measured yet: press a (All) or a row button first.",
                        severity="warning")
            return None
        return shown(text_report(session))  # a path that is not UTF-8 cannot be saved raw

    def action_save_report(self) -> None:
        text = self.report_text()
        if text is None:
            return

        def chosen(answer: tuple[Path, bool] | None) -> None:
            if answer is not None:
                self.write_report(answer[0], text, replace_existing=answer[1])

        self.push_screen(SaveFileDialog("Save the text report", f"diskmark-{_stamp()}.txt",
                                        reports_dir()), chosen)

    def write_report(self, path: Path, text: str, *, replace_existing: bool = False) -> bool:
        try:
            write_atomic(path, text, exclusive=not replace_existing)
        except FileExistsError:
            self.notify(f"{path} appeared meanwhile; not replaced.", severity="warning")
            return False
        except OSError as e:
            self.notify(f"Could not save {path}: {e.strerror or e}", severity="error")
            return False
        self.notify(f"Saved to {path}", title="Report saved")
        return True

    def action_copy_report(self) -> None:
        text = self.report_text()
        if text is not None:
            self.copy_with_notice(text, "The text report")

    def copy_with_notice(self, text: str, what: str) -> None:
        """Copy through the terminal (OSC 52), and say so: nothing confirms it arrived."""
        self.copy_to_clipboard(shown(text))
        self.notify(f"{what} is on the clipboard (if the terminal allows OSC 52).",
                    title="Copied")

    def action_save_svg(self) -> None:
        """A picture of the window in the reports directory (the documents directory, see
        :func:`~diskmark.paths.reports_dir`), under a name no file has yet (two screenshots
        in one second, or someone else's file, are never replaced)."""
        svg = self.export_screenshot()
        stem = f"diskmark-{_stamp()}"
        folder = reports_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self.notify(f"Could not create {folder}: {e.strerror or e}", severity="error")
            return
        for n in range(1, 100):
            path = folder / (f"{stem}.svg" if n == 1 else f"{stem}-{n}.svg")
            try:
                write_atomic(path, svg, exclusive=True)
            except FileExistsError:
                continue
            except OSError as e:
                self.notify(f"Could not save the screenshot: {e.strerror or e}", severity="error")
                return
            self.notify(f"Saved to {path}", title="Screenshot saved")
            return
        self.notify(f"Could not find a free name for {stem}.svg in {folder}.", severity="error")

    @on(ResultTile.Selected)
    def _tile_selected(self, event: ResultTile.Selected) -> None:
        self.open_details(event.tile)

    def open_details(self, tile: ResultTile) -> None:
        result = tile.result
        if result is None or not (result.runs or result.error):
            self.notify(f"{tile.spec.label} {tile.op.value} has not run yet.")
            return
        session = self.session_of(result)
        buffered = session is not None and not session.settings.direct
        self.push_screen(DetailsScreen(result, buffered=buffered, session=session))

    def session_of(self, result: TestResult) -> SessionResult | None:
        """The run a tile's result came from (a row run after an All has its own test file
        and notes), or the last run."""
        for session in reversed(self.history):
            if any(t is result for t in session.tests):
                return session
        return self.last_session

    # --- history, baselines and comparison -----------------------------------------------

    @work(thread=True, group="history", exit_on_error=False)
    def _keep_history(self, session: SessionResult) -> None:
        """Every completed run goes to the store's history; failing to write it is a
        warning, never a reason to lose what is on screen."""
        try:
            self.store.save_history(session)
        except Exception as e:  # StoreError, or a bug in writing: the run is still on screen
            self.call_from_thread(self.notify, f"This run was not kept in the history: {e}",
                                  severity="warning", timeout=12)

    def _restore_baseline(self, name: str | None) -> None:
        """Compare with the baseline chosen last time, if it is still there and readable."""
        if not name:
            return
        try:
            entry = self.store.find_baseline(name)
        except StoreError as e:
            entry, why = None, str(e)
        else:
            why = "it is not saved any more" if entry is None else f"it is damaged ({entry.damaged})"
        if entry is None or not entry.ok:
            self._notices.append(f"Not comparing with baseline “{name}”: {why}.")
            self._save()
            return
        self.set_baseline(entry)

    def set_baseline(self, entry: Entry | None) -> None:
        """Compare the tiles with ``entry`` from now on (None: stop comparing)."""
        self.baseline = entry if entry is not None and entry.ok else None
        self.set_class(self.baseline is not None, "-comparing")
        self._update_comparison()
        self._save()

    def _session_for_comparison(self, base: SessionResult) -> SessionResult:
        """What the tiles show, as a session. With no result on them: the settings a run
        would use now and the target's facts, so a mismatch shows before it runs."""
        session = self.current_session()
        if session is not None and (self.running or self._fits_layout(self.result)):
            return session
        measure, interval = self._plan_times()
        tests = sorted(self.results.values(), key=lambda t: (_OP_ORDER[t.op], t.index))
        return SessionResult(settings=self._run_settings or self.settings,
                             system=self.facts or base.system, preset_name=self.preset.name,
                             profile_name=self.profile.name, measure=measure, interval=interval,
                             tests=tests)

    def _update_comparison(self) -> None:
        """Recompute the deltas of every tile and the comparison line."""
        line = self.query_one("#comparison-line", ComparisonLine)
        base = self.baseline
        if base is None or base.session is None:
            self.comparison = None
            self.grid.show_comparison(None)
            line.summary = None
            return
        session = self._session_for_comparison(base.session)
        cmp = compare(session, base.session, base.name)
        measured = any(t.complete for t in session.tests)
        self.comparison = cmp if measured else None
        self.grid.show_comparison(self.comparison)
        unit = self.grid.header_unit
        line.summary = ComparisonSummary(base.name, base.started or base.saved,
                                         cmp.settings_differences,
                                         cmp.counts(unit) if measured else None, unit.label)

    def _baseline_changed(self, old: str, new: Entry | None) -> None:
        """A baseline was renamed or deleted on the baselines screen: follow it."""
        if self.baseline is None or self.baseline.name != old:
            return
        if new is None:
            self.set_baseline(None)
            self.notify(f"Baseline “{old}” was deleted; the tiles are not compared any more.")
        else:
            self.set_baseline(new)

    def action_save_baseline(self) -> None:
        session = self.current_session()
        if session is None or not any(t.complete for t in session.tests):
            self.notify("Nothing measured yet: press a (All) or a row button first, then B "
                        "saves the result as a baseline.", severity="warning")
            return
        done = sum(t.complete for t in session.tests)
        where = " ".join(x for x in (session.system.device, session.system.fstype) if x)
        hint = (f"The {done} test{'s' * (done != 1)} on screen, run {short_date(session.started)}"
                f"{' on ' + where if where else ''}. A name that exists already is replaced "
                f"only if you say so.")

        def named(choice: NameChoice | None) -> None:
            if choice is not None:
                self.save_baseline(session, choice.name, choice.note, replace=choice.replace)

        self.push_screen(BaselineNameDialog(self.store, "Save as baseline", hint,
                                            name=suggest_name(session), note=self.comment), named)

    def save_baseline(self, session: SessionResult, name: str, note: str = "",
                      replace: bool = False) -> Entry | None:
        try:
            entry = self.store.save_baseline(session, name, note, replace=replace)
        except NameTaken as e:
            self.notify(f"Not saved: {e}; it was not replaced.", severity="warning")
            return None
        except StoreError as e:
            self.notify(f"Not saved as a baseline: {e}", severity="error")
            return None
        self.notify(f"Saved as baseline “{entry.name}”. x compares later runs with it.",
                    title="Baseline saved")
        if self.baseline is not None and self.baseline.name == entry.name:
            self.set_baseline(entry)  # replaced the one in use: compare with the new figures
        return entry

    def action_baselines(self) -> None:
        def chosen(entry: Entry | None) -> None:
            if entry is not None:
                self.set_baseline(entry)
                self.notify(f"The tiles are compared with “{entry.name}”.")

        in_use = self.baseline.name if self.baseline else None
        self.push_screen(BaselinesScreen(self.store, self.current_session(), in_use,
                                         self._baseline_changed), chosen)

    def action_history(self) -> None:
        in_use = self.baseline.name if self.baseline else None
        self.push_screen(HistoryScreen(self.store, self.current_session(), in_use))

    def action_compare_with(self) -> None:
        try:
            entries = self.store.baselines()
        except StoreError as e:
            self.notify(str(e), severity="error")
            return

        def chosen(entry: Entry | None) -> None:
            if entry is not None:
                self.set_baseline(entry)

        self.push_screen(PickBaselineDialog(
            "Compare the tiles with…", entries,
            "Every tile shows the change against this baseline. X stops comparing; b manages "
            "the baselines.", current=self.baseline.name if self.baseline else None), chosen)

    def action_clear_comparison(self) -> None:
        if self.baseline is None:
            self.notify("The tiles are not compared with any baseline (x chooses one).")
            return
        name = self.baseline.name
        self.set_baseline(None)
        self.notify(f"Stopped comparing with “{name}”.")

    def action_show_comparison(self) -> None:
        """The result (with its own tests, whatever the selectors say now) against the
        baseline."""
        if self.baseline is None or self.baseline.session is None:
            self.notify("Choose a baseline to compare with first (x).", severity="warning")
            return
        session = self.current_session()
        if session is None or not any(t.complete for t in session.tests):
            self.notify("Nothing measured yet: run first (a), then v shows the comparison.",
                        severity="warning")
            return
        comparison = compare(session, self.baseline.session, self.baseline.name)
        self.push_screen(ComparisonScreen(comparison, "This run", f"“{self.baseline.name}”"))

    # --- target facts ---------------------------------------------------------------------

    @work(exclusive=True, group="facts", thread=True, exit_on_error=False)
    def _load_facts(self) -> None:
        target = self.settings.target
        line = self.query_one("#facts-line", FactsLine)
        try:
            facts = self.facts_provider(target)
        except FileNotFoundError as e:
            self.call_from_thread(line.show_facts, None, str(e))
            return
        except Exception as e:  # facts decorate; they never stop anything
            self.call_from_thread(line.show_facts, None, f"No details about {target}: {e}")
            return
        self.call_from_thread(self._facts_loaded, facts)

    def _facts_loaded(self, facts: SystemFacts) -> None:
        self.facts = facts
        self.query_one("#facts-line", FactsLine).show_facts(facts)
        if self.result is None:
            self._update_comparison()  # another device or filesystem than the baseline's?
        self._filesystem_advice(facts)

    def _filesystem_advice(self, facts: SystemFacts) -> None:
        """Where the filesystem is known to leak the cache into O_DIRECT figures (black_cat's filesystem article),
        say so once per target, and on btrfs offer the NOCOW test directory."""
        key = (facts.target, facts.fstype)
        if key in self._advised:
            return
        self._advised.add(key)
        if facts.fstype == "btrfs" and not self.settings.nocow:
            self.notify("This target is btrfs: copy-on-write and compression can let the page "
                        "cache leak into O_DIRECT figures. Settings (o) → btrfs → NOCOW test "
                        "directory avoids that.", title="btrfs", severity="warning", timeout=12)
        elif facts.fstype == "jfs":
            self.notify("This target is JFS, which is known to let the page cache leak into "
                        "O_DIRECT random writes: treat those figures with care.", title="JFS",
                        severity="warning", timeout=12)


def run_app(target: str | None = None) -> int:
    """Entry point for ``diskmark`` without a command."""
    app = DiskmarkApp(target=target)
    code = app.run()
    return code if isinstance(code, int) else 0
