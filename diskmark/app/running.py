"""Running a benchmark from the app: starting a run or a queue-depth sweep, showing the
engine's events as they come, and taking in the outcome the worker reports.

The worker posts typed messages (:mod:`diskmark.app.messages`); the handlers here turn them
into tiles, the status line and, for a failure, a dialog whose buttons are the next steps.
The engine stops fio and removes the test file itself; the app only waits for it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import traceback
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual import work

from diskmark.app.messages import EngineEvent, RunFailed, RunFinished, RunStarted, RunStopped
from diskmark.app.widgets.tiles import Live
from diskmark.engine.errors import DirectIOUnsupported, DiskmarkError, FioMissing, TargetError
from diskmark.report.formatting import BETTER, DELTA_GLYPHS, SAME, WORSE, format_duration
from diskmark.model.settings import Mode, Settings
from diskmark.model.results import SessionResult, Status
from diskmark.model.units import format_size

if TYPE_CHECKING:
    from diskmark.app.screens.sweep import SweepScreen
    from diskmark.model.events import Event, Progress

#: What the line after a run offers next, by binding id: the key the keymap gives it.
HINTS = {"save_baseline": "{key} saves it as a baseline", "save_report": "{key} saves the report"}



def session_seconds(session: SessionResult) -> float | None:
    """How long a session took, from its own timestamps."""
    try:
        return (datetime.fromisoformat(session.finished)
                - datetime.fromisoformat(session.started)).total_seconds()
    except (TypeError, ValueError):
        return None


class Runs:
    """The DiskmarkApp's runs (a mixin: the state it uses is the app's)."""

    def start_run(self, only_test: int | None) -> None:
        """All (``only_test`` None) or one row. Builds Settings; the engine does the rest."""
        if self.state.running or self.fleet_open():
            return
        settings = replace(self.state.settings, only_test=only_test, comment=self.state.comment)
        try:
            plan = self.engine.plan(settings)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        kept = self.state.begin_run(plan, settings)
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        for test in kept:
            self.grid.show_result(test, final=True)
        self._update_comparison()
        self.set_running(True)
        self._bench(settings)

    @work(exclusive=True, group="bench", exit_on_error=False)
    async def _bench(self, settings: Settings) -> None:
        """The engine's run, told back as messages: started, its events, then finished,
        failed or stopped. (``running`` is set before the worker starts, so a second key
        press cannot start a second run.)"""
        self.post_message(RunStarted(settings))
        from diskmark.engine.device import block_device

        if (settings.mix is not None or settings.nocow) and block_device(
                Path(settings.target).expanduser()):
            # no consent here: a device runs reads only; the saved NOCOW choice is for a
            # directory on btrfs (the engine refuses it for a device, as --nocow)
            settings = replace(settings, mix=None, nocow=False)
        try:
            session = await self.engine.run(settings, self._forward_engine_event)
        except asyncio.CancelledError:
            self.post_message(RunStopped())
            raise
        except Exception as e:  # the engine's errors, and any bug: a dialog says which
            self.post_message(RunFailed(e))
        else:
            self.post_message(RunFinished(session))

    def on_run_started(self, _message: RunStarted) -> None:
        if self.state.running:
            self.status.show("Checking the target…", 0.0)

    def _forward_engine_event(self, event: Event) -> None:
        """Called by the engine on the app's loop; queue it so the engine never waits on
        drawing and a burst of progress collapses into the latest."""
        self.post_message(EngineEvent(event))

    def on_engine_event(self, message: EngineEvent) -> None:
        from diskmark.model.events import (Notice, Progress, RunFinished as PassFinished,
                                           TestFinished, TestStarted)

        event = message.event
        if self._sweep is not None and not isinstance(event, Notice):
            self._sweep_event(event)
            return
        grid = self.grid
        if isinstance(event, Progress):
            self._show_progress(event)
        elif isinstance(event, TestStarted):
            grid.show_live(event.result.index, event.result.op, Live(0.0, None, "warm-up"))
            grid.mark_current_row(event.result.index)
        elif isinstance(event, PassFinished):
            if not event.warmup:
                grid.show_result(event.result, final=False)
        elif isinstance(event, TestFinished):
            self.state.test_finished(event.result)
            grid.show_result(event.result, final=True)
            if self.state.baseline is not None:
                self._update_comparison()  # deltas appear as the tests finish
        elif isinstance(event, Notice):
            severity = event.severity if event.severity in ("information", "warning", "error") else "warning"
            self.notify(event.text, severity=severity, timeout=10)  # type: ignore[arg-type]

    def _show_progress(self, p: Progress) -> None:
        from diskmark.model.events import Phase

        if not self.state.running:
            return
        if not self._quit_requested:
            # the ETA goes to the right of the status line, next to the session's bar
            from diskmark.report.text import describe_progress  # the reports: not at start

            self.status.show(describe_progress(replace(p, eta_s=None)), p.session_percent, p.eta_s)
        test = self.state.plan.get(p.test_index) if p.test_index is not None else None
        if test is None:
            return
        if p.phase in (Phase.WARMUP, Phase.MEASURING):
            runs = max(p.runs, 1)
            fraction = (p.run + p.percent / 100) / (runs + 1)
            caption = "warm-up" if p.phase is Phase.WARMUP else f"{p.run}/{runs}"
            self.grid.show_live(test.row, test.op, Live(fraction, p.mb_s, caption))
        elif p.phase in (Phase.SYNC, Phase.SETTLE):
            pending = (p.dirty_bytes or 0) + (p.writeback_bytes or 0)
            word = "sync" if p.phase is Phase.SYNC else "settle"
            caption = f"{word} {pending / 2**20:.0f} MiB" if pending else word
            self.grid.show_live(test.row, test.op, Live(1.0, None, caption))

    def on_run_finished(self, message: RunFinished) -> None:
        settings = self._run_ending()
        sweep, self._sweep = self._sweep, None
        if sweep is not None:
            self._sweep_finished(sweep, message.session)
        else:
            self._finished(message.session)
        self._run_ended(settings)

    def on_run_failed(self, message: RunFailed) -> None:
        settings = self._run_ending()
        sweep, self._sweep = self._sweep, None
        if sweep is not None:
            sweep.dismiss(None)
        else:
            self.state.run_abandoned()
            self._show_result_tiles()  # nothing ran: the result is as it was
        self.status.show("Not started · see the message")
        if not self._quit_requested:
            self.show_error(message.error, settings)
        self._run_ended(settings)

    def on_run_stopped(self, _message: RunStopped) -> None:
        settings = self._run_ending()
        if self._sweep is None:
            self.state.run_abandoned()
            self._show_result_tiles()
        self._sweep = None
        self._run_ended(settings)

    def _run_ending(self) -> Settings | None:
        if self._hung_up:  # the engine has cleaned up; there is no terminal to go back to
            os._exit(128 + signal.SIGHUP)
        self.set_running(False)
        self.main.grid.end_live()
        return self.state.run_settings

    def _run_ended(self, _settings: Settings | None) -> None:
        if self._quit_requested:
            self.exit(0)

    def _finished(self, session: SessionResult) -> None:
        from diskmark.app.screens.dialogs import ErrorDialog

        measured = any(t.runs for t in session.tests)
        self.state.run_returned(session)
        self._show_result_tiles()
        self.main.focus_a_result()
        self._update_comparison()
        self.main.show_setup()
        took = session_seconds(session)
        finished = f"Finished in {format_duration(took)}" if took is not None else "Finished"
        # the phrases of the line, the most important first: a narrow terminal drops the last
        hints = [hint.format(key=self.key(binding_id)) for binding_id, hint in HINTS.items()
                 if self.state.keys.keys[binding_id]]  # not for a binding a conflict left keyless
        if session.status is Status.COMPLETE:
            self._keep_history(session)
            done = len(session.tests)
            if self.state.comparison is not None and self.state.baseline is not None:
                counts = self.state.comparison.counts(self.grid.header_unit)
                verdicts = "  ".join(f"{DELTA_GLYPHS[v]} {counts[v]} {v}" for v in (BETTER, WORSE, SAME))
                self.status.show([finished, f"against “{self.state.baseline.name}”: {verdicts}",
                                  f"{self.key('show_comparison')} shows the comparison",
                                  *hints[:1]])
            else:
                self.status.show([finished, f"{done} test{'s' * (done != 1)}",
                                  *self._unstable_legend(), *hints,
                                  "enter on a tile shows details"])
        elif session.status is Status.CANCELLED:
            self.status.show("Stopped · fio ended and the test file was removed; "
                             "finished tiles are kept" if measured else
                             "Stopped · fio ended and the test file was removed; nothing was "
                             "measured")
        else:
            self.status.show("Failed · see the message")
            if not self._quit_requested:
                self.push_screen(ErrorDialog(
                    "The benchmark failed", session.error or "fio stopped with an error.",
                    "The tiles that finished are kept. Check the target (space, permissions, "
                    "a removed device) and run again."))

    def _unstable_legend(self) -> list[str]:
        """What the ``~9%`` and ``cpu`` marks on tiles mean, said once where they appear:
        short, so that both fit beside the time at 120 columns."""
        out = []
        shaky = [t for t in self.state.on_tiles.values() if t.unstable() is not None]
        if shaky:
            out.append(f"~N%: passes differ by N% (over {shaky[0].unstable_pct:g}%)")
        if any(t.cpu_limited for t in self.state.on_tiles.values()):
            out.append("cpu: the CPU, not the drive, set the figure")
        return out

    def action_fleet(self) -> None:
        """The fleet screen, with the hosts typed last time in this session."""
        from diskmark.app.screens.fleet import FleetScreen

        if self.state.running or self.fleet_open():
            return
        screen = FleetScreen(self.state.fleet_hosts)

        def closed(_: None) -> None:
            self.state.fleet_hosts = screen.hosts_text

        self.push_screen(screen, closed)

    def fleet_open(self) -> bool:
        """A fleet screen is up: no local run starts under it (a key falling through)."""
        from diskmark.app.screens.fleet import FleetScreen

        return any(isinstance(s, FleetScreen) for s in self.screen_stack)

    def action_sweep(self) -> None:
        from diskmark.app.screens.sweep import SweepDialog

        def chosen(answer: tuple[str, Mode] | None) -> None:
            if answer is not None:
                self.start_sweep(*answer)

        self.push_screen(SweepDialog(self._sweep_estimate), chosen)

    def _sweep_estimate(self, pattern: str, mode: Mode) -> str:
        s = replace(self.state.settings, sweep=pattern, mode=mode, mix=None, only_test=None)
        plan = self.engine.plan(s)
        return (f"{len(plan.tests)} tests · {format_size(s.size)} × {s.count} "
                f"pass{'es' * (s.count != 1)} after a "
                f"warm-up · measure {plan.measure:g} s, interval {plan.interval:g} s · about "
                f"{format_duration(plan.total_seconds())} plus writing the test file")

    def start_sweep(self, pattern: str, mode: Mode) -> None:
        """Run ``pattern`` at every queue depth; results go to a SweepScreen, never the grid."""
        from diskmark.app.screens.sweep import SweepScreen

        if self.state.running or self.fleet_open():
            return
        settings = replace(self.state.settings, sweep=pattern, mode=mode, mix=None, only_test=None,
                           comment=self.state.comment)
        try:
            self.engine.plan(settings)
        except DiskmarkError as e:
            self.show_error(e, settings)
            return
        self.state.plan = {}  # nothing of the grid moves during a sweep
        self.state.run_settings = settings
        self._sweep = SweepScreen(pattern, mode, self.state.unit)
        self.push_screen(self._sweep)
        self.set_running(True)
        self.status.show(f"Queue-depth sweep {pattern} · checking the target…", 0.0)
        self._bench(settings)

    def _sweep_event(self, event: Event) -> None:
        from diskmark.model.events import (Progress, RunFinished as PassFinished, TestFinished,
                                           TestStarted)

        sweep = self._sweep
        assert sweep is not None
        if isinstance(event, Progress):
            if self.state.running and not self._quit_requested:
                from diskmark.report.text import describe_progress

                text = describe_progress(replace(event, eta_s=None))
                self.status.show(text, event.session_percent, event.eta_s)
                eta = f" · ETA {format_duration(event.eta_s)}" if event.eta_s is not None else ""
                sweep.show_progress(f"{text} · {event.session_percent:.0f}%{eta}")
        elif isinstance(event, (TestStarted, TestFinished)) or (
                isinstance(event, PassFinished) and not event.warmup):
            sweep.show_result(event.result)

    def _sweep_finished(self, sweep: SweepScreen, session: SessionResult) -> None:
        self.state.sweep_session = session
        sweep.finish(session)
        if session.status is Status.COMPLETE:
            self._keep_history(session)  # as `diskmark run --sweep` does
        took = session_seconds(session)
        took_text = f" in {format_duration(took)}" if took is not None else ""
        words = {Status.COMPLETE: f"Sweep finished{took_text}",
                 Status.CANCELLED: "Sweep stopped · fio ended and the test file was removed",
                 Status.FAILED: "Sweep failed · see the sweep window"}
        self.status.show(words[session.status])

    def show_error(self, error: BaseException | None, settings: Settings | None = None) -> None:
        """Every engine error as a dialog whose buttons are the next steps."""
        from diskmark.app.screens.dialogs import Choice, ErrorDialog

        settings = settings or self.state.settings
        if isinstance(error, DirectIOUnsupported):
            def answered(choice: str | None) -> None:
                if choice == "buffered":
                    self.change_settings(direct=False)
                    self.start_run(settings.only_test)
                elif choice == "target":
                    self.action_pick_target()

            self.push_screen(ErrorDialog(
                "Direct I/O is not supported here", error.message, error.hint,
                [Choice("Run buffered", "buffered", "warning"),
                 Choice("Choose another target", "target"), Choice("Cancel", "cancel", "primary")]),
                answered)
        elif isinstance(error, TargetError):
            def answered_target(choice: str | None) -> None:
                if choice == "target":
                    self.action_pick_target()

            self.push_screen(ErrorDialog(
                "The target cannot be used", error.message, error.hint,
                [Choice("Choose another target", "target"), Choice("OK", "ok", "primary")]),
                answered_target)
        elif isinstance(error, FioMissing):
            self.push_screen(ErrorDialog("fio is needed", error.message, error.hint))
        elif isinstance(error, DiskmarkError):
            self.push_screen(ErrorDialog("The benchmark failed", error.message, error.hint))
        else:
            detail = "".join(traceback.format_exception_only(type(error), error)).strip() \
                if error is not None else "unknown error"
            self.push_screen(ErrorDialog(
                "Something went wrong", detail,
                "This is a bug in diskmark. fio was stopped and the test file removed; "
                "please report what you did and this message."))
