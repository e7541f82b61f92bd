"""Baselines, history and comparison in the app, driven like a user would, on a temporary
directory (16 MiB, one pass, 1 s measure, no interval) and the store in a throwaway
DISKMARK_HOME. The run, save, restart and compare of the issue's "done when" uses real fio;
the others play back a real run's events (tests/support/replay.py): their point is the
dialogs, the lists and the store, not fio."""

from __future__ import annotations

import codecs
import json
import shutil
from pathlib import Path

import pytest
from conftest import tiny, wait_until
from replay import ReplayEngine
from textual.widgets import Input

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, ImportFileDialog, PickBaselineDialog
from diskmark.app.screens.baselines import BaselinesScreen
from diskmark.app.screens.comparison import ComparisonScreen
from diskmark.app.screens.dialogs import ConfirmDialog, ErrorDialog
from diskmark.app.screens.history import HistoryScreen
from diskmark.model.settings import Op
from diskmark.model.units import Unit
from diskmark.store.store import Store

pytestmark = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")

SIZE = (120, 40)
CDM_FILE = Path(__file__).parent.parent / "fixtures" / "cdm" / "cdm8_0_1_default.txt"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch) -> Path:
    """Settings, history and baselines go to a throwaway directory."""
    path = tmp_path / "home"
    monkeypatch.setenv("DISKMARK_HOME", str(path))
    monkeypatch.delenv("NO_COLOR", raising=False)
    return path


@pytest.fixture
def target(tmp_path, no_leftovers) -> Path:
    path = tmp_path / "target"
    path.mkdir()
    no_leftovers.append(path)  # no fio process, no test file afterwards
    return path


def make_app(target: Path, persist: bool = False, engine_factory=ReplayEngine) -> DiskmarkApp:
    """The app on ``target``; ``engine_factory=None`` runs the real engine."""
    return DiskmarkApp(settings=tiny(target), persist=persist, engine_factory=engine_factory)




async def run(pilot, key_or_button: str = "a", timeout: float = 180) -> None:
    """Start All (``a``) or a row button (``#row-0``) and wait for the run to end."""
    app = pilot.app
    runs = len(app.state.history)
    if key_or_button.startswith("#"):
        await pilot.click(key_or_button)
    else:
        await pilot.press(key_or_button)
    await wait_until(pilot, lambda: len(app.state.history) > runs and not app.state.running, timeout,
                     "the run to finish")
    await pilot.pause()


async def on_screen(pilot, kind: type, what: str) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, kind), 5, what)
    if hasattr(pilot.app.screen, "loaded"):
        await wait_until(pilot, lambda: pilot.app.screen.loaded, 5, f"{what} to load")


async def save_as(pilot, name: str, note: str = "") -> None:
    """B, type the name (and note), Enter."""
    await pilot.press("B")
    await on_screen(pilot, BaselineNameDialog, "the name dialog")
    pilot.app.screen.query_one("#name", Input).value = name
    pilot.app.screen.query_one("#note", Input).value = note
    await pilot.press("enter")
    await pilot.pause()


def names(screen) -> list[str]:
    return [e.name for e in screen.entries]


