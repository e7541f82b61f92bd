"""Choose where to benchmark: a mounted filesystem, a typed directory, or a browsed one.

The mounts table says for each filesystem why it cannot be used (read-only, pseudo
filesystem) or what to know about it (RAM for tmpfs and ramfs, no O_DIRECT for ramfs). A
typed or browsed directory is checked before it is accepted: it must exist, be a directory,
be writable and not sit on a pseudo filesystem; otherwise the reason shows inline and the
picker stays open. Dismisses with the absolute directory path, or None on Escape.

Keys: Enter on a mount row, on a directory in the tree or in the path field chooses it;
a single click only highlights (and fills the path field), a double click chooses; Space
or → expands a directory, ← collapses, Backspace shows the parent directory; ``p`` shows
or hides pseudo filesystems; Escape cancels.
"""

from __future__ import annotations

import asyncio
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, DirectoryTree, Footer, Input, Label, Static

from diskmark import system
from diskmark.app.widgets.plain import PlainStatic
from diskmark.formatting import format_bytes
from diskmark.display import shown

RAM_FS = {"tmpfs", "ramfs"}
NO_DIRECT_FS = {"ramfs"}


# --- what the table shows and how a path is judged (plain functions, tested directly) ----


def mount_status(m: system.MountInfo) -> str:
    """"ok", or why the mount cannot be used, plus what to know (RAM, no O_DIRECT)."""
    if not m.usable:
        return m.reason or "cannot be used"
    notes = []
    if m.fstype in RAM_FS:
        notes.append("RAM")
    if m.fstype in NO_DIRECT_FS:
        notes.append("no O_DIRECT")
    return " · ".join(["ok"] + notes) if notes else "ok"


def free_total(m: system.MountInfo) -> str:
    if m.pseudo or m.total_bytes <= 0:
        return "—"
    free, total = format_bytes(m.free_bytes), format_bytes(m.total_bytes)
    f_num, _, f_unit = free.partition(" ")
    t_num, _, t_unit = total.partition(" ")
    if f_unit == t_unit:
        return f"{f_num} / {t_num} {t_unit}"
    return f"{free} / {total}"


def mount_of(path: str, mounts: Iterable[system.MountInfo]) -> system.MountInfo | None:
    """The mount holding ``path`` (the longest mount point that contains it)."""
    real = os.path.realpath(path)
    best = None
    for m in mounts:
        mp = m.mountpoint.rstrip("/") or "/"
        if real == mp or real.startswith(mp if mp.endswith("/") else mp + "/"):
            if best is None or len(mp) > len(best.mountpoint.rstrip("/") or "/"):
                best = m
    return best


def mount_notes(m: system.MountInfo | None) -> str:
    if m is None:
        return ""
    if m.fstype in NO_DIRECT_FS:
        return ("ramfs keeps files in RAM and refuses O_DIRECT: it measures memory, "
                "and runs only buffered")
    if m.fstype in RAM_FS:
        return "tmpfs keeps files in RAM: it measures memory, not a disk"
    return ""


def check_directory(text: str, mounts: Iterable[system.MountInfo] = ()) -> tuple[str | None, str]:
    """(absolute path, "") when ``text`` names a usable directory, else (None, reason)."""
    raw = text.strip()
    if not raw:
        return None, "Type a directory, or choose a mount or a folder above."
    path = os.path.abspath(os.path.expanduser(raw))
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None, f"{path} does not exist."
    except PermissionError:
        return None, f"{path} cannot be reached: permission denied."
    except OSError as e:
        return None, f"{path} cannot be used: {e.strerror or e}."
    if not stat.S_ISDIR(mode):
        kind = "a file" if stat.S_ISREG(mode) else "not a directory"
        return None, f"{path} is {kind}; choose a directory."
    m = mount_of(path, mounts)
    if m is not None and m.pseudo:
        return None, f"{path} is on a {m.reason or 'pseudo filesystem'}; choose a disk."
    if m is not None and m.readonly:
        return None, f"{path} is on a read-only filesystem ({m.mountpoint})."
    if m is not None and not m.usable:
        return None, f"{path} is on {m.mountpoint}, which cannot be used: {m.reason}."
    if not os.access(path, os.W_OK | os.X_OK):
        return None, (f"{path} is not writable for you; choose a directory you can write to "
                      f"(for example one in your home directory).")
    return path, ""


def describe(path: str, m: system.MountInfo | None) -> str:
    """One line about where ``path`` lives: filesystem, device, model, free space."""
    if m is None:
        return path
    parts = [f"{m.fstype} on {m.device}" if m.device and m.device != m.fstype else m.fstype]
    if m.model:
        parts.append(m.model)
    if m.total_bytes > 0:
        parts.append(f"{format_bytes(m.free_bytes)} free of "
                     f"{format_bytes(m.total_bytes)}")
    return f"{path}: " + ", ".join(parts)


