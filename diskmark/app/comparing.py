"""Baselines from the app: keeping completed runs in the store's history, saving the result
as a baseline, choosing the baseline the tiles are compared with (and following it when it
is renamed or deleted), and the whole comparison on its own screen.

Each function takes the app as Textual gives it (they open screens and say things) and asks
diskmark's of it through :func:`~diskmark.app.protocol.diskmark_app`; the deltas on the
tiles are drawn by the main screen whenever the baseline changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from diskmark.app.protocol import diskmark_app
from diskmark.report.formatting import short_date

if TYPE_CHECKING:
    from textual.app import App

    from diskmark.app.screens.baseline_dialogs import NameChoice
    from diskmark.model.results import SessionResult
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store


def keep_history(app: App[Any], session: SessionResult) -> None:
    """Every completed run goes to the store's history, in a thread; failing to write it
    is a warning, never a reason to lose what is on screen."""
    store = diskmark_app(app).store

    def keep() -> None:
        try:
            store.save_history(session)
        except Exception as e:  # StoreError, or a bug in writing: the run is still on screen
            app.call_from_thread(app.notify, f"This run was not kept in the history: {e}",
                                 severity="warning", timeout=12)

    app.run_worker(keep, thread=True, group="history", exit_on_error=False)


def find_baseline(store: Store, name: str) -> tuple[Entry | None, str]:
    """The baseline chosen last time, if it is still there and readable; else None and
    what to tell the user."""
    from diskmark.store.errors import StoreError

    try:
        entry = store.find_baseline(name)
    except StoreError as e:
        entry, why = None, str(e)
    else:
        why = "it is not saved any more" if entry is None else f"it is damaged ({entry.damaged})"
    if entry is None or not entry.ok:
        return None, f"Not comparing with baseline “{name}”: {why}."
    return entry, ""


def follow_baseline(app: App[Any], old: str, new: Entry | None) -> None:
    """A baseline was renamed or deleted on the baselines screen: follow it."""
    dm = diskmark_app(app)
    if dm.state.baseline is None or dm.state.baseline.name != old:
        return
    dm.set_baseline(new)
    if new is None:
        app.notify(f"Baseline “{old}” was deleted; the tiles are not compared any more.")


def offer_to_save_baseline(app: App[Any]) -> None:
    """Ask for a name (and a note), then save the result on the tiles as a baseline."""
    from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, suggest_name

    dm = diskmark_app(app)
    key = dm.state.keys.key
    session = dm.state.current_session()
    if session is None or not any(t.complete for t in session.tests):
        app.notify(f"Nothing measured yet: press {key('run_all')} (All) or a row "
                   f"button first, then {key('save_baseline')} saves the result as "
                   f"a baseline.", severity="warning")
        return
    done = sum(t.complete for t in session.tests)
    where = " ".join(x for x in (session.system.device, session.system.fstype) if x)
    hint = (f"The {done} test{'s' * (done != 1)} on screen, run {short_date(session.started)}"
            f"{' on ' + where if where else ''}. A name that exists already is replaced "
            f"only if you say so.")

    def named(choice: NameChoice | None) -> None:
        if choice is not None:
            save_baseline(app, session, choice.name, choice.note, replace=choice.replace)

    app.push_screen(BaselineNameDialog(dm.store, "Save as baseline", hint,
                                       name=suggest_name(session), note=dm.state.comment),
                    named)


def save_baseline(app: App[Any], session: SessionResult, name: str, note: str = "",
                  replace: bool = False) -> Entry | None:
    from diskmark.store.errors import NameTaken, StoreError

    dm = diskmark_app(app)
    key = dm.state.keys.key
    try:
        entry = dm.store.save_baseline(session, name, note, replace=replace)
    except NameTaken as e:
        app.notify(f"Not saved: {e}; it was not replaced.", severity="warning")
        return None
    except StoreError as e:
        app.notify(f"Not saved as a baseline: {e}", severity="error")
        return None
    app.notify(f"Saved as baseline “{entry.name}”. {key('compare_with')} compares "
               f"later runs with it.", title="Baseline saved")
    if dm.state.baseline is not None and dm.state.baseline.name == entry.name:
        dm.set_baseline(entry)  # replaced the one in use: compare with the new figures
    return entry


def show_baselines(app: App[Any]) -> None:
    """The baselines screen; the one chosen there is compared with from now on."""
    from diskmark.app.screens.baselines import BaselinesScreen

    dm = diskmark_app(app)

    def chosen(entry: Entry | None) -> None:
        if entry is not None:
            dm.set_baseline(entry)
            app.notify(f"The tiles are compared with “{entry.name}”.")

    def changed(old: str, new: Entry | None) -> None:
        follow_baseline(app, old, new)

    in_use = dm.state.baseline.name if dm.state.baseline else None
    app.push_screen(BaselinesScreen(dm.store, dm.state.current_session(), in_use, changed),
                    chosen)


def show_history(app: App[Any]) -> None:
    from diskmark.app.screens.history import HistoryScreen

    dm = diskmark_app(app)
    in_use = dm.state.baseline.name if dm.state.baseline else None
    app.push_screen(HistoryScreen(dm.store, dm.state.current_session(), in_use))


def offer_baselines_to_compare_with(app: App[Any]) -> None:
    """Read the baselines off the event loop (each is a whole document to check), then
    offer them."""
    store = diskmark_app(app).store

    def read() -> None:
        from diskmark.store.errors import StoreError

        try:
            entries = store.baselines()
        except StoreError as e:
            app.call_from_thread(app.notify, str(e), severity="error")
            return
        app.call_from_thread(_pick_baseline, app, entries)

    app.run_worker(read, thread=True, exclusive=True, group="pick-baseline",
                   exit_on_error=False)


def _pick_baseline(app: App[Any], entries: list[Entry]) -> None:
    from diskmark.app.screens.baseline_dialogs import PickBaselineDialog

    dm = diskmark_app(app)
    key = dm.state.keys.key

    def chosen(entry: Entry | None) -> None:
        if entry is not None:
            dm.set_baseline(entry)

    app.push_screen(PickBaselineDialog(
        "Compare the tiles with…", entries,
        f"Every tile shows the change against this baseline. "
        f"{key('clear_comparison')} stops comparing; {key('baselines')} manages "
        f"the baselines.", current=dm.state.baseline.name if dm.state.baseline else None),
        chosen)


def stop_comparing(app: App[Any]) -> None:
    dm = diskmark_app(app)
    key = dm.state.keys.key
    if dm.state.baseline is None:
        app.notify(f"The tiles are not compared with any baseline "
                   f"({key('compare_with')} chooses one).")
        return
    name = dm.state.baseline.name
    dm.set_baseline(None)
    app.notify(f"Stopped comparing with “{name}”.")


def show_comparison(app: App[Any]) -> None:
    """The result (with its own tests, whatever the selectors say now) against the
    baseline."""
    from diskmark.app.screens.comparison import ComparisonScreen

    dm = diskmark_app(app)
    key = dm.state.keys.key
    base = dm.state.baseline
    if base is None or base.session is None:
        app.notify(f"Choose a baseline to compare with first ({key('compare_with')}).",
                   severity="warning")
        return
    session = dm.state.current_session()
    if session is None or not any(t.complete for t in session.tests):
        app.notify(f"Nothing measured yet: run first ({key('run_all')}), then "
                   f"{key('show_comparison')} shows the comparison.", severity="warning")
        return
    from diskmark.report.compare import compare

    comparison = compare(session, base.session, base.name)
    app.push_screen(ComparisonScreen(comparison, "This run", f"“{base.name}”",
                                     (session, base.session)))
