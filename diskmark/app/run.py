"""The engine's run in a worker, told back to the app as typed messages (one per outcome)
instead of the app reading worker states: started, the engine's events, then finished,
failed or stopped (:mod:`diskmark.app.runs` takes each into the state). The engine stops fio
and removes the test file itself; whoever started the run only waits for one of the three
endings."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from textual.message_pump import MessagePump

    from diskmark.app.core.protocol import Engine
    from diskmark.engine.plan import Plan
    from diskmark.model.events import Event
    from diskmark.model.results import SessionResult
    from diskmark.model.settings import Settings
    from diskmark.model.sides import TargetsResult
    from diskmark.presets import PresetCatalog


def default_engine(catalog: PresetCatalog) -> Engine:
    """diskmark's engine, planning from ``catalog`` (what the app shows). Imported only now:
    fio's runner, its parser and the workspace cost a sixth of the first frame."""
    from diskmark.engine.runner import Engine as Runner

    return Runner(catalog=catalog)


class RunStarted(Message):
    """The worker has begun: the engine checks the target before its first event."""

    def __init__(self, settings: Settings) -> None:
        super().__init__()
        self.settings = settings


class EngineEvent(Message):
    """An engine event delivered on the receiver's queue. Progress is coalesced: a newer one
    replaces an older one still waiting, so a fast stream cannot flood the UI; the events
    that carry results are never dropped."""

    def __init__(self, event: Event) -> None:
        super().__init__()
        self.event = event

    def can_replace(self, message: Message) -> bool:
        from diskmark.model.events import Progress

        return (isinstance(message, EngineEvent) and isinstance(message.event, Progress)
                and isinstance(self.event, Progress))


class SideEvent(Message):
    """An engine event of one of several targets (its place in the list), coalesced as an
    :class:`EngineEvent` is: a newer progress of that target replaces an older one."""

    def __init__(self, side: int, event: Event) -> None:
        super().__init__()
        self.side = side
        self.event = event

    def can_replace(self, message: Message) -> bool:
        from diskmark.model.events import Progress

        return (isinstance(message, SideEvent) and message.side == self.side
                and isinstance(message.event, Progress) and isinstance(self.event, Progress))


class RunEnded(Message):
    """The worker is done, one way or another."""


class RunFinished(RunEnded):
    """The engine returned a session: complete, stopped by the user, or failed part-way
    (its status says which)."""

    def __init__(self, session: SessionResult) -> None:
        super().__init__()
        self.session = session


class SidesFinished(RunEnded):
    """The engine returned a run on several targets (each target's status says how it
    ended)."""

    def __init__(self, result: TargetsResult) -> None:
        super().__init__()
        self.result = result


class RunFailed(RunEnded):
    """The engine raised: nothing was started (an unusable target, no fio) or a bug."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


class RunStopped(RunEnded):
    """The worker was cancelled (quitting could not wait any longer)."""


async def bench(engine: Engine, settings: Settings, receiver: MessagePump,
                plan: Plan | None = None) -> None:
    """Run ``settings`` (or ``plan``, a check run's) and tell ``receiver``: started, each
    event, then how it ended. Run it as a worker in the group ``"bench"`` (quitting cancels
    that group when fio does not stop in time)."""
    receiver.post_message(RunStarted(settings))
    from diskmark.engine.device import block_device
    from diskmark.engine.plan import on_device

    if block_device(Path(settings.target).expanduser()):
        settings = on_device(settings)  # no consent here: the engine's rule for a device

    def forward(event: Event) -> None:
        """Called by the engine on the app's loop; queued, so the engine never waits on
        drawing and a burst of progress collapses into the latest."""
        receiver.post_message(EngineEvent(event))

    try:
        session = await (engine.run(settings, forward) if plan is None
                         else engine.run(settings, forward, plan=plan))
    except asyncio.CancelledError:
        receiver.post_message(RunStopped())
        raise
    except Exception as e:  # the engine's errors, and any bug: a dialog says which
        receiver.post_message(RunFailed(e))
    else:
        receiver.post_message(RunFinished(session))


async def bench_sides(engine: Engine, settings: list[Settings], receiver: MessagePump) -> None:
    """As :func:`bench`, on several targets (``settings``: each target's, the first the
    reference), interleaved test by test by the engine."""
    receiver.post_message(RunStarted(settings[0]))
    from diskmark.engine.device import block_device
    from diskmark.engine.plan import on_device

    settings = [on_device(s) if block_device(Path(s.target).expanduser()) else s
                for s in settings]  # no consent here: the engine's rule for a device

    def forward(side: int, event: Event) -> None:
        receiver.post_message(SideEvent(side, event))

    try:
        result = await engine.run_targets(settings, forward)
    except asyncio.CancelledError:
        receiver.post_message(RunStopped())
        raise
    except Exception as e:  # the engine's errors, and any bug: a dialog says which
        receiver.post_message(RunFailed(e))
    else:
        receiver.post_message(SidesFinished(result))
