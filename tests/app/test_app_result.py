"""A finished result belongs to its run: Enter after a run never starts another one over it,
every view of the result (report, comparison, baseline) uses the run's own preset, profile
and tests whatever the selectors say now, and the status line names the test running.
A real run's events played back (tests/support/replay.py) on a tiny target, driven like a
user would; the real engine's own paths are in test_app_pilot.py."""

from __future__ import annotations

import pytest
from conftest import wait_until
from replay import ReplayEngine

from diskmark.app.app import DiskmarkApp
from diskmark.app.reporting import report_text
from diskmark.app.screens.comparison import ComparisonScreen
from diskmark.app.screens.details import DetailsScreen
from diskmark.app.widgets.tiles import ResultTile
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.units import MIB
from diskmark.store.store import Store

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)




async def test_the_result_keeps_its_own_setup_and_enter_never_reruns(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    # reads and +Mix of the Default profile: 8 tests, about 20 s
    settings = Settings(target=str(target), size=16 * MIB, count=1, measure=1.0, interval=0.0,
                        mode=Mode.READ, mix=70)
    app = DiskmarkApp(settings=settings, persist=False, engine_factory=ReplayEngine)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#all")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")

        # item 3: the status names the test in full, and its row is marked
        seen: dict[str, set[int]] = {}
        while app.state.running:
            message = app.main.status.message
            current = [b.row for b in app.main.grid.row_buttons if b.has_class("-current")]
            for name in ("SEQ1M Q8T1 Read", "SEQ1M Q1T1 Read", "RND4K Q32T1 Read",
                         "RND4K Q1T1 Mix R70/W30"):
                if name in message and current:
                    seen.setdefault(name, set()).update(current)
            await pilot.pause(0.05)
        assert seen.get("SEQ1M Q1T1 Read") == {1}, seen
        assert seen.get("RND4K Q32T1 Read") == {2}, seen
        assert "RND4K Q1T1 Mix R70/W30" in seen, seen
        assert not any(b.has_class("-current") for b in app.main.grid.row_buttons)
        assert all(str(b.label) != "Stop" for b in app.main.grid.row_buttons)

        # item 1: Enter right after the run shows a tile's details, it never reruns
        await pilot.pause()
        assert isinstance(app.focused, ResultTile), app.focused
        assert "enter on a tile shows details" in app.main.status.message
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailsScreen), 5, "details")
        assert not app.state.running and len(app.state.history) == 1
        await pilot.press("escape")
        await pilot.pause()

        # item 2: another preset: the tiles go, the result keeps its own set-up
        app.change_settings(preset="nvme")
        await wait_until(pilot, lambda: app.main.grid.row_buttons[1].spec.label == "SEQ128K Q32T1",
                         5, "the NVMe layout")
        await pilot.pause()
        assert not any(t.result for t in app.main.grid.tiles), "tiles of another profile are cleared"
        assert "Tiles cleared" in app.main.status.message
        report = report_text(app)
        assert report is not None and "Profile: Default" in report
        lines = [line for line in report.splitlines() if "MB/s [" in line]
        # [Read] and [Mix] measured, [Write] with zeros as CrystalDiskMark writes a test not run
        assert len(lines) == 12, report
        assert sum(" 0.000 MB/s [      0.0 IOPS]" in line for line in lines) == 4, report
        assert any(line.lstrip().startswith("SEQ    1MiB (Q=  1") for line in lines), report
        session = app.state.current_session()
        assert session.preset_name == "Default" and session.settings.preset == "default"
        assert {(t.index, t.op) for t in session.tests} == {
            (row, op) for row in range(4) for op in (Op.READ, Op.MIX)}

        # v compares the run's own tests, not the ones the selectors show now
        entry = Store().save_baseline(session, "same run")
        app.set_baseline(entry)
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ComparisonScreen), 5, "v")
        comparison = app.screen.comparison
        assert len(comparison.tests) == 8 and comparison.missing == []
        await pilot.press("escape")
        await pilot.pause()

        # back to the preset it ran under: its tiles come back
        app.change_settings(preset="default")
        await wait_until(pilot, lambda: all(t.result for t in app.main.grid.tiles if t.op is not Op.WRITE)
                         and len(app.main.grid.tiles) == 12, 5, "the tiles")

        # a row button repeats that row within the result; the rest stays
        first = {(t.index, t.op): t for t in app.state.result.tests}
        button = next(b for b in app.main.grid.row_buttons if b.row == 2)
        await pilot.click(f"#{button.id}")
        await wait_until(pilot, lambda: app.state.running, 5, "the row run")
        await wait_until(pilot, lambda: not app.state.running, 60, "the row run to finish")
        await pilot.pause()
        now = {(t.index, t.op): t for t in app.state.result.tests}
        assert set(now) == set(first)
        assert now[(2, Op.READ)] is not first[(2, Op.READ)]
        assert now[(0, Op.READ)] is first[(0, Op.READ)]
        assert "Profile: Default" in report_text(app)


async def test_the_line_after_a_real_run_is_never_cut(tmp_path):
    """Issue 22, item 8: the time, the count, the marks' legend and three hints were one
    string, cut with "…" even at 120 columns. Now at 120 the time, the count and the
    legend are there whole, and a narrower terminal leaves out whole phrases from the end."""
    target = tmp_path / "target"
    target.mkdir()
    # Demo (one test, read and write) with two passes and the lowest threshold: a real run
    # as short as can show the ~N% legend, the longest line there is without a baseline
    settings = Settings(target=str(target), size=16 * MIB, count=2, measure=1.0, interval=0.0,
                        profile="demo", unstable_pct=0.5)
    app = DiskmarkApp(settings=settings, persist=False, engine_factory=ReplayEngine)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 120, "the run to finish")
        await pilot.pause()
        wide = app.main.status.render().plain
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        narrow = app.main.status.render().plain
        phrases = app.main.status.message.split(" · ")

    assert "…" not in wide and "…" not in narrow, (wide, narrow)
    assert phrases[0].startswith("Finished in ") and phrases[1] == "2 tests", phrases
    legend = [p for p in phrases if p.startswith(("~N%", "cpu"))]
    for count, line in ((2 + len(legend), wide), (2, narrow)):
        shown = line.rstrip().split(" · ")
        assert shown == phrases[:len(shown)] and len(shown) >= count, (line, phrases)
