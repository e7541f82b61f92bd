"""Many hosts from the app: the current profile on every host through fio's client/server mode
(:class:`diskmark.engine.fleet.Fleet`, as ``diskmark run --host``), the hosts side by side.

The screen asks for the hosts, runs the fleet in a worker on the app's loop, shows each
host's current step (fio's client prints no live figures, so the step is the progress) and a
table of one row per test and one column per host, in the app's unit. Each host's finished
session goes to the history, as the CLI keeps it. The UI never builds fio options.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, DataTable, Input, Label, Select, Static

from diskmark.app.core.protocol import diskmark_app
from diskmark.locale import N_, _
from diskmark.model.events import Notice, Progress, TestFinished
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.report.formatting import format_figure

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike
    from diskmark.model.events import Event
    from diskmark.model.fleet import Host
    from diskmark.model.settings import Settings

ALL = "__all__"


def split_hosts(text: str) -> list[str]:
    """Hosts as ``--host`` takes them, comma- or space-separated."""
    return [part for part in text.replace(",", " ").split() if part]


def row_key(row: int, op: Any, mix_read: int | None) -> str:
    return f"{row}/{op.value}{mix_read if mix_read is not None else ''}"


def fleet_open(app: AppLike) -> bool:
    """A fleet screen is up: no local run starts under it (a key falling through)."""
    return any(isinstance(s, FleetScreen) for s in app.screen_stack)


class FleetScreen(ModalScreen[None]):
    """Hosts, one-at-a-time, Run/Stop, every host's status and the side-by-side table."""

    BINDINGS = [Binding("escape", "close", N_("Stop / Close"))]

    def __init__(self, hosts_text: str = "") -> None:
        super().__init__(classes="details fleet")
        self.hosts_text = hosts_text
        self.fleet: Any = None
        self.labels: list[str] = []
        self.results: dict[str, dict[str, TestResult]] = {}
        self.statuses: dict[str, str] = {}
        self.running = False
        self.error = ""

    def compose(self) -> ComposeResult:
        with Vertical(classes="details-box"):
            yield Label(_("Run on several hosts (SSH)"), classes="dialog-title")
            yield Static(_("Each host is reached over SSH ([user@]host[:port] or an alias of "
                           "~/.ssh/config) and needs fio, the same version as here; "
                           "fio://host[:port] for a host running fio --server itself. The "
                           "target {target} must exist on every host. The profile, size and "
                           "times are the window's.")
                         .format(target=diskmark_app(self).state.settings.target),
                         classes="dialog-hint", markup=False)
            yield Input(self.hosts_text, placeholder=_("[user@]host[:port] or fio://host[:port], comma- or "
                                          "space-separated"),
                        id="fleet-hosts")
            with Horizontal(classes="dialog-buttons"):
                yield Checkbox(_("One at a time"), id="one-at-a-time", compact=True)
                yield Checkbox(_("The target is private"), id="target-private", compact=True,
                               tooltip=_("Only the user fio's server runs as can write in the "
                                         "target on every host. diskmark checks it itself on "
                                         "hosts whose server runs as root; a server run as "
                                         "another user cannot be checked, so such a host is "
                                         "refused unless this is ticked."))
                yield Select([(_("All hosts side by side"), ALL)], value=ALL, allow_blank=False,
                             compact=True, id="fleet-show")
            yield Static("", id="fleet-status", markup=False)
            with VerticalScroll(classes="details-body"):
                yield DataTable(cursor_type="none", zebra_stripes=True, id="fleet-table")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Run"), id="run", variant="primary")
                yield Button(_("Stop"), id="stop", variant="error", disabled=True)
                yield Button(_("Close"), id="close")

    def on_mount(self) -> None:
        self.query_one("#fleet-hosts", Input).focus()
        self._draw()

    # --- the run ----------------------------------------------------------------------

    def start(self) -> None:
        from diskmark.engine.errors import DiskmarkError
        from diskmark.engine.fleet.hosts import hosts_from
        from diskmark.engine.fleet.jobfile import check_remote_target
        from diskmark.engine.fleet.run import Fleet

        state = diskmark_app(self).state
        if self.running or state.running:
            return
        settings = replace(state.settings, only_test=None, comment=state.comment)
        self.hosts_text = self.query_one("#fleet-hosts", Input).value
        try:
            hosts = hosts_from(split_hosts(self.hosts_text))
            if not hosts:
                raise ValueError(_("give at least one host (host[:port])."))
            check_remote_target(settings.target)
            fleet = Fleet(hosts, catalog=state.catalog,
                          one_at_a_time=self.query_one("#one-at-a-time", Checkbox).value,
                          target_private=self.query_one("#target-private", Checkbox).value)
            plan = fleet.plan(settings)
        except (DiskmarkError, ValueError) as e:
            self._fail(str(e))
            return
        self.fleet, self.error = fleet, ""
        self.labels = [h.label for h in hosts]
        self.results = {label: {} for label in self.labels}
        self.statuses = {label: _("waiting") for label in self.labels}
        self.rows = [(row_key(t.row, t.op, t.mix_read), t.key) for t in plan.tests]
        self.query_one("#fleet-show", Select).set_options(
            [(_("All hosts side by side"), ALL)] + [(label, label) for label in self.labels])
        self._set_running(True)
        self._draw()
        self._run(settings)

    @work(exclusive=True, group="fleet", exit_on_error=False)
    async def _run(self, settings: Settings) -> None:
        try:
            result = await self.fleet.run(settings, self._event)
        except Exception as e:  # FleetNotStarted (nothing started), or any engine error
            self._fail(str(e))
            self._set_running(False)
            return
        for host, session in result.pairs():
            for test in session.tests:
                self.results[host.label][row_key(test.index, test.op, test.mix_read)] = test
            if session.status is Status.COMPLETE:
                self.statuses[host.label] = _("complete")
                self._keep(host.label, session)
            elif session.status is Status.CANCELLED:
                self.statuses[host.label] = _("stopped; fio ended and the test file was removed")
            else:
                self.statuses[host.label] = _("FAILED: {error}").format(
                    error=session.error or _("fio stopped"))
        self._set_running(False)
        self._draw()

    def _keep(self, label: str, session: SessionResult) -> None:
        """In the history under the host's name, as ``diskmark run --host`` keeps it."""
        try:
            diskmark_app(self).store.save_history(session)
        except Exception as e:  # StoreError: the figures are still on screen
            self.notify(_("{host} not kept in the history: {error}").format(host=label, error=e),
                        severity="warning")

    def _event(self, host: Host, event: Event) -> None:
        from diskmark.report.text import describe_progress

        if isinstance(event, Progress):
            text = describe_progress(event)  # the fleet's own words name the host already
            self.statuses[host.label] = text.removeprefix(f"{host.label}: ")
        elif isinstance(event, TestFinished):
            r = event.result
            self.results[host.label][row_key(r.index, r.op, r.mix_read)] = r
        elif isinstance(event, Notice):
            self.statuses[host.label] = event.text
        else:
            return
        self._draw()

    def _fail(self, message: str) -> None:
        self.error = message
        self._draw()

    def _set_running(self, running: bool) -> None:
        self.running = running
        self.query_one("#run", Button).disabled = running
        self.query_one("#stop", Button).disabled = not running
        self.query_one("#fleet-hosts", Input).disabled = running

    # --- drawing ------------------------------------------------------------------------

    def status_text(self) -> str:
        lines = [f"{label}: {self.statuses.get(label, '')}" for label in self.labels]
        if self.error:
            lines.append(_("Error: {error}").format(error=self.error))
        return "\n".join(lines) or _("Type the hosts and press Run.")

    def _draw(self) -> None:
        self.query_one("#fleet-status", Static).update(self.status_text())
        table = self.query_one("#fleet-table", DataTable)
        table.clear(columns=True)
        if not self.labels:
            return
        shown = self.query_one("#fleet-show", Select).value
        labels = self.labels if shown in (ALL, Select.BLANK) else [str(shown)]
        unit = diskmark_app(self).state.unit
        table.add_column(_("Test"), key="test")
        for label in labels:
            table.add_column(Text(f"{label} {unit.label}", justify="right"), key=label)
        for key, name in getattr(self, "rows", []):
            cells = []
            for label in labels:
                r = self.results.get(label, {}).get(key)
                figure = format_figure(r.figure(unit), unit) if r is not None and r.runs else ""
                cells.append(Text(figure, justify="right"))
            table.add_row(name, *cells, key=key)

    def figures(self) -> dict[str, dict[str, str]]:
        """Per host, per test: the figure shown (tests read this)."""
        unit = diskmark_app(self).state.unit
        return {label: {key: format_figure(r.figure(unit), unit)
                        for key, r in self.results.get(label, {}).items() if r.runs}
                for label in self.labels}

    @on(Select.Changed, "#fleet-show")
    def _shown_changed(self) -> None:
        self._draw()

    # --- actions ------------------------------------------------------------------------

    def action_stop(self) -> None:
        if self.running and self.fleet is not None:
            self.fleet.stop()
            self.query_one("#fleet-status", Static).update(
                _("Stopping · fio ends on every host and the test files are removed…"))

    async def action_close(self) -> None:
        if self.running:
            self.action_stop()
            for worker in self.workers:
                await worker.wait()
        self.dismiss(None)

    @on(Input.Submitted, "#fleet-hosts")
    def _submitted(self) -> None:
        self.start()

    async def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "run":
            self.start()
        elif event.button.id == "stop":
            self.action_stop()
        else:
            await self.action_close()


def open_fleet(app: AppLike, hosts: str, typed: Callable[[str], None]) -> None:
    """The fleet screen, with ``hosts`` (typed last time in this session), never over a run
    or another fleet screen; ``typed`` is given the hosts typed, once it closes."""
    if app.state.running or fleet_open(app):
        return
    screen = FleetScreen(hosts)

    def closed(_result: None) -> None:
        typed(screen.hosts_text)

    app.push_screen(screen, closed)
