"""A run on the command line that a signal stops cleanly instead of killing.

Ctrl+C, a kill, the terminal or SSH session closing and Ctrl+\\ ask the engine (or the fleet)
to stop: fio is stopped and the test files are removed before diskmark exits. A second one
stops fio at once (the engine's own rule). SIGKILL cannot be caught: fio dies with diskmark,
and the next start removes what it left.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Awaitable, Callable
from typing import TypeVar

#: What stops a run cleanly.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)

T = TypeVar("T")


def run_stoppable(work: Callable[[], Awaitable[T]], stop: Callable[[], None]) -> tuple[T, bool]:
    """Run ``work()`` to its end with the stop signals calling ``stop``; returns its result and
    whether a stop signal came. Its exceptions pass through."""
    stopped = False

    async def go() -> T:
        nonlocal stopped
        loop = asyncio.get_running_loop()

        def on_signal() -> None:
            nonlocal stopped
            stopped = True
            stop()

        for sig in STOP_SIGNALS:
            loop.add_signal_handler(sig, on_signal)
        try:
            return await work()
        finally:
            for sig in STOP_SIGNALS:
                loop.remove_signal_handler(sig)

    result = asyncio.run(go())
    return result, stopped
