"""What the screens and the palette may ask of the app, as a protocol the app satisfies.

Textual gives every widget its app as any ``App``; the screens need diskmark's: its state,
the engine and the store it makes when first needed, and the few things only the app does
(change and save the settings, know that a run is under way, quit once it has ended). They
reach it through :func:`diskmark_app`, typed by this protocol, and never import the app's
module, which imports them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from diskmark.app.run import Engine
    from diskmark.app.state import AppState
    from diskmark.model.facts import SystemFacts
    from diskmark.model.settings import Settings
    from diskmark.model.units import Unit
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store


class AppLike(Protocol):
    """The app as its screens see it."""

    @property
    def state(self) -> AppState:
        """Everything the app holds; the screens draw it."""

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

    def change_language(self, wanted: str) -> None: ...

    def set_unit(self, unit: Unit) -> None:
        """Show every figure in ``unit``."""

    def set_running(self, running: bool) -> None:
        """A run or a sweep begins: the controls and keys that change settings wait."""

    def run_ended(self) -> None:
        """The run's worker has ended: the controls come back, or the app quits as asked."""

    def show_error(self, error: BaseException | None, settings: Settings | None = None) -> None:
        """An engine error as a dialog whose buttons are the next steps."""

    def set_baseline(self, entry: Entry | None) -> None:
        """Compare the tiles with ``entry`` from now on (None: stop comparing)."""

    def main_screen_ready(self) -> None:
        """The main screen has mounted: what the first frame did not wait for starts."""

    def action_pick_target(self) -> None:
        """Choose the target directory."""

    def action_stop(self) -> None:
        """Stop the run under way."""


def diskmark_app(node: DOMNode) -> AppLike:
    """The app of ``node``, typed: diskmark's widgets run only in diskmark's app."""
    return cast("AppLike", node.app)
