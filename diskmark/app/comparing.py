"""Comparing with baselines from the app: the run history kept in the store, saving a
result as a baseline, choosing the baseline the tiles are compared with, and the deltas."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work

from diskmark.app.widgets.comparison_line import ComparisonLine, ComparisonSummary
from diskmark.report.formatting import short_date
from diskmark.model.results import SessionResult

if TYPE_CHECKING:
    from diskmark.store.entry import Entry
    from diskmark.app.screens.baseline_dialogs import NameChoice


class Comparing:
    """The DiskmarkApp's baselines (a mixin: the state it uses is the app's)."""

    @work(thread=True, group="history", exit_on_error=False)
    def _keep_history(self, session: SessionResult) -> None:
        """Every completed run goes to the store's history; failing to write it is a
        warning, never a reason to lose what is on screen."""
        try:
            self.store.save_history(session)
        except Exception as e:  # StoreError, or a bug in writing: the run is still on screen
            self.call_from_thread(self.notify, f"This run was not kept in the history: {e}",
                                  severity="warning", timeout=12)

    def _restore_baseline(self, name: str | None) -> None:
        """Compare with the baseline chosen last time, if it is still there and readable."""
        if not name:
            return
        from diskmark.store.errors import StoreError

        try:
            entry = self.store.find_baseline(name)
        except StoreError as e:
            entry, why = None, str(e)
        else:
            why = "it is not saved any more" if entry is None else f"it is damaged ({entry.damaged})"
        if entry is None or not entry.ok:
            self._notices.append(f"Not comparing with baseline “{name}”: {why}.")
            self._save()
            return
        self.set_baseline(entry)

    def set_baseline(self, entry: Entry | None) -> None:
        """Compare the tiles with ``entry`` from now on (None: stop comparing)."""
        self.state.baseline = entry if entry is not None and entry.ok else None
        self.set_class(self.state.baseline is not None, "-comparing")
        self._update_comparison()
        self._save()

    def _update_comparison(self) -> None:
        """Recompute the deltas of every tile and the comparison line."""
        line = self.main.query_one("#comparison-line", ComparisonLine)
        base = self.state.baseline
        if base is None or base.session is None:
            self.state.comparison = None
            self.grid.show_comparison(None)
            line.summary = None
            return
        from diskmark.report.compare import compare  # only once there is a baseline: not at start

        session = self.state.session_for_comparison(base.session)
        cmp = compare(session, base.session, base.name)
        measured = any(t.complete for t in session.tests)
        self.state.comparison = cmp if measured else None
        self.grid.show_comparison(self.state.comparison)
        unit = self.grid.header_unit
        line.summary = ComparisonSummary(base.name, base.started or base.saved,
                                         cmp.settings_differences,
                                         cmp.counts(unit) if measured else None, unit.label)

    def _baseline_changed(self, old: str, new: Entry | None) -> None:
        """A baseline was renamed or deleted on the baselines screen: follow it."""
        if self.state.baseline is None or self.state.baseline.name != old:
            return
        if new is None:
            self.set_baseline(None)
            self.notify(f"Baseline “{old}” was deleted; the tiles are not compared any more.")
        else:
            self.set_baseline(new)

    def action_save_baseline(self) -> None:
        from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, suggest_name

        session = self.state.current_session()
        if session is None or not any(t.complete for t in session.tests):
            self.notify(f"Nothing measured yet: press {self.key('run_all')} (All) or a row "
                        f"button first, then {self.key('save_baseline')} saves the result as "
                        f"a baseline.", severity="warning")
            return
        done = sum(t.complete for t in session.tests)
        where = " ".join(x for x in (session.system.device, session.system.fstype) if x)
        hint = (f"The {done} test{'s' * (done != 1)} on screen, run {short_date(session.started)}"
                f"{' on ' + where if where else ''}. A name that exists already is replaced "
                f"only if you say so.")

        def named(choice: NameChoice | None) -> None:
            if choice is not None:
                self.save_baseline(session, choice.name, choice.note, replace=choice.replace)

        self.push_screen(BaselineNameDialog(self.store, "Save as baseline", hint,
                                            name=suggest_name(session), note=self.state.comment), named)

    def save_baseline(self, session: SessionResult, name: str, note: str = "",
                      replace: bool = False) -> Entry | None:
        from diskmark.store.errors import NameTaken, StoreError

        try:
            entry = self.store.save_baseline(session, name, note, replace=replace)
        except NameTaken as e:
            self.notify(f"Not saved: {e}; it was not replaced.", severity="warning")
            return None
        except StoreError as e:
            self.notify(f"Not saved as a baseline: {e}", severity="error")
            return None
        self.notify(f"Saved as baseline “{entry.name}”. {self.key('compare_with')} compares "
                    f"later runs with it.",
                    title="Baseline saved")
        if self.state.baseline is not None and self.state.baseline.name == entry.name:
            self.set_baseline(entry)  # replaced the one in use: compare with the new figures
        return entry

    def action_baselines(self) -> None:
        from diskmark.app.screens.baselines import BaselinesScreen

        def chosen(entry: Entry | None) -> None:
            if entry is not None:
                self.set_baseline(entry)
                self.notify(f"The tiles are compared with “{entry.name}”.")

        in_use = self.state.baseline.name if self.state.baseline else None
        self.push_screen(BaselinesScreen(self.store, self.state.current_session(), in_use,
                                         self._baseline_changed), chosen)

    def action_history(self) -> None:
        from diskmark.app.screens.history import HistoryScreen

        in_use = self.state.baseline.name if self.state.baseline else None
        self.push_screen(HistoryScreen(self.store, self.state.current_session(), in_use))

    def action_compare_with(self) -> None:
        self._list_baselines_to_pick()

    @work(thread=True, exclusive=True, group="pick-baseline", exit_on_error=False)
    def _list_baselines_to_pick(self) -> None:
        """Read the baselines off the event loop (each is a whole document to check), then
        offer them."""
        from diskmark.store.errors import StoreError

        try:
            entries = self.store.baselines()
        except StoreError as e:
            self.call_from_thread(self.notify, str(e), severity="error")
            return
        self.call_from_thread(self._pick_baseline, entries)

    def _pick_baseline(self, entries: list[Entry]) -> None:
        from diskmark.app.screens.baseline_dialogs import PickBaselineDialog

        def chosen(entry: Entry | None) -> None:
            if entry is not None:
                self.set_baseline(entry)

        self.push_screen(PickBaselineDialog(
            "Compare the tiles with…", entries,
            f"Every tile shows the change against this baseline. "
            f"{self.key('clear_comparison')} stops comparing; {self.key('baselines')} manages "
            f"the baselines.", current=self.state.baseline.name if self.state.baseline else None), chosen)

    def action_clear_comparison(self) -> None:
        if self.state.baseline is None:
            self.notify(f"The tiles are not compared with any baseline "
                        f"({self.key('compare_with')} chooses one).")
            return
        name = self.state.baseline.name
        self.set_baseline(None)
        self.notify(f"Stopped comparing with “{name}”.")

    def action_show_comparison(self) -> None:
        """The result (with its own tests, whatever the selectors say now) against the
        baseline."""
        from diskmark.app.screens.comparison import ComparisonScreen

        if self.state.baseline is None or self.state.baseline.session is None:
            self.notify(f"Choose a baseline to compare with first ({self.key('compare_with')}).",
                        severity="warning")
            return
        session = self.state.current_session()
        if session is None or not any(t.complete for t in session.tests):
            self.notify(f"Nothing measured yet: run first ({self.key('run_all')}), then "
                        f"{self.key('show_comparison')} shows the comparison.",
                        severity="warning")
            return
        from diskmark.report.compare import compare

        comparison = compare(session, self.state.baseline.session, self.state.baseline.name)
        self.push_screen(ComparisonScreen(comparison, "This run", f"“{self.state.baseline.name}”",
                                          (session, self.state.baseline.session)))