async def test_run_save_restart_compare_every_tile(target):
    """The issue's "done when": run, save as 'baseline', restart, find it, compare, run
    again and see a delta in every tile."""
    app = make_app(target, persist=True, engine_factory=None)
    async with app.run_test(size=SIZE) as pilot:
        await run(pilot)
        assert all(t.text for t in app.main.grid.tiles)
        await save_as(pilot, "baseline", "first run")
        assert not isinstance(app.screen, BaselineNameDialog)
        entry = Store().get_baseline("baseline")
        assert entry.note == "first run" and len(entry.session.tests) == 8
        # every completed run is also in the store's history
        await wait_until(pilot, lambda: len(Store().history()) == 1, 5, "the history entry")

    # a restart: only what was saved is there
    app = make_app(target, persist=True, engine_factory=None)
    async with app.run_test(size=SIZE) as pilot:
        assert app.state.baseline is None and not app.state.history
        await pilot.press("b")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        assert names(app.screen) == ["baseline"]
        await pilot.press("enter")  # compare the tiles with it
        await wait_until(pilot, lambda: app.state.baseline is not None, 5, "the comparison")
        assert app.state.baseline.name == "baseline" and app.has_class("-comparing")
        line = app.query_one("#comparison-line")
        assert line.display and line.summary.name == "baseline" and line.summary.counts is None
        assert not any(t.delta_text for t in app.main.grid.tiles)  # nothing measured yet

        await run(pilot)
        tiles = app.main.grid.tiles
        assert len(tiles) == 8
        for tile in tiles:
            assert tile.delta_text[:1] in "▲▼=", (tile.spec.label, tile.op, tile.delta_text)
            assert tile.delta_text.endswith("%")
        assert sum(line.summary.counts.values()) == 8
        assert "against “baseline”" in app.main.status.message

        # the delta follows the unit; latency: lower is better
        await pilot.press("4")
        await pilot.pause()
        for tile in app.main.grid.tiles:
            d = app.state.comparison.delta(tile.result.key, Unit.US)
            assert tile.delta == d
            if d is None:  # a side with no latency: its one pass saw no I/O (a stalled disk)
                t = app.state.comparison.test(tile.result.key)
                assert not (t.current.best_lat_us and t.baseline.best_lat_us)
                continue
            assert tile.delta.unit is Unit.US
            if d.verdict == "better":
                assert d.current < d.baseline

        await pilot.press("v")
        await on_screen(pilot, ComparisonScreen, "the comparison screen")
        # a row a unit a test; a test one of whose sides saw no I/O (a stalled pass on a
        # loaded machine) has no latency to compare, as its tile has no µs delta
        comparison = app.state.comparison
        assert len(comparison.tests) == 8
        for t in comparison.tests:
            if Unit.US not in t.deltas:
                assert not (t.current.best_lat_us and t.baseline.best_lat_us), t.title
        rows = sum(len(t.deltas) for t in comparison.tests)
        assert rows >= 8 * 3
        assert app.screen.query_one("#comparison").row_count == rows
        await pilot.press("c")
        assert "SEQ1M Q8T1" in app.clipboard and "%" in app.clipboard
        await pilot.press("escape")
        await pilot.press("X")  # stop comparing
        await pilot.pause()
        assert app.state.baseline is None and not any(t.delta_text for t in app.main.grid.tiles)
        assert not app.query_one("#comparison-line").display

        await pilot.press("x")  # and choose it again from the short list
        await on_screen(pilot, PickBaselineDialog, "the list")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.state.baseline is not None, 5, "the comparison")
        assert all(t.delta_text for t in app.main.grid.tiles)

    # the choice is remembered; a baseline that vanished meanwhile is a notice, not a crash
    app = make_app(target, persist=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.state.baseline is not None and app.state.baseline.name == "baseline"
    Store().delete_baseline("baseline")
    app = make_app(target, persist=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.state.baseline is None
        assert any("baseline" in n.message and "not saved any more" in n.message
                   for n in app._notifications)


async def test_saving_under_a_taken_name_asks_first(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("B")  # nothing measured: a notice, no dialog
        await pilot.pause()
        assert not isinstance(app.screen, BaselineNameDialog)
        await run(pilot, "#row-0")
        await save_as(pilot, "nvme", "one")
        first = Store().get_baseline("nvme")
        saved = first.to_file_dict()

        await save_as(pilot, "nvme", "two")
        await on_screen(pilot, ConfirmDialog, "the question")
        assert "exists already" in app.screen.question
        await pilot.click("#no")  # keep it: back in the name dialog, nothing written
        await on_screen(pilot, BaselineNameDialog, "the name dialog again")
        assert Store().get_baseline("nvme").to_file_dict() == saved
        await pilot.press("enter")
        await on_screen(pilot, ConfirmDialog, "the question")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: Store().get_baseline("nvme").note == "two", 5,
                         "the replacement")
        assert not isinstance(app.screen, (ConfirmDialog, BaselineNameDialog))
        assert names_in_store() == ["nvme"]

        await pilot.press("B")  # a name that is not a name stays in the dialog, says why
        await on_screen(pilot, BaselineNameDialog, "the name dialog")
        app.screen.query_one("#name", Input).value = "   "
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, BaselineNameDialog)
        assert "empty" in str(app.screen.query_one("#problem").render())


def names_in_store() -> list[str]:
    return [e.name for e in Store().baselines()]


async def test_rename_delete_and_compare_two_saved_results(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await run(pilot, "#row-0")
        session = app.state.current_session()
        Store().save_baseline(session, "alpha")
        Store().save_baseline(session, "beta", "the other one")
        app.set_baseline(Store().get_baseline("alpha"))

        await pilot.press("b")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        assert names(app.screen) == ["alpha", "beta"]
        assert app.screen.highlighted.name == "alpha"

        # two saved results against each other, nothing run
        await pilot.press("k")
        await on_screen(pilot, PickBaselineDialog, "the list of others")
        await pilot.press("enter")
        await on_screen(pilot, ComparisonScreen, "the comparison")
        cmp = app.screen.comparison
        assert cmp.baseline_name == "beta" and len(cmp.tests) == 2
        assert all(d.verdict == "same" for t in cmp.tests for d in t.deltas.values())
        await pilot.press("escape")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")

        # rename onto a taken name: refused, says why; then to a free one
        await pilot.press("r")
        await on_screen(pilot, BaselineNameDialog, "the rename dialog")
        app.screen.query_one("#name", Input).value = "beta"
        await pilot.press("enter")
        await pilot.pause()
        assert "exists already" in str(app.screen.query_one("#problem").render())
        app.screen.query_one("#name", Input).value = "gamma"
        await pilot.press("enter")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        await wait_until(pilot, lambda: names(app.screen) == ["beta", "gamma"], 5, "the rename")
        assert names_in_store() == ["beta", "gamma"]
        assert app.state.baseline.name == "gamma"  # the tiles follow their baseline's new name
        assert app.screen.highlighted.name == "gamma"

        # delete asks first; No keeps it, Yes removes it (and stops the comparison)
        await pilot.press("d")
        await on_screen(pilot, ConfirmDialog, "the question")
        await pilot.click("#no")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        assert names_in_store() == ["beta", "gamma"]
        await pilot.press("d")
        await on_screen(pilot, ConfirmDialog, "the question")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: names_in_store() == ["beta"], 5, "the deletion")
        await wait_until(pilot, lambda: names(app.screen) == ["beta"], 5, "the list")
        assert app.state.baseline is None and not app.has_class("-comparing")


async def test_import_export_and_damaged_files(target, tmp_path):
    damaged = tmp_path / "damaged.json"
    damaged.write_text('{"schema": "diskmark.saved/1", "kind": "baseline", "name": "x", "sav')
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"schema": "someone.else/3", "data": [1, 2]}))
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await run(pilot, "#row-0")
        Store().save_baseline(app.state.current_session(), "mine")
        broken = Store().baselines_dir / "broken-1234.json"  # as an earlier diskmark left it
        broken.parent.mkdir(parents=True, exist_ok=True)
        broken.write_text("")

        await pilot.press("b")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        entries = app.screen.entries
        assert [e.name for e in entries] == ["broken-1234", "mine"]
        assert entries[0].damaged == "empty file"
        assert "Damaged: empty file" in str(app.screen.query_one("#saved-detail").render())
        await pilot.press("enter")  # a damaged one cannot be compared with
        await pilot.pause()
        assert isinstance(app.screen, BaselinesScreen) and app.state.baseline is None

        for path, reason in ((damaged, "not valid JSON"), (foreign, "not a diskmark file")):
            await pilot.press("i")
            await on_screen(pilot, ImportFileDialog, "the import dialog")
            app.screen.query_one(Input).value = str(path)
            await pilot.press("enter")
            await on_screen(pilot, ErrorDialog, "the reason")
            assert app.screen.title_text == "This file cannot be imported"
            assert reason in app.screen.message, app.screen.message
            await pilot.press("escape")
            await on_screen(pilot, BaselinesScreen, "the baselines screen")
        assert names_in_store() == ["broken-1234", "mine"]  # nothing was written
        assert broken.read_text() == ""  # and the damaged file was not touched

        # export "mine", then import it back: the name is taken, so it asks
        await pilot.press("down")
        await pilot.press("e")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "SaveFileDialog", 5,
                         "the export dialog")
        exported = tmp_path / "mine.json"
        app.screen.query_one(Input).value = str(exported)
        await pilot.press("enter")
        await wait_until(pilot, exported.exists, 5, "the export")
        await pilot.press("i")
        await on_screen(pilot, ImportFileDialog, "the import dialog")
        app.screen.query_one(Input).value = str(exported)
        await pilot.press("enter")
        await on_screen(pilot, ErrorDialog, "the name question")
        assert app.screen.title_text == "That name is taken"
        await pilot.click("#rename")
        await on_screen(pilot, BaselineNameDialog, "the name dialog")
        app.screen.query_one("#name", Input).value = "mine, imported"
        await pilot.press("enter")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        await wait_until(pilot, lambda: "mine, imported" in names(app.screen), 5, "the import")
        assert (Store().get_baseline("mine, imported").session.tests[0].best_mb_s
                == Store().get_baseline("mine").session.tests[0].best_mb_s)

        # a CrystalDiskMark text result, saved on Windows (UTF-16 LE with a BOM, CRLF)
        windows = tmp_path / "CrystalDiskMark_20210622162528.txt"
        windows.write_bytes(codecs.BOM_UTF16_LE + CDM_FILE.read_text().replace(
            "\n", "\r\n").encode("utf-16-le"))
        await pilot.press("i")
        await on_screen(pilot, ImportFileDialog, "the import dialog")
        assert "CrystalDiskMark" in str(app.screen.query_one(".dialog-hint").render())
        app.screen.query_one(Input).value = str(windows)
        await pilot.press("enter")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        await wait_until(pilot, lambda: windows.stem in names(app.screen), 5, "the import")
        imported = Store().get_baseline(windows.stem).session
        assert imported.origin == "CrystalDiskMark 8.0.1"
        assert imported.test("SEQ1M Q8T1/read").best_mb_s == 531.458


