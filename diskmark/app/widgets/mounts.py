"""What the target picker shows: the mounted filesystems with what each is good for (or why
it cannot be used), a typed path judged before it is accepted, and a directory tree of
directories only. The judging functions are plain and tested directly."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from rich.style import Style
from rich.text import Text, TextType
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.widgets import DataTable, DirectoryTree
from textual.widgets.directory_tree import DirEntry
from textual.widgets.tree import TreeNode

from diskmark.drive.mounts import MountInfo
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shown
from diskmark.model.units import format_bytes

RAM_FS = {"tmpfs", "ramfs"}
NO_DIRECT_FS = {"ramfs"}
#: What a block device is, as diskmark.drive.probe keeps it (the words of the storage stack's
#: layers too), shown in the target picker's Device column
KINDS = {"disk": N_("disk"), "partition": N_("partition")}


# --- what the table shows and how a path is judged (plain functions, tested directly) ----


def device_word(m: MountInfo) -> str:
    """What the Device column says: a mount's device, or what a block device is ("disk",
    "partition": the kind diskmark.drive.probe keeps in English) in the language in use."""
    if m.block_device and m.device in KINDS:
        return _(KINDS[m.device])
    return m.device


def mount_status(m: MountInfo) -> str:
    """"ok", or why the mount cannot be used, plus what to know (RAM, no O_DIRECT); for a
    block device, that it runs the read tests only."""
    # TRANSLATORS: the Status column of the target picker's mounts: short words joined by
    # " · " ("ok · RAM · no O_DIRECT", "device · mounted at /mnt · reads only")
    if m.block_device:
        return " · ".join(x for x in (_("device"), m.reason, _("reads only")) if x)
    if not m.usable:
        return m.reason or _("cannot be used")
    notes = []
    if m.fstype in RAM_FS:
        notes.append(_("RAM"))
    if m.fstype in NO_DIRECT_FS:
        notes.append(_("no O_DIRECT"))
    return " · ".join([_("ok"), *notes])


def free_total(m: MountInfo) -> str:
    if m.block_device:
        return format_bytes(m.total_bytes)
    if m.pseudo or m.total_bytes <= 0:
        return "—"
    free, total = format_bytes(m.free_bytes), format_bytes(m.total_bytes)
    f_num, _sep, f_unit = free.partition(" ")
    t_num, _sep, t_unit = total.partition(" ")
    if f_unit == t_unit:
        return f"{f_num} / {t_num} {t_unit}"
    return f"{free} / {total}"


def mount_of(path: str, mounts: Iterable[MountInfo]) -> MountInfo | None:
    """The mount holding ``path`` (the longest mount point that contains it)."""
    real = os.path.realpath(path)
    best = None
    for m in mounts:
        mp = m.mountpoint.rstrip("/") or "/"
        if real == mp or real.startswith(mp if mp.endswith("/") else mp + "/"):
            if best is None or len(mp) > len(best.mountpoint.rstrip("/") or "/"):
                best = m
    return best


def mount_notes(m: MountInfo | None) -> str:
    if m is None:
        return ""
    if m.fstype in NO_DIRECT_FS:
        return _("ramfs keeps files in RAM and refuses O_DIRECT: it measures memory, "
                 "and runs only buffered")
    if m.fstype in RAM_FS:
        return _("tmpfs keeps files in RAM: it measures memory, not a disk")
    return ""


def check_directory(text: str, mounts: Iterable[MountInfo] = ()) -> tuple[str | None, str]:
    """(absolute path, "") when ``text`` names a usable directory or a block device this
    user may read, else (None, reason)."""
    raw = text.strip()
    if not raw:
        return None, _("Type a directory, or choose a mount or a folder above.")
    path = os.path.abspath(os.path.expanduser(raw))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None, _("{path} does not exist.").format(path=path)
    except PermissionError:
        return None, _("{path} cannot be reached: permission denied.").format(path=path)
    except OSError as e:
        # TRANSLATORS: {error} is the system's message
        return None, _("{path} cannot be used: {error}.").format(path=path, error=e.strerror or e)
    if stat.S_ISBLK(mode):
        if not os.access(path, os.R_OK):
            # TRANSLATORS: {group} is the device's group (disk)
            return None, _("{path} is a block device this user may not read: that needs "
                           "membership of its group ({group}) or root.").format(
                path=path, group=_group(path))
        return path, ""
    if not stat.S_ISDIR(mode):
        if stat.S_ISREG(mode):
            return None, _("{path} is a file; choose a directory.").format(path=path)
        return None, _("{path} is not a directory; choose a directory.").format(path=path)
    m = mount_of(path, mounts)
    if m is not None and m.pseudo:
        if not m.reason:
            return None, _("{path} is on a pseudo filesystem; choose a disk.").format(path=path)
        # TRANSLATORS: {reason} is what the filesystem is ("pseudo filesystem (proc)")
        return None, _("{path} is on a {reason}; choose a disk.").format(path=path,
                                                                      reason=m.reason)
    if m is not None and m.readonly:
        # TRANSLATORS: {mountpoint} is where the filesystem is mounted
        return None, _("{path} is on a read-only filesystem ({mountpoint}).").format(
            path=path, mountpoint=m.mountpoint)
    if m is not None and not m.usable:
        return None, _("{path} is on {mountpoint}, which cannot be used: {reason}.").format(
            path=path, mountpoint=m.mountpoint, reason=m.reason)
    if not os.access(path, os.W_OK | os.X_OK):
        return None, _("{path} is not writable for you; choose a directory you can write to "
                       "(for example one in your home directory).").format(path=path)
    return path, ""


def _group(path: str) -> str:
    import grp

    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (OSError, KeyError):
        # TRANSLATORS: in place of a group's name that could not be read
        return _("disk, usually")


def describe(path: str, m: MountInfo | None) -> str:
    """One line about where ``path`` lives: filesystem, device, model, free space; or what a
    block device is, and that it runs the read tests only."""
    if m is not None and m.block_device and m.mountpoint == os.path.realpath(path):
        parts = [_("block device ({device})").format(device=device_word(m)), m.model,
                 format_bytes(m.total_bytes), m.reason]
        # TRANSLATORS: {details} lists what the device is, its model and size, by commas
        return _("{path}: {details}. Measured itself, read tests only: writes would destroy "
                 "its data (the command line's --destroy-data allows them)").format(
            path=path, details=", ".join(p for p in parts if p))
    if m is None:
        return path
    # TRANSLATORS: {fstype} is a filesystem's type (ext4), {device} its device (/dev/sda1)
    parts = [_("{fstype} on {device}").format(fstype=m.fstype, device=m.device)
             if m.device and m.device != m.fstype else m.fstype]
    if m.model:
        parts.append(m.model)
    if m.total_bytes > 0:
        parts.append(_("{free} free of {total}").format(free=format_bytes(m.free_bytes),
                                                        total=format_bytes(m.total_bytes)))
    return f"{path}: " + ", ".join(parts)


# --- widgets ---------------------------------------------------------------------------


class MountTable(DataTable[str | Text]):
    """Mounted filesystems; Enter or a double click chooses the row."""

    BINDINGS = [Binding("enter", "choose", N_("Use this mount"), show=True)]

    class Chosen(Message):
        def __init__(self, row_key: str) -> None:
            super().__init__()
            self.row_key = row_key

    #: Set once the user moves the cursor (key or click), so that the cursor placed by the
    #: picker when it fills the table does not overwrite the path field.
    user_moved = False

    def on_key(self, event: events.Key) -> None:
        self.user_moved = True

    def action_choose(self) -> None:
        if self.row_count and 0 <= self.cursor_row < self.row_count:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
            if key is not None:
                self.post_message(self.Chosen(key))

    def on_click(self, event: events.Click) -> None:
        # Runs before DataTable's own click handling (which moves the cursor).
        self.user_moved = True
        if event.chain >= 2 and event.style.meta.get("row", -1) >= 0:
            self.action_choose()


class DirectoryPicker(DirectoryTree):
    """A DirectoryTree of directories only (hidden ones left out). Enter or a double click
    chooses the highlighted directory; a single click selects it into the path field."""

    BINDINGS = [
        Binding("enter", "choose", N_("Use this directory"), show=True),
        Binding("right", "expand", N_("Open"), show=False),
        Binding("left", "collapse", N_("Close"), show=False),
        Binding("backspace", "parent", N_("Parent directory"), show=True),
    ]

    class Chosen(Message):
        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def process_label(self, label: TextType) -> Text:
        """Directory names are data: a directory called ``[/]`` is shown as it is named,
        not read as markup (which would end the app)."""
        if isinstance(label, str):
            label = Text(shown(label, one_line=True))
        return super().process_label(label)

    def render_label(self, node: TreeNode[DirEntry], base_style: Style, style: Style) -> Text:
        """The root shows its full path (``~/bench``), not just its name."""
        if node is not self.root or node.data is None:
            return super().render_label(node, base_style, style)
        full = str(node.data.path)
        home = os.path.expanduser("~")
        if home != "/" and (full == home or full.startswith(home + "/")):
            full = "~" + full[len(home):]
        original = node._label
        node._label = self.process_label(full)
        try:
            return super().render_label(node, base_style, style)
        finally:
            node._label = original

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        return [p for p in paths if not p.name.startswith(".") and self._safe_is_dir(p)]

    def _cursor_path(self) -> Path | None:
        node = self.cursor_node
        return node.data.path if node is not None and node.data is not None else None

    def action_choose(self) -> None:
        path = self._cursor_path()
        if path is not None:
            self.post_message(self.Chosen(path))

    def action_expand(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand and not node.is_expanded:
            node.expand()
        elif node is not None and node.children:
            self.action_cursor_down()

    def action_collapse(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded and node is not self.root:
            node.collapse()
        elif node.parent is not None:
            self.move_cursor(node.parent)
        else:
            self.action_parent()

    def action_parent(self) -> None:
        current = Path(self.path).expanduser().resolve()
        if current.parent != current:
            self.path = current.parent

    def on_click(self, event: events.Click) -> None:
        # Runs alongside Tree's own click handling (which moves the cursor and toggles).
        if event.chain >= 2 and "line" in event.style.meta:
            self.action_choose()
