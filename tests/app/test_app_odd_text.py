"""Format characters in the data, through the app: a run whose comment, target, host, device
and model hold U+202E RIGHT-TO-LEFT OVERRIDE, a zero-width space and a tab is listed, filtered
on, drawn as a trend and opened, and nothing on screen gets them raw (a bidirectional
override would show "gpj.exe" as "exe.jpg"). A real database; nothing runs fio here."""

from __future__ import annotations

import unicodedata

from history_data import real_result
from test_app_history import SIZE, on_screen

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.history import HistoryFilterDialog, HistoryScreen
from diskmark.app.screens.saved import ResultReportScreen
from diskmark.app.screens.trend import TrendScreen
from diskmark.model.settings import Settings
from diskmark.model.units import MIB
from diskmark.store.store import Store

SPOOF = "gpj\u202e.exe\u200b\tz"


def raw_format(screenshot: str) -> list[str]:
    return sorted({hex(ord(c)) for c in screenshot if unicodedata.category(c) == "Cf"})


async def test_format_characters_in_the_data_are_shown_escaped(tmp_path, isolated_home):
    doc = real_result()
    doc["settings"]["comment"] = SPOOF
    doc["system"].update(hostname=f"h{SPOOF}", device=f"/dev/{SPOOF}",
                         target=f"/mnt/{SPOOF}", model=f"m{SPOOF}")
    Store().add_history(doc)
    target = tmp_path / f"t{SPOOF}"
    target.mkdir()
    app = DiskmarkApp(settings=Settings(target=str(target), size=16 * MIB, count=1,
                                        measure=1.0, interval=0.0), persist=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seen = {}
        seen["main"] = app.export_screenshot()
        await pilot.press("h")
        await on_screen(pilot, HistoryScreen, "the history")
        seen["history"] = app.export_screenshot()
        await pilot.press("f")
        await on_screen(pilot, HistoryFilterDialog, "the filter")
        seen["filter"] = app.export_screenshot()
        await pilot.press("escape")
        await on_screen(pilot, HistoryScreen, "the history")
        await pilot.press("t")
        await on_screen(pilot, TrendScreen, "the trend")
        seen["trend"] = app.export_screenshot()
        await pilot.press("escape")
        await on_screen(pilot, HistoryScreen, "the history")
        await pilot.press("enter")
        await on_screen(pilot, ResultReportScreen, "the run")
        seen["run"] = app.export_screenshot()
    for name, screenshot in seen.items():
        assert raw_format(screenshot) == [], name
    for name in ("main", "history", "run"):
        assert "gpj\\u202e" in seen[name], name
