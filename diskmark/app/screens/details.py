"""Everything behind one tile: every pass, the spread across them, latency percentiles, the
bandwidth of every second, the flush after a write, the test file's layout, the run's notes
and the exact fio command line, so a figure can be checked and reproduced by hand.
"""

from __future__ import annotations

import shlex

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Label, Static

from diskmark.app.core.protocol import diskmark_app
from diskmark.app.screens.details_drive import drive_section
from diskmark.app.widgets.chart import BandwidthChart, dip_notes
from diskmark.app.widgets.fitted_table import FittedTable
from diskmark.app.widgets.plain import PlainStatic
from diskmark.locale import N_, _, ngettext, pgettext
from diskmark.locale.kept import said_kept
from diskmark.model.file_layout import FileLayout
from diskmark.model.notes import unstable_text
from diskmark.model.results import RunResult, SessionResult, TestResult
from diskmark.model.settings import DIP_THRESHOLD_PCT, Op
from diskmark.model.units import Unit, format_bytes
from diskmark.report.formatting import format_figure, knee_text, steady_text, written_text
from diskmark.report.text import cpu_limited_words

PERCENTILES = ("50", "90", "99", "99.9", "99.99", "max")


def test_title(result: TestResult) -> str:
    """``SEQ1M Q8T1 · Sequential Read``; a mix with its ratio (``Random Mix R70/W30``)."""
    pattern, op = result.spec.pattern, result.op
    mix = f"R{result.mix_read}/W{100 - result.mix_read}" if result.mix_read is not None else ""
    if pattern == "SEQ":
        what = {Op.READ: _("Sequential Read"), Op.WRITE: _("Sequential Write"),
                Op.MIX: _("Sequential Mix {ratio}")}[op]
    elif pattern == "RND":
        what = {Op.READ: _("Random Read"), Op.WRITE: _("Random Write"),
                Op.MIX: _("Random Mix {ratio}")}[op]
    else:  # no other pattern is made; its own name, should there be one
        what = "{pattern} " + {Op.READ: pgettext("operation", "Read"),
                               Op.WRITE: pgettext("operation", "Write"),
                               Op.MIX: pgettext("operation", "Mix") + " {ratio}"}[op]
    return f"{result.spec.label} · {what.format(pattern=pattern, ratio=mix).rstrip()}"


def stability_text(result: TestResult) -> tuple[str, bool]:
    """The verdict on the spread in words, and whether it is a warning."""
    if len(result.runs) < 2:
        return (_("One measured pass: no spread to judge (a count of 2 or more shows whether "
                  "the figure repeats)."), False)
    r_avg = f"{result.spread().r_avg_pct:.1f}"
    limit = f"{result.unstable_pct:g}"
    reason = unstable_text(result.unstable())
    if reason:
        # TRANSLATORS: "Stable" is a profile's name, as the settings list it
        return (_("~ Unstable: {reason} (R/Avg {r_avg}%, above {limit}%). The best pass may be "
                  "luck; a longer measure, a larger file or the Stable profile helps.")
                .format(reason=reason, r_avg=r_avg, limit=limit), True)
    return (_("Stable: the passes agree within {r_avg}% (R/Avg, at most {limit}%).")
            .format(r_avg=r_avg, limit=limit), False)


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{value:.0f}%"


def cpu_text(result: TestResult, session: SessionResult | None = None) -> tuple[str, bool]:
    """Whether the CPU, not the drive, set the figure, in words; and whether that is a warning.
    "fio CPU" is fio's own figure per thread; "all CPUs" how busy the whole machine was. The
    reason the result keeps is English: it is said again from the pass's numbers."""
    if result.cpu_limited:
        return (_("cpu  CPU-limited: {reason}. The drive may be faster than this figure; fewer "
                  "threads, another I/O engine or a quieter machine would tell.")
                .format(reason=cpu_limited_words(result, session)), True)
    best = result.best_run
    if best is None or best.cpu_pct is None:
        return _("fio's CPU use was not recorded for this result."), False
    return (_("The drive set this figure: fio's threads were busy {pct}% of the time, with CPU "
              "to spare.").format(pct=f"{best.cpu_pct:.0f}"), False)


