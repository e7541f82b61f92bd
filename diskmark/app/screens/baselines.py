"""The saved baselines: list, view, compare, rename, delete, export and import.

Enter chooses the highlighted baseline for the tiles (the screen dismisses with it); every
other action keeps the screen open. Damaged files are listed with the reason and can only be
viewed (the reason) or deleted; imports are validated in full before anything is written.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.binding import Binding

from diskmark.app.core.protocol import diskmark_app
from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, ImportFileDialog, NameChoice
from diskmark.app.screens.dialogs import Choice, ErrorDialog, SaveFileDialog
from diskmark.app.screens.saved import BaselineChanged, SavedResultsScreen, mb, quoted
from diskmark.locale import N_, _, as_sentence
from diskmark.model.results import SessionResult
from diskmark.presets.words import said_name
from diskmark.report.cells import clip
from diskmark.report.formatting import short_date
from diskmark.store.entry import HEADLINE_LABEL, Entry
from diskmark.store.errors import ExportExists, InvalidFile, NameTaken, NotFound, StoreError
from diskmark.store.exchange import export_baseline, import_baseline
from diskmark.store.store import Store


class BaselinesScreen(SavedResultsScreen[Entry | None]):
    """Dismisses with the baseline chosen for the tiles (Enter), or None."""

    BINDINGS = [
        Binding("enter", "choose", N_("Use"), priority=True,
                tooltip=N_("Compare the tiles with this baseline")),
        Binding("r", "rename", N_("Rename")),
        Binding("e", "export", N_("Export")),
        Binding("i", "import", N_("Import")),
    ]

    title_text = N_("Baselines")

    @property
    def empty_text(self) -> str:  # type: ignore[override]  # the base's plain text; this one names the user's key
        key = diskmark_app(self).state.keys.key("save_baseline")
        return _("No baselines are saved yet. After a run, {key} saves the result as one; i "
                 "imports a file exported elsewhere.").format(key=key)

    def __init__(self, store: Store, current: SessionResult | None = None,
                 in_use: str | None = None, changed: BaselineChanged | None = None) -> None:
        super().__init__(store, current, in_use)
        self.changed = changed

    def hint_text(self) -> str:
        return _("Enter compares the tiles with the highlighted baseline (● marks the one in "
                 "use). c compares it with this run, k with another baseline.")

    def list_entries(self) -> list[Entry]:
        return self.store.baselines()

    def columns(self) -> list[tuple[str, str, int, int]]:
        return [("", "use", 1, 1), (_("Name"), "name", 28, 12), (_("Run date"), "date", 16, 16),
                (_("Device"), "device", 18, 8), (_("FS"), "fs", 6, 4),
                (_("Read MB/s"), "read", 10, 9), (_("Write MB/s"), "write", 10, 10),
                (_("Note"), "note", 100, 12)]

    def shrink_order(self) -> list[int]:
        return [7, 1, 3, 4]

    def drop_order(self) -> list[int]:
        return [7, 3, 4]  # note, device, filesystem: the line under the table has them

    def cells(self, entry: Entry) -> list[str | Text]:
        if not entry.ok:
            return [Text(""), entry.name, _("damaged"), "", "", Text(""), Text(""),
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
        parts = [quoted(entry.name)]
        if entry.note:
            parts.append(_("note: {note}").format(note=entry.note))
        setup = " · ".join(said_name(x) for x in (session.preset_name, session.profile_name)
                           if x and x != "Default") or said_name("Default")
        # TRANSLATORS: {setup} is the preset and profile ("Default", "NVMe SSD · Peak")
        parts.append(_("saved {date}, {setup}").format(date=short_date(entry.saved), setup=setup))
        where = " ".join(x for x in (entry.device, entry.fstype, entry.model) if x)
        if where:
            parts.append(where)
        if label != HEADLINE_LABEL:
            # TRANSLATORS: {test} is the test whose figures the list shows (SEQ1M Q1T1)
            parts.append(_("figures: {test}").format(test=label))
        parts.append(_("file: {path}").format(path=entry.path))
        return " · ".join(parts)

    def title_of(self, entry: Entry) -> str:
        return quoted(entry.name) if entry.ok else entry.path.name

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
            self.notify(_("Renamed “{old}” to “{new}”.").format(old=entry.name,
                                                                new=renamed.name))
            self.reload(renamed.name)

        self.app.push_screen(BaselineNameDialog(
            self.store, _("Rename “{name}”").format(name=clip(entry.name, 40)), name=entry.name,
            note=None, action=_("Rename"), allow_replace=False, current=entry.name), named)

    def action_export(self) -> None:
        entry = self._usable()
        if entry is None:
            return

        def chosen(answer: tuple[Path, bool] | None) -> None:
            if answer is None:
                return
            path, replace = answer
            try:
                written = export_baseline(self.store, entry.name, path, replace=replace)
            except ExportExists:
                self.notify(_("{path} appeared meanwhile; not replaced.").format(path=path),
                            severity="warning")
                return
            except StoreError as e:
                self.notify(str(e), severity="error")
                return
            self.notify(_("Exported to {path}").format(path=written),
                        title=_("Baseline exported"))

        self.app.push_screen(SaveFileDialog(_("Export “{name}”").format(name=clip(entry.name, 40)),
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
            entry = import_baseline(self.store, path, name=name, replace=replace,
                                    on_problem=lambda text: self.notify(text, severity="warning"))
        except NameTaken as e:
            self._name_taken(path, str(e))
            return
        except (InvalidFile, NotFound) as e:
            self.app.push_screen(ErrorDialog(
                _("This file cannot be imported"), str(e),
                _("Nothing was written. Import a file exported from diskmark (e here, or "
                  "diskmark baselines export), the output of diskmark run --format json or "
                  "--format text, or a CrystalDiskMark text result.")))
            return
        except StoreError as e:
            self.app.push_screen(ErrorDialog(_("The import failed"), str(e)))
            return
        self.notify(_("Imported {file} as “{name}”.").format(file=path.name, name=entry.name),
                    title=_("Baseline imported"))
        self.reload(entry.name)

    def _name_taken(self, path: Path, message: str) -> None:
        def answered(choice: str | None) -> None:
            if choice == "rename":
                def named(named_choice: NameChoice | None) -> None:
                    if named_choice is not None:
                        self.import_file(path, named_choice.name, replace=named_choice.replace)

                self.app.push_screen(BaselineNameDialog(
                    self.store, _("Import {file} as…").format(file=path.name), note=None,
                    action=_("Import")), named)
            elif choice == "replace":
                self.import_file(path, replace=True)

        self.app.push_screen(ErrorDialog(
            _("That name is taken"), as_sentence(message),
            _("Import it under another name, or replace the baseline of that name."),
            [Choice(_("Replace it"), "replace", "warning"), Choice(_("Another name…"), "rename"),
             Choice(_("Cancel"), "cancel", "primary")], severity="warning"), answered)
