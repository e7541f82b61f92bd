"""A real run's events played back, for the app tests whose point is what the window shows
(layout, wording, dialogs, the store behind them) rather than fio.

``scripts/capture_events.py`` runs the real engine once and keeps every event it emitted,
with its time, in ``tests/fixtures/events/``. :class:`ReplayEngine` has the engine's
interface (``plan``, ``run``, ``stop``) and the real plan builder: for each test the app
asks for it replays that test's recorded events, faster than they came, so a tile, the
status line and a saved result see what a real run gives them, in seconds instead of
minutes. What only the real engine can show (fio started and stopped, the test file
removed, a target refused, a fault) stays with the tests that run real fio
(``tests/app/test_app_pilot.py`` and others).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

from diskmark.engine.clock import now_iso
from diskmark.engine.plan import build_plan, run_args
from diskmark.model.events import Event, Notice, Phase, Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.presets import load_catalog

RECORDINGS = Path(__file__).resolve().parents[1] / "fixtures" / "events"
#: The longest wait between two replayed events, whatever the recording's gap (seconds).
LONGEST_GAP = 0.25
#: Events recorded less than this apart (seconds) were emitted together, without a pause.
SAME_MOMENT = 0.002
#: Progress of one phase comes at most this often (seconds): the engine's ten a second,
#: ten times faster, would keep the app drawing all the time, which a real run never does,
#: and a pilot waiting for the app to be idle would wait for the whole run. The app shows
#: only the newest progress anyway.
PROGRESS_EVERY = 0.1

_RESULT_EVENTS = {"TestStarted": TestStarted, "RunFinished": RunFinished,
                  "TestFinished": TestFinished}


def event_to_dict(event: Event) -> dict[str, Any]:
    """An event as JSON, taken when it is emitted (the engine keeps filling its result)."""
    kind = type(event).__name__
    if isinstance(event, (TestStarted, RunFinished, TestFinished)):
        d: dict[str, Any] = {"test_index": event.test_index, "result": event.result.to_dict()}
        if isinstance(event, RunFinished):
            d["warmup"] = event.warmup
        return {"type": kind, **d}
    return {"type": kind, **asdict(event)}


def event_from_dict(d: dict[str, Any]) -> Event:
    d = dict(d)
    kind = d.pop("type")
    if kind == "Progress":
        return Progress(**{**d, "phase": Phase(d["phase"])})
    if kind == "Notice":
        return Notice(**d)
    return _RESULT_EVENTS[kind](**{**d, "result": TestResult.from_dict(d["result"])})


def load(name: str) -> dict[str, Any]:
    return json.loads((RECORDINGS / f"{name}.json").read_text())


def _key(d: dict[str, Any]) -> str:
    return d["result"]["key"]


class Recording:
    """One recorded session: what came before the first test, each test's events by its
    key (``SEQ1M Q8T1/read``), and what came after the last."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.count = data["settings"]["count"]
        self.session = data["session"]
        self.before: list[dict[str, Any]] = []
        self.tests: dict[str, list[dict[str, Any]]] = {}
        self.after: list[dict[str, Any]] = []
        current: list[dict[str, Any]] = self.before
        for e in data["events"]:
            if e["type"] == "TestStarted":
                current = self.tests.setdefault(_key(e), [])
            elif e["type"] == "Progress" and e["phase"] == Phase.CLEANUP:
                current = self.after
            current.append(e)


