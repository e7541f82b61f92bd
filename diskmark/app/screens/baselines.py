"""The saved baselines: list, view, compare, rename, delete, export and import.

Enter chooses the highlighted baseline for the tiles (the screen dismisses with it); every
other action keeps the screen open. Damaged files are listed with the reason and can only be
viewed (the reason) or deleted; imports are validated in full before anything is written.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.binding import Binding

from diskmark.app.protocol import diskmark_app
from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, ImportFileDialog, NameChoice
from diskmark.app.screens.dialogs import Choice, ErrorDialog, SaveFileDialog
from diskmark.app.screens.saved import BaselineChanged, SavedResultsScreen, clip, mb
from diskmark.model.results import SessionResult
from diskmark.report.formatting import short_date
from diskmark.store.entry import HEADLINE_LABEL, Entry
from diskmark.store.errors import ExportExists, InvalidFile, NameTaken, NotFound, StoreError
from diskmark.store.exchange import export_baseline, import_baseline
from diskmark.store.store import Store


class BaselinesScreen(SavedResultsScreen[Entry | None]):
    """Dismisses with the baseline chosen for the tiles (Enter), or None."""

    BINDINGS = [
        Binding("enter", "choose", "Use", priority=True,
                tooltip="Compare the tiles with this baseline"),
        Binding("r", "rename", "Rename"),
        Binding("e", "export", "Export"),
        Binding("i", "import", "Import"),
    ]

    title_text = "Baselines"

    @property
    def empty_text(self) -> str:  # type: ignore[override]  # the base's plain text; this one names the user's key
        key = diskmark_app(self).state.keys.key("save_baseline")
        return (f"No baselines are saved yet. After a run, {key} saves the result as one; i "
                f"imports a file exported elsewhere.")

    def __init__(self, store: Store, current: SessionResult | None = None,
                 in_use: str | None = None, changed: BaselineChanged | None = None) -> None:
        super().__init__(store, current, in_use)
        self.changed = changed

    def hint_text(self) -> str:
        return ("Enter compares the tiles with the highlighted baseline (● marks the one in "
                "use). c compares it with this run, k with another baseline.")

    def list_entries(self) -> list[Entry]:
        return self.store.baselines()

    def columns(self) -> list[tuple[str, str, int, int]]:
        return [("", "use", 1, 1), ("Name", "name", 28, 12), ("Run date", "date", 16, 16),
                ("Device", "device", 18, 8), ("FS", "fs", 6, 4), ("Read MB/s", "read", 10, 9),
                ("Write MB/s", "write", 10, 10), ("Note", "note", 100, 12)]

    def shrink_order(self) -> list[int]:
        return [7, 1, 3, 4]

    def drop_order(self) -> list[int]:
        return [7, 3, 4]  # note, device, filesystem: the line under the table has them

    def cells(self, entry: Entry) -> list[str | Text]:
        if not entry.ok:
            return [Text(""), entry.name, "damaged", "", "", Text(""), Text(""),
                    entry.damaged or ""]
        in_use = Text("●", style=self.get_component_rich_style("saved--in-use", partial=True)) \
            if entry.name == self.in_use else Text("")
        _label, read, write = entry.headline()
        return [in_use, entry.name, short_date(entry.started or entry.saved),
                entry.device or "—", entry.fstype or "—", mb(read), mb(write),
                entry.note.replace("\n", " ")]

    def describe(self, entry: Entry) -> str:
        session = entry.session
        assert session is not None
        label, _read, _write = entry.headline()
        parts = [f"“{entry.name}”"]
        if entry.note:
            parts.append(f"note: {entry.note}")
        setup = " · ".join(x for x in (session.preset_name, session.profile_name)
                           if x and x != "Default") or "Default"
        parts.append(f"saved {short_date(entry.saved)}" + (f", {setup}" if setup else ""))
        where = " ".join(x for x in (entry.device, entry.fstype, entry.model) if x)
        if where:
            parts.append(where)
        if label != HEADLINE_LABEL:
            parts.append(f"figures: {label}")
        parts.append(f"file: {entry.path}")
        return " · ".join(parts)

    def title_of(self, entry: Entry) -> str:
        return f"“{entry.name}”" if entry.ok else entry.path.name

    def delete_entry(self, entry: Entry) -> None:
        self.store.delete_baseline(entry.name)  # a damaged one goes by its file name
        if entry.ok and self.changed is not None:
            self.changed(entry.name, None)

    # --- actions --------------------------------------------------------------------------

    def action_choose(self) -> None:
        entry = self._usable()
        if entry is not None:
            self.dismiss(entry)

    def action_rename(self) -> None:
        entry = self._usable()
        if entry is None:
            return

        def named(choice: NameChoice | None) -> None:
            if choice is None:
                return
            try:
                renamed = self.store.rename_baseline(entry.name, choice.name)
            except StoreError as e:
                self.notify(str(e), severity="error")
                return
            if self.changed is not None:
                self.changed(entry.name, renamed)
            if self.in_use == entry.name:
                self.in_use = renamed.name
            self.notify(f"Renamed “{entry.name}” to “{renamed.name}”.")
            self.reload(renamed.name)

        self.app.push_screen(BaselineNameDialog(
            self.store, f"Rename “{clip(entry.name, 40)}”", name=entry.name, note=None,
            action="Rename", allow_replace=False, current=entry.name), named)

    def action_export(self) -> None:
        entry = self._usable()
        if entry is None:
            return

        def chosen(answer: tuple[Path, bool] | None) -> None:
            if answer is None:
                return
            path, replace = answer
            try:
                written = export_baseline(self.store, entry.name, path, force=replace)
            except ExportExists:
                self.notify(f"{path} appeared meanwhile; not replaced.", severity="warning")
                return
            except StoreError as e:
                self.notify(str(e), severity="error")
                return
            self.notify(f"Exported to {written}", title="Baseline exported")

        self.app.push_screen(SaveFileDialog(f"Export “{clip(entry.name, 40)}”",
                                            entry.file_name), chosen)

    def action_import(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.import_file(path)

        self.app.push_screen(ImportFileDialog(), chosen)

    def import_file(self, path: Path, name: str | None = None, replace: bool = False) -> None:
        """Import ``path``; a taken name asks whether to replace it or import under another
        name; an invalid file says what is wrong with it and writes nothing."""
        try:
            entry = import_baseline(self.store, path, name=name, replace=replace)
        except NameTaken as e:
            self._name_taken(path, str(e))
            return
        except (InvalidFile, NotFound) as e:
            self.app.push_screen(ErrorDialog(
                "This file cannot be imported", str(e),
                "Nothing was written. Import a file exported from diskmark (e here, or "
                "diskmark baselines export) or the output of diskmark run --format json."))
            return
        except StoreError as e:
            self.app.push_screen(ErrorDialog("The import failed", str(e)))
            return
        self.notify(f"Imported {path.name} as “{entry.name}”.", title="Baseline imported")
        self.reload(entry.name)

    def _name_taken(self, path: Path, message: str) -> None:
        def answered(choice: str | None) -> None:
            if choice == "rename":
                def named(named_choice: NameChoice | None) -> None:
                    if named_choice is not None:
                        self.import_file(path, named_choice.name, replace=named_choice.replace)

                self.app.push_screen(BaselineNameDialog(
                    self.store, f"Import {path.name} as…", note=None, action="Import"), named)
            elif choice == "replace":
                self.import_file(path, replace=True)

        self.app.push_screen(ErrorDialog(
            "That name is taken", f"{message[0].upper()}{message[1:]}.",
            "Import it under another name, or replace the baseline of that name.",
            [Choice("Replace it", "replace", "warning"), Choice("Another name…", "rename"),
             Choice("Cancel", "cancel", "primary")], severity="warning"), answered)
