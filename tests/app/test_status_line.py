"""The status line and the time choices, as a user reads them: after a run the line is never
cut in the middle of a phrase (issue 22, item 8); the measure and interval times offered are
CrystalDiskMark's. The layout and wording with the fake engine of the snapshots; the line
after a real run is checked in ``test_app_result.py``."""

from __future__ import annotations

import pytest
from fakes import FakeEngine, facts
from textual.app import App, ComposeResult
from textual.widgets import Select

from diskmark.app.app import DiskmarkApp  # noqa: E402
from diskmark.app.widgets.status import StatusLine  # noqa: E402
from diskmark.model.settings import Settings
from diskmark.model.units import GIB

#: CrystalDiskMark 9.0.1's SettingsDlg.cpp: measureTimes[] and intervalTimes[].
CDM_MEASURE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 20, 30, 60]
CDM_INTERVAL = [0, 1, 3, 5, 10, 30, 60, 180, 300, 600]


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))


def make(engine: FakeEngine | None = None) -> DiskmarkApp:
    engine = engine or FakeEngine()
    return DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, persist=False,
                       settings=Settings(target="/mnt/data", size=GIB, count=5))


async def finish(pilot) -> None:
    app = pilot.app
    await pilot.press("a")
    for _ in range(200):
        if app.state.history and not app.state.running:
            break
        await pilot.pause(0.02)
    await pilot.pause()
    assert app.state.history and not app.state.running, "the fake run never finished"


def line(app: DiskmarkApp) -> str:
    return app.main.status.render().plain.rstrip()


async def test_the_longest_finished_line_keeps_its_legend_at_120_columns():
    """An unstable tile and a tile the CPU set: both marks explained beside the time and the
    count, nothing cut; at 80 columns whole phrases are left out from the end."""
    app = make(FakeEngine(shaky_at=3))
    async with app.run_test(size=(120, 40)) as pilot:
        await finish(pilot)
        wide = line(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        narrow = line(app)
        message = app.main.status.message
    assert "…" not in wide and "…" not in narrow, (wide, narrow)
    assert wide.startswith("Finished in 3:21 · 8 tests · ~N%: passes differ by N% (over 5%) · "
                           "cpu: the CPU, not the drive, set the figure"), wide
    assert narrow.startswith("Finished in 3:21 · 8 tests"), narrow
    for shown in (wide, narrow):
        assert message.startswith(shown), (shown, message)


@pytest.mark.parametrize("width", [80, 120])
async def test_the_idle_line_is_whole_and_names_the_help_key(width):
    app = make()
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        ready = line(app)
    assert "…" not in ready and ready.startswith(
        "Ready · a or All runs every test · ? lists the keys"), ready


class OneLine(App):
    def compose(self) -> ComposeResult:
        yield StatusLine(id="status")


async def test_only_a_first_phrase_too_long_alone_is_cut():
    app = OneLine()
    async with app.run_test(size=(30, 3)) as pilot:
        status = app.query_one(StatusLine)
        status.show(["Finished in 0:05", "8 tests", "B saves it as a baseline"])
        await pilot.pause()
        assert status.render().plain.rstrip() == "Finished in 0:05 · 8 tests"
        status.show(["A phrase far longer than thirty cells", "8 tests"])
        await pilot.pause()
        text = status.render().plain
        assert text.endswith("…") and len(text) == 30, text
        status.show("a line · given whole")
        await pilot.pause()
        assert status.render().plain.rstrip() == "a line · given whole"


async def test_the_settings_and_the_palette_offer_crystaldiskmarks_times():
    """The measure times 2, 4, 6, 7, 8 and 9 s were missing (the command line took them)."""
    from diskmark.app.commands import commands

    app = make()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        measure = [v for _, v in app.screen.query_one("#measure", Select)._options][1:]
        interval = [v for _, v in app.screen.query_one("#interval", Select)._options][1:]
        titles = {c[0] for c in commands(app)}
    assert measure == CDM_MEASURE and interval == CDM_INTERVAL
    assert {f"Measure time: {s} s" for s in CDM_MEASURE} <= titles
    assert {f"Interval time: {s} s" for s in CDM_INTERVAL} <= titles
