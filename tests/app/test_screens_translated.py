"""The screens in another language: the pseudo language (every text bracketed and 40% longer)
finds a text that was not marked or was glued from pieces, and text that is longer or twice
as wide as the English (German words, Japanese characters) is measured in terminal cells, so
a table header is not cut and a name is never cut through the middle of a character."""

from __future__ import annotations

import re
import time

import pytest
from rich.cells import cell_len
from rich.console import Console
from textual.widgets import DataTable

from diskmark import locale
from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.baselines import BaselinesScreen
from diskmark.app.screens.help import keys_table
from diskmark.app.screens.history import HistoryScreen
from diskmark.model.settings import Settings
from diskmark.model.units import MIB
from diskmark.report.cells import clip
from diskmark.store.store import Store


@pytest.fixture
def pseudo():
    locale.set_language("pseudo")
    yield
    locale.set_language("en")


def test_a_name_is_clipped_in_cells_never_through_a_wide_character():
    name = "日本語のベースライン名"  # 11 characters, 22 cells
    for width in range(2, 24):
        clipped = clip(name, width)
        assert cell_len(clipped) <= width, (width, clipped)
    assert clip(name, 9) == "日本語の…"  # 8 cells and the ellipsis; half of の would not fit
    assert clip("ext4 on nvme", 20) == "ext4 on nvme"
    # a device's or a path's end tells it apart: kept, in cells, never half a character
    assert clip("/dev/nvme0n1p2", 10, keep_end=True) == "…nvme0n1p2"
    assert clip("/mnt/日本語のディスク", 10, keep_end=True) == "…ディスク"  # 9 cells: half の left out
    assert [clip("nvme", w) for w in (0, 1, 2)] == ["", "…", "n…"]


def test_the_help_says_every_key_in_the_language(pseudo):
    console = Console(width=160, record=True)
    console.print(keys_table())
    for line in console.export_text().splitlines():
        words = line.strip()
        if not words:
            continue
        # every line: the keys' names (never translated), then the description, bracketed
        assert "⟦" in words and words.endswith("⟧"), line


async def wait_loaded(pilot, screen) -> None:
    deadline = time.monotonic() + 5
    while not screen.loaded:
        assert time.monotonic() < deadline, "the list did not load"
        await pilot.pause(0.05)


@pytest.mark.parametrize("kind", [BaselinesScreen, HistoryScreen], ids=lambda k: k.__name__)
async def test_a_translated_table_header_is_never_cut(kind, pseudo, isolated_home, tmp_path):
    app = DiskmarkApp(settings=Settings(target=str(tmp_path), size=16 * MIB, count=1),
                      persist=False)
    # wide enough for every header: only on a narrower terminal do columns give way, in the
    # order the screen says (a name or a device before the figures)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = kind(Store())
        app.push_screen(screen)
        await wait_loaded(pilot, screen)
        box = screen.query_one("#saved-box")
        assert re.fullmatch(r"⟦.*⟧", str(box.border_title)), box.border_title
        table = screen.query_one(DataTable)
        headers = {str(c.label): c.width for c in table.columns.values() if str(c.label)}
        assert headers and all(h.startswith("⟦") for h in headers), headers
        for header, width in headers.items():
            assert width >= cell_len(header), (header, width)
