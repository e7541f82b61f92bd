"""The Checks panel: the checks there are (etcd, an SD card's classes, a USB link, the
user's), run on the target, and the verdicts of the last check run.

The panel asks the app to run the chosen checks (the run controller runs every run) and
draws what the app tells: how far the run is, then the verdicts it judged into the session,
with the same sentences as ``diskmark check``. The history keeps them with the run.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, SelectionList
from textual.widgets.selection_list import Selection

from diskmark.app.core.news import listen
from diskmark.app.core.protocol import diskmark_app
from diskmark.app.core.run_news import Begun, Failed, Finished, RunNews, SidesEnded, Stopped, Told
from diskmark.app.screens.run_words import progress_text
from diskmark.app.widgets.plain import PlainStatic, plain
from diskmark.locale import N_, _
from diskmark.model.events import Progress
from diskmark.model.results import SessionResult
from diskmark.report.verdicts import asked_lines, ordered


def verdicts_text(session: SessionResult | None) -> str:
    """The last check run's verdicts, as ``diskmark check`` says them."""
    if session is None or not session.checks:
        return _("No check has run yet: choose checks above and press Run. They run on the "
                 "target with the window's size, count and measure time.")
    return "\n".join(asked_lines(session.checks)).rstrip("\n")


class ChecksScreen(ModalScreen[None]):
    """The checks to run and the last run's verdicts. Esc closes (a run goes on)."""

    BINDINGS = [Binding("escape", "close", N_("Close"))]

    def __init__(self) -> None:
        super().__init__(classes="details checks")

    def compose(self) -> ComposeResult:
        app = diskmark_app(self)
        catalog = app.check_catalog()
        state = app.state
        chosen = set(state.run_checks)
        with Vertical(classes="details-box"):
            yield Label(_("Checks"), classes="dialog-title")
            yield PlainStatic(self._idle_status(), id="checks-status",
                              classes="details-verdict")
            with VerticalScroll(classes="details-body"):
                yield SelectionList[str](
                    *(Selection(plain(f"{c.id}  {c.name}"), c.id, c.id in chosen)
                      for c in ordered(catalog)), id="checks-list")
                yield PlainStatic(verdicts_text(state.checks_session), id="verdicts")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Run"), id="run", variant="primary", disabled=state.running)
                yield Button(_("Close"), id="close")

    def on_mount(self) -> None:
        self.query_one("#checks-list", SelectionList).focus()
        listen(diskmark_app(self).signals.run, self, self._run_news)

    def _idle_status(self) -> str:
        problems = diskmark_app(self).check_catalog().problems
        if problems:
            return _("Skipped: {problem}").format(problem=problems[0])
        return _("Choose the checks to run on the target (space), then Run.")

    def _status(self, text: str) -> None:
        self.query_one("#checks-status", PlainStatic).update(text)

    def _run_news(self, news: RunNews) -> None:
        run_button = self.query_one("#run", Button)
        if isinstance(news, Begun):
            run_button.disabled = True
            if news.checks:
                self._status(_("Running {checks}…").format(checks=", ".join(news.checks)))
        elif isinstance(news, Told) and news.checks and isinstance(news.event, Progress):
            self._status(progress_text(news.event))
        elif isinstance(news, Finished | Failed | Stopped | SidesEnded):
            run_button.disabled = False
            if isinstance(news, Finished) and news.checks:
                self._status(_("Checked {checks}.").format(checks=", ".join(news.checks)))
                self.query_one("#verdicts", PlainStatic).update(verdicts_text(news.session))
            elif isinstance(news, Failed) and news.checks:
                self._status(_("Not started: {error}").format(error=news.error))
            elif news.checks:
                self._status(_("Stopped."))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "run":
            chosen = list(self.query_one("#checks-list", SelectionList).selected)
            if not chosen:
                self.notify(_("Choose at least one check (space marks it)."))
                return
            diskmark_app(self).start_checks([str(c) for c in chosen])
        else:
            self.action_close()

    def action_close(self) -> None:
        self.dismiss(None)
