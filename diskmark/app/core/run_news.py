"""A run's steps, as the app tells them once it has taken each into its state
(:attr:`~diskmark.app.core.news.AppSignals.run`). Imported where a run is followed, not at
start: the first frame makes no run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.model.events import Event
    from diskmark.model.results import SessionResult
    from diskmark.model.sides import TargetsResult


class _Kind:
    """Which run a step is of: the grid's, a queue-depth sweep's, or a check run's."""

    sweep: str | None
    checks: tuple[str, ...]

    @property
    def on_grid(self) -> bool:
        """A run of the grid: its tests go onto the tiles (a sweep's and a check run's
        never do)."""
        return self.sweep is None and not self.checks


@dataclass(frozen=True)
class Begun(_Kind):
    """The app took a run on: the tiles it keeps are in the state (the grid's run), or its
    screen is up (a sweep)."""

    #: The pattern a queue-depth sweep sweeps; None for a run of the grid.
    sweep: str | None = None
    #: The checks a check run judges (the Checks panel shows it); () for any other run.
    checks: tuple[str, ...] = ()
    #: A run on several targets, on its own screen (``state.sides``).
    sides: bool = False


@dataclass(frozen=True)
class Checking(_Kind):
    """The worker has begun: the engine checks the target before its first event."""

    sweep: str | None = None
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Told(_Kind):
    """An engine event, already in the state (a finished test is on the tiles)."""

    event: Event
    sweep: str | None = None
    checks: tuple[str, ...] = ()
    #: In a run on several targets: the target's place in ``state.sides.labels``.
    side: int | None = None


@dataclass(frozen=True)
class Finished(_Kind):
    """The engine returned ``session`` (complete, stopped or failed part-way), already
    merged into the state."""

    session: SessionResult
    sweep: str | None = None
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class SidesEnded(_Kind):
    """The engine returned a run on several targets (complete, stopped or failed part-way,
    each target's status says), already in ``state.sides``."""

    result: TargetsResult
    sweep: None = None
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Failed(_Kind):
    """The engine raised before returning a session: the result is as it was."""

    error: BaseException
    sweep: str | None = None
    checks: tuple[str, ...] = ()


@dataclass(frozen=True)
class Stopped(_Kind):
    """The worker was cancelled (quitting could not wait any longer)."""

    sweep: str | None = None
    checks: tuple[str, ...] = ()


#: One step of a run, as the app tells it.
RunNews = Begun | Checking | Told | Finished | SidesEnded | Failed | Stopped
