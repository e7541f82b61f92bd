"""The app as everything in it sees it, as protocols the app satisfies.

Textual gives every widget its app as any ``App``; the screens and the modules that act for
the app need diskmark's: its state, what it announces (:class:`~diskmark.app.core.news.
AppSignals`), the engine and the store it makes when first needed, and the few things only
the app does (change and save the settings, start and stop a run, quit once it has ended),
besides the part of Textual's ``App`` they use. A screen reaches it through
:func:`diskmark_app`; a module acting for the app (the run controller, the comparison, the
reports, the themes, the ending) is handed it. None of them imports the app's module, which
imports them; ``mypy --strict`` checks that the app satisfies the protocol where it hands
itself over.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from pathlib import Path

    from rich.terminal_theme import TerminalTheme
    from textual.await_complete import AwaitComplete
    from textual.dom import DOMNode
    from textual.notifications import SeverityLevel
    from textual.reactive import Reactive
    from textual.screen import Screen
    from textual.theme import Theme
    from textual.timer import Timer, TimerCallback
    from textual.worker import Worker, WorkType
    from textual.worker_manager import WorkerManager

    from diskmark.app.core.news import AppSignals
    from diskmark.app.core.state import AppState
    from diskmark.checks import CheckCatalog
    from diskmark.engine.plan import Plan
    from diskmark.model.events import Event
    from diskmark.model.facts import SystemFacts
    from diskmark.model.results import FioJob, SessionResult, TestSpec
    from diskmark.model.settings import Mode, Op, Settings
    from diskmark.model.sides import TargetsResult
    from diskmark.model.units import Unit
    from diskmark.presets import Preset
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store

T = TypeVar("T")


class Engine(Protocol):
    """What the app asks of :class:`diskmark.engine.runner.Engine` (tests give a fake)."""

    def plan(self, settings: Settings) -> Plan: ...

    def check_plan(self, settings: Settings, tests: list[tuple[TestSpec, Op]],
                   jobs: list[FioJob]) -> Plan: ...

    async def run(self, settings: Settings,
                  on_event: Callable[[Event], None] | None = None, *,
                  plan: Plan | None = None) -> SessionResult: ...

    async def run_targets(self, settings: list[Settings],
                          on_event: Callable[[int, Event], None] | None = None
                          ) -> TargetsResult: ...

    def stop(self) -> None: ...


class AppLike(Protocol):
    """The app as its screens, its palette and the modules acting for it see it."""

    # --- diskmark's ---------------------------------------------------------------------

    @property
    def state(self) -> AppState:
        """Everything the app holds; the screens draw it, only the app changes it."""

    @property
    def signals(self) -> AppSignals:
        """What the app announces once its state has changed."""

    @property
    def engine(self) -> Engine:
        """The engine, made when first needed."""

    @property
    def store(self) -> Store:
        """The history and the baselines, opened when first needed."""

    @property
    def facts_provider(self) -> Callable[[str], SystemFacts]:
        """Reads a target's facts (blocking: call it in a thread)."""

    def change_settings(self, **changes: Any) -> None:
        """Apply and save setting changes; refused while a run is under way."""

    def keep_preset(self, preset: Preset, path: Path, replace: bool) -> str | None:
        """Save ``preset`` at ``path`` and use it from now on; returns why it was not saved."""

    def change_language(self, wanted: str) -> None: ...

    def set_unit(self, unit: Unit) -> None:
        """Show every figure in ``unit``."""

    def set_comment(self, comment: str) -> None:
        """The comment as typed under the tiles."""

    def set_baseline(self, entry: Entry | None) -> None:
        """Compare the tiles with ``entry`` from now on (None: stop comparing)."""

    def start_run(self, only_test: int | None) -> None:
        """All (``only_test`` None) or one row of the grid."""

    def start_sweep(self, pattern: str, mode: Mode) -> None:
        """``pattern`` at every queue depth, on the sweep's own screen."""

    def start_checks(self, ids: list[str]) -> None:
        """Run the checks ``ids`` on the target; their verdicts go to the Checks panel."""

    def check_catalog(self) -> CheckCatalog:
        """The checks there are, read when first asked for and kept."""

    def add_target(self, path: str) -> None:
        """Measure ``path`` too, beside the target, each test on every target in turn."""

    def one_target(self) -> None:
        """Measure the target alone again."""

    def copy(self, text: str, title: str) -> None:
        """Copy ``text``, saying how under ``title`` (what was copied)."""

    def main_screen_ready(self) -> None:
        """The main screen has mounted: what the first frame did not wait for starts."""

    def action_pick_target(self) -> None:
        """Choose the target directory."""

    def action_stop(self) -> None:
        """Stop the run under way."""

    # --- Textual's, as the modules acting for the app use it ----------------------------

    @property
    def screen(self) -> Screen[object]: ...

    @property
    def screen_stack(self) -> list[Screen[Any]]: ...

    @property
    def workers(self) -> WorkerManager: ...

    @property
    def available_themes(self) -> dict[str, Theme]: ...

    @property
    def current_theme(self) -> Theme: ...

    @property
    def ansi_theme(self) -> TerminalTheme: ...

    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = False) -> None: ...

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any: ...

    def pop_screen(self) -> AwaitComplete: ...

    def run_worker(self, work: WorkType[T], name: str | None = "", group: str = "default",
                   description: str = "", exit_on_error: bool = True, start: bool = True,
                   exclusive: bool = False, thread: bool = False) -> Worker[T]: ...

    def call_from_thread(self, callback: Callable[..., T | Awaitable[T]], *args: Any,
                         **kwargs: Any) -> T: ...

    def call_after_refresh(self, callback: Callable[..., Any], *args: Any,
                           **kwargs: Any) -> bool: ...

    def set_timer(self, delay: float, callback: TimerCallback | None = None, *,
                  name: str | None = None, pause: bool = False) -> Timer: ...

    def exit(self, result: int | None = None, return_code: int = 0,
             message: Any = None) -> None: ...

    def refresh_bindings(self) -> None: ...

    def set_class(self, add: bool, *class_names: str, update: bool = True) -> object: ...

    def copy_to_clipboard(self, text: str) -> None: ...

    def export_screenshot(self, *, title: str | None = None, simplify: bool = False) -> str: ...

    def register_theme(self, theme: Theme) -> None: ...

    def set_reactive(self, reactive: Reactive[T], value: T) -> None: ...

    def _refresh_truecolor_filter(self, theme: TerminalTheme) -> None:
        """Textual's own: the saved theme is set before anything is styled
        (:func:`~diskmark.app.theming.preset_theme`)."""


def diskmark_app(node: DOMNode) -> AppLike:
    """The app of ``node``, typed: diskmark's widgets run only in diskmark's app."""
    return cast("AppLike", node.app)
