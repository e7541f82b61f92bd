"""CrystalDiskMark's Queues & Threads settings: every row of Default, Peak and Demo, each
field a choice from CrystalDiskMark's own lists, the measure and interval times, a reset to
the Default, NVMe SSD or Flash Memory set, and Save, which keeps them as a user preset and
runs with it from now on (:mod:`diskmark.presets.queues_threads` says what CrystalDiskMark
does and where). Opened from the settings and the palette."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal
from textual.widgets import Button, Input, Label, Select, Static

from diskmark.app.core.protocol import diskmark_app
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.screens.dialogs import ConfirmDialog
from diskmark.app.widgets.plain import PlainLabel, PlainStatic, plain
from diskmark.locale import N_, _
from diskmark.model.results import TestSpec
from diskmark.model.settings import INTERVAL_CHOICES, MEASURE_CHOICES
from diskmark.model.units import format_size
from diskmark.presets import Preset, PresetCatalog
from diskmark.presets.queues_threads import (
    BASE,
    BLOCK_SIZES,
    EDITED,
    FIXED_PATTERN,
    PATTERNS,
    QUEUES,
    RESETS,
    THREADS,
    Rows,
    edited_preset,
    name_problem,
    preset_path,
    rows_of,
)
from diskmark.presets.words import said_name

if TYPE_CHECKING:
    from pathlib import Path

    from diskmark.app.core.protocol import AppLike

#: The profiles shown, in CrystalDiskMark's order; Real World's rows have no field.
SHOWN = ("default", "peak", "real", "demo")
FIELDS = ("pattern", "block", "queues", "threads")


def choices(values: Iterable[Any], current: Any,
            label: Callable[[Any], str] = str) -> list[tuple[str, Any]]:
    """A field's choices: CrystalDiskMark's list, and the value a preset holds if it is not
    on it (a user preset's 12 KiB or Q3), so that what is there is shown as it is."""
    return [(label(v), v) for v in sorted(set(values) | {current})]


def seconds_label(seconds: float) -> str:
    return f"{seconds:g} s"


class QueuesThreadsScreen(Dialog[str]):
    """The rows and times of a preset, changed and saved as a user preset; dismisses with
    the id of the preset saved, or None."""

    BINDINGS = [Binding("ctrl+s", "save", N_("Save"), show=False)]

    def __init__(self, catalog: PresetCatalog, rows: Rows, name: str) -> None:
        super().__init__(_("Queues & Threads"), classes="queues-threads")
        self.catalog = catalog
        self.base = catalog.get(BASE)
        self.rows = rows
        self.initial_name = name

    # --- the form -------------------------------------------------------------------------

    def body(self) -> ComposeResult:
        with Grid(classes="qt-rows"):
            yield Label("")
            yield Label("")
            for head in (_("Type"), _("Block size"), _("Queues"), _("Threads")):
                yield Label(head, classes="qt-head")
            for pid in SHOWN:
                for row, spec in enumerate(self.rows.tests[pid]):
                    yield PlainLabel(said_name(self.base.profiles[pid].name) if row == 0 else "",
                                     classes="qt-profile")
                    yield PlainLabel(spec.label, id=f"label-{pid}-{row}", classes="qt-label")
                    yield from self._fields(pid, row, spec)
        with Horizontal(classes="qt-times"):
            yield Label(_("Measure time"))
            yield Select(choices(MEASURE_CHOICES, self.rows.measure, seconds_label),
                         value=self.rows.measure, allow_blank=False, compact=True, id="measure")
            yield Label(_("Interval time"))
            yield Select(choices(INTERVAL_CHOICES, self.rows.interval, seconds_label),
                         value=self.rows.interval, allow_blank=False, compact=True,
                         id="interval")
        with Horizontal(classes="qt-name"):
            yield Label(_("Save as"))
            yield Input(self.initial_name, placeholder=_("a name, such as mine"), id="name",
                        compact=True)
        yield PlainStatic("", id="problem", classes="dialog-problem")

    def _fields(self, pid: str, row: int, spec: TestSpec) -> ComposeResult:
        if pid not in EDITED:  # Real World: shown, fixed at Q1T1 as CrystalDiskMark has it
            for shown in (spec.pattern, format_size(spec.block), spec.queues, spec.threads):
                yield Label(str(shown), classes="qt-fixed")
            return
        fields: tuple[tuple[str, Any, tuple[Any, ...], Callable[[Any], str]], ...] = (
            ("pattern", spec.pattern, PATTERNS, str), ("block", spec.block, BLOCK_SIZES, format_size),
            ("queues", spec.queues, QUEUES, str), ("threads", spec.threads, THREADS, str))
        for name, value, listed, label in fields:
            select: Select[Any] = Select(choices(listed, value, label), value=value,
                                         allow_blank=False, compact=True,
                                         id=f"{name}-{pid}-{row}", classes=f"qt-{name}")
            select.disabled = name == "pattern" and pid in FIXED_PATTERN
            yield select

    def buttons(self) -> ComposeResult:
        for preset_id in RESETS:
            preset = self.catalog.presets.get(preset_id)
            if preset is not None:
                yield Button(plain(said_name(preset.name)), id=f"reset-{preset_id}",
                             classes="qt-reset")
        yield Button(_("Save"), id="save", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one(f"#block-{EDITED[0]}-0", Select).focus()

    # --- what the form holds ----------------------------------------------------------------

    def _value(self, widget_id: str) -> Any:
        return self.query_one(f"#{widget_id}", Select).value

    def _spec(self, pid: str, row: int) -> TestSpec:
        if pid not in EDITED:
            return self.rows.tests[pid][row]
        pattern, block, queues, threads = (self._value(f"{name}-{pid}-{row}") for name in FIELDS)
        return TestSpec(str(pattern), int(block), int(queues), int(threads))

    def form_rows(self) -> Rows:
        """The rows and times as the form shows them now."""
        tests = {pid: tuple(self._spec(pid, row) for row in range(len(specs)))
                 for pid, specs in self.rows.tests.items()}
        return Rows(tests, float(self._value("measure")), float(self._value("interval")))

    def _say(self, text: str) -> None:
        """Why the preset is not saved, or nothing (the line then takes no room)."""
        problem = self.query_one("#problem", Static)
        problem.update(text)
        problem.set_class(bool(text), "-said")

    @on(Select.Changed)
    def _changed(self, event: Select.Changed) -> None:
        """A row's label follows its fields, as the grid will label it."""
        event.stop()
        parts = (event.select.id or "").split("-")
        if len(parts) == 3 and parts[0] in FIELDS:
            pid, row = parts[1], int(parts[2])
            self.query_one(f"#label-{pid}-{row}", Label).update(self._spec(pid, row).label)
        self._say("")

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self._say("")

    def reset(self, preset: Preset) -> None:
        """Every field as ``preset`` has it (CrystalDiskMark's Default, NVMe SSD, Flash
        Memory buttons); nothing is saved until Save."""
        rows = rows_of(preset, self.base)
        for pid in EDITED:
            for row, spec in enumerate(rows.tests[pid]):
                values = (spec.pattern, spec.block, spec.queues, spec.threads)
                for name, value in zip(FIELDS, values, strict=True):
                    self.query_one(f"#{name}-{pid}-{row}", Select).value = value
        self.query_one("#measure", Select).value = rows.measure
        self.query_one("#interval", Select).value = rows.interval

    # --- saving -------------------------------------------------------------------------------

    def action_save(self) -> None:
        """Save under the name typed: a name a shell would not read as itself, or a built-in
        preset's, is refused here; a file that is there is replaced only once asked."""
        name = self.query_one("#name", Input).value.strip()
        problem = name_problem(name, self.catalog)
        if problem is not None:
            self._say(problem)
            self.query_one("#name", Input).focus()
            return
        preset = edited_preset(name, self.form_rows(), self.base)
        path = preset_path(name, self.catalog)
        if not os.path.lexists(path):
            self._keep(preset, path, replace=False)
            return
        known = self.catalog.presets.get(name)
        # TRANSLATORS: {name} is a user preset's name, {path} its file
        question = (_("The user preset {name} is saved in {path}. Replace it with these rows?")
                    if known is not None and known.source == str(path) else
                    _("{path} already exists. Replace it?")).format(name=name, path=path)

        def answered(replace: bool | None) -> None:
            if replace:
                self._keep(preset, path, replace=True)

        self.app.push_screen(ConfirmDialog(_("Replace the preset?"), question,
                                           yes=_("Replace"), no=_("Keep it")), answered)

    def _keep(self, preset: Preset, path: Path, replace: bool) -> None:
        problem = diskmark_app(self).keep_preset(preset, path, replace)
        if problem is not None:
            self._say(problem)
        else:
            self.dismiss(preset.id)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def pressed(self, button: str) -> None:
        if button == "save":
            self.action_save()
        elif button.startswith("reset-"):
            self.reset(self.catalog.get(button.removeprefix("reset-")))


def edit_queues_threads(app: AppLike, preset_id: str | None = None) -> None:
    """The Queues & Threads settings of ``preset_id`` (the preset in use when None): its rows,
    and the measure and interval a run of it uses now. A user preset's name is offered
    again, so that saving it changes it (once asked); a built-in's is not, as it cannot be."""
    state = app.state
    settings = state.settings
    preset = state.catalog.presets.get(preset_id or settings.preset, state.preset)
    own = preset.id == settings.preset
    rows = rows_of(preset, state.catalog.get(BASE), settings.measure if own else None,
                   settings.interval if own else None)
    app.push_screen(QueuesThreadsScreen(state.catalog, rows,
                                        "" if preset.source == "built-in" else preset.id))