def layout_text(layout: FileLayout | None, spinning: bool) -> list[str]:
    """The test file as filefrag would describe it, and why its position may matter."""
    if layout is None:
        return [_("Extents unknown: the filesystem does not report them (no FIEMAP, e.g. tmpfs, "
                  "ramfs, network filesystems).")]
    if layout.fragmented:
        lines = [ngettext("Extents (as filefrag counts them): {extents}, fragmented into "
                          "{count} separate piece.",
                          "Extents (as filefrag counts them): {extents}, fragmented into "
                          "{count} separate pieces.", layout.fragments).format(
            extents=layout.extents, count=layout.fragments)]
    else:
        lines = [_("Extents (as filefrag counts them): {extents}, contiguous (one piece).")
                 .format(extents=layout.extents)]
    if layout.start_fraction is not None:
        lines.append(_("It starts {pct}% of the way into the filesystem.")
                     .format(pct=f"{layout.start_fraction * 100:.0f}"))
    if layout.fragmented:
        lines.append(_("A fragmented file makes sequential figures lower than the device can do."))
    if spinning:  # a real platter; a virtual disk's rotational=1 says nothing
        lines.append(_("This is a spinning disk: outer tracks (near the start) are faster than "
                       "inner ones, so where the file lies changes sequential figures."))
    return lines