class ReplayEngine:
    """The engine's interface over a recording. ``speed``: how many times faster than the
    real run the events come (the gaps are also capped at :data:`LONGEST_GAP`). A run may
    ask for fewer passes than were recorded, never more; a test that was not recorded is a
    failure of the test that asked for it, said in plain words."""

    def __init__(self, recording: str = "default", *, speed: float = 10.0) -> None:
        self.name = recording
        self.recording = Recording(load(recording))
        self.catalog = load_catalog()
        self.speed = speed
        self.runs = 0  # sessions replayed, for tests that check nothing ran
        self._stop: asyncio.Event | None = None

    def plan(self, settings):
        return build_plan(self.catalog.get(settings.preset), settings)

    def stop(self) -> None:
        if self._stop is not None:
            self._stop.set()

    async def _wait(self, gap: float) -> bool:
        """Wait out a recorded gap; True when stop() was called meanwhile. Events the
        engine emitted together (a test's start and its first progress) stay together: no
        wait, so the app never draws one without the other."""
        assert self._stop is not None
        if gap < SAME_MOMENT:
            return self._stop.is_set()
        try:
            await asyncio.wait_for(self._stop.wait(), min(gap / self.speed, LONGEST_GAP))
        except TimeoutError:
            pass
        return self._stop.is_set()

    def _events_of(self, test, count: int) -> list[dict[str, Any]]:
        events = self.recording.tests.get(test.key)
        if events is None:
            raise AssertionError(f"The recording {self.name!r} has no test {test.key}; "
                                 f"run scripts/capture_events.py with one that has it.")
        if count > self.recording.count:
            raise AssertionError(f"The recording {self.name!r} has {self.recording.count} "
                                 f"passes a test; this run asks for {count}.")
        kept = []
        for e in events:
            if e["type"] == "RunFinished" and not e["warmup"] and len(e["result"]["runs"]) > count:
                continue
            if e["type"] == "Progress" and e["run"] > count:
                continue
            kept.append(e)
        return kept

    async def run(self, settings, on_event=None, destroy: str | None = None) -> SessionResult:
        from diskmark.drive.probe import facts_for
        from diskmark.drive.stack.resolve import stack_of
        from diskmark.model.stack import marks_for

        emit = on_event or (lambda event: None)
        self.runs += 1
        self._stop = asyncio.Event()
        plan = self.plan(settings)
        count = plan.settings.count
        scripts = [(test, self._events_of(test, count)) for test in plan.tests]
        recorded = SessionResult.from_dict(self.recording.session)
        facts = await asyncio.to_thread(facts_for, settings.target)
        facts.cpus = recorded.system.cpus
        session = replace(recorded, settings=plan.settings, system=facts,
                          preset_name=plan.preset.name, profile_name=plan.profile.name,
                          measure=plan.measure, interval=plan.interval, started=now_iso(),
                          finished="", status=Status.COMPLETE, error=None, tests=[],
                          warnings=list(recorded.warnings),
                          stack=await asyncio.to_thread(stack_of, settings.target))
        total = len(plan.tests)
        last_t = 0.0
        last_progress: tuple[float, Any] = (-PROGRESS_EVERY, None)  # (when, which phase)

        def fit(result: TestResult, test) -> TestResult:
            """The recorded result as this plan's test: its row, passes, fio command and
            threshold, as the engine would have made it for these settings."""
            fio_path = result.fio_command[0] if result.fio_command else "fio"
            result.index, result.spec, result.mix_read = test.row, test.spec, test.mix_read
            result.runs = result.runs[:count]
            result.fio_command = run_args(fio_path, plan, test, session.ioengine)
            result.unstable_pct = plan.settings.unstable_pct
            result.marks = marks_for(result.op, result.best_mb_s, session.stack,
                                     plan.settings.data)  # the layers under this target
            return result

        async def play(d: dict[str, Any], position: int | None = None, test=None) -> bool:
            """Emit one recorded event after its gap; True if stopped before it."""
            nonlocal last_t, last_progress
            stopped = await self._wait(max(0.0, d["t"] - last_t))
            last_t = d["t"]
            if stopped:
                return True
            if d["type"] == "Progress":
                now, phase = asyncio.get_running_loop().time(), (position, d["phase"])
                if phase == last_progress[1] and now - last_progress[0] < PROGRESS_EVERY:
                    return False
                last_progress = (now, phase)
            event = event_from_dict({k: v for k, v in d.items() if k != "t"})
            if position is not None and isinstance(event, Progress):
                event = replace(event, test_index=position,
                                session_percent=100.0 * (position + event.percent / 100) / total)
            elif position is not None and not isinstance(event, Notice):
                event = replace(event, test_index=position, result=fit(event.result, test))
            if isinstance(event, TestFinished):
                session.tests.append(event.result)
            emit(event)
            return False

        stopped = False
        for d in self.recording.before:
            if stopped := await play(d):
                break
        for position, (test, events) in enumerate(scripts):
            if stopped:
                break
            last_t = events[0]["t"]
            for d in events:
                if stopped := await play(d, position, test):
                    break
        if stopped:
            session.status = Status.CANCELLED
        for d in self.recording.after:
            emit(event_from_dict({k: v for k, v in d.items() if k != "t"}))
        session.finished = now_iso()
        self._stop = None
        return session
