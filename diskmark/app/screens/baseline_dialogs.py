"""Dialogs around saved baselines: name one (save, promote, rename, import under another
name), pick one from a list, and say which file to import.

A name that exists already is never replaced silently: the name dialog asks first (or, for a
rename, refuses), and the store itself refuses without ``replace=True`` as a last guard.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import Button, Input, Label, OptionList, Static
from textual.widgets.input import Selection
from textual.widgets.option_list import Option

from diskmark.app.core.protocol import diskmark_app
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.screens.dialogs import ConfirmDialog
from diskmark.app.widgets.plain import PlainStatic, plain
from diskmark.locale import _, as_sentence
from diskmark.locale.text_safety import shown
from diskmark.model.results import SessionResult
from diskmark.report.formatting import short_date
from diskmark.store.entry import Entry
from diskmark.store.errors import StoreError
from diskmark.store.schema import check_name
from diskmark.store.store import Store


@dataclass(frozen=True)
class NameChoice:
    name: str
    note: str
    replace: bool  # the user agreed to replace the baseline of that name


def describe_entry(entry: Entry) -> str:
    """``run 2024/05/01 10:00 on /dev/nvme0n1p2 (ext4)``, for questions about an entry."""
    if not entry.ok:
        return _("damaged: {reason}").format(reason=entry.damaged)
    date, device, fstype = short_date(entry.started or entry.saved), entry.device, entry.fstype
    if not device:
        return (_("run {date} on an unknown device ({fstype})") if fstype
                else _("run {date} on an unknown device")).format(date=date, fstype=fstype)
    return (_("run {date} on {device} ({fstype})") if fstype
            else _("run {date} on {device}")).format(date=date, device=device, fstype=fstype)


def suggest_name(session: SessionResult) -> str:
    """A baseline name to start from: ``Samsung SSD 980 PRO 1TB ext4 2024-05-01``."""
    system = session.system
    day = session.started[:10]
    return " ".join(x for x in (system.model or system.device, system.fstype, day) if x)


class BaselineNameDialog(Dialog[NameChoice]):
    """Ask for a baseline name (and a note, unless ``note`` is None). When the name is
    taken: ask before replacing (``allow_replace``), or say so and stay open."""

    def __init__(self, store: Store, title: str, hint: str = "", name: str = "",
                 note: str | None = "", *, action: str | None = None, allow_replace: bool = True,
                 current: str | None = None) -> None:
        """``action``: the button's label, translated (Save by default)."""
        super().__init__(title, classes="baseline-name")
        self.store = store
        self.hint, self.action = hint, action or _("Save")
        self.initial_name, self.initial_note = name, note
        self.allow_replace = allow_replace
        self.current = current  # a rename: the old name, which is not a clash

    def body(self) -> ComposeResult:
        if self.hint:
            yield PlainStatic(self.hint, classes="dialog-hint")
        with Grid(classes="form"):
            yield Label(_("Name"))
            yield Input(self.initial_name, placeholder=_("e.g. new NVMe, ext4"), id="name",
                        compact=True)
            if self.initial_note is not None:
                yield Label(_("Note"))
                yield Input(self.initial_note, placeholder=_("optional, e.g. firmware 4B2QGXA7"),
                            id="note", compact=True)
        yield PlainStatic("", id="problem", classes="dialog-problem")

    def buttons(self) -> ComposeResult:
        yield Button(plain(self.action), id="save", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        field = self.query_one("#name", Input)
        field.focus()
        field.selection = Selection(0, len(field.value))  # typing replaces the suggestion

    def _problem(self, text: str) -> None:
        self.query_one("#problem", Static).update(text)

    def _submit(self) -> None:
        try:
            name = check_name(self.query_one("#name", Input).value)
        except StoreError as e:
            self._problem(as_sentence(str(e)))
            return
        note = self.query_one("#note", Input).value.strip() if self.initial_note is not None else ""
        if self.current is not None and name == self.current:
            self.dismiss(None)  # renamed to itself: nothing to do
            return
        try:
            clash = self.store.conflict(name)
        except StoreError as e:
            self._problem(str(e))
            return
        if clash is None:
            self.dismiss(NameChoice(name, note, False))
            return
        if not self.allow_replace:
            # TRANSLATORS: {entry} describes the baseline: "run 2024/05/01 10:00 on /dev/sda1"
            self._problem(_("A baseline named “{name}” exists already ({entry}). Choose another "
                            "name, or delete that one first.")
                          .format(name=name, entry=describe_entry(clash)))
            return
        if clash.damaged:
            question = _("The file of baseline “{name}” is damaged ({reason}). Replace it? The "
                         "damaged file is kept aside as {file}.damaged-….").format(
                name=name, reason=clash.damaged, file=clash.path.name)
        else:
            question = _("A baseline named “{name}” exists already ({entry}). Replace it with "
                         "this result?").format(name=name, entry=describe_entry(clash))

        def answered(replace: bool | None) -> None:
            if replace:
                self.dismiss(NameChoice(name, note, True))

        self.app.push_screen(ConfirmDialog(_("Replace the baseline?"), question,
                                           yes=_("Replace"), no=_("Keep it")), answered)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._problem("")

    def pressed(self, button: str) -> None:
        if button == "save":
            self._submit()


class PickBaselineDialog(Dialog[Entry]):
    """A list of baselines to choose one from; damaged ones are listed, greyed, with why."""

    def __init__(self, title: str, entries: list[Entry], hint: str = "",
                 current: str | None = None) -> None:
        super().__init__(title, classes="pick-baseline")
        self.hint = hint
        self.entries = entries
        self.current = current  # marked ● (the baseline in use)

    def body(self) -> ComposeResult:
        if self.hint:
            yield PlainStatic(self.hint, classes="dialog-hint")
        options = []
        for i, entry in enumerate(self.entries):
            prompt = Text(no_wrap=True, overflow="ellipsis")
            prompt.append("● " if entry.ok and entry.name == self.current else "  ")
            prompt.append(shown(entry.name, one_line=True), style="bold")
            prompt.append(f"  {shown(describe_entry(entry), one_line=True)}",
                          style="italic" if not entry.ok else "dim")
            options.append(Option(prompt, id=str(i), disabled=not entry.ok))
        yield OptionList(*options, id="baselines")
        if not self.entries:
            keys = diskmark_app(self).state.keys
            save, manage = (keys.key(i) for i in ("save_baseline", "baselines"))
            yield Static(_("No baselines are saved yet. After a run, {save} saves it as one; "
                           "the baselines screen ({manage}) imports files.")
                         .format(save=save, manage=manage), classes="dialog-problem")

    def buttons(self) -> ComposeResult:
        yield Button(_("Choose"), id="choose", variant="primary", disabled=not self.entries)
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        start = next((i for i, e in enumerate(self.entries) if e.ok and e.name == self.current),
                     next((i for i, e in enumerate(self.entries) if e.ok), None))
        if start is not None:
            options.highlighted = start

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.entries[int(event.option.id or 0)])

    def pressed(self, button: str) -> None:
        if button == "choose":
            index = self.query_one(OptionList).highlighted
            if index is not None and self.entries[index].ok:
                self.dismiss(self.entries[index])


