"""Every run goes through the app's run controller (diskmark/app/runs.py), the main grid's and
the queue-depth sweep's alike, so what follows a run's failure follows the run that failed:
"Run buffered" in its error dialog runs that run again. Before, the dialog's retry was the
main screen's own start_run, so after a sweep was refused O_DIRECT it ran All on the grid.
A made-up engine (tests/support/fakes.py) that refuses O_DIRECT, as ramfs does."""

from __future__ import annotations

import pytest
from conftest import wait_until
from fakes import FakeEngine, facts

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.dialogs import ErrorDialog
from diskmark.app.screens.sweep import SweepDialog, SweepScreen
from diskmark.engine.errors import DirectIOUnsupported
from diskmark.model.settings import Mode, Settings
from diskmark.model.units import MIB

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))


class RefusesDirectIO(FakeEngine):
    """Refuses a run with O_DIRECT, runs it buffered; keeps the settings of every run."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Settings] = []

    async def run(self, settings, on_event=None):
        self.asked.append(settings)
        if settings.direct:
            raise DirectIOUnsupported("The filesystem (ramfs) does not support O_DIRECT.",
                                      "Run buffered instead.")
        return await super().run(settings, on_event)


async def buffered_after_refusal(app: DiskmarkApp, pilot) -> None:
    await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog), 10, "the dialog")
    await wait_until(pilot, lambda: any(b.region.area for b in app.screen.query("#buffered")),
                     5, "the dialog's buttons laid out")
    await pilot.click("#buffered")
    await wait_until(pilot, lambda: len(app.state.history) + (app.state.sweep_session is not None)
                     and not app.state.running, 20, "the run again, buffered")
    await pilot.pause()


async def test_run_buffered_after_a_refused_sweep_sweeps_again(tmp_path):
    engine = RefusesDirectIO()
    app = DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, persist=False,
                      settings=Settings(target=str(tmp_path), size=16 * MIB, count=1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, SweepDialog), 5, "the dialog")
        app.screen.query_one("#pattern").value = "SEQ1M"
        app.screen.query_one("#sweep-mode").value = Mode.WRITE
        await pilot.pause()
        await pilot.click("#run")
        await buffered_after_refusal(app, pilot)
        assert [(s.sweep, s.mode, s.direct) for s in engine.asked] == [
            ("SEQ1M", Mode.WRITE, True), ("SEQ1M", Mode.WRITE, False)]
        assert isinstance(app.screen, SweepScreen), "the sweep's screen, again"
        assert app.screen.query_one("#table-write").row_count == 6
        session = app.state.sweep_session
        assert session is not None and session.settings.sweep == "SEQ1M"
        assert app.state.history == [] and not any(t.text for t in app.main.grid.tiles), \
            "nothing ran on the grid"


async def test_run_buffered_after_a_refused_row_runs_that_row_again(tmp_path):
    engine = RefusesDirectIO()
    app = DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, persist=False,
                      settings=Settings(target=str(tmp_path), size=16 * MIB, count=1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#row-2")
        await buffered_after_refusal(app, pilot)
        assert [(s.sweep, s.only_test, s.direct) for s in engine.asked] == [
            (None, 2, True), (None, 2, False)]
        assert {t.row for t in app.main.grid.tiles if t.text} == {2}
        assert app.state.sweep_session is None
