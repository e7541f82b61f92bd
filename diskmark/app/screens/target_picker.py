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
from pathlib import Path
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, DirectoryTree, Input, Label, Static
from textual.widgets.directory_tree import DirEntry

from diskmark.app.widgets.footer import KeysFooter
from diskmark.app.widgets.mounts import (
    DirectoryPicker,
    MountTable,
    check_directory,
    describe,
    device_word,
    free_total,
    mount_notes,
    mount_of,
    mount_status,
)
from diskmark.app.widgets.plain import PlainStatic
from diskmark.app.widgets.topbar import shorten_path
from diskmark.drive import probe as system
from diskmark.drive.mounts import MountInfo
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shown
from diskmark.report.cells import clip, whole_parts

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike

#: The mounts table's columns: (key, header marked for translation).
COLUMNS = (("mount", N_("Mount point")), ("device", N_("Device")), ("model", N_("Model")),
           ("fs", N_("FS")), ("space", N_("Free / total")), ("status", N_("Status")))


#: The most of a path the message under the picker shows (its end): the field holds it whole.
PATH_CELLS = 32


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
        Binding("escape", "cancel", N_("Cancel")),
        Binding("p", "toggle_pseudo", N_("Pseudo filesystems")),
        Binding("a", "add", N_("Add as another target")),
    ]

    class Loaded(Message):
        """The mount list has been read (posted for tests and for the first focus)."""

    def __init__(self, current: str | None = None, others: list[str] | None = None) -> None:
        """``others``: the targets measured beside ``current`` (the adding button says
        which target the next one would be)."""
        super().__init__()
        self.current = current
        self.others = list(others or [])
        #: the directory chosen is to be measured beside the target, not instead of it
        self.adding = False
        self.mounts: list[MountInfo] = []
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
                yield Label(_("Mounted filesystems"), id="mounts-heading",
                            classes="picker-heading")
                yield Label(_("p shows pseudo filesystems"), id="pseudo-hint",
                            classes="picker-hint")
            yield MountTable(id="mounts", cursor_type="row", zebra_stripes=True)
            with Horizontal(classes="picker-heading-row"):
                yield Label(_("Browse"), classes="picker-heading")
                yield Label(_("→ open  ← close  ⌫ parent"), classes="picker-hint")
            yield DirectoryPicker(self._tree_start, id="tree")
            with Horizontal(id="path-row"):
                yield Label(_("Directory"), id="path-label")
                # TRANSLATORS: the directory field's placeholder: a path as your language
                # would write its example ("/chemin/vers/un/dossier")
                yield Input(value=self.current or "", placeholder=_("/path/to/a/directory"),
                            id="path")
                yield Button(_("Use"), id="use", variant="primary")
                add = Button(_("Add target"), id="add")
                add.tooltip = (_("Measure this directory too, as the third target or more: each "
                                 "test on every target in turn, side by side") if self.others
                               else _("Measure this directory too, as a second target: each "
                                      "test on both in turn, side by side"))
                yield add
                yield Button(_("Cancel"), id="cancel")
            yield PlainStatic("", id="message")
        yield KeysFooter()

    def on_mount(self) -> None:
        box = self.query_one("#picker-box")
        box.border_title = _("Choose a target")
        table = self.query_one(MountTable)
        for key, label in COLUMNS:
            table.add_column(_(label), key=key)
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
        self._headings()

    def _headings(self) -> None:
        """The mounts' heading whole: the hint beside it (the footer's key says it too) is
        left out where both do not fit on the line (a Russian or Japanese heading at 80
        columns lost its end under it)."""
        heading = (_("Choose a target: mounts, then devices (reads only)")
                   if self.has_class("-short")
                   else _("Mounted filesystems, then block devices (read tests only)"))
        hint = (_("p hides pseudo filesystems") if self.show_pseudo
                else _("p shows pseudo filesystems"))
        self.query_one("#mounts-heading", Label).update(heading)
        label = self.query_one("#pseudo-hint", Label)
        label.update(hint)
        room = min(116, self.size.width) - 4  # the box's border and padding
        label.display = cell_len(heading) + 2 + cell_len(hint) <= room

    # --- the mounts -------------------------------------------------------------------------

    @work(exclusive=True, group="target-picker-mounts", exit_on_error=False)
    async def _load_mounts(self) -> None:
        try:
            # statvfs on a hung network mount can block: never on the UI thread
            mounts = await asyncio.to_thread(system.list_mounts, include_pseudo=True)
            mounts += await asyncio.to_thread(system.list_block_devices)
        except Exception as e:  # the picker still works by typing or browsing
            mounts = []
            self._message(_("Could not list the mounted filesystems: {error}").format(error=e),
                          "warning")
        self.mounts = mounts
        self.loaded = True
        self._fill_table()
        field = self.query_one("#path", Input)
        if field.value and not field.has_class("-invalid"):
            path, _problem = check_directory(field.value, self.mounts)
            if path is not None:
                self._show_path_info(path)
        self.post_message(self.Loaded())

    def _visible_mounts(self) -> list[MountInfo]:
        return [m for m in self.mounts if self.show_pseudo or not m.pseudo]

    def _column_widths(self, rows: list[list[str]]) -> list[int]:
        """Fit the columns into the table's width: shrink model, device, mount point, status
        in that order rather than scroll sideways."""
        table = self.query_one(MountTable)
        # the region without borders, less room for a vertical scrollbar should one appear
        avail = (table.region.width - table.styles.gutter.width or 100) - 2
        pad = 2 * table.cell_padding
        headers = [_(label) for _key, label in COLUMNS]
        want = [max([cell_len(h)] + [cell_len(r[i]) for r in rows]) for i, h in enumerate(headers)]
        caps = [40, 22, 26, 9, 22, 30]
        widths = [min(w, c) for w, c in zip(want, caps)]

        def total() -> int:
            return sum(widths) + pad * sum(1 for w in widths if w > 0)

        # (column, floor) in order: long mount points and models give way first (a model
        # keeps its first words whole); the status (why a mount cannot be used) and the
        # free space stay readable longest.
        stages = [(0, 28), (2, 16), (1, 14), (0, 20), (2, 10), (5, 20), (1, 10), (0, 14),
                  (2, 0), (5, 12), (1, 8), (0, 10), (4, 12)]
        for col, floor in stages:
            if floor:  # a heading is never cut ("マウントポイン"): its column gives way to it
                floor = max(floor, cell_len(headers[col]))
            while total() > avail and widths[col] > floor:
                widths[col] -= 1
            if col == 2 and 0 < widths[2] < 8:  # a model column this narrow says nothing
                widths[2] = 0
        return widths

    def _fill_table(self) -> None:
        table = self.query_one(MountTable)
        mounts = self._visible_mounts()
        rows = [[m.mountpoint, device_word(m), m.model, m.fstype, free_total(m), mount_status(m)]
                for m in mounts]
        widths = self._column_widths(rows)
        cursor_key = None
        if table.row_count and 0 <= table.cursor_row < table.row_count:
            cursor_key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        table.user_moved = False
        table.clear(columns=True)
        for (key, label), width in zip(COLUMNS, widths):
            if width > 0:  # a heading cut as its cells are, with an ellipsis (マウントポイ…)
                table.add_column(Text(clip(_(label), width)), key=key, width=width)
        for m, row in zip(mounts, rows):
            cells = []
            for i, (value, width) in enumerate(zip(row, widths)):
                if width <= 0:
                    continue
                value = shown(value, one_line=True)
                if i == 5:  # the status's notes, whole, those that fit ("device · …")
                    value = whole_parts(value.split(" · "), width)
                elif i == 2:  # a model's words, whole, those that fit ("Samsung SSD …")
                    value = whole_parts(value.split(" "), width, sep=" ")
                text = Text(clip(value, width, keep_end=i in (0, 1)))
                if i == 4:
                    text.justify = "right"
                if i == 5:
                    if not m.usable:
                        text.stylize("italic")
                    elif value != _("ok"):  # notes beside "ok" stand out
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
        self._headings()

    def _mount(self, mountpoint: str) -> MountInfo | None:
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
            self._message(_("{mount} cannot be used: {reason}.").format(
                mount=m.mountpoint, reason=m.reason), "warning")
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
            self._message(_("{mount} cannot be used: {reason}. Choose another mount, or a "
                            "directory below.").format(mount=m.mountpoint, reason=m.reason),
                          "error")
            return
        path, problem = check_directory(m.mountpoint, self.mounts)
        if path is None:
            # e.g. "/" for a normal user: let them pick a writable directory inside it
            self._set_path(m.mountpoint)
            self.query_one(DirectoryPicker).path = m.mountpoint
            # TRANSLATORS: {problem} is a sentence saying why the directory cannot be used
            self._message(_("{problem} Browse below for a directory inside it.")
                          .format(problem=problem), "error")
            return
        self.dismiss(path)

    # --- the tree ---------------------------------------------------------------------------

    @on(DirectoryTree.DirectorySelected, "#tree")
    def _directory_clicked(self, event: DirectoryTree.DirectorySelected) -> None:
        event.stop()
        self._set_path(str(event.path))
        self._show_path_info(str(event.path))

    @on(DirectoryTree.NodeHighlighted, "#tree")
    def _directory_highlighted(self, event: DirectoryTree.NodeHighlighted[DirEntry]) -> None:
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

    @on(Button.Pressed, "#add")
    def _add_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_add()

    @on(Button.Pressed, "#cancel")
    def _cancel_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_cancel()

    def action_use(self) -> None:
        self._try_choose(self.query_one("#path", Input).value)

    def action_add(self) -> None:
        """The directory in the path field, measured beside the target: each test on
        every target in turn, side by side."""
        self.adding = True
        self.adding = self._try_choose(self.query_one("#path", Input).value)

    def action_cancel(self) -> None:
        self.dismiss(None)

    def _try_choose(self, text: str) -> bool:
        """Dismiss with the directory ``text`` names, or say why not; whether it did."""
        path, problem = check_directory(text, self.mounts)
        if path is None:
            field = self.query_one("#path", Input)
            field.add_class("-invalid")
            self._message(problem, "error")
            if not field.has_focus:
                field.focus()
            return False
        self.dismiss(path)
        return True

    def _show_path_info(self, path: str) -> None:
        """What the directory is on, in the message's two lines: a long path keeps its end,
        as the field under it holds it whole (the filesystem, the device and the space after
        it were cut off)."""
        m = mount_of(path, self.mounts) if self.mounts else None
        notes = mount_notes(m)
        line = describe(path, m)
        # TRANSLATORS: {description} describes the directory's filesystem, {notes} what to know
        # about it (both without a full stop)
        text = (_("{description}. {notes}.").format(description=line, notes=notes)
                if notes else line)
        self._message(text.replace(path, shorten_path(path, PATH_CELLS), 1),
                      "warning" if notes else "ok")

    def _message(self, text: str, severity: str) -> None:
        widget = self.query_one("#message", Static)
        widget.update(text)
        for s in ("error", "warning", "ok", "info"):
            widget.set_class(s == severity, f"-{s}")


def choose_target(app: AppLike) -> None:
    """The picker, from the app's key or the target button: the directory chosen becomes
    the target, or (added) is measured beside it."""
    picker = TargetPicker(app.state.settings.target, app.state.other_targets)

    def chosen(path: str | None) -> None:
        if path and picker.adding:
            app.add_target(path)
        elif path:
            app.change_settings(target=path)

    app.push_screen(picker, chosen)