class ImportFileDialog(Dialog[Path]):
    """Which file to import. Only that it is a readable file is checked here; the store
    checks the content and says what is wrong with it."""

    def __init__(self, directory: Path | None = None) -> None:
        super().__init__(_("Import a baseline"))
        self.directory = directory or Path.cwd()

    def body(self) -> ComposeResult:
        yield PlainStatic(_("A file exported from diskmark (e on the baselines screen, or "
                            "diskmark baselines export), the output of diskmark run --format "
                            "json or --format text, or a CrystalDiskMark text result (File, "
                            "Save text, of versions 5 to 9). Relative paths start in "
                            "{directory}.").format(directory=self.directory),
                          classes="dialog-hint")
        # TRANSLATORS: the file field's placeholder, examples of what to type: translate
        # "path/to" and "baseline" as a path in your language would read; keep the rest
        yield Input(placeholder=_("path/to/baseline.json, CrystalDiskMark_20240106054115.txt"),
                    id="path")
        yield PlainStatic("", id="problem", classes="dialog-problem")

    def buttons(self) -> ComposeResult:
        yield Button(_("Import"), id="import", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def _submit(self) -> None:
        raw = self.query_one(Input).value.strip()
        problem = self.query_one("#problem", Static)
        if not raw:
            problem.update(_("Type the path of the file to import."))
            return
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = self.directory / path
        if not path.exists():
            problem.update(_("{path} does not exist.").format(path=path))
        elif not path.is_file():
            problem.update(_("{path} is not a file.").format(path=path))
        else:
            self.dismiss(path)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit()

    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#problem", Static).update("")

    def pressed(self, button: str) -> None:
        if button == "import":
            self._submit()
