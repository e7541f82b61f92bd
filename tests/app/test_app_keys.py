"""Keys a user types into forms: a fast burst lands in the right fields, the comment can be
reached and left by keys, and the palette offers every selector. The real app, no run."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Input

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.baseline_dialogs import BaselineNameDialog
from diskmark.app.screens.dialogs import SaveFileDialog
from diskmark.model.settings import Settings
from diskmark.model.units import MIB
from diskmark.store.store import Store

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))


def make_app(tmp_path: Path) -> DiskmarkApp:
    target = tmp_path / "target"
    target.mkdir(exist_ok=True)
    return DiskmarkApp(settings=Settings(target=str(target), size=16 * MIB, count=1),
                       persist=False)


def burst(app: DiskmarkApp, keys: list[str]) -> None:
    """Keys as a fast typist's terminal delivers them: all queued before any is handled."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        char = {"tab": "\t", "space": " "}.get(key, key if len(key) == 1 else None)
        event = events.Key(key, char)
        event.set_sender(app)
        driver.send_message(event)


def typed(text: str) -> list[str]:
    return ["space" if ch == " " else ch for ch in text]


@pytest.mark.parametrize("attempt", range(3))
async def test_a_fast_name_tab_note_lands_in_two_fields(tmp_path, attempt):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        chosen = []
        app.push_screen(BaselineNameDialog(Store(), "Save as baseline", name="suggested",
                                           note=""), chosen.append)
        await pilot.pause()
        burst(app, typed("new nvme") + ["tab"] + typed("fw 4B2Q") + ["enter"])
        for _ in range(50):
            await pilot.pause(0.02)
            if chosen:
                break
        assert chosen and chosen[0] is not None
        assert (chosen[0].name, chosen[0].note) == ("new nvme", "fw 4B2Q")


async def test_fast_typing_in_the_save_dialog_then_tab_reaches_the_buttons(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        app.push_screen(SaveFileDialog("Save", "report.txt", tmp_path))
        await pilot.pause()
        burst(app, typed("abc") + ["tab"] + typed("xyz"))
        await pilot.pause(0.2)
        assert app.screen.query_one(Input).value == "abc.txt"


async def test_the_comment_is_reached_and_left_by_keys(tmp_path):
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        comment = app.query_one("#comment", Input)
        await pilot.press("n")
        assert app.focused is comment
        await pilot.press(*typed("fw 2"))
        assert comment.value == "fw 2" and app.state.comment == "fw 2"
        await pilot.press("escape")
        assert app.focused is not comment
        assert app.state.comment == "fw 2"  # leaving keeps what was typed
        await pilot.press("o")  # a shortcut works again: the settings open
        await pilot.pause()
        assert type(app.screen).__name__ == "SettingsScreen"


async def test_the_palette_has_count_size_and_comment_and_counts_right(tmp_path):
    from diskmark.app.commands import commands

    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        titles = {c[0]: c for c in commands(app)}
        assert "Count: 3" in titles and "Size: 128MiB" in titles and "Size: 64GiB" in titles
        assert "Comment…" in titles
        helps = {c[1] for c in commands(app)}
        assert not any("1 tests" in h for h in helps), helps
        assert any(h.startswith("1 test:") for h in helps)
        titles["Count: 3"][2]()
        titles["Size: 128MiB"][2]()
        await pilot.pause()
        assert app.state.settings.count == 3 and app.state.settings.size == 128 * MIB
        titles["Comment…"][2]()
        await pilot.pause()
        assert app.focused is app.query_one("#comment")


class DrawsAtOnce(DiskmarkApp):
    """The app as a terminal starts it (it does not wait for its main screen while it
    mounts), with keys the user typed ahead queued before the main screen has composed."""

    CSS_PATH = str(Path(sys.modules[DiskmarkApp.__module__].__file__).parent / DiskmarkApp.CSS_PATH)
    wait_for_main = False
    early: list[bool] = []

    async def on_mount(self) -> None:
        await super().on_mount()
        self.early.append(not self._main_up)
        key = events.Key("n", "n")  # n: into the comment, which must be there
        key.set_sender(self)
        self._driver.send_message(key)


async def test_keys_typed_before_the_window_is_up_wait_for_it(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    app = DrawsAtOnce(settings=Settings(target=str(target), size=16 * MIB, count=1),
                      persist=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            if app.focused is not None and app.focused.id == "comment":
                break
            await pilot.pause(0.02)
        assert app.early == [True], "the key was queued before the main screen was up"
        assert app.return_code is None, "the app crashed"
        assert app.focused is not None and app.focused.id == "comment", (
            f"n was lost: the focus is on {app.focused!r}")


async def test_the_garbage_collector_is_on_once_the_window_is_up(tmp_path):
    """diskmark.launch turns the collector off while the modules load and cmd_app leaves it
    off for the first frame: the main screen turns it on once it is drawn, or a long session
    would never free a reference cycle."""
    import gc
    import time

    target = tmp_path / "target"
    target.mkdir()
    app = DrawsAtOnce(settings=Settings(target=str(target), size=16 * MIB, count=1),
                      persist=False)
    gc.disable()
    try:
        async with app.run_test(size=SIZE) as pilot:
            deadline = time.monotonic() + 30  # a busy machine draws the first frame late
            while not gc.isenabled() and time.monotonic() < deadline:
                await pilot.pause(0.02)
            assert app._main_up, "the main screen never came up"
            assert gc.isenabled(), "the collector is still off after the first frame"
    finally:
        gc.enable()


async def test_a_key_that_arrives_as_the_app_closes_is_dropped(tmp_path):
    """A key typed (or a key typed early, replayed) while the app closes finds no screen:
    it is dropped instead of ending the app with a traceback."""
    app = DrawsAtOnce(settings=Settings(target=str(tmp_path), size=16 * MIB, count=1),
                      persist=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.1)
        while app.screen_stack:  # what closing does first
            app._screen_stack.pop()
        key = events.Key("n", "n")
        key.set_sender(app)
        await app.on_event(key)
        app._screen_stack.append(app.main)  # for run_test's own ending
    assert app.return_code in (None, 0)
