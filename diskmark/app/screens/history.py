"""Every finished run, newest first, as the store keeps it: view one, compare it with this
run or with a baseline, promote it to a baseline, delete it."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding

from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, NameChoice, suggest_name
from diskmark.app.screens.saved import SavedResultsScreen, mb
from diskmark.formatting import short_date
from diskmark.model import format_size
from diskmark.store import HEADLINE_LABEL, Entry, StoreError


class HistoryScreen(SavedResultsScreen[None]):
    BINDINGS = [
        Binding("enter", "view", "View", priority=True),
        Binding("p", "promote", "As baseline", tooltip="Save this run as a baseline"),
    ]

    title_text = "History"
    empty_text = "No run has finished yet. Every run that completes is kept here."

    def hint_text(self) -> str:
        return ("Every completed run, newest first. p saves the highlighted one as a baseline; "
                "c compares it with this run, k with a baseline.")

    def list_entries(self) -> list[Entry]:
        return self.store.history()

    def columns(self) -> list[tuple[str, str, int, int]]:
        # a date is never cut: "2026/11/2…" says nothing
        return [("Run date", "date", 16, 16), ("Set-up", "setup", 24, 7),
                ("Size", "size", 9, 6), ("Device", "device", 18, 8), ("FS", "fs", 6, 4),
                ("Read MB/s", "read", 10, 9), ("Write MB/s", "write", 10, 10),
                ("Tests", "tests", 5, 5)]

    def shrink_order(self) -> list[int]:
        return [1, 3, 2, 4]

    def drop_order(self) -> list[int]:
        return [3, 4, 2]  # device, filesystem, size: the line under the table has them

    def cells(self, entry: Entry) -> list[str | Text]:
        if not entry.ok or entry.session is None:
            return [entry.name, "damaged", "", entry.damaged or "", "", Text(""), Text(""), Text("")]
        s = entry.session
        _label, read, write = entry.headline()
        setup = " · ".join(x for x in (s.preset_name, s.profile_name)
                           if x and x != "Default") or "Default"
        return [short_date(entry.started or entry.saved), setup,
                f"{format_size(s.settings.size)}×{s.settings.count}", entry.device or "—",
                entry.fstype or "—", mb(read), mb(write),
                Text(str(sum(t.complete for t in s.tests)), justify="right")]

    def describe(self, entry: Entry) -> str:
        s = entry.session
        assert s is not None
        label, _read, _write = entry.headline()
        parts = [f"Run of {short_date(entry.started)}",
                 f"{format_size(s.settings.size)}×{s.settings.count}"]
        where = " ".join(x for x in (entry.device, entry.fstype) if x)
        if where:
            parts.append(where)
        if s.settings.comment:
            parts.append(f"comment: {s.settings.comment}")
        if entry.model:
            parts.append(entry.model)
        if s.settings.target:
            parts.append(f"target {s.settings.target}")
        if label != HEADLINE_LABEL:
            parts.append(f"figures: {label}")
        parts.append(f"file: {entry.path}")
        return " · ".join(parts)

    def title_of(self, entry: Entry) -> str:
        return f"The run of {short_date(entry.started)}" if entry.ok else entry.path.name

    def delete_entry(self, entry: Entry) -> None:
        self.store.delete_history(entry)

    def action_promote(self) -> None:
        entry = self._usable()
        if entry is None or entry.session is None:
            return
        session = entry.session

        def named(choice: NameChoice | None) -> None:
            if choice is None:
                return
            try:
                saved = self.store.promote(entry, choice.name, choice.note, replace=choice.replace)
            except StoreError as e:
                self.notify(str(e), severity="error")
                return
            self.notify(f"Saved the run of {short_date(entry.started)} as baseline "
                        f"“{saved.name}”.", title="Baseline saved")

        done = sum(t.complete for t in session.tests)
        self.app.push_screen(BaselineNameDialog(
            self.store, "Save this run as a baseline",
            f"The run of {short_date(entry.started)}, {done} test{'s' * (done != 1)}. A name "
            f"that exists already is replaced only if you say so.",
            name=suggest_name(session), note=session.settings.comment), named)
