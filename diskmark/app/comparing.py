"""The comparison, an object the app owns: what the tiles show compared with the baseline
(worked out again whenever either changes), the baseline chosen, followed when it is
renamed or deleted, the result saved as one, the whole comparison on its own screen, and the
completed runs kept in the store's history.

It changes only the comparison's part of the state (``state.compared``) and asks the app to
set the baseline (the app announces that, and saves it); the deltas on the tiles and the
comparison line are the main screen's to draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskmark.locale import _, ngettext
from diskmark.report.formatting import short_date

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike
    from diskmark.app.screens.baseline_dialogs import NameChoice
    from diskmark.model.results import SessionResult
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store


def find_baseline(store: Store, name: str) -> tuple[Entry | None, str]:
    """The baseline chosen last time, if it is still there and readable; else None and
    what to tell the user."""
    from diskmark.store.errors import StoreError

    try:
        entry = store.find_baseline(name)
    except StoreError as e:
        # TRANSLATORS: {error} is the store's own message
        return None, _("Not comparing with baseline “{name}”: {error}.").format(name=name, error=e)
    if entry is None:
        return None, _("Not comparing with baseline “{name}”: it is not saved any more.").format(
            name=name)
    if not entry.ok:
        # TRANSLATORS: {why} says what is wrong with the saved file
        return None, _("Not comparing with baseline “{name}”: it is damaged ({why}).").format(
            name=name, why=entry.damaged)
    return entry, ""


class Comparing:
    """The tiles against the baseline, and the baselines from the app's keys."""

    def __init__(self, app: AppLike) -> None:
        self.app = app

    def refresh(self) -> None:
        """Work out again what the tiles show against the baseline (the run under way so
        far; with nothing on them, the settings a run would use now and the target's
        facts, so a mismatch shows before it runs)."""
        state = self.app.state
        base = state.baseline
        if base is None or base.session is None:
            state.compared = None
            return
        from diskmark.report.compare import compare  # only once there is a baseline: not at start

        state.compared = compare(state.session_for_comparison(base.session), base.session,
                                 base.name)

    def keep_history(self, session: SessionResult) -> None:
        """Every completed run goes to the store's history, in a thread; failing to write it
        is a warning, never a reason to lose what is on screen."""
        app = self.app
        store = app.store

        def keep() -> None:
            try:
                store.save_history(session)
            except Exception as e:  # StoreError, or a bug in writing: the run is still on screen
                # TRANSLATORS: {error} is the store's own message
                app.call_from_thread(
                    app.notify, _("This run was not kept in the history: {error}").format(error=e),
                    severity="warning", timeout=12)

        app.run_worker(keep, thread=True, group="history", exit_on_error=False)

    def follow_baseline(self, old: str, new: Entry | None) -> None:
        """A baseline was renamed or deleted on the baselines screen: follow it."""
        app = self.app
        if app.state.baseline is None or app.state.baseline.name != old:
            return
        app.set_baseline(new)
        if new is None:
            app.notify(_("Baseline “{name}” was deleted; the tiles are not compared any more.")
                       .format(name=old))

    def offer_to_save_baseline(self) -> None:
        """Ask for a name (and a note), then save the result on the tiles as a baseline."""
        from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, suggest_name

        app = self.app
        key = app.state.keys.key
        session = app.state.current_session()
        if session is None or not any(t.complete for t in session.tests):
            # TRANSLATORS: {run_key} runs every test (All); {save_key} saves a baseline
            app.notify(_("Nothing measured yet: press {run_key} (All) or a row button first, "
                         "then {save_key} saves the result as a baseline.")
                       .format(run_key=key("run_all"), save_key=key("save_baseline")),
                       severity="warning")
            return
        done = sum(t.complete for t in session.tests)
        where = " ".join(x for x in (session.system.device, session.system.fstype) if x)
        when = short_date(session.started)
        if where:
            # TRANSLATORS: {date} is when the run started; {where} its device and filesystem
            hint = ngettext("The {count} test on screen, run {date} on {where}.",
                            "The {count} tests on screen, run {date} on {where}.", done)
        else:
            hint = ngettext("The {count} test on screen, run {date}.",
                            "The {count} tests on screen, run {date}.", done)
        hint = " ".join((hint.format(count=done, date=when, where=where),
                         _("A name that exists already is replaced only if you say so.")))

        def named(choice: NameChoice | None) -> None:
            if choice is not None:
                self.save_baseline(session, choice.name, choice.note, replace=choice.replace)

        app.push_screen(BaselineNameDialog(app.store, _("Save as baseline"), hint,
                                           name=suggest_name(session), note=app.state.comment),
                        named)

    def save_baseline(self, session: SessionResult, name: str, note: str = "",
                      replace: bool = False) -> Entry | None:
        from diskmark.store.errors import NameTaken, StoreError

        app = self.app
        key = app.state.keys.key
        try:
            entry = app.store.save_baseline(session, name, note, replace=replace)
        except NameTaken as e:
            # TRANSLATORS: {error} says which name is taken
            app.notify(_("Not saved: {error}; it was not replaced.").format(error=e),
                       severity="warning")
            return None
        except StoreError as e:
            app.notify(_("Not saved as a baseline: {error}").format(error=e), severity="error")
            return None
        # TRANSLATORS: {key} is the key that chooses a baseline to compare with (x)
        app.notify(_("Saved as baseline “{name}”. {key} compares later runs with it.")
                   .format(name=entry.name, key=key("compare_with")), title=_("Baseline saved"))
        if app.state.baseline is not None and app.state.baseline.name == entry.name:
            app.set_baseline(entry)  # replaced the one in use: compare with the new figures
        return entry

    def show_baselines(self) -> None:
        """The baselines screen; the one chosen there is compared with from now on."""
        from diskmark.app.screens.baselines import BaselinesScreen

        app = self.app

        def chosen(entry: Entry | None) -> None:
            if entry is not None:
                app.set_baseline(entry)
                app.notify(_("The tiles are compared with “{name}”.").format(name=entry.name))

        in_use = app.state.baseline.name if app.state.baseline else None
        app.push_screen(BaselinesScreen(app.store, app.state.current_session(), in_use,
                                        self.follow_baseline), chosen)

    def show_history(self) -> None:
        from diskmark.app.screens.history import HistoryScreen

        app = self.app
        in_use = app.state.baseline.name if app.state.baseline else None
        app.push_screen(HistoryScreen(app.store, app.state.current_session(), in_use))

    def offer_baselines_to_compare_with(self) -> None:
        """Read the baselines off the event loop (each is a whole document to check), then
        offer them."""
        app = self.app
        store = app.store

        def read() -> None:
            from diskmark.store.errors import StoreError

            try:
                entries = store.baselines()
            except StoreError as e:
                app.call_from_thread(app.notify, str(e), severity="error")
                return
            app.call_from_thread(self._pick_baseline, entries)

        app.run_worker(read, thread=True, exclusive=True, group="pick-baseline",
                       exit_on_error=False)

    def _pick_baseline(self, entries: list[Entry]) -> None:
        from diskmark.app.screens.baseline_dialogs import PickBaselineDialog

        app = self.app
        key = app.state.keys.key

        def chosen(entry: Entry | None) -> None:
            if entry is not None:
                app.set_baseline(entry)

        # TRANSLATORS: {stop_key} stops comparing (X); {baselines_key} opens the baselines (b)
        hint = _("Every tile shows the change against this baseline. {stop_key} stops "
                 "comparing; {baselines_key} manages the baselines.").format(
            stop_key=key("clear_comparison"), baselines_key=key("baselines"))
        app.push_screen(PickBaselineDialog(
            _("Compare the tiles with…"), entries, hint,
            current=app.state.baseline.name if app.state.baseline else None), chosen)

    def stop_comparing(self) -> None:
        app = self.app
        key = app.state.keys.key
        if app.state.baseline is None:
            app.notify(_("The tiles are not compared with any baseline ({key} chooses one).")
                       .format(key=key("compare_with")))
            return
        name = app.state.baseline.name
        app.set_baseline(None)
        app.notify(_("Stopped comparing with “{name}”.").format(name=name))

    def show_comparison(self) -> None:
        """The result (with its own tests, whatever the selectors say now) against the
        baseline."""
        from diskmark.app.screens.comparison import ComparisonScreen

        app = self.app
        key = app.state.keys.key
        base = app.state.baseline
        if base is None or base.session is None:
            app.notify(_("Choose a baseline to compare with first ({key}).")
                       .format(key=key("compare_with")), severity="warning")
            return
        session = app.state.current_session()
        if session is None or not any(t.complete for t in session.tests):
            # TRANSLATORS: {run_key} runs every test (a); {show_key} shows the comparison (v)
            app.notify(_("Nothing measured yet: run first ({run_key}), then {show_key} shows "
                         "the comparison.").format(run_key=key("run_all"),
                                                   show_key=key("show_comparison")),
                       severity="warning")
            return
        from diskmark.report.compare import compare

        comparison = compare(session, base.session, base.name)
        app.push_screen(ComparisonScreen(comparison, _("This run"),
                                         _("“{name}”").format(name=base.name),
                                         (session, base.session)))
