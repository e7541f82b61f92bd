"""The Queues & Threads settings, driven by keys and the mouse as a user would: a row changed
to RND4K Q64T4 and saved as "mine" is the grid's row at once, a TOML file the command line
runs (real fio, a tiny run) and lists; a reset to NVMe SSD brings its rows back; a name a
shell would not read as itself, a built-in's name and a read-only config directory are said
in the dialog; a user preset is replaced only once asked. Opened from the settings and the
palette."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import wait_until
from mounts import _mounted, can_loop_mount
from rich.cells import cell_len
from textual.widgets import Button, Input, Label, Select

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.dialogs import ConfirmDialog
from diskmark.app.screens.queues_threads import QueuesThreadsScreen
from diskmark.app.screens.settings import SettingsScreen
from diskmark.locale import LANGUAGES, set_language
from diskmark.model.results import TestSpec
from diskmark.model.settings import Settings
from diskmark.model.units import KIB, MIB
from diskmark.presets import load_catalog
from diskmark.presets.words import said_name

SIZE = (120, 40)


@pytest.fixture
def home(isolated_home) -> Path:
    return Path(isolated_home)


def make_app(tmp_path: Path, **settings) -> DiskmarkApp:
    target = tmp_path / "target"
    target.mkdir(exist_ok=True)
    return DiskmarkApp(settings=Settings(target=str(target), size=16 * MIB, count=1, **settings),
                       persist=False)


def diskmark(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120)


async def open_editor(pilot) -> QueuesThreadsScreen:
    """From the settings, by its button (the mouse)."""
    app = pilot.app
    await pilot.press("o")
    await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), 20, "the settings")
    await pilot.click("#queues-threads")
    return await editor_up(pilot)


async def editor_up(pilot) -> QueuesThreadsScreen:
    app = pilot.app
    await wait_until(pilot, lambda: isinstance(app.screen, QueuesThreadsScreen)
                     and app.screen.query("#name"), 20, "the editor")
    return app.screen


async def choose(pilot, select_id: str, value) -> None:
    """Pick ``value`` in a Select by keys: focus it, open its list, arrow to it, Enter."""
    screen = pilot.app.screen
    select = screen.query_one(f"#{select_id}", Select)
    # Enter goes to the focused widget: the focus is asked again until it has moved (asked
    # as a screen is still coming up, a loaded machine dropped it)
    await wait_until(pilot, lambda: select.has_focus or (select.focus() and False), 20,
                     f"{select_id} focused")
    await pilot.press("enter")
    await wait_until(pilot, lambda: select.expanded, 20, f"{select_id}'s list")
    values = [v for _label, v in select._options]
    steps = values.index(value) - values.index(select.value)
    for _ in range(abs(steps)):
        await pilot.press("down" if steps > 0 else "up")
    await pilot.press("enter")
    await wait_until(pilot, lambda: select.value == value, 20, f"{select_id} = {value}")


async def type_name(pilot, name: str) -> None:
    field = pilot.app.screen.query_one("#name", Input)
    field.focus()
    field.value = ""
    await pilot.press(*name)


def row_labels(app: DiskmarkApp) -> list[str]:
    return [" ".join(str(button.label).split()) for button in app.main.grid.row_buttons]


def problem(app: DiskmarkApp) -> str:
    return " ".join(str(app.screen.query_one("#problem").render()).split())


@pytest.mark.slow
async def test_a_row_changed_to_rnd4k_q64t4_and_saved_is_the_grid_a_file_and_a_run(
        home, tmp_path, no_leftovers):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await open_editor(pilot)
        assert editor.query_one("#label-default-0").render().plain == "SEQ1M Q8T1"
        await choose(pilot, "pattern-default-0", "RND")
        await choose(pilot, "block-default-0", 4 * KIB)
        await choose(pilot, "queues-default-0", 64)
        await choose(pilot, "threads-default-0", 4)
        # the row is labelled as the grid will label it, as it changes
        assert editor.query_one("#label-default-0").render().plain == "RND4K Q64T4"
        for field in ("pattern", "block", "queues", "threads"):  # Demo's one row, the same
            await choose(pilot, f"{field}-demo-0",
                         {"pattern": "RND", "block": 4 * KIB, "queues": 64, "threads": 4}[field])
        await type_name(pilot, "mine")
        await pilot.click("#save")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), 5,
                         "the editor to close")
        # used at once: the grid's first row, the settings form beneath, the state
        assert app.state.settings.preset == "mine"
        await wait_until(pilot, lambda: row_labels(app)[:1] == ["RND4K Q64T4"], 5,
                         "the grid's new row")
        assert row_labels(app) == ["RND4K Q64T4", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"]
        assert app.screen.query_one("#preset", Select).value == "mine"
        await pilot.press("escape")
    saved = home / "config" / "presets" / "mine.toml"
    assert saved.is_file()
    assert '{ pattern = "RND", block = "4KiB", queues = 64, threads = 4 }' in saved.read_text()
    listed = diskmark("presets")
    assert listed.returncode == 0 and "mine: mine" in listed.stdout, listed.stdout
    target = tmp_path / "target"
    no_leftovers.append(target)
    run = diskmark("run", "--target", str(target), "--preset", "mine", "--profile", "demo",
                   "--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0",
                   "--mode", "read", "--format", "json", "--quiet")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["settings"]["preset"] == "mine"
    [test] = result["tests"]
    assert test["label"] == "RND4K Q64T4" and test["best"]["iops"] > 0
    assert "--iodepth=64" in test["fio_command"] and "--numjobs=4" in test["fio_command"]


async def test_reset_to_nvme_ssd_brings_its_rows_and_saves_them(home, tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.action_queues_threads()  # the palette's entry
        editor = await editor_up(pilot)
        await choose(pilot, "queues-default-1", 512)
        await choose(pilot, "measure", 1.0)
        await pilot.click("#reset-nvme")
        await pilot.pause()
        nvme = load_catalog().get("nvme")
        form = editor.form_rows()
        for pid in ("default", "peak", "demo"):
            assert form.tests[pid] == nvme.profiles[pid].tests, pid
        assert (form.measure, form.interval) == (nvme.measure, nvme.interval)
        assert editor.query_one("#label-default-1").render().plain == "SEQ128K Q32T1"
        await pilot.click("#reset-flash")
        await pilot.pause()
        assert (editor.form_rows().measure, editor.form_rows().interval) == (1.0, 30.0)
        await pilot.click("#reset-nvme")
        await type_name(pilot, "fast")
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is app.main, 20, "the editor to close")
        await wait_until(pilot, lambda: row_labels(app)[1:2] == ["SEQ128K Q32T1"], 20, "rows")
        assert row_labels(app) == ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"]
        assert app.state.plan_times() == (5.0, 5.0)
    assert load_catalog().get("fast").profiles["peak"].tests[1] == TestSpec("RND", 4 * KIB, 32, 16)


@contextlib.contextmanager
def read_only_config(home: Path) -> Iterator[Path]:
    """DISKMARK_HOME's config directory, read-only: a tmpfs mounted read-only for root (who
    ignores permissions), a directory without write permission for anyone else."""
    config = home / "config"
    config.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        config.chmod(0o555)
        try:
            yield config
        finally:
            config.chmod(0o755)
        return
    ok, why = can_loop_mount("tmpfs")
    if not ok:
        pytest.skip(f"no read-only mount for root: {why}")
    with _mounted(config, ["-t", "tmpfs", "-o", "ro,size=1m", "tmpfs"]):
        yield config


async def test_what_cannot_be_saved_is_said_in_the_dialog(home, tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await open_editor(pilot)
        await choose(pilot, "threads-default-0", 4)
        for name, words in (("", "Type a name"), ("nvme", "built-in preset"),
                            ("default", "built-in preset"),
                            ("$(reboot)", "a shell would not read it as it is"),
                            ("two words", "a shell would not read it as it is"),
                            ("-x", "a shell would not read it as it is"),
                            ("a/b", "a shell would not read it as it is")):
            app.screen.query_one("#name", Input).value = name  # typed in the other tests
            await pilot.click("#save")
            await wait_until(pilot, lambda w=words: w in problem(app), 20, words)
            assert isinstance(app.screen, QueuesThreadsScreen)
        with read_only_config(home) as config:
            await type_name(pilot, "mine")
            await pilot.click("#save")
            await wait_until(pilot, lambda: "read-only" in problem(app), 20, "read-only")
            assert str(config) in problem(app) and "presets" in problem(app)
            assert isinstance(app.screen, QueuesThreadsScreen)
            assert app.state.settings.preset == "default"
            assert not (config / "presets").exists()


async def test_a_user_preset_is_replaced_only_once_asked(home, tmp_path):
    presets = home / "config" / "presets"
    presets.mkdir(parents=True)
    (presets / "mine.toml").write_text(
        'id = "mine"\n[profiles.default]\n'
        'tests = [{ pattern = "SEQ", block = "1MiB", queues = 2, threads = 1 },\n'
        '  { pattern = "SEQ", block = "1MiB", queues = 1, threads = 1 },\n'
        '  { pattern = "RND", block = "12KiB", queues = 3, threads = 1 },\n'
        '  { pattern = "RND", block = "4KiB", queues = 1, threads = 1 }]\n')
    before = (presets / "mine.toml").read_text()
    app = make_app(tmp_path, preset="mine")
    async with app.run_test(size=SIZE) as pilot:
        app.action_queues_threads()
        editor = await editor_up(pilot)
        # its name is offered again, and its values off CrystalDiskMark's lists are shown
        assert editor.query_one("#name", Input).value == "mine"
        assert editor.query_one("#label-default-2").render().plain == "RND12K Q3T1"
        assert (editor.query_one("#block-default-2", Select).value,
                editor.query_one("#queues-default-2", Select).value) == (12 * KIB, 3)
        await choose(pilot, "queues-default-0", 16)
        await pilot.click("#save")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), 20, "the question")
        assert "mine" in app.screen.question and str(presets / "mine.toml") in app.screen.question
        await pilot.click("#no")
        await wait_until(pilot, lambda: app.screen is editor, 20, "back to the editor")
        assert (presets / "mine.toml").read_text() == before
        await pilot.click("#save")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), 20, "the question")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: app.screen is app.main, 20, "the editor to close")
        await wait_until(pilot, lambda: row_labels(app)[:1] == ["SEQ1M Q16T1"], 20, "the row")
    assert load_catalog().get("mine").profiles["default"].tests[0].queues == 16


@pytest.mark.parametrize("language", [code for code in LANGUAGES if code != "en"])
async def test_every_field_fits_its_box_at_80x24_in_every_language(tmp_path, language):
    """The compact layout in German words and Japanese characters: no header cut, nothing
    drawn outside the dialog, the dialog inside the window."""
    set_language(language)
    try:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            app.action_queues_threads()
            editor = await editor_up(pilot)
            editor.query_one("#name", Input).value = "$(x)"
            await pilot.click("#save")  # the longest sentence it says, on its three lines
            await wait_until(pilot, lambda: problem(app) != "", 20, "the refusal")
            await pilot.pause()
            box = editor.query_one(".dialog-box").region
            assert editor.region.contains_region(box)
            for widget in editor.query(".dialog-box *"):
                if widget.display and widget.region.area:
                    assert box.contains_region(widget.region), widget
            for head in editor.query(".qt-head").results(Label):
                text = str(head.render())
                assert cell_len(text) <= head.region.width, (text, head.region.width)
            # the profiles and the reset buttons named as the rest of the window names them
            names = [str(x.render()) for x in editor.query(".qt-profile") if str(x.render())]
            resets = [str(b.label) for b in editor.query(".qt-reset").results(Button)]
            assert all(name in (said_name(n), said_name(n, short=True)) for name, n in zip(
                names, ("Default", "Peak Performance", "Real World Performance", "Demo"),
                strict=True)), names
            assert resets == [said_name(n) for n in ("Default", "NVMe SSD", "Flash Memory")]
    finally:
        set_language("en")
