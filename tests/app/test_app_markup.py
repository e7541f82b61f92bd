"""Text from users and files that looks like Rich markup (`[/]`, `[bold]x`) or holds terminal
escapes, through the app: baseline names, notes, device and model strings,
paths, preset names. It is shown as typed, never parsed (a stray `[/]` used to end the app
with a MarkupError) and never sent raw to the terminal. The names and notes are written
over a real run's events played back (tests/support/replay.py); the target that is not
UTF-8 is run with real fio."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from test_app_baselines import SIZE, home, make_app, names, on_screen, run, save_as, target, wait_until  # noqa: F401
from textual.widgets import Static

from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, PickBaselineDialog
from diskmark.app.screens.baselines import BaselinesScreen
from diskmark.app.screens.comparison import ComparisonScreen
from diskmark.app.screens.dialogs import SaveFileDialog
from diskmark.app.screens.history import HistoryScreen
from diskmark.app.screens.saved import ResultReportScreen
from diskmark.app.screens.settings import SettingsScreen
from diskmark.store.exchange import import_baseline
from diskmark.store.store import Store

pytestmark = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")

SLASH, BOLD = "[/]", "[bold]x"


def shown_text(screen) -> str:
    """Everything the screen's labels and statics render, as plain text."""
    parts = []
    for widget in screen.query(Static):  # Label is a Static
        rendered = widget.render()
        parts.append(getattr(rendered, "plain", None) or str(rendered))
    return "\n".join(parts)


def notices(app) -> str:
    return "\n".join(n.message for n in app._notifications)


@pytest.fixture
def markup_preset(home):
    presets = home / "config" / "presets"
    presets.mkdir(parents=True)
    (presets / "markup.toml").write_text(
        'id = "markup"\nname = "[/]"\ndescription = "[bold]x [/] \\u001b[31m"\n'
        '[profiles.default]\nname = "[red]"\n'
        'tests = [{ pattern = "RND", block = "4KiB", queues = 1, threads = 1 }]\n')


async def test_markup_and_escapes_in_names_and_data_are_shown_as_typed(target, tmp_path,
                                                                      markup_preset):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await run(pilot, "#row-0")
        await save_as(pilot, SLASH, "note [/] \x1b[2J")
        await save_as(pilot, BOLD, "[bold]")
        assert sorted(e.name for e in Store().baselines()) == sorted([SLASH, BOLD])
        assert f"“{SLASH}”" in notices(app) and f"“{BOLD}”" in notices(app)
        # a baseline from elsewhere whose device facts look like markup
        entry = Store().get_baseline(SLASH)
        data = entry.to_file_dict()  # what its export holds
        data["name"], data["result"]["system"]["model"] = "[italic]", "[/] model"
        data["result"]["system"]["device"] = "/dev/[b]"
        imported = tmp_path / "[x].json"
        imported.write_text(json.dumps(data))
        import_baseline(Store(), imported)

        await pilot.press("b")  # listed
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        assert names(app.screen) == [SLASH, BOLD, "[italic]"]
        screen = app.screen
        for name in (SLASH, BOLD, "[italic]"):
            entry = next(e for e in screen.entries if e.name == name)
            screen.query_one("DataTable").move_cursor(row=screen.entries.index(entry))
            await pilot.pause()
            assert f"“{name}”" in shown_text(screen)
        assert "[/] model" in shown_text(screen)

        screen.query_one("DataTable").move_cursor(row=0)  # "[/]"
        await pilot.pause()
        await pilot.press("v")  # viewed
        await on_screen(pilot, ResultReportScreen, "the report")
        text = shown_text(app.screen)
        assert f"“{SLASH}”" in text and "note [/] \\x1b[2J" in text and "\x1b" not in text
        await pilot.press("escape")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")

        await pilot.press("c")  # compared with this run
        await on_screen(pilot, ComparisonScreen, "the comparison")
        assert f"This run compared with “{SLASH}”" in shown_text(app.screen)
        await pilot.press("escape")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")

        await pilot.press("k")  # compared with another baseline
        await on_screen(pilot, PickBaselineDialog, "the list of others")
        assert SLASH in shown_text(app.screen)
        await pilot.press("enter")
        await on_screen(pilot, ComparisonScreen, "the comparison")
        assert f"“{SLASH}” compared with “{BOLD}”" in shown_text(app.screen)
        await pilot.press("escape")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")

        await pilot.press("r")  # rename: the dialog's title holds the name
        await on_screen(pilot, BaselineNameDialog, "the rename dialog")
        assert f"Rename “{SLASH}”" in shown_text(app.screen)
        await pilot.press("escape")
        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        await pilot.press("e")  # export: so does this one, and the path says what it is
        await on_screen(pilot, SaveFileDialog, "the export dialog")
        assert f"Export “{SLASH}”" in shown_text(app.screen)
        app.screen.query_one("Input").value = str(tmp_path / "[b]out.json")
        await pilot.press("enter")
        await wait_until(pilot, (tmp_path / "[b]out.json").exists, 5, "the export")
        assert "[b]out.json" in notices(app)

        await on_screen(pilot, BaselinesScreen, "the baselines screen")
        await pilot.press("enter")  # the tiles compared with "[/]"
        await wait_until(pilot, lambda: app.state.baseline is not None, 5, "the comparison")
        assert app.state.baseline.name == SLASH
        await pilot.pause()
        assert SLASH in str(app.query_one("#comparison-line").render())
        await pilot.press("v")
        await on_screen(pilot, ComparisonScreen, "the comparison")
        await pilot.press("escape")

        await pilot.press("h")  # history
        await on_screen(pilot, HistoryScreen, "the history")
        await pilot.press("escape")

        await pilot.press("o")  # a user preset whose name and description look like markup
        await on_screen(pilot, SettingsScreen, "the settings")
        app.screen.query_one("#preset").value = "markup"
        await pilot.pause()
        text = shown_text(app.screen)
        assert "[bold]x [/] \\x1b[31m" in text and "\x1b" not in text
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code in (0, None)


async def test_a_target_that_is_not_utf8_is_run_saved_and_copied(tmp_path, no_leftovers):
    """A directory named with the byte 0xff: the run, the history, the saved and copied
    report all survive, with the byte shown as \\xff."""
    odd = os.fsdecode(os.fsencode(tmp_path) + b"/\xff")
    os.mkdir(odd)
    no_leftovers.append(Path(odd))
    app = make_app(Path(odd), engine_factory=None)
    async with app.run_test(size=SIZE) as pilot:
        await run(pilot, "#row-0")
        await wait_until(pilot, lambda: len(Store().history()) == 1, 5, "the history entry")
        await pilot.press("s")
        await on_screen(pilot, SaveFileDialog, "the save dialog")
        report = tmp_path / "report.txt"
        app.screen.query_one("Input").value = str(report)
        await pilot.press("enter")
        await wait_until(pilot, report.exists, 5, "the report")
        assert f"{os.fsdecode(os.fsencode(tmp_path))}/\\xff" in report.read_text()
        await pilot.press("c")
        await pilot.pause()
        assert "\\xff" in app.clipboard
    assert app.return_code in (0, None)
