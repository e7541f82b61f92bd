"""The drive's part of a test's details, under the bandwidth chart: its temperature during
each pass on the chart's columns, its health in one line, and the dips that fell at a
temperature peak (what thermal throttling looks like from outside the drive), or why
nothing was recorded.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Label, Static

from diskmark.app.widgets.temperature_chart import TemperatureChart
from diskmark.locale import _
from diskmark.model.results import SessionResult, TestResult
from diskmark.report.drive_lines import drive_line, hot_dip_notes, warning_minutes_note


def drive_section(result: TestResult, session: SessionResult | None) -> ComposeResult:
    if session is None:  # a test shown without its run: nothing to say about the drive
        return
    record = session.drive
    yield Label(_("Drive temperature (°C) and health"), classes="section")
    runs = [run for run in result.runs if run.bw_samples]
    if record is not None and record.samples and runs and record.passes.get(result.key):
        yield TemperatureChart(result.runs, record, result.key, id="temperature")
    yield Static(_("Drive: {drive}").format(drive=drive_line(record)), id="drive",
                 classes="details-note", markup=False)
    if record is None:
        return
    hot = hot_dip_notes(record.hot_dips(result.key, result.dips()))
    minutes = warning_minutes_note(record)
    if hot or minutes:
        lines = [f"  {n}" for n in hot] + ([f"  {minutes}"] if minutes else [])
        yield Static(_("▲ Thermal throttling likely (a dip at the temperature peak is what it "
                       "looks like from outside the drive):") + "\n" + "\n".join(lines),
                     id="throttling", classes="details-warning", markup=False)
    elif record.samples and result.dips():
        yield Static(_("The dips did not come at a temperature peak: not thermal throttling, "
                       "as far as the drive's sensor tells."), id="throttling",
                     classes="details-note", markup=False)
