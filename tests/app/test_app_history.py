"""The app's history with hundreds of runs, driven like a user would: it opens on one page,
turns pages, narrows the list to one device, and draws a test's trend on a drive, from which
a run opens or is compared with the run the trend was opened from. The runs are real results
copied with other dates and figures, in a real database; nothing runs fio here."""

from __future__ import annotations

import shutil
import time

import pytest
from history_data import real_result, series
from pictures import open_png
from textual.widgets import OptionList

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.comparison import ComparisonScreen
from diskmark.app.screens.history import PAGE_SIZE, HistoryFilterDialog, HistoryScreen
from diskmark.app.screens.saved import ResultReportScreen
from diskmark.app.screens.trend import TrendScreen
from diskmark.app.widgets.trend_chart import TrendChart
from diskmark.model.settings import Settings
from diskmark.model.units import MIB, Unit
from diskmark.report.formatting import WORSE
from diskmark.store import database
from diskmark.store.store import Store

pytestmark = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")

SIZE = (120, 40)
#: a drive's 230 runs: steady, then 25% slower from run 150 on
SDB = [1.0 + (i % 3) * 0.005 if i < 150 else 0.75 for i in range(230)]


async def wait_until(pilot, condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await pilot.pause(0.05)


async def on_screen(pilot, kind: type, what: str) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, kind), 5, what)
    if hasattr(pilot.app.screen, "loaded"):
        await wait_until(pilot, lambda: pilot.app.screen.loaded, 5, f"{what} to load")


@pytest.fixture
def store() -> Store:
    """250 runs: 230 on /dev/sdb, 20 on /dev/sdc, one of sdb's also a baseline."""
    store = Store()
    docs = series(real_result(), SDB, device="/dev/sdb")
    docs += series(real_result(), [1.0] * 20, device="/dev/sdc")
    with store.db() as conn, database.transaction(conn):
        for doc in docs:
            store.add_history(doc, conn=conn)
    store.promote(store.page(None, 0, database.Filters(device="/dev/sdb"))[-11].name, "before")
    return store


def make_app(tmp_path) -> DiskmarkApp:
    settings = Settings(target=str(tmp_path), size=16 * MIB, count=1, measure=1.0, interval=0.0)
    return DiskmarkApp(settings=settings, persist=False)