def _clip(text: str, width: int, *, keep_end: bool = False) -> str:
    if width <= 0:
        return ""
    if len(text) <= width:
        return text
    if width == 1:
        return "…"
    return "…" + text[-(width - 1):] if keep_end else text[:width - 1] + "…"


# --- widgets ---------------------------------------------------------------------------


class MountTable(DataTable):
    """Mounted filesystems; Enter or a double click chooses the row."""

    BINDINGS = [Binding("enter", "choose", "Use this mount", show=True)]

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
        Binding("enter", "choose", "Use this directory", show=True),
        Binding("right", "expand", "Open", show=False),
        Binding("left", "collapse", "Close", show=False),
        Binding("backspace", "parent", "Parent directory", show=True),
    ]

    class Chosen(Message):
        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def process_label(self, label):  # type: ignore[no-untyped-def]
        """Directory names are data: a directory called ``[/]`` is shown as it is named,
        not read as markup (which would end the app)."""
        if isinstance(label, str):
            label = Text(shown(label, one_line=True))
        return super().process_label(label)

    def render_label(self, node, base_style, style):  # type: ignore[no-untyped-def]
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


class TargetPicker(ModalScreen[str | None]):
    """Mounts, a path field and a directory tree; dismisses with a directory or None."""

    DEFAULT_CSS = """
    TargetPicker {
        align: center middle;
        background: $background 60%;
    }
    TargetPicker #picker-box {
        width: 116;
        max-width: 100%;
        height: 40;
        max-height: 100%;
        padding: 0 1;
        background: $panel;
        border: thick $primary;
        border-title-color: $text;
        border-title-style: bold;
        border-subtitle-color: $text-muted;
    }
    TargetPicker .picker-heading {
        width: 1fr;
        height: 1;
        color: $text-primary;
        text-style: bold;
        margin-top: 1;
    }
    TargetPicker .picker-heading-row {
        height: 1;
        margin-top: 1;
    }
    TargetPicker .picker-heading-row .picker-heading {
        margin-top: 0;
    }
    TargetPicker .picker-hint {
        width: auto;
        height: 1;
        color: $text-muted;
    }
    TargetPicker #mounts {
        height: auto;
        max-height: 40%;
        min-height: 3;
        background: $surface;
        border: tall $surface;
    }
    TargetPicker #mounts:focus, TargetPicker #tree:focus {
        border: tall $border;
        background-tint: $foreground 3%;
    }
    TargetPicker #tree {
        height: 1fr;
        min-height: 3;
        background: $surface;
        border: tall $surface;
    }
    TargetPicker #path-row {
        height: 3;
        margin-top: 1;
    }
    TargetPicker #path-label {
        width: auto;
        height: 3;
        content-align: left middle;
        padding-right: 1;
        color: $text-muted;
    }
    TargetPicker #path {
        width: 1fr;
    }
    TargetPicker #path.-invalid {
        border: tall $error;
    }
    TargetPicker #path-row Button {
        margin-left: 1;
        min-width: 10;
        width: auto;
    }
    TargetPicker #message {
        height: auto;
        max-height: 2;
        color: $text-muted;
    }
    TargetPicker #message.-error {
        color: $text-error;
        text-style: bold;
    }
    TargetPicker #message.-warning {
        color: $text-warning;
    }
    TargetPicker #message.-ok {
        color: $text-success;
    }
    TargetPicker.-short #picker-box {
        border: none;
        padding: 0;
    }
    TargetPicker.-short .picker-heading-row, TargetPicker.-short .picker-heading {
        margin-top: 0;
    }
    TargetPicker.-short #path-row {
        margin-top: 0;
    }
    """

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("p", "toggle_pseudo", "Pseudo filesystems"),
    ]

    class Loaded(Message):
        """The mount list has been read (posted for tests and for the first focus)."""

    def __init__(self, current: str | None = None) -> None:
        super().__init__()
        self.current = current
        self.mounts: list[system.MountInfo] = []
        self.show_pseudo = False
        self.loaded = False
        start = self._start_dir(current)
        self._tree_start = start

    @staticmethod
    def _start_dir(current: str | None) -> Path:
        for candidate in (current, os.path.expanduser("~"), "/"):
            if candidate and os.path.isdir(candidate):
                return Path(os.path.abspath(candidate))
        return Path("/")

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="picker-box"):
            with Horizontal(classes="picker-heading-row"):
                yield Label("Mounted filesystems", id="mounts-heading", classes="picker-heading")
                yield Label("p shows pseudo filesystems", id="pseudo-hint", classes="picker-hint")
            yield MountTable(id="mounts", cursor_type="row", zebra_stripes=True)
            with Horizontal(classes="picker-heading-row"):
                yield Label("Browse", classes="picker-heading")
                yield Label("→ open  ← close  ⌫ parent", classes="picker-hint")
            yield DirectoryPicker(self._tree_start, id="tree")
            with Horizontal(id="path-row"):
                yield Label("Directory", id="path-label")
                yield Input(value=self.current or "", placeholder="/path/to/a/directory",
                            id="path")
                yield Button("Use", id="use", variant="primary")
                yield Button("Cancel", id="cancel")
            yield PlainStatic("", id="message")
        yield Footer()

    def on_mount(self) -> None:
        box = self.query_one("#picker-box")
        box.border_title = "Choose a target"
        table = self.query_one(MountTable)
        for label, key in (("Mount point", "mount"), ("Device", "device"), ("Model", "model"),
                           ("FS", "fs"), ("Free / total", "space"), ("Status", "status")):
            table.add_column(label, key=key)
        table.focus()
        self._apply_size()
        self._load_mounts()
        if self.current:
            self._show_path_info(self.current)

    def on_resize(self, event: events.Resize) -> None:
        self._apply_size()
        if self.loaded:
            self._fill_table()

    def _apply_size(self) -> None:
        short = self.size.height < 30  # no room for the frame: its title moves into the heading
        self.set_class(short, "-short")
        heading = self.query_one("#mounts-heading", Label)
        heading.update("Choose a target: mounted filesystems" if short else "Mounted filesystems")

    # --- the mounts -------------------------------------------------------------------------

    @work(exclusive=True, group="target-picker-mounts", exit_on_error=False)
    async def _load_mounts(self) -> None:
        try:
            # statvfs on a hung network mount can block: never on the UI thread
            mounts = await asyncio.to_thread(system.list_mounts, include_pseudo=True)
        except Exception as e:  # the picker still works by typing or browsing
            mounts = []
            self._message(f"Could not list the mounted filesystems: {e}", "warning")
        self.mounts = mounts
        self.loaded = True
        self._fill_table()
        field = self.query_one("#path", Input)
        if field.value and not field.has_class("-invalid"):
            path, _ = check_directory(field.value, self.mounts)
            if path is not None:
                self._show_path_info(path)
        self.post_message(self.Loaded())

    def _visible_mounts(self) -> list[system.MountInfo]:
        return [m for m in self.mounts if self.show_pseudo or not m.pseudo]

    def _column_widths(self, rows: list[list[str]]) -> list[int]:
        """Fit the columns into the table's width: shrink model, device, mount point, status
        in that order rather than scroll sideways."""
        table = self.query_one(MountTable)
        # the region without borders, less room for a vertical scrollbar should one appear
        avail = (table.region.width - table.styles.gutter.width or 100) - 2
        pad = 2 * table.cell_padding
        headers = ["Mount point", "Device", "Model", "FS", "Free / total", "Status"]
        want = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in enumerate(headers)]
        caps = [40, 22, 26, 9, 22, 30]
        widths = [min(w, c) for w, c in zip(want, caps)]

        def total() -> int:
            return sum(widths) + pad * sum(1 for w in widths if w > 0)

        # (column, floor) in order: long mount points and models give way first; the
        # status (why a mount cannot be used) and the free space stay readable longest.
        stages = [(0, 28), (2, 16), (1, 14), (0, 20), (2, 10), (5, 20), (1, 10), (0, 14),
                  (2, 0), (5, 12), (1, 8), (0, 10), (4, 12)]
        for col, floor in stages:
            while total() > avail and widths[col] > floor:
                widths[col] -= 1
            if col == 2 and 0 < widths[2] < 8:  # a model column this narrow says nothing
                widths[2] = 0
        return widths

    def _fill_table(self) -> None:
        table = self.query_one(MountTable)
        mounts = self._visible_mounts()
        rows = [[m.mountpoint, m.device, m.model, m.fstype, free_total(m), mount_status(m)]
                for m in mounts]
        widths = self._column_widths(rows)
        cursor_key = None
        if table.row_count and 0 <= table.cursor_row < table.row_count:
            cursor_key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.user_moved = False
        table.clear(columns=True)
        keys = ("mount", "device", "model", "fs", "space", "status")
        labels = ("Mount point", "Device", "Model", "FS", "Free / total", "Status")
        for key, label, width in zip(keys, labels, widths):
            if width > 0:
                table.add_column(label, key=key, width=width)
        for m, row in zip(mounts, rows):
            cells = []
            for i, (value, width) in enumerate(zip(row, widths)):
                if width <= 0:
                    continue
                text = Text(_clip(shown(value, one_line=True), width, keep_end=i in (0, 1)))
                if i == 4:
                    text.justify = "right"
                if i == 5:
                    if not m.usable:
                        text.stylize("italic")
                    elif value != "ok":
                        text.stylize("bold")
                if not m.usable:
                    text.stylize("dim")
                cells.append(text)
            table.add_row(*cells, key=m.mountpoint)
        if not mounts:
            return
        target_key = cursor_key
        if target_key is None and self.current:
            holder = mount_of(self.current, mounts)
            target_key = holder.mountpoint if holder else None
        if target_key is not None:
            try:
                table.move_cursor(row=table.get_row_index(target_key), animate=False)
            except Exception:
                pass
        hint = self.query_one("#pseudo-hint", Label)
        hint.update("p hides pseudo filesystems" if self.show_pseudo
                    else "p shows pseudo filesystems")

    def _mount(self, mountpoint: str) -> system.MountInfo | None:
        return next((m for m in self.mounts if m.mountpoint == mountpoint), None)

    def action_toggle_pseudo(self) -> None:
        self.show_pseudo = not self.show_pseudo
        if self.loaded:
            self._fill_table()

    @on(DataTable.RowHighlighted, "#mounts")
    def _mount_highlighted(self, event: DataTable.RowHighlighted) -> None:
        m = self._mount(str(event.row_key.value))
        table = event.data_table
        if m is None or not table.has_focus or not getattr(table, "user_moved", False):
            return
        if not m.usable:
            self._message(f"{m.mountpoint} cannot be used: {m.reason}.", "warning")
            return
        self._set_path(m.mountpoint)
        self._show_path_info(m.mountpoint)

    @on(MountTable.Chosen)
    def _mount_chosen(self, event: MountTable.Chosen) -> None:
        event.stop()
        m = self._mount(event.row_key)
        if m is None:
            return
        if not m.usable:
            self._message(f"{m.mountpoint} cannot be used: {m.reason}. Choose another "
                          f"mount, or a directory below.", "error")
            return
        path, problem = check_directory(m.mountpoint, self.mounts)
        if path is None:
            # e.g. "/" for a normal user: let them pick a writable directory inside it
            self._set_path(m.mountpoint)
            self.query_one(DirectoryPicker).path = m.mountpoint
            self._message(f"{problem} Browse below for a directory inside it.", "error")
            return
        self.dismiss(path)

    # --- the tree ---------------------------------------------------------------------------

    @on(DirectoryTree.DirectorySelected, "#tree")
    def _directory_clicked(self, event: DirectoryTree.DirectorySelected) -> None:
        event.stop()
        self._set_path(str(event.path))
        self._show_path_info(str(event.path))

    @on(DirectoryTree.NodeHighlighted, "#tree")
    def _directory_highlighted(self, event: DirectoryTree.NodeHighlighted) -> None:
        tree = self.query_one(DirectoryPicker)
        data = event.node.data
        if data is None or not tree.has_focus:
            return
        self._set_path(str(data.path))
        self._show_path_info(str(data.path))

    @on(DirectoryPicker.Chosen)
    def _directory_chosen(self, event: DirectoryPicker.Chosen) -> None:
        event.stop()
        self._set_path(str(event.path))
        self._try_choose(str(event.path))

    # --- the path field and the buttons -----------------------------------------------------

    def _set_path(self, text: str) -> None:
        field = self.query_one("#path", Input)
        with field.prevent(Input.Changed):
            field.value = text
        field.cursor_position = len(text)
        field.remove_class("-invalid")

    @on(Input.Changed, "#path")
    def _path_changed(self, event: Input.Changed) -> None:
        event.input.remove_class("-invalid")
        path, _problem = check_directory(event.value, self.mounts)
        if path is not None:
            self._show_path_info(path)
        else:
            self._message("", "info")

    @on(Input.Submitted, "#path")
    def _path_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._try_choose(event.value)

    @on(Button.Pressed, "#use")
    def _use_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_use()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_use(self) -> None:
        self._try_choose(self.query_one("#path", Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _try_choose(self, text: str) -> None:
        path, problem = check_directory(text, self.mounts)
        if path is None:
            field = self.query_one("#path", Input)
            field.add_class("-invalid")
            self._message(problem, "error")
            if not field.has_focus:
                field.focus()
            return
        self.dismiss(path)

    def _show_path_info(self, path: str) -> None:
        m = mount_of(path, self.mounts) if self.mounts else None
        notes = mount_notes(m)
        line = describe(path, m)
        self._message(f"{line}. {notes}." if notes else line, "warning" if notes else "ok")

    def _message(self, text: str, severity: str) -> None:
        widget = self.query_one("#message", Static)
        widget.update(text)
        for s in ("error", "warning", "ok", "info"):
            widget.set_class(s == severity, f"-{s}")
