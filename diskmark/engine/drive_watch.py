"""The drive's temperature and health around a session: read before the test file is laid
out, sampled about once a second while fio runs, read again at the end, kept as the
session's :class:`DriveRecord`.

Cheap by construction: a sample is one sysfs read, done in a thread (the kernel asks the
drive, and a drive that stopped responding must not stall the event loop) and never two at
once; smartctl runs only before and after, in a thread. The engine's events pass through
:meth:`DriveWatch.observe` so each pass's start is known on the same clock as the samples,
which is what places a bandwidth dip on the temperature curve.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType

from diskmark.drive import hwmon, reasons, smart
from diskmark.drive import probe as system
from diskmark.drive.readings import implausible_text
from diskmark.model.drive_record import TEMPERATURE_RANGE_C, DriveRecord, Health, plausible_c
from diskmark.model.events import Event, Phase, Progress
from diskmark.model.facts import SystemFacts
from diskmark.model.results import SessionResult

SAMPLE_EVERY_S = 1.0


def _no_disk_reason(facts: SystemFacts) -> str:
    return reasons.NO_DISK_OF.format(fstype=facts.fstype) if facts.fstype else reasons.NO_DISK


def _virtual_reason(kind: str) -> str:
    return reasons.VIRTUAL.format(kind=kind)


class DriveWatch:
    """``async with DriveWatch(session, path):`` around a session fills ``session.drive``."""

    def __init__(self, session: SessionResult, path: str | Path,
                 stopping: asyncio.Event | None = None) -> None:
        self.session = session
        self.path = path
        self._stopping = stopping  # set when the run is asked to stop: smartctl is ended
        self.record = session.drive = DriveRecord()
        self._sensor: hwmon.Sensor | None = None
        self._device = ""  # what smartctl is asked about
        self._t0 = time.monotonic()
        self._task: asyncio.Task[None] | None = None

    # --- around the session -------------------------------------------------------------

    async def __aenter__(self) -> DriveWatch:
        self._t0 = time.monotonic()
        await asyncio.to_thread(self._find)
        self.record.before = await self._health_in_thread()
        if self._sensor is not None:
            await self._sample()
            self._task = asyncio.create_task(self._sample_every())
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
        if exc_type is asyncio.CancelledError:
            return  # the session is being torn down: no time for a last reading
        if self._sensor is not None:
            await self._sample()
        self.record.after = await self._health_in_thread()

    def _find(self) -> None:
        """Which physical disk holds the target, and its sensor; or why there is none."""
        facts, record = self.session.system, self.record
        disks = system.disks_for(self.path)
        if not disks:
            record.temperature_reason = _no_disk_reason(facts)
            return
        disk = disks[0]
        self._device = record.device = f"/dev/{disk.name}"
        if facts.virtual:
            record.temperature_reason = _virtual_reason(facts.virtual)
            return
        self._sensor = hwmon.find(disk) or hwmon.from_psutil(disk.name)
        if self._sensor is None:
            record.temperature_reason = hwmon.missing_reason(disk)
            return
        record.sensor = self._sensor.name
        if len(disks) > 1:
            record.sensor += f" (the first of {len(disks)} disks under the target)"

    async def _health_in_thread(self) -> Health:
        """smartctl's answer, asked in a thread that a stop ends within a tenth of a second:
        the await is cancelled at once, and the thread must not keep the process alive while
        a hung smartctl waits out its timeout (Python joins it before exiting)."""
        if self._stopping is not None and self._stopping.is_set():
            # kept in English in the result, as every reason (marked for a view to translate)
            return Health(reason=reasons.SMART_NOT_ASKED)
        stop = threading.Event()
        work = asyncio.ensure_future(asyncio.to_thread(self._health, stop))
        try:
            if self._stopping is not None:
                waiter = asyncio.ensure_future(self._stopping.wait())
                try:
                    await asyncio.wait({work, waiter}, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    waiter.cancel()
                if not work.done():
                    stop.set()  # the run is stopping: smartctl is ended within program.POLL_S
            return await work
        except asyncio.CancelledError:
            stop.set()
            raise

    def _health(self, stop: threading.Event | None = None) -> Health:
        facts = self.session.system
        if not self._device:
            return Health(reason=_no_disk_reason(facts))
        if facts.virtual:
            return Health(reason=_virtual_reason(facts.virtual))
        return smart.read(self._device, stop)

    # --- while it runs ------------------------------------------------------------------

    async def _sample(self) -> None:
        """One reading; one no drive can report (NVMe's 0 K, a garbled file) is left out,
        and the first such says why."""
        assert self._sensor is not None
        value = await asyncio.to_thread(self._sensor.read)
        if value is None:
            return
        if plausible_c(value) is None:
            if not self.record.temperature_reason:
                self.record.temperature_reason = implausible_text(
                    f"the sensor {self._sensor.name}", value, *TEMPERATURE_RANGE_C)
            return
        self.record.samples.append((round(time.monotonic() - self._t0, 1), value))

    async def _sample_every(self) -> None:
        """One reading a second; a slow read delays the next instead of piling up threads."""
        while True:
            await asyncio.sleep(SAMPLE_EVERY_S)
            await self._sample()

    def observe(self, emit: Callable[[Event], None]) -> Callable[[Event], None]:
        """``emit``, noting when each pass of each test begins (the first progress of it)."""
        passes = self.record.passes

        def observed(event: Event) -> None:
            if (isinstance(event, Progress) and event.test_key
                    and event.phase in (Phase.WARMUP, Phase.MEASURING)):
                starts = passes.setdefault(event.test_key, [])
                if len(starts) == event.run:
                    starts.append(round(time.monotonic() - self._t0, 1))
            emit(event)

        return observed