class DetailsScreen(ModalScreen[None]):
    """All runs of one test (min / mean / max, R/Avg %) and its fio command, ready to copy."""

    BINDINGS = [
        Binding("escape,q", "dismiss(None)", N_("Close")),
        Binding("c", "copy_command", N_("Copy fio command")),
    ]

    def __init__(self, result: TestResult, buffered: bool = False,
                 session: SessionResult | None = None) -> None:
        """``session`` (the run the result came from) adds the test file, the target's
        facts and the run's warnings."""
        super().__init__(classes="details")
        self.result = result
        self.session = session
        self.buffered = buffered or (session is not None and not session.settings.direct)

    def on_mount(self) -> None:
        """Arrows and PageUp/PageDown scroll the whole body, not one table."""
        for table in self.query(DataTable):
            table.can_focus = False
        self.query_one(".details-body", VerticalScroll).focus()

    def on_resize(self, event: events.Resize) -> None:
        """Borderless buttons on a short terminal leave the lines to the content."""
        for button in self.query(Button):
            button.compact = event.size.height < 34

    @property
    def command(self) -> str:
        return shlex.join(self.result.fio_command)

    def compose(self) -> ComposeResult:
        r = self.result
        with Vertical(classes="details-box"):
            yield Label(test_title(r), classes="dialog-title")
            yield Static(self._verdict(), classes="details-verdict")
            with VerticalScroll(classes="details-body"):
                # a sustained write is one write, not a best of passes: no spread to show
                one_write = r.sustained is not None
                yield Label(_("The write") if one_write else _("Passes"), classes="section")
                yield self._runs_table()
                if len(r.runs) >= 1:
                    if not one_write:
                        yield Label(_("Spread across the measured passes"), classes="section")
                        yield self._spread_table()
                        text, warn = stability_text(r)
                        yield Static(text, id="stability", markup=False,
                                     classes="details-warning" if warn else "details-note")
                    text, warn = cpu_text(r, self.session)
                    yield Static(text, id="cpu", markup=False,
                                 classes="details-warning" if warn else "details-note")
                if any(run.lat_percentiles for run in r.runs):
                    yield Label(_("Completion latency percentiles ({unit})")
                                .format(unit=Unit.US.label), classes="section")
                    yield self._percentile_table()
                if r.runs:
                    yield from self._bandwidth()
                yield from drive_section(r, self.session)  # temperature under the chart, health
                yield Label(_("Cache and flush"), classes="section")
                yield Static(self._cache_text(), id="cache", classes="details-note", markup=False)
                yield from self._layers()
                if self.session is not None:
                    yield Label(_("Test file"), classes="section")
                    yield Static("\n".join(layout_text(self.session.test_file,
                                                        self.session.system.spinning)),
                                 id="test-file", classes="details-note", markup=False)
                    if self.session.warnings:
                        yield Label(_("Notes on this run"), classes="section")
                        yield PlainStatic("\n".join(f"• {said_kept(w)}"
                                                     for w in self.session.warnings),
                                          id="warnings", classes="details-warning")
                if r.error:
                    yield PlainStatic(_("Error: {error}").format(error=r.error),
                                      classes="details-error")
                # on a short terminal the command scrolls with the rest (CSS picks one copy)
                yield Label(_("fio command of one pass (c copies it)"),
                            classes="section command-inline")
                yield PlainStatic(self.command or _("(not recorded)"),
                                  classes="command command-inline")
            yield Label(_("fio command of one pass (c copies it)"), classes="section command-fixed")
            yield PlainStatic(self.command or _("(not recorded)"), id="command",
                              classes="command command-fixed")
            short = self.app.has_class("-short")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Copy fio command"), id="copy", variant="primary", compact=short)
                yield Button(_("Close"), id="close", compact=short)

    def _verdict(self) -> Text:
        r = self.result
        if not r.runs:
            return Text(_("No measured pass finished."), style="italic")
        text = Text()
        for unit in (Unit.MB_S, Unit.IOPS, Unit.US):
            if text:
                text.append("   ")
            text.append(format_figure(r.figure(unit), unit), style="bold")
            text.append(f" {unit.label}")
        if r.sustained is not None:
            text.append("   " + _("one write of {seconds} s")
                        .format(seconds=f"{r.sustained.seconds:.0f}"), style="dim")
        else:
            text.append("   " + ngettext("best of {count}", "best of {count}", len(r.runs))
                        .format(count=len(r.runs)), style="dim")
        if self.buffered:
            text.append("   " + _("buffered (page cache)"), style="italic")
        reason = unstable_text(r.unstable())
        if reason:
            text.append("   " + _("~ unstable: {reason}").format(reason=reason), style="bold")
        return text

    def _layers(self) -> ComposeResult:
        """Which layer under the target explains the figure, and why, with what to do; then
        the whole stack, as ``diskmark why`` shows it."""
        from diskmark.report.stack_words import mark_sentence, why_lines

        stack = self.session.stack if self.session is not None else []
        if not self.result.marks and not stack:
            return
        yield Label(_("The layers under the target"), classes="section")
        if self.result.marks:
            yield PlainStatic("\n".join(mark_sentence(m, stack) for m in self.result.marks),
                              id="layer-marks", classes="details-warning")
        else:
            yield PlainStatic(_("No layer under the target is known to explain this figure."),
                              id="layer-marks", classes="details-note")
        if stack:
            yield PlainStatic("\n".join(why_lines(stack)), id="stack", classes="details-note")

    def _bandwidth(self) -> ComposeResult:
        runs = self.result.runs
        yield Label(_("Bandwidth of every second (MB/s)"), classes="section")
        if not any(run.bw_samples for run in runs):
            yield Static(_("No per-second samples were recorded for these passes."),
                         classes="details-note")
            return
        yield BandwidthChart(runs, id="chart")
        sus = self.result.sustained
        if sus is not None:  # a sustained write: how much, and where its speed fell
            size = self.session.settings.size if self.session is not None else 0
            knee = sus.knee
            yield Static(f"{written_text(sus.written_bytes, sus.seconds, size)}.\n" + (
                knee_text(knee.seconds, knee.written_bytes, knee.before_mb_s, knee.after_mb_s)
                if knee else steady_text(sus.steady_mb_s)), id="knee",
                classes="details-warning" if knee else "details-note", markup=False)
        notes = dip_notes(runs)
        if notes:
            yield Static(_("▲ Dips of more than {pct}% below the pass's median (thermal "
                           "throttling, a full SLC cache, other I/O):")
                         .format(pct=f"{DIP_THRESHOLD_PCT:g}") + "\n"
                         + "\n".join(f"  {n}" for n in notes),
                         id="dips", classes="details-warning", markup=False)
        else:
            yield Static(_("No dips: every second stayed within {pct}% of its pass's median (┄).")
                         .format(pct=f"{DIP_THRESHOLD_PCT:g}"), id="dips", classes="details-note",
                         markup=False)

    def _cache_text(self) -> str:
        r = self.result
        lines = [_("Buffered: through the page cache, so the figures include memory, not only "
                   "the disk.") if self.buffered else
                 _("Direct I/O (O_DIRECT): the page cache is bypassed.")]
        if r.sync_seconds is not None:
            seconds = f"{r.sync_seconds:.2f}"
            if r.sync_dirty_bytes is not None or r.sync_writeback_bytes is not None:
                # TRANSLATORS: Dirty and Writeback are the kernel's names (/proc/meminfo)
                lines.append(_("Flushing to disk after this test took {seconds} s; Dirty up to "
                               "{dirty}, Writeback up to {writeback} (system-wide).").format(
                    seconds=seconds, dirty=format_bytes(r.sync_dirty_bytes or 0),
                    writeback=format_bytes(r.sync_writeback_bytes or 0)))
            else:
                lines.append(_("Flushing to disk after this test took {seconds} s.")
                             .format(seconds=seconds))
        elif r.op is Op.READ:
            lines.append(_("A read leaves nothing to flush."))
        return "\n".join(lines)

    def _runs_table(self) -> FittedTable:
        r = self.result
        columns = [("pass", Text(_("Pass")))]
        columns += [(unit.value, Text(unit.label, justify="right"))
                    for unit in (Unit.MB_S, Unit.IOPS, Unit.US)]
        columns += [("p99", Text(f"p99 {Unit.US.label}", justify="right")),
                    ("runtime", Text(_("Runtime"), justify="right")),
                    ("cpu", Text(_("fio CPU"), justify="right")),
                    ("machine", Text(_("all CPUs"), justify="right"))]
        best = r.best_run
        rows: list[list[Text]] = []

        def add(name: Text, run: RunResult) -> None:
            p99 = run.lat_percentiles.get("99")
            rows.append([
                name,
                *(Text(format_figure(run.figure(u), u), justify="right")
                  for u in (Unit.MB_S, Unit.IOPS, Unit.US)),
                Text(f"{p99:.2f}" if p99 is not None else "—", justify="right"),
                Text(f"{run.runtime_ms / 1000:.1f} s", justify="right"),
                Text(_pct(run.cpu_pct), justify="right"),
                Text(_pct(run.machine_busy_pct), justify="right"),
            ])

        if r.warmup is not None:
            add(Text(_("warm-up (discarded)"), style="dim italic"), r.warmup)
        for n, run in enumerate(r.runs, 1):
            add(Text(_("{n} ★ best").format(n=n) if run is best else str(n),
                     style="bold" if run is best else ""), run)
        # the passes' names wrap (a warm-up in German is 21 cells), never their figures
        return FittedTable(columns, rows, wrapping={0}, cursor_type="none", zebra_stripes=True,
                           id="runs")

    def _spread_table(self) -> FittedTable:
        columns = [("unit", Text(""))] + [
            (name, Text(label, justify="right"))
            for name, label in (("min", _("min")), ("mean", _("mean")), ("max", _("max")),
                                ("R/Avg", "R/Avg"))]
        rows = []
        for unit in (Unit.MB_S, Unit.IOPS, Unit.US):
            sp = self.result.spread(unit)
            rows.append([Text(unit.label), *(Text(format_figure(v, unit), justify="right")
                                             for v in (sp.min, sp.mean, sp.max)),
                         Text(f"{sp.r_avg_pct:.1f} %", justify="right")])
        return FittedTable(columns, rows, cursor_type="none", id="spread")

    def _percentile_table(self) -> FittedTable:
        """One row per measured pass, like diskspd's -L table: p50 … p99.99 and max."""
        runs = self.result.runs
        found = {k for run in runs for k in run.lat_percentiles}
        keys = [k for k in PERCENTILES if k in found] + sorted(found - set(PERCENTILES))
        columns = [("pass", Text(_("Pass")))] + [
            (key, Text(_("max") if key == "max" else f"p{key}", justify="right")) for key in keys]
        best = self.result.best_run
        rows = []
        for n, run in enumerate(runs, 1):
            cells = [Text(f"{run.lat_percentiles[k]:.2f}" if k in run.lat_percentiles else "—",
                          justify="right") for k in keys]
            rows.append([Text(f"{n} ★" if run is best else str(n),
                              style="bold" if run is best else ""), *cells])
        return FittedTable(columns, rows, cursor_type="none", zebra_stripes=True,
                           id="percentiles")

    def action_copy_command(self) -> None:
        if not self.result.fio_command:
            self.notify(_("No fio command was recorded for this test."), severity="warning")
            return
        diskmark_app(self).copy(self.command, _("fio command copied"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy_command()
        else:
            self.dismiss(None)
