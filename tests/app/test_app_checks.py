"""The app's Checks and claims, driven like a user would, with real fio (tiny runs): the
palette's Checks… opens the panel, a check chosen there runs on the target and its verdict
appears, kept in the history; a drive's claim puts each figure's share of it on its tile."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import fio_processes, leftovers, tiny, wait_until
from textual.widgets import SelectionList

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.checks import ChecksScreen
from diskmark.app.widgets.plain import PlainStatic
from diskmark.checks.claims import parse_claims
from diskmark.model.results import Status
from diskmark.model.settings import Op
from diskmark.model.verdicts import Outcome
from diskmark.store.store import Store

pytestmark = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")

SIZE = (120, 40)


@pytest.fixture
def shm():
    """A directory of its own on /dev/shm: etcd's fdatasyncs cost nothing on tmpfs."""
    if not os.path.isdir("/dev/shm"):
        pytest.skip("no /dev/shm here")
    path = Path(tempfile.mkdtemp(dir="/dev/shm", prefix="diskmark-test-"))
    yield path
    assert fio_processes(path) == [] and leftovers(path) == []
    shutil.rmtree(path)


async def test_the_palettes_checks_run_etcd_and_show_its_verdict(shm):
    app = DiskmarkApp(settings=tiny(shm), persist=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Checks")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChecksScreen), 5, "the panel")
        verdicts = app.screen.query_one("#verdicts", PlainStatic)
        assert "No check has run yet" in str(verdicts.render())
        app.screen.query_one("#checks-list", SelectionList).select("etcd")
        await pilot.click("#run")
        await wait_until(pilot, lambda: app.state.running, 5, "the check run to start")
        await wait_until(pilot, lambda: not app.state.running, 120, "the check run to end")
        await pilot.pause()
        shown = str(verdicts.render())
        print(shown)
        assert shown.startswith("PASS  etcd\n  sync p99 of fio rw=write bs=2300 size=22MiB "
                                "ioengine=sync fdatasync=1: ")
        assert ", below 10 ms: pass, " in shown
        session = app.state.checks_session
        assert session is not None and session.status is Status.COMPLETE
        assert [v.outcome for v in session.checks] == [Outcome.PASS]
        assert app.state.result is None, "a check run never goes onto the tiles"
        assert all(t.result is None for t in app.main.grid.tiles)
        assert "Checks: passed 1, failed 0, cannot tell 0" in app.main.status.message
        (kept,) = Store().history()
        assert kept.session is not None and kept.session.checks[0].id == "etcd"


async def test_a_claim_puts_each_figures_share_on_its_tile(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    claims = parse_claims("SEQ1M Q8T1 read=1000000,write=0.001")
    app = DiskmarkApp(settings=tiny(target, profile="demo"), persist=False, claims=claims)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#all")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 120, "the run to end")
        await pilot.pause()
        tiles = {t.op: t for t in app.main.grid.tiles}
        read, write = tiles[Op.READ], tiles[Op.WRITE]
        print(read.text, read.claim_text, write.text, write.claim_text)
        assert read.claim_text.endswith("%!") and int(read.claim_text[:-2]) < 100
        assert write.claim_text.endswith("%") and int(write.claim_text[:-1]) > 100
        assert "short of it beyond the run's noise" in str(read.tooltip)
        assert read.claim_text in "".join(str(read.render_line(y).text)
                                          for y in range(read.content_size.height))
        assert [c.source for c in app.state.result.claims] == ["--claim", "--claim"]
    assert leftovers(target) == []
