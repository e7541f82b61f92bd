"""The target picker: mounts with reasons, a checked path field, a directory tree."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.widgets import Button, Input, Static

from diskmark.app.screens.target_picker import TargetPicker
from diskmark.app.themes import load_themes, variable_defaults
from diskmark.app.widgets.mounts import (
    DirectoryPicker,
    MountTable,
    check_directory,
    describe,
    free_total,
    mount_of,
    mount_status,
)
from diskmark.drive import probe as system
from diskmark.drive.mounts import MountInfo

GIB = 1024**3


class Host(App):
    """A tiny app that opens the picker and records what it returns."""

    def __init__(self, current: str | None = None, theme: str | None = None) -> None:
        super().__init__()
        self.current = current
        self.wanted_theme = theme
        self.results: list[str | None] = []

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return variable_defaults(self.current_theme)

    def compose(self) -> ComposeResult:
        yield Static("host")

    def on_mount(self) -> None:
        for theme in load_themes()[0]:
            self.register_theme(theme)
        if self.wanted_theme:
            self.theme = self.wanted_theme
        self.push_screen(TargetPicker(self.current), self.results.append)


async def ready(pilot) -> TargetPicker:
    """Wait until the picker has read the mounts and its tree has loaded."""
    for _ in range(100):
        await pilot.pause(0.02)
        screen = pilot.app.screen
        if isinstance(screen, TargetPicker) and screen.loaded:
            tree = screen.query_one(DirectoryPicker)
            if tree.root.children or not list(tree.filter_paths(Path(tree.path).iterdir())):
                return screen
    raise AssertionError("the picker did not finish loading")


def mount(mountpoint="/mnt/x", fstype="ext4", **kw) -> MountInfo:
    d = dict(mountpoint=mountpoint, device="/dev/sdb1", fstype=fstype, options="rw",
             total_bytes=100 * GIB, free_bytes=40 * GIB, model="Samsung SSD 870",
             rotational=False, readonly=False, pseudo=False, usable=True, reason="")
    d.update(kw)
    return MountInfo(**d)


# --- plain functions -------------------------------------------------------------------


def test_mount_status():
    assert mount_status(mount()) == "ok"
    assert mount_status(mount(fstype="tmpfs")) == "ok · RAM"
    assert mount_status(mount(fstype="ramfs")) == "ok · RAM · no O_DIRECT"
    assert mount_status(mount(readonly=True, usable=False, reason="read-only")) == "read-only"
    assert mount_status(mount(fstype="proc", pseudo=True, usable=False,
                              reason="pseudo filesystem (proc)")) == "pseudo filesystem (proc)"


def test_free_total():
    assert free_total(mount()) == "40.0 / 100.0 GiB"
    assert free_total(mount(free_bytes=512 * 1024**2)) == "512.0 MiB / 100.0 GiB"
    assert free_total(mount(fstype="ramfs", total_bytes=0, free_bytes=0)) == "—"
    assert free_total(mount(pseudo=True)) == "—"


def test_mount_of_picks_the_longest_mount_point():
    mounts = [mount("/"), mount("/mnt"), mount("/mnt/x"), mount("/mnt/xy")]
    assert mount_of("/mnt/x/deep/dir", mounts).mountpoint == "/mnt/x"
    assert mount_of("/mnt/x", mounts).mountpoint == "/mnt/x"
    assert mount_of("/mnt/xyz", mounts).mountpoint == "/mnt"
    assert mount_of("/etc", mounts).mountpoint == "/"
    assert mount_of("/etc", []) is None


def test_check_directory(tmp_path, monkeypatch):
    assert check_directory(str(tmp_path)) == (str(tmp_path), "")
    assert check_directory(f"  {tmp_path}  ") == (str(tmp_path), "")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rel").mkdir()
    assert check_directory("rel") == (str(tmp_path / "rel"), "")

    path, why = check_directory("")
    assert path is None and "Type a directory" in why
    path, why = check_directory(str(tmp_path / "missing"))
    assert path is None and why == f"{tmp_path / 'missing'} does not exist."
    (tmp_path / "file").write_text("x")
    path, why = check_directory(str(tmp_path / "file"))
    assert path is None and "is a file" in why

    # a pseudo filesystem is refused even where root could write
    proc = mount("/proc", fstype="proc", pseudo=True, usable=False,
                 reason="pseudo filesystem (proc)")
    path, why = check_directory("/proc", [mount("/"), proc])
    assert path is None and "pseudo filesystem (proc)" in why


def test_check_directory_not_writable(tmp_path, monkeypatch):
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if str(p) == str(tmp_path)
                        else real_access(p, mode))
    path, why = check_directory(str(tmp_path))
    assert path is None and "not writable" in why
    ro = mount(str(tmp_path), readonly=True, usable=False, reason="read-only")
    path, why = check_directory(str(tmp_path), [ro])
    assert path is None and "read-only" in why


def test_home_is_shortened_in_messages_but_not_in_results(tmp_path):
    m = mount()
    assert describe("/mnt/x/a", m) == ("/mnt/x/a: ext4 on /dev/sdb1, Samsung SSD 870, "
                                       "40.0 GiB free of 100.0 GiB")
    assert describe("/dev/shm", mount(fstype="tmpfs", device="tmpfs", model="")).startswith(
        "/dev/shm: tmpfs, ")


# --- the screen ------------------------------------------------------------------------------


async def test_typed_directory_is_chosen(tmp_path):
    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        field = app.screen.query_one("#path", Input)
        field.focus()
        field.value = ""
        await pilot.press(*str(tmp_path))
        await pilot.press("enter")
        await pilot.pause()
        assert app.results == [str(tmp_path)]
        assert not isinstance(app.screen, TargetPicker)


async def test_invalid_path_shows_the_reason_and_stays_open(tmp_path):
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await ready(pilot)
        field = picker.query_one("#path", Input)
        field.focus()
        field.value = str(tmp_path / "nope")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is picker and app.results == []
        message = str(picker.query_one("#message", Static).render())
        assert f"{tmp_path / 'nope'} does not exist." in message
        assert field.has_class("-invalid")
        assert picker.query_one("#message").has_class("-error")
        # a file is refused too, and the Use button checks the same way
        (tmp_path / "f").write_text("x")
        field.value = str(tmp_path / "f")
        await pilot.click("#use")
        await pilot.pause()
        assert app.results == [] and "is a file" in str(picker.query_one("#message").render())
        # typing again clears the error state; a good path then goes through the button
        field.value = str(tmp_path)
        await pilot.pause()
        assert not field.has_class("-invalid")
        await pilot.click("#use")
        await pilot.pause()
        assert app.results == [str(tmp_path)]


async def test_mount_table_lists_the_mount_of_tmp_path(tmp_path):
    holder = mount_of(str(tmp_path), system.list_mounts())
    assert holder is not None
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await ready(pilot)
        table = picker.query_one(MountTable)
        keys = [row.key.value for row in table.ordered_rows]
        assert holder.mountpoint in keys
        assert "/" in keys
        # the cursor starts on the mount of the current target
        assert keys[table.cursor_row] == holder.mountpoint
        status = table.get_row(holder.mountpoint)[-1]
        assert str(status).startswith("ok")
        # pseudo filesystems appear on request, with their reason
        assert "/proc" not in keys
        await pilot.press("p")
        await pilot.pause()
        keys = [row.key.value for row in table.ordered_rows]
        assert "/proc" in keys
        assert "pseudo filesystem" in str(table.get_row("/proc")[-1])
        await pilot.press("p")
        await pilot.pause()
        assert "/proc" not in [row.key.value for row in table.ordered_rows]


async def test_enter_on_a_mount_row_chooses_it(tmp_path):
    holder = mount_of(str(tmp_path), system.list_mounts())
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await ready(pilot)
        assert picker.query_one(MountTable).has_focus
        await pilot.press("enter")
        await pilot.pause()
    if os.access(holder.mountpoint, os.W_OK | os.X_OK):
        assert app.results == [holder.mountpoint]
    else:  # a normal user cannot write to "/": the picker says so and stays open
        assert app.results == []


async def test_enter_on_an_unusable_mount_explains(tmp_path):
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await ready(pilot)
        await pilot.press("p")
        await pilot.pause()
        table = picker.query_one(MountTable)
        table.move_cursor(row=table.get_row_index("/proc"))
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is picker and app.results == []
        assert "/proc cannot be used: pseudo filesystem" in str(
            picker.query_one("#message").render())


async def test_browsing_the_tree_and_choosing_a_directory(tmp_path):
    (tmp_path / "alpha").mkdir()
    (tmp_path / "beta").mkdir()
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "afile.txt").write_text("x")
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await ready(pilot)
        tree = picker.query_one(DirectoryPicker)
        names = [str(n.label) for n in tree.root.children]
        assert names == ["alpha", "beta"]  # directories only, hidden ones left out
        tree.focus()
        await pilot.pause()
        await pilot.press("down")  # root -> alpha
        await pilot.pause()
        assert picker.query_one("#path", Input).value == str(tmp_path / "alpha")
        await pilot.press("down", "enter")
        await pilot.pause()
        assert app.results == [str(tmp_path / "beta")]


async def test_backspace_in_the_tree_goes_to_the_parent(tmp_path):
    sub = tmp_path / "sub"
    sub.mkdir()
    app = Host(current=str(sub))
    async with app.run_test(size=(120, 40)) as pilot:
        picker = await ready(pilot)
        tree = picker.query_one(DirectoryPicker)
        assert Path(tree.path) == sub
        tree.focus()
        await pilot.press("backspace")
        for _ in range(50):
            await pilot.pause(0.02)
            if tree.root.children:
                break
        assert Path(tree.path) == tmp_path
        assert "sub" in [str(n.label) for n in tree.root.children]


async def test_escape_cancels(tmp_path):
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await ready(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.results == [None]


async def test_cancel_button(tmp_path):
    app = Host(current=str(tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await ready(pilot)
        await pilot.click("#cancel")
        await pilot.pause()
        assert app.results == [None]


@pytest.mark.parametrize("theme", ["diskmark", "diskmark-dark", "diskmark-contrast",
                                   "diskmark-mono", "textual-light"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_fits_and_keeps_the_essentials_visible(tmp_path, theme, size):
    app = Host(current=str(tmp_path), theme=theme)
    async with app.run_test(size=size) as pilot:
        picker = await ready(pilot)
        for selector in ("#mounts", "#tree", "#path", "#use", "#cancel", "#message"):
            widget = picker.query_one(selector)
            region = widget.region
            assert region.width > 0 and region.height > 0, (selector, region)
            assert region.right <= size[0] and region.bottom <= size[1], (selector, region)
        assert picker.query_one("#use", Button).region.height == 3
        assert picker.has_class("-short") == (size[1] < 30)