async def test_history_pages_filters_and_trend(store, tmp_path, isolated_home):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await on_screen(pilot, HistoryScreen, "the history")
        screen = app.screen
        assert screen.total == 250 and len(screen.rows) == PAGE_SIZE
        assert screen._loaded_entries == {}  # no result document was read to list them
        assert screen.query_one("#saved-box").border_subtitle == "runs 1–100 of 250"
        starts = [r.started_ts for r in screen.rows]
        assert starts == sorted(starts, reverse=True)  # newest first
        first_page = [r.name for r in screen.rows]

        await pilot.press("right_square_bracket")  # older
        await on_screen(pilot, HistoryScreen, "the second page")
        assert screen.page_start == PAGE_SIZE and screen.rows[0].started_ts < starts[-1]
        await pilot.press("right_square_bracket", "right_square_bracket")
        await on_screen(pilot, HistoryScreen, "the last page")
        assert screen.page_start == 200 and len(screen.rows) == 50
        assert screen.query_one("#saved-box").border_subtitle == "runs 201–250 of 250"
        await pilot.press("left_square_bracket", "left_square_bracket")
        await on_screen(pilot, HistoryScreen, "the first page")
        assert [r.name for r in screen.rows] == first_page

        await pilot.press("f")
        await on_screen(pilot, HistoryFilterDialog, "the filter")
        choices = app.screen.choices
        app.screen.query_one(OptionList).highlighted = next(
            i for i, f in enumerate(choices) if f.device == "/dev/sdc")
        await pilot.press("enter")
        await on_screen(pilot, HistoryScreen, "the runs of /dev/sdc")
        await wait_until(pilot, lambda: screen.total == 20, 5, "the filter")
        assert {r.device for r in screen.rows} == {"/dev/sdc"}
        assert "device /dev/sdc" in screen.query_one("#saved-box").border_title

        await pilot.press("f")
        await on_screen(pilot, HistoryFilterDialog, "the filter")
        app.screen.query_one(OptionList).highlighted = next(
            i for i, f in enumerate(app.screen.choices) if f.device == "/dev/sdb")
        await pilot.press("enter")
        await wait_until(pilot, lambda: screen.loaded and screen.total == 230, 5, "sdb")

        # the highlighted run shared as a page and its picture
        anchor = screen.rows[0]
        await pilot.press("e")
        page = isolated_home / "reports" / f"diskmark-run-{anchor.name}.html"
        await wait_until(pilot, page.exists, 5, "the shared page")
        html = page.read_text()
        assert f"diskmark: run {anchor.name}" in html and "<svg" in html
        await wait_until(pilot, page.with_suffix(".png").exists, 30, "the PNG")
        assert open_png(page.with_suffix(".png").read_bytes()).size[0] == 1100

        # the trend of the headline test on the highlighted run's drive
        await pilot.press("t")
        await on_screen(pilot, TrendScreen, "the trend")
        trend_screen = app.screen
        points = trend_screen.series.points
        assert len(points) == 230 and trend_screen.label == "SEQ1M Q8T1"
        assert trend_screen.cursor == 229 and points[-1].point.name == anchor.name
        assert [i for i, p in enumerate(points) if p.verdict == WORSE] == [150]
        assert [p.baselines for p in points if p.baselines] == [["before"]]
        chart = trend_screen.query_one(TrendChart).text
        assert "▼" in chart and "B" in chart.splitlines()[-2]

        await pilot.press("left")
        assert trend_screen.cursor == 228
        await pilot.press("home")
        assert trend_screen.cursor == 0
        detail = str(trend_screen.query_one("#saved-detail").render())
        assert "run 1 of 230" in detail and points[0].point.name in detail

        await pilot.press("enter")  # open that run
        await on_screen(pilot, ResultReportScreen, "the oldest run")
        assert app.screen.session.started == points[0].point.started
        await pilot.press("escape")
        await on_screen(pilot, TrendScreen, "the trend")

        await pilot.press("c")  # the run the trend came from against the oldest
        await on_screen(pilot, ComparisonScreen, "the comparison")
        cmp = app.screen.comparison
        assert cmp.tests and all(t.deltas[Unit.MB_S].verdict == WORSE for t in cmp.tests)
        await pilot.press("e")  # shared as one page: both results, the change on every tile
        pages = sorted((isolated_home / "reports").glob("diskmark-comparison-*.html"))
        assert len(pages) == 1, pages
        page = pages[0].read_text()
        assert "Against" in page and "worse" in page and "<script" not in page
        await pilot.press("escape")
        await on_screen(pilot, TrendScreen, "the trend")

        await pilot.press("r")  # write
        await wait_until(pilot, lambda: trend_screen.kind == "write" and trend_screen.loaded
                         and trend_screen.series is not None
                         and trend_screen.series.points[0].point.mb_s != points[0].point.mb_s,
                         5, "the write trend")
        await pilot.press("u")  # GB/s
        await wait_until(pilot, lambda: trend_screen.series.points[0].value
                         == pytest.approx(trend_screen.series.points[0].point.mb_s / 1000),
                         5, "GB/s")
        await pilot.press("s")
        await wait_until(pilot, lambda: trend_screen.label != "SEQ1M Q8T1", 5, "another test")
        await pilot.press("escape")
        await on_screen(pilot, HistoryScreen, "back to the history")
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code in (0, None)


async def test_the_first_look_after_an_upgrade_counts_the_imported_runs_and_fits_80_columns(
        tmp_path, isolated_home):
    """The JSON files of an earlier version are imported when the history first opens: the
    count under the list must include them (it said "0 runs" above three runs), and at 80×24
    the footer shows every key it lists whole."""
    from history_data import LEGACY
    from textual.widgets import Footer
    from textual.widgets._footer import FooterKey

    shutil.copytree(LEGACY, isolated_home / "data", ignore=shutil.ignore_patterns("README.md"))
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("h")
        await on_screen(pilot, HistoryScreen, "the history")
        screen = app.screen
        assert len(screen.rows) == 3 and screen.total == 3
        assert screen.query_one("#saved-box").border_subtitle == "3 runs"
        await pilot.pause(0.2)
        keys = list(screen.query_one(Footer).query(FooterKey))
        assert keys and all(k.region.right <= 80 for k in keys), \
            [(k.description, k.region.right) for k in keys]
