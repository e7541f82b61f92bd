"""The replayed engine the app tests use (tests/support/replay.py) gives what the real run
it recorded gave: the same tests, passes and figures, in the plan the app asks for, and it
stops when asked. If it drifted from the recording, the app tests on it would prove nothing."""

from __future__ import annotations

import asyncio

import pytest
from replay import ReplayEngine, load

from diskmark.model.events import Progress, RunFinished, TestFinished, TestStarted
from diskmark.model.results import SessionResult, Status
from diskmark.model.settings import Settings


def recorded_settings(tmp_path, **kw) -> Settings:
    recorded = load("default")["settings"]
    return Settings.from_dict({**recorded, "target": str(tmp_path), **kw})


async def test_a_whole_replay_gives_the_recorded_tests_and_figures(tmp_path):
    recording = load("default")
    recorded = SessionResult.from_dict(recording["session"])
    events = []
    session = await ReplayEngine(speed=1000).run(recorded_settings(tmp_path), events.append)
    assert session.status is Status.COMPLETE
    assert [t.key for t in session.tests] == [t.key for t in recorded.tests]
    assert [[r.mb_s for r in t.runs] for t in session.tests] == [
        [r.mb_s for r in t.runs] for t in recorded.tests]
    assert [t.cpu_limited for t in session.tests] == [t.cpu_limited for t in recorded.tests]
    kinds = [type(e).__name__ for e in events if not isinstance(e, Progress)]
    assert kinds == [e["type"] for e in recording["events"] if e["type"] != "Progress"]
    assert session.system.target == str(tmp_path)  # facts of the target it was given


async def test_a_row_with_one_pass_is_cut_from_the_recording(tmp_path):
    events = []
    settings = recorded_settings(tmp_path, only_test=2, count=1, mix=None, mode="read")
    session = await ReplayEngine(speed=1000).run(settings, events.append)
    assert [t.key for t in session.tests] == ["RND4K Q32T1/read"]
    assert [t.index for t in session.tests] == [2] and len(session.tests[0].runs) == 1
    assert session.settings.only_test == 2 and session.settings.count == 1
    passes = [e for e in events if isinstance(e, RunFinished) and not e.warmup]
    assert len(passes) == 1
    assert {e.test_index for e in events
            if isinstance(e, (TestStarted, RunFinished, TestFinished))} == {0}


async def test_stop_ends_the_replay_cancelled_with_the_tests_finished(tmp_path):
    engine = ReplayEngine(speed=10)
    finished = []

    def on_event(event):
        if isinstance(event, TestFinished):
            finished.append(event)
            engine.stop()

    session = await asyncio.wait_for(engine.run(recorded_settings(tmp_path), on_event), 30)
    assert session.status is Status.CANCELLED
    assert len(session.tests) == len(finished) == 1


async def test_a_test_that_was_not_recorded_is_named(tmp_path):
    settings = recorded_settings(tmp_path, preset="nvme")
    with pytest.raises(AssertionError, match="has no test SEQ128K Q32T1"):
        await ReplayEngine().run(settings)
