"""What the app announces once it has changed its state, and how a screen listens.

The app's state flows one way. A screen asks the app (a method of
:class:`~diskmark.app.core.protocol.AppLike`: change a setting, start a run); the app, or
the run controller it owns, changes :class:`~diskmark.app.core.state.AppState` and then
publishes one of these signals; the screens that draw that part of the state subscribe and
draw it. The app never calls into a screen, and no screen writes the state.

A run's steps travel as :data:`~diskmark.app.core.run_news.RunNews`: the worker's messages
reach the app, which takes each into the state first (a finished test onto the tiles, the
result merged), then tells the screens, the main grid's and the sweep's alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from textual.signal import Signal

if TYPE_CHECKING:
    from textual.dom import DOMNode
    from textual.geometry import Size

    from diskmark.app.core.run_news import RunNews
    from diskmark.model.facts import SystemFacts
    from diskmark.model.settings import Settings
    from diskmark.model.units import Unit

T = TypeVar("T")


class AppSignals:
    """The app's announcements, one signal per part of the state, each published after the
    state has changed (Textual's own idiom: the app's ``theme_changed_signal``)."""

    def __init__(self, app: DOMNode) -> None:
        #: The settings changed; the data is the settings as they were.
        self.settings: Signal[Settings] = Signal(app, "settings")
        #: The targets measured beside the target changed (``state.other_targets``).
        self.targets: Signal[None] = Signal(app, "targets")
        #: Every figure is to be shown in this unit.
        self.unit: Signal[Unit] = Signal(app, "unit")
        #: A run or a sweep began (True) or ended (False).
        self.running: Signal[bool] = Signal(app, "running")
        #: The baseline changed, and with it ``state.comparison``.
        self.baseline: Signal[None] = Signal(app, "baseline")
        #: The target's facts were read (they are in ``state.facts``), or why they were not.
        self.facts: Signal[SystemFacts | str] = Signal(app, "facts")
        #: A step of the run under way.
        self.run: Signal[RunNews] = Signal(app, "run")
        #: A sentence for the status line (stopping, quitting).
        self.said: Signal[str] = Signal(app, "said")
        #: The window speaks another language: what is drawn is drawn again.
        self.language: Signal[str] = Signal(app, "language")
        #: The comment field is asked for (its key, the palette's Comment…).
        self.comment: Signal[None] = Signal(app, "comment")
        #: The terminal's size changed (the app has set its size classes).
        self.size: Signal[Size] = Signal(app, "size")


def listen(signal: Signal[T], node: DOMNode, callback: Callable[[T], object]) -> None:
    """Subscribe ``node`` to ``signal``. The callback runs at once, inside the change, so
    whatever follows the change (the next key, a test's check) finds the window drawn, as
    it did when the app drew it itself. An error in it ends the app as an error in any
    handler does: Textual's signals would only log it."""

    def call(data: T) -> None:
        try:
            callback(data)
        except Exception as error:
            node.call_next(_raise, error)

    signal.subscribe(node, call, immediate=True)


def _raise(error: Exception) -> None:
    raise error
