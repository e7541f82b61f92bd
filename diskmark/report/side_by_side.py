"""A fleet's results side by side: a row per test, a column per host, in text, Markdown,
CSV and JSON (a ``hosts`` list, each with its full ``diskmark.result/1``). Each host's own
report stays :mod:`diskmark.report.text`'s; this only lines them up.

Pure functions of the results (no I/O), as :mod:`diskmark.report.text`.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING, Any

from diskmark.locale import _, ngettext, pgettext
from diskmark.locale.text_safety import json_utf8, shown
from diskmark.model.names import test_title
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.units import Unit
from diskmark.presets.words import said_name
from diskmark.report import text as report
from diskmark.report.cells import text_cells
from diskmark.report.formatting import format_figure, ljust_cells, rjust_cells, size_text

if TYPE_CHECKING:
    from diskmark.model.fleet import FleetResult

FLEET_SCHEMA = "diskmark.fleet/1"


def _rows(result: FleetResult) -> list[tuple[str, str]]:
    """(test key, title) of every test any host ran, in CrystalDiskMark's order."""
    found: dict[str, tuple[tuple[int, int, int], str]] = {}
    for session in result.sessions:
        for t in session.tests:
            found.setdefault(t.key, (t.order, test_title(t.label, t.op, t.mix_read)))
    return [(key, title) for key, (_order, title) in sorted(found.items(), key=lambda kv: kv[1][0])]


def _cell(test: TestResult | None, unit: Unit) -> str:
    if test is None or not test.runs:
        return "-"
    if test.error:
        return pgettext("cell", "error")
    return format_figure(test.figure(unit), unit) + ("*" if test.cpu_limited else "")


def status_text(session: SessionResult) -> str:
    if session.status is Status.COMPLETE:
        return pgettext("host status", "complete")
    if session.status is Status.CANCELLED:
        if session.error:
            # TRANSLATORS: a host's run was stopped; {reason} says why
            return pgettext("host status", "stopped ({reason})").format(reason=session.error)
        return pgettext("host status", "stopped")
    # TRANSLATORS: a host's run failed; {error} is the first line of its error
    return pgettext("host status", "FAILED: {error}").format(
        error=(session.error or _("the benchmark did not finish")).splitlines()[0])


def _header(result: FleetResult) -> list[str]:
    first = result.sessions[0]
    st = first.settings
    title = f"diskmark {first.diskmark_version}".rstrip()
    if first.fio_version:
        title += f" ({first.fio_version})"
    hosts = len(result.hosts)
    if result.one_at_a_time:
        # TRANSLATORS: {title}: "diskmark 1.0 (fio-3.33)"
        head = ngettext("{title} — {count} host, one at a time, through fio's client/server mode",
                        "{title} — {count} hosts, one at a time, through fio's client/server mode",
                        hosts)
    else:
        head = ngettext("{title} — {count} host, at once, through fio's client/server mode",
                        "{title} — {count} hosts, at once, through fio's client/server mode", hosts)
    return [head.format(title=title, count=hosts),
            # TRANSLATORS: CrystalDiskMark's words for the run's settings; x{count} is the passes
            _("Profile: {profile}  Test: {size} (x{count})  Target: {target}").format(
                profile=said_name(first.profile_name or st.profile), size=size_text(st.size), count=st.count,
                target=first.system.target or st.target),
            _("Time: Measure {measure} sec / Interval {interval} sec  Mode: {mode}, {io}").format(
                measure=f"{first.measure:g}", interval=f"{first.interval:g}", mode=st.mode.value,
                io="O_DIRECT" if st.direct else _("buffered"))]


def fleet_text(result: FleetResult, unit: Unit = Unit.MB_S) -> str:
    """The hosts side by side in one unit, then each host's state."""
    labels = [h.label for h in result.hosts]
    rows = _rows(result)
    # TRANSLATORS: the first column's header: "Test (MB/s)"
    corner = _("Test ({unit})").format(unit=unit.label)
    width = max([24, text_cells(corner)] + [text_cells(title) for _key, title in rows])
    widths = [max(12, text_cells(label)) for label in labels]
    lines = [*_header(result), "",
             ljust_cells(corner, width) + "".join(
                 f"  {rjust_cells(label, w)}" for label, w in zip(labels, widths))]
    for key, title in rows:
        lines.append(ljust_cells(title, width) + "".join(
            f"  {rjust_cells(_cell(s.test(key), unit), w)}" for s, w in zip(result.sessions, widths)))
    if any(t.cpu_limited for s in result.sessions for t in s.tests):
        lines.append("* " + _("the CPU, not the drive, set this figure"))
    lines += ["", _("Hosts:")]
    for host, session in result.pairs():
        if session.system.device:
            # TRANSLATORS: a host, how its run went, and the device it measured
            lines.append("  " + _("{host}: {status}, {device}").format(
                host=host.label, status=status_text(session), device=session.system.device))
        else:
            lines.append(f"  {shown(host.label, one_line=True)}: {status_text(session)}")
        notes = [w for w in session.warnings[1:]]
        lines += ["    " + _("note: {note}").format(note=w.splitlines()[0]) for w in notes]
    if result.sessions:
        lines += ["", _("Note: {note}").format(note=result.sessions[0].warnings[0])
                  if result.sessions[0].warnings else ""]
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"


def fleet_markdown(result: FleetResult) -> str:
    """A table to paste into an issue: a row per test, MB/s and µs per host."""
    labels = [h.label for h in result.hosts]
    head = [pgettext("table header", "Test")] + [f"{label} {u.label}" for label in labels
                                                  for u in (Unit.MB_S, Unit.US)]
    out = [f"**{_header(result)[0]}** · {_header(result)[1]}", "",
           "| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for key, title in _rows(result):
        cells = [_cell(s.test(key), u).replace("*", "\\*")  # not emphasis
                 for s in result.sessions for u in (Unit.MB_S, Unit.US)]
        out.append("| " + " | ".join([title, *cells]) + " |")
    out.append("")
    if any(t.cpu_limited for s in result.sessions for t in s.tests):
        out += ["\\* " + _("the CPU, not the drive, set this figure"), ""]
    out += [f"- `{h.label}`: {status_text(s)}" for h, s in result.pairs()]
    return "\n".join(out) + "\n"


def fleet_csv(result: FleetResult) -> str:
    """One row per host and fio pass: ``host`` then the columns of a single run's CSV."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["host", "status", *report.CSV_FIELDS])
    for host, session in result.pairs():
        rows = list(csv.reader(io.StringIO(report.csv_report(session))))[1:]
        for row in rows:
            writer.writerow([host.label, session.status.value, *row])
        if not rows:
            writer.writerow([host.label, session.status.value])
    return buf.getvalue()


def fleet_dict(result: FleetResult, extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """``extra`` adds fields to a host's entry by label (its comparison with a baseline)."""
    hosts = []
    for host, session in result.pairs():
        entry = {"host": host.label, "address": host.name, "port": host.port,
                 "status": session.status.value, "error": session.error,
                 "result": session.to_dict()}
        hosts.append(entry | (extra or {}).get(host.label, {}))
    return {"schema": FLEET_SCHEMA, "one_at_a_time": result.one_at_a_time,
            "failed": [h.label for h in result.failed()], "hosts": hosts}


def fleet_json(result: FleetResult, extra: dict[str, dict[str, Any]] | None = None) -> str:
    return json_utf8(json.dumps(fleet_dict(result, extra), indent=2, ensure_ascii=False)) + "\n"
