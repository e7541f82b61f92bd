"""The key lists a user reads (the help screen, the README's table of binding ids) against
the bindings the app really has, and a keymap from the settings file remapping them."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.help import KEYS, spelled
from diskmark.config import parse_config
from diskmark.model import MIB, Settings

README = Path(__file__).resolve().parent.parent / "README.md"
#: How the help screen spells a key, as Textual names it.
SPELLED = {"Esc": "escape", "F1": "f1", "F2": "f2", "?": "question_mark"}
#: Keys the help lists that belong to a widget or to Textual, not to the app's bindings.
ELSEWHERE = {"enter", "ctrl+p"}


def app_keys() -> dict[str, set[str]]:
    """Binding id -> its keys, as the App declares them."""
    return {b.id: set(b.key.split(",")) for b in DiskmarkApp.BINDINGS}  # type: ignore[union-attr]


def help_keys() -> set[str]:
    keys: set[str] = set()
    for _section, rows in KEYS:
        for row, _what in rows:
            for part in spelled(row).split("  "):
                if "click" in part or part.startswith("("):
                    continue
                keys.update(SPELLED.get(k, k) for k in part.split())
    return keys


def test_every_binding_has_an_id():
    ids = [b.id for b in DiskmarkApp.BINDINGS]  # type: ignore[union-attr]
    assert all(ids) and len(ids) == len(set(ids))


def test_the_help_lists_exactly_the_bound_keys():
    bound = set().union(*app_keys().values())
    assert help_keys() - ELSEWHERE == bound


def test_the_readme_table_names_every_binding_id_with_its_keys():
    text = README.read_text()
    table = text[text.index("| id | key | does |"):]
    table = table[:table.index("\n\n")]
    documented: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        ids_cell, keys_cell = row.split("|")[1:3]
        ids = re.findall(r"`([^`]+)`", ids_cell)
        keys = re.findall(r"`([^`]+)`", keys_cell)
        assert len(ids) == len(keys), row
        for binding_id, key in zip(ids, keys):
            documented[binding_id] = set(key.split(","))
    assert documented == app_keys()


def test_a_keymap_in_the_settings_file_is_read_and_checked():
    cfg, problems = parse_config({"schema": "diskmark.config/1", "keymap": {"run_all": "r,f5"}})
    assert problems == [] and cfg.keymap == {"run_all": "r,f5"}
    cfg, problems = parse_config({"schema": "diskmark.config/1", "keymap": {"run_all": "r; rm"}})
    assert cfg.keymap is None and problems and "keymap" in problems[0]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


async def test_a_saved_keymap_remaps_a_key_and_survives_a_save(tmp_path, home):
    (home / "config").mkdir(parents=True)
    settings_file = home / "config" / "settings.json"
    settings_file.write_text(json.dumps({"schema": "diskmark.config/1",
                                         "keymap": {"history": "y"}}))
    target = tmp_path / "target"
    target.mkdir()
    app = DiskmarkApp(str(target), settings=Settings(target=str(target), size=16 * MIB, count=1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert type(app.screen).__name__ == "HistoryScreen"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f1")  # the help shows the user's key, not the default
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(app.screen.query_one(".help-body Static").content)
        lines = [ln for ln in console.export_text().splitlines()
                 if "history of every completed run" in ln]
        assert len(lines) == 1 and lines[0].split()[0] == "y", lines
        await pilot.press("escape")
        await pilot.pause()
        app.set_unit(next(u for u in type(app.unit) if u != app.unit))  # saves the settings
    assert json.loads(settings_file.read_text())["keymap"] == {"history": "y"}
