"""The key lists a user reads (the help screen, docs/app.md's table of binding ids) against
the bindings the app really has, and a keymap from the settings file remapping them."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from rich.console import Console

from diskmark.app.app import DiskmarkApp
from diskmark.app.core.keymap import resolve
from diskmark.app.screens.help import KEYS, spelled
from diskmark.model.settings import Settings
from diskmark.model.units import MIB
from diskmark.store.app_settings import parse_config

README = Path(__file__).resolve().parents[2] / "docs" / "app.md"
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
    cfg, problems = parse_config({"schema": "diskmark.config/1", "keymap": {"run_all": 5}})
    assert cfg.keymap is None and problems and "keymap" in problems[0]
    # a key that is no key is the keymap's to name and ignore, not a damaged file
    cfg, problems = parse_config({"schema": "diskmark.config/1", "keymap": {"run_all": "r; rm"}})
    assert problems == [] and cfg.keymap == {"run_all": "r; rm"}
    assert resolve(cfg.keymap).keys["run_all"] == ("a",)


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
        app.set_unit(next(u for u in type(app.state.unit) if u != app.state.unit))  # saves the settings
    assert json.loads(settings_file.read_text())["keymap"] == {"history": "y"}


def write_keymap(home: Path, keymap: dict[str, str]) -> Path:
    (home / "config").mkdir(parents=True, exist_ok=True)
    path = home / "config" / "settings.json"
    path.write_text(json.dumps({"schema": "diskmark.config/1", "keymap": keymap}))
    return path


def notices(app: DiskmarkApp) -> list[str]:
    return [n.message for n in app._notifications]


def test_the_readme_keymap_example_binds_no_key_twice():
    """The README's own example gave s to stop, silently taking it from Save."""
    from diskmark.app.core.keymap import resolve

    text = README.read_text()
    example = re.search(r'"keymap": (\{[^}]*\})', text)
    assert example, "the README shows a keymap"
    keymap = resolve(json.loads(example.group(1)))
    assert keymap.problems == (), keymap.problems


async def test_a_conflict_and_an_unknown_id_are_told_at_start(tmp_path, home):
    """Issue 22, item 4: the README's old example ("stop": "escape,s") and a mistyped id."""
    settings_file = write_keymap(home, {"stop": "escape,s", "run_al": "r"})
    target = tmp_path / "target"
    target.mkdir()
    app = DiskmarkApp(str(target), settings=Settings(target=str(target), size=16 * MIB, count=1),
                      persist=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        told = notices(app)
        await pilot.press("s")  # stop wins: s no longer saves the report
        await pilot.pause()
        assert type(app.screen).__name__ == "MainScreen", app.screen
    conflict = [n for n in told if "s is bound to both stop" in n]
    assert len(conflict) == 1, told
    assert (f"In {settings_file}, s is bound to both stop (stop the run) and save_report (save "
            f"the text report): stop wins, as the keymap gives s to it, and save_report has no "
            f"key left") in conflict[0]
    assert 'give save_report a key of its own in the keymap, such as "save_report": "S"' in conflict[0]
    unknown = [n for n in told if "run_al" in n]
    assert len(unknown) == 1, told
    assert "“run_al”, which is not a binding id, so it is ignored. Did you mean “run_all”?" in unknown[0]
    assert "The binding ids are: run_all, stop, stop_ctrl_c," in unknown[0]
    assert all(b.id in unknown[0] for b in DiskmarkApp.BINDINGS)  # type: ignore[union-attr]


async def test_every_text_that_names_a_key_names_the_remapped_one(tmp_path, home):
    from fakes import FakeEngine, facts
    from textual.widgets import Input
    from textual.widgets._footer import FooterKey

    from diskmark.app.commands import commands

    write_keymap(home, {"run_all": "r", "help": "f1", "save_baseline": "S",
                        "save_report": "ctrl+r", "show_comparison": "V", "compare_with": "y",
                        "edit_comment": "k", "pick_target": "T", "cycle_unit": "U"})
    engine = FakeEngine()
    app = DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, persist=False,
                      settings=Settings(target="/mnt/data", size=16 * MIB, count=1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert notices(app) == []  # a sound keymap: nothing to tell
        # the idle line, the footer, the tooltips, the comment's placeholder, the palette
        assert app.main.status.message.startswith("Ready · r or All runs every test · F1 lists the keys")
        footer = {k.action: k.key_display for k in app.screen.query(FooterKey)}
        assert footer["run_all"] == "r" and footer["save_report"] == "^r", footer
        assert "(r)" in str(app.query_one("#all").tooltip)
        assert "(T)" in str(app.query_one("#target").tooltip)
        assert "U cycles" in str(app.query_one("#unit").tooltip)
        assert "k to type" in app.query_one("#comment", Input).placeholder
        comment = next(c for c in commands(app) if c[0] == "Comment…")
        assert "(k)" in comment[1]
        # notices before anything is measured
        await pilot.press("S")
        await pilot.pause()
        await pilot.press("V")
        await pilot.pause()
        told = "\n".join(notices(app))
        assert "press r (All) or a row button first, then S saves the result" in told, told
        assert "Choose a baseline to compare with first (y)." in told, told
        # the help
        await pilot.press("f1")
        await pilot.pause()
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(app.screen.query_one(".help-body Static").content)
        help_text = console.export_text()
        assert "unit: MB/s, GB/s, IOPS, µs (U cycles)" in help_text
        run_line = next(ln for ln in help_text.splitlines() if "run every test" in ln)
        assert run_line.split()[0] == "r", run_line
        await pilot.press("escape")
        await pilot.pause()
        # the line after a run
        await pilot.press("r")
        for _ in range(200):
            if app.state.history and not app.state.running:
                break
            await pilot.pause(0.02)
        await pilot.pause()
        finished = app.main.status.message
    assert "S saves it as a baseline · ctrl+r saves the report" in finished, finished
    for default in (" a or All", "B saves", "s saves", "(x)", "(a)", "(t)", "n to type",
                    "(u cycles)"):
        assert default not in finished + told + help_text, default
