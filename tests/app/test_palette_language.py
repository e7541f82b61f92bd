"""The command palette speaks the language in use: Textual's own entries (Theme, Quit,
Maximize and their help), its placeholder and its "No matches found" were English in every
language."""

from __future__ import annotations

import pytest
from conftest import wait_until
from fakes import FakeEngine, facts
from textual.command import CommandInput, CommandList

from diskmark.app.app import DiskmarkApp
from diskmark.locale import _, set_language
from diskmark.model.settings import Settings
from diskmark.model.units import GIB


def options(app) -> list[str]:
    listed = app.screen.query_one(CommandList)
    return [str(listed.get_option_at_index(i).prompt) for i in range(listed.option_count)]


@pytest.mark.parametrize("lang", ["ja", "de"])
async def test_the_palette_and_textuals_entries_are_in_the_language_in_use(tmp_path, lang):
    set_language(lang)
    try:
        app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts, persist=False,
                          settings=Settings(target=str(tmp_path), size=GIB, count=5))
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.3)
            await pilot.press("ctrl+p")
            await wait_until(pilot, lambda: bool(app.screen.query(CommandInput)), 5, "the palette")
            field = app.screen.query_one(CommandInput)
            assert field.placeholder == _("Search for commands…") != "Search for commands…"
            await pilot.press(*_("Theme"))
            await wait_until(pilot, lambda: any(_("Change the current theme") in o
                                                for o in options(app)), 5, "Textual's entry")
            assert not any("Change the current theme" in o for o in options(app))
            for _key in range(len(_("Theme"))):
                await pilot.press("backspace")
            await pilot.press(*"qqqzzz")
            await wait_until(pilot, lambda: any(_("No matches found") in o for o in options(app)),
                             5, "no match said")
    finally:
        set_language("en")
