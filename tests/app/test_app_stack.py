"""The storage stack in the app, on a real target in memory (a directory in /dev/shm): the run
(replayed at ten times its speed, its stack and marks made as the engine makes them) marks
every tile ``mem`` and says so in the status line; a tile's details name the layer and why;
a click on the facts line opens the stack, as ``diskmark why`` prints it; a target with no
block device under it has nothing to measure below, and the screen says so."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from conftest import wait_until
from replay import ReplayEngine

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.details import DetailsScreen
from diskmark.app.screens.why import WhyScreen
from diskmark.app.widgets.plain import PlainStatic
from diskmark.app.widgets.tiles import ResultTile
from diskmark.model.settings import Settings
from diskmark.model.units import MIB

SIZE = (120, 40)


@pytest.fixture
def in_memory():
    if not Path("/dev/shm").is_dir():
        pytest.skip("no /dev/shm here")
    target = Path(tempfile.mkdtemp(prefix="diskmark-stack-", dir="/dev/shm"))
    yield target
    shutil.rmtree(target, ignore_errors=True)


async def test_memory_marks_every_tile_and_the_facts_line_opens_the_stack(in_memory):
    settings = Settings(target=str(in_memory), size=16 * MIB, count=1, measure=1.0,
                        interval=0.0, profile="demo")
    app = DiskmarkApp(settings=settings, persist=False, engine_factory=ReplayEngine)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 60, "the run to finish")
        await pilot.pause()
        tiles = [t for t in app.query(ResultTile) if t.result is not None and t.result.runs]
        assert len(tiles) == 2
        for tile in tiles:
            drawn = "\n".join(tile.render_line(y).text for y in range(tile.content_size.height))
            assert "mem" in drawn and tile.has_class("-layer-marked"), drawn
            assert str(tile.tooltip).startswith("mem: memory file system /dev/shm is memory")
        assert "mem: a layer under the target explains the figure" in app.main.status.message

        app.push_screen(DetailsScreen(tiles[0].result, session=app.state.result))
        await pilot.pause()
        marks = str(app.screen.query_one("#layer-marks", PlainStatic).render())
        assert marks.startswith("mem: memory file system /dev/shm: Memory, not a drive")
        assert "tmpfs (memory)" in str(app.screen.query_one("#stack", PlainStatic).render())
        await pilot.press("escape")
        await pilot.pause()

        await pilot.click("#facts-line")
        await wait_until(pilot, lambda: isinstance(app.screen, WhyScreen), 5, "the stack")
        stack = app.screen.query_one("#stack", PlainStatic)
        await wait_until(pilot, lambda: "tmpfs (memory)" in str(stack.render()), 5,
                         "the stack read")
        assert f"The storage stack under {in_memory}" in str(stack.render())
        assert not app.screen.query("#measure")  # memory: no block device to measure
        await pilot.press("d")
        await pilot.pause()
        assert "Nothing to measure below" in str(app.screen.query_one("#below").render())
