"""The help and a tile's details scroll with the arrow keys and PageDown at once: before, the
help focused nothing, and its keys went nowhere until Tab was pressed."""

from __future__ import annotations

import pytest
from conftest import wait_until
from fakes import FakeEngine, facts
from textual.containers import VerticalScroll

from diskmark.app.app import DiskmarkApp
from diskmark.locale import set_language
from diskmark.model.settings import Settings
from diskmark.model.units import GIB


def make(tmp_path) -> DiskmarkApp:
    return DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts, persist=False,
                       settings=Settings(target=str(tmp_path), size=GIB, count=5))


async def scrolled_by_keys(pilot) -> tuple[float, float]:
    body = pilot.app.screen.query_one(VerticalScroll)
    assert body.max_scroll_y > 0, "the body is longer than the window at 80×24"
    await pilot.press("down", "down")
    await pilot.pause(0.1)
    after_arrows = body.scroll_y
    await pilot.press("pagedown")
    await pilot.pause(0.1)
    return after_arrows, body.scroll_y


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_help_scrolls_with_the_arrows_and_pagedown_at_once(tmp_path, lang):
    set_language(lang)
    try:
        app = make(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: isinstance(app.focused, VerticalScroll), 5,
                             "the help's body to take the keys")
            arrows, page = await scrolled_by_keys(pilot)
            assert 0 < arrows < page
    finally:
        set_language("en")


async def test_a_tiles_details_scroll_with_the_arrows_and_pagedown_at_once(tmp_path):
    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("a")
        await wait_until(pilot, lambda: app.state.history and not app.state.running, 20,
                         "the fake run")
        app.main.grid.tiles[0].focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.focused, VerticalScroll), 5,
                         "the details' body to take the keys")
        arrows, page = await scrolled_by_keys(pilot)
        assert 0 < arrows < page
