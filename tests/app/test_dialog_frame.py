"""Every small dialog in the one frame (title, body, a row of buttons), where Escape and a
Cancel button give the same answer: nothing chosen (ConfirmDialog: No). A dialog that drew
its own frame, or answered Cancel otherwise than Escape, would fail here."""

from __future__ import annotations

from pathlib import Path

import pytest
from fakes import FakeEngine, facts
from textual.widgets import Button, Label

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, ImportFileDialog, PickBaselineDialog
from diskmark.app.screens.dialogs import Choice, ConfirmDialog, ErrorDialog, SaveFileDialog
from diskmark.app.screens.help import HelpScreen
from diskmark.app.screens.history import HistoryFilterDialog
from diskmark.app.screens.queues_threads import QueuesThreadsScreen
from diskmark.app.screens.settings import SettingsScreen
from diskmark.app.screens.sweep import SweepDialog
from diskmark.app.screens.why import WhyScreen
from diskmark.model.settings import Settings
from diskmark.model.units import GIB
from diskmark.presets.queues_threads import BASE, rows_of
from diskmark.store.database import Filters
from diskmark.store.store import Store

#: Each dialog -> (the dialog, made in the running app; its title; what Escape and Cancel answer)
DIALOGS = {
    ErrorDialog: (lambda app, tmp: ErrorDialog(
        "That name is taken", "A baseline of that name exists.", "Import it under another name.",
        [Choice("Replace it", "replace", "warning"), Choice("Cancel", "cancel", "primary")],
        severity="warning"), "That name is taken", None),
    ConfirmDialog: (lambda app, tmp: ConfirmDialog("Replace the file?", "It exists. Replace it?"),
                    "Replace the file?", False),
    SaveFileDialog: (lambda app, tmp: SaveFileDialog("Save the report", "report.html", tmp),
                     "Save the report", None),
    BaselineNameDialog: (lambda app, tmp: BaselineNameDialog(Store(), "Save as a baseline"),
                         "Save as a baseline", None),
    PickBaselineDialog: (lambda app, tmp: PickBaselineDialog("Compare with a baseline", []),
                         "Compare with a baseline", None),
    ImportFileDialog: (lambda app, tmp: ImportFileDialog(tmp), "Import a baseline", None),
    SweepDialog: (lambda app, tmp: SweepDialog(lambda pattern, mode: "About a minute."),
                  "Queue-depth sweep", None),
    HistoryFilterDialog: (lambda app, tmp: HistoryFilterDialog([("/dev/sda1", 2)], [], Filters()),
                          "Show the runs of…", None),
    SettingsScreen: (lambda app, tmp: SettingsScreen(app.state.settings, app.state.catalog),
                     "Settings", None),
    HelpScreen: (lambda app, tmp: HelpScreen(), "diskmark keys", None),
    WhyScreen: (lambda app, tmp: WhyScreen(app), "Why this figure: the storage stack", None),
    QueuesThreadsScreen: (lambda app, tmp: QueuesThreadsScreen(
        app.state.catalog, rows_of(app.state.preset, app.state.catalog.get(BASE), None, None), ""),
        "Queues & Threads", None),
}

def make_app() -> DiskmarkApp:
    engine = FakeEngine()
    return DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, persist=False,
                       settings=Settings(target="/mnt/data", size=GIB, count=5))


@pytest.mark.parametrize("kind", DIALOGS, ids=lambda kind: kind.__name__)
async def test_a_dialog_has_the_frame_and_escape_and_cancel_answer_alike(kind, tmp_path: Path):
    make, title, cancelled = DIALOGS[kind]
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        answers: list[object] = []
        dialog = make(app, tmp_path)
        app.push_screen(dialog, answers.append)
        await pilot.pause()
        assert dialog.has_class("dialog")
        box = dialog.query_one(".dialog-box")
        first, last = box.children[0], box.children[-1]
        assert first.has_class("dialog-title") and isinstance(first, Label)
        assert str(first.render()) == title
        assert last.has_class("dialog-buttons") and list(last.query(Button)) == list(
            dialog.query(Button)), "every button is in the row at the bottom"

        has_cancel = bool(dialog.query("#cancel"))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is not dialog and answers == [cancelled]

        if has_cancel:
            dialog = make(app, tmp_path)
            app.push_screen(dialog, answers.append)
            await pilot.pause()
            await pilot.click("#cancel")
            await pilot.pause()
            assert app.screen is not dialog
            assert answers == [cancelled, cancelled], "Cancel answers as Escape does"
    assert has_cancel or kind in (ConfirmDialog, HelpScreen, WhyScreen), "only Escape was tried"


def test_every_dialog_in_the_frame_is_checked_here():
    from diskmark.app.screens.dialog_frame import Dialog

    def subclasses(cls: type) -> set[type]:
        return set(cls.__subclasses__()).union(*(subclasses(c) for c in cls.__subclasses__()))

    assert subclasses(Dialog) == set(DIALOGS)
