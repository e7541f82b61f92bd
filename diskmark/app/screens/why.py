"""Why this figure: the storage stack under the target, as ``diskmark why`` prints it,
opened from the facts line (a click) or the palette; and the layers below measured
read-only, the same read tests as the result on the tiles (``run --down``), side by side.

The stack is read in a thread (a dead NFS server is waited for a quarter of a second, not
on the event loop). The measurement runs the app's engine in this screen's worker; leaving
the screen cancels the worker, which stops fio as a stopped run is stopped. What is measured
is shown here and not kept: the tiles' result stays the one the run gave.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Button

from diskmark.app.core.protocol import AppLike
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.widgets.plain import PlainStatic
from diskmark.locale import N_, _
from diskmark.model.results import SessionResult, Status
from diskmark.model.stack import Layer


def measurable(app: AppLike) -> SessionResult | None:
    """The result whose layers below can be measured: a complete run of the target now
    chosen, with read tests and a stack that has a block device under it; else None."""
    result = app.state.result
    if (app.state.running or result is None or result.status is not Status.COMPLETE
            or not result.stack or result.settings.target != app.state.settings.target):
        return None
    from diskmark.engine.down import devices_below

    return result if devices_below(result.stack) and any(
        t.op.value == "read" and t.runs for t in result.tests) else None


class WhyScreen(Dialog[None]):
    """The stack under the target, and (asked for) the layers below measured."""

    BINDINGS = [Binding("escape,q", "cancel", N_("Close")),
                Binding("d", "measure", N_("Measure the layers below"))]

    def __init__(self, app: AppLike, measure: bool = False) -> None:
        super().__init__(_("Why this figure: the storage stack"), classes="why")
        self.target = app.state.settings.target
        self.session = measurable(app)
        self.measure_at_once = measure

    def body(self) -> ComposeResult:
        with VerticalScroll(classes="help-body"):
            yield PlainStatic(_("Reading the layers under {target}…").format(target=self.target),
                              id="stack")
            yield PlainStatic("", id="below")

    def buttons(self) -> ComposeResult:
        if self.session is not None:
            yield Button(_("Measure the layers below (read-only)"), id="measure")
        yield Button(_("Close"), id="close", variant="primary")

    def on_mount(self) -> None:
        self.run_worker(self._read, thread=True, exclusive=True, group="why-stack",
                        exit_on_error=False)
        if self.measure_at_once:
            self.action_measure()

    def _read(self) -> None:
        from diskmark.drive.stack.resolve import stack_of

        layers = stack_of(self.target)
        self.app.call_from_thread(self._show, layers)

    def _show(self, layers: list[Layer]) -> None:
        from diskmark.report.stack_words import why_text

        width = max(40, self.query_one("#stack", PlainStatic).size.width or 92)
        self.query_one("#stack", PlainStatic).update(why_text(self.target, layers, width=width))

    def pressed(self, button: str) -> None:
        if button == "measure":
            self.action_measure()
        else:
            self.dismiss(None)

    def action_measure(self) -> None:
        below = self.query_one("#below", PlainStatic)
        if self.session is None:
            below.update(_("Nothing to measure below: run the tests on this target first (the "
                           "same read tests run on each device under it), on a stack with a "
                           "block device under its file system."))
            return
        for button in self.query("#measure").results(Button):
            button.disabled = True
        below.update(_("Measuring the layers below, read-only: the same read tests on each "
                       "block device under the target…"))
        self.run_worker(self._measure(self.session), exclusive=True, group="why-measure",
                        exit_on_error=False)

    async def _measure(self, session: SessionResult) -> None:
        from dataclasses import replace

        from diskmark.app.core.protocol import diskmark_app
        from diskmark.engine.down import measure_below
        from diskmark.model.events import Notice
        from diskmark.report.stack_words import below_table, cost_sentences

        below = self.query_one("#below", PlainStatic)

        def told(event: object) -> None:
            if isinstance(event, Notice):
                below.update(event.text)

        measured = await measure_below(diskmark_app(self).engine, session, told)
        shown = replace(session, below=measured)
        lines = below_table(shown) + [""] + cost_sentences(shown)
        below.update("\n".join(lines).strip("\n") or _("Nothing could be measured below."))
