"""What the benchmark worker tells the app, as typed messages (one per outcome), instead of
the app reading worker states: started, engine events, then finished, failed or stopped."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from diskmark.model.events import Event
    from diskmark.model.results import SessionResult
    from diskmark.model.settings import Settings


class RunStarted(Message):
    """The worker has begun: the engine checks the target before its first event."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings


class EngineEvent(Message):
    """An engine event delivered on the app's queue. Progress is coalesced: a newer one
    replaces an older one still waiting, so a fast stream cannot flood the UI; the events
    that carry results are never dropped."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        from diskmark.model.events import Progress

        return (isinstance(message, EngineEvent) and isinstance(message.event, Progress)
                and isinstance(self.event, Progress))


class RunEnded(Message):
    """The worker is done, one way or another."""


class RunFinished(RunEnded):
    """The engine returned a session: complete, stopped by the user, or failed part-way
    (its status says which)."""

    def __init__(self, session: SessionResult) -> None:
        super().__init__()
        self.session = session


class RunFailed(RunEnded):
    """The engine raised: nothing was started (an unusable target, no fio) or a bug."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class RunStopped(RunEnded):
    """The worker was cancelled (quitting could not wait any longer)."""