async def test_history_lists_runs_and_promotes_one(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await on_screen(pilot, HistoryScreen, "the history")
        assert app.screen.items == []
        assert "No run has finished yet" in str(app.screen.query_one("#saved-detail").render())
        await pilot.press("escape")

        await run(pilot, "#row-0")
        await run(pilot, "#row-3")
        await wait_until(pilot, lambda: len(Store().history()) == 2, 5, "the history files")
        await pilot.press("h")
        await on_screen(pilot, HistoryScreen, "the history")
        rows = app.screen.rows
        assert len(rows) == 2
        newest = app.screen.entry_of(rows[0])
        assert {t.label for t in newest.session.tests} == {"RND4K Q1T1"}  # newest first

        await pilot.press("c")  # against what the window shows: rows 0 and 3
        await on_screen(pilot, ComparisonScreen, "the comparison")
        assert {t.label for t in app.screen.comparison.tests} == {"RND4K Q1T1"}
        await pilot.press("escape")
        await on_screen(pilot, HistoryScreen, "the history")

        await pilot.press("down")
        await pilot.press("p")
        await on_screen(pilot, BaselineNameDialog, "the name dialog")
        app.screen.query_one("#name", Input).value = "promoted"
        await pilot.press("enter")
        await wait_until(pilot, lambda: names_in_store() == ["promoted"], 5, "the baseline")
        promoted = Store().get_baseline("promoted").session
        assert {(t.label, t.op) for t in promoted.tests} == {("SEQ1M Q8T1", Op.READ),
                                                            ("SEQ1M Q8T1", Op.WRITE)}
