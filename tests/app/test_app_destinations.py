"""The app's files follow the rule of every file diskmark writes (diskmark.files.destination),
as `run --output` does: the save dialog writes into a FIFO or a character device without
asking to replace it (and never puts a file in its place), refuses a missing directory and a
dangling link in the words the command line uses, and asks only before replacing a file;
screenshots take a name nothing has, never writing into a FIFO that has theirs. A real run's
events played back (tests/support/replay.py), a real FIFO read by a thread, a real device
node (a private copy of /dev/null)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from destinations import FifoReader, is_null_node, make_null_node
from test_app_baselines import SIZE, home, make_app, on_screen, run, target, wait_until  # noqa: F401
from textual.widgets import Input, Static

from diskmark.app.screens.dialogs import ConfirmDialog, SaveFileDialog
from diskmark.files.paths import reports_dir


async def save_to(pilot, path: Path) -> None:
    """s, the path typed, Enter."""
    await pilot.press("s")
    await on_screen(pilot, SaveFileDialog, "the save dialog")
    pilot.app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()


def problem(app) -> str:
    rendered = app.screen.query_one("#problem", Static).render()
    return getattr(rendered, "plain", None) or str(rendered)


async def test_the_save_dialog_writes_into_streams_and_refuses_what_the_cli_refuses(target,
                                                                                    tmp_path):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await run(pilot, "#row-0")

        fifo = tmp_path / "report.fifo"
        reader = FifoReader(fifo)
        await save_to(pilot, fifo)
        await wait_until(pilot, lambda: not isinstance(app.screen, SaveFileDialog), 5,
                         "the dialog to close without asking")
        assert b"[Read]" in reader.received(10)
        assert stat.S_ISFIFO(os.lstat(fifo).st_mode)

        if os.geteuid() == 0:
            node = make_null_node(tmp_path / "null.txt")
            await save_to(pilot, node)
            await wait_until(pilot, lambda: not isinstance(app.screen, SaveFileDialog), 5,
                             "the dialog to close without asking")
            await pilot.pause(0.3)
            assert is_null_node(node), "the device node was replaced by a file"
        else:
            print("not root: no device node to write into (mknod needs root)")

        missing = tmp_path / "no-such-dir" / "report.txt"
        await save_to(pilot, missing)
        assert isinstance(app.screen, SaveFileDialog)
        assert f"the directory {missing.parent} does not exist" in problem(app)
        assert not missing.parent.exists()

        dangling = tmp_path / "dangling.txt"
        dangling.symlink_to(tmp_path / "nowhere.txt")
        app.screen.query_one(Input).value = str(dangling)
        await pilot.press("enter")
        await pilot.pause()
        assert "symbolic link" in problem(app) and not (tmp_path / "nowhere.txt").exists()

        mine = tmp_path / "mine.txt"
        mine.write_text("mine")
        app.screen.query_one(Input).value = str(mine)
        await pilot.press("enter")
        await on_screen(pilot, ConfirmDialog, "the question before replacing a file")
        await pilot.click("#no")
        await pilot.pause()
        assert mine.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


async def test_a_screenshot_never_writes_into_a_fifo_that_has_its_name(target, monkeypatch):
    shots = reports_dir()
    shots.mkdir(parents=True)
    monkeypatch.setattr("diskmark.app.reporting._stamp", lambda: "20260101-000000")
    fifo = shots / "diskmark-20260101-000000.svg"
    os.mkfifo(fifo)  # nobody reads it: writing into it would hang or fail
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"Save SVG screenshot")
        await pilot.pause(0.3)
        await pilot.press("enter")
        taken = shots / "diskmark-20260101-000000-2.svg"
        await wait_until(pilot, taken.exists, 10, "the screenshot under a free name")
    assert "<svg" in taken.read_text()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)

