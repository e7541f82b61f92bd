"""One local fio process run to its end: its status objects handed on as they come, its
final JSON object returned, and everything that can go wrong (a stop, a hang, a crash,
output that is not fio's) turned into :class:`Stopped` or a :class:`FioFailed` that says
what fio was doing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from diskmark.engine import parse
from diskmark.engine.control import RunControl
from diskmark.engine.errors import FioFailed, fio_failure, no_space, reading_output
from diskmark.engine.place import Place
from diskmark.engine.process import WATCHDOG_S, FioProcess
from diskmark.locale import _


async def run_fio(control: RunControl, ws: Place, args: list[str],
                  on_status: Callable[[dict[str, Any]], None], what: str) -> dict[str, Any]:
    """Run one fio process in the workspace to its end and return its final JSON object;
    :class:`Stopped` when a stop came, :class:`FioFailed` saying what went wrong (``what``
    it was doing: "measuring SEQ1M Q8T1 read")."""
    control.check()
    with reading_output(what), control.running(FioProcess(args, ws.fd)) as proc:
        outcome = await proc.run(on_status)
    control.check()
    if outcome.hung:
        if outcome.returncode is not None:
            raise FioFailed(_("fio stopped reporting for {seconds} s while {what} and was "
                              "stopped.").format(seconds=f"{WATCHDOG_S:.0f}", what=what))
        raise FioFailed(_("fio stopped reporting for {seconds} s while {what} and was stopped. "
                          "It did not exit even then: it is stuck in the kernel, which usually "
                          "means the device stopped responding.").format(
                              seconds=f"{WATCHDOG_S:.0f}", what=what))
    last = outcome.last
    if outcome.returncode is None:
        raise FioFailed(_("fio did not exit while {what}.").format(what=what))
    if outcome.returncode != 0 or last is None or parse.job_error(last):
        raise FioFailed(fio_failure(what, outcome.returncode, outcome.stderr,
                                     outcome.noise, last),
                        no_space=no_space(outcome.stderr, outcome.noise, last))
    return last
