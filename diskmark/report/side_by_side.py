"""Results side by side: a row per test, a column per side, in text, Markdown, CSV and JSON
(a list of sides, each with its full ``diskmark.result/1``). A side is a fleet's host
(``diskmark.fleet/1``) or one of several targets measured in one session on this machine
(``diskmark.targets/1``), whose first target is the reference: every other target's figure
carries its verdict against the reference's, ▲ better, ▼ worse or = within the passes' noise,
judged by the comparison's one rule (:mod:`diskmark.report.compare`). Each side's own report
stays :mod:`diskmark.report.text`'s; this only lines them up.

Pure functions of the results (no I/O), as :mod:`diskmark.report.text`.
"""

from __future__ import annotations

import csv
import io
import json
import textwrap
from typing import TYPE_CHECKING, Any

from diskmark.locale import _, ngettext, pgettext
from diskmark.locale.kept import said_kept
from diskmark.locale.text_safety import json_utf8, shown
from diskmark.model.names import from_test_key
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.sides import FILESYSTEM
from diskmark.model.units import Unit
from diskmark.presets.words import said_name
from diskmark.report import text as report
from diskmark.report.cells import text_cells
from diskmark.report.formatting import (
    format_delta,
    format_figure,
    ljust_cells,
    rjust_cells,
    said_title,
    size_text,
)

if TYPE_CHECKING:
    from diskmark.model.fleet import FleetResult
    from diskmark.model.sides import Sharing, Sides, TargetsResult
    from diskmark.report.compare import Comparison

FLEET_SCHEMA = "diskmark.fleet/1"
TARGETS_SCHEMA = "diskmark.targets/1"
#: The widest a column's heading grows: a longer label keeps its end (the full one is listed
#: under the grid).
LABEL_CELLS = 28


def _rows(sides: Sides) -> list[tuple[str, str]]:
    """(test key, title) of every test any side ran, in CrystalDiskMark's order."""
    found: dict[str, tuple[tuple[int, int, int], str]] = {}
    for session in sides.sessions:
        for t in session.tests:
            found.setdefault(t.key, (t.order, said_title(t.label, t.op, t.mix_read)))
    return [(key, title) for key, (_order, title) in sorted(found.items(), key=lambda kv: kv[1][0])]


def said_row(key: str, title: str) -> str:
    """A row's test as a person reads it, in the language in use (``SEQ1M Q8T1 Lesen``): its
    key says which test; a key no test made keeps its title."""
    made = from_test_key(key)
    return said_title(*made) if made is not None else title


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


def _title(first: SessionResult) -> str:
    title = f"diskmark {first.diskmark_version}".rstrip()
    return f"{title} ({first.fio_version})" if first.fio_version else title


def _time_line(first: SessionResult) -> str:
    st = first.settings
    return _("Time: Measure {measure} sec / Interval {interval} sec  Mode: {mode}, {io}").format(
        measure=f"{first.measure:g}", interval=f"{first.interval:g}", mode=st.mode.value,
        io="O_DIRECT" if st.direct else _("buffered"))


def _header(result: FleetResult) -> list[str]:
    first = result.sessions[0]
    st = first.settings
    title = _title(first)
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
            _time_line(first)]


def against_reference(sides: Sides) -> list[Comparison | None]:
    """Each side's comparison with the first (None for the first): what a test measured on
    both is judged, as ``run --compare`` judges a run against a baseline."""
    from diskmark.report.compare import compare

    ref = sides.sessions[0] if sides.sessions else None
    return [compare(s, ref, sides.labels[0]) if i and ref is not None else None
            for i, s in enumerate(sides.sessions)]


def label_tail(label: str, cells: int = LABEL_CELLS) -> str:
    """``label`` in at most ``cells`` terminal cells, its end kept: ``…/pool/bench``."""
    if text_cells(label) <= cells:
        return label
    tail = ""
    for ch in reversed(label):
        if text_cells(ch + tail) > cells - 1:
            break
        tail = ch + tail
    return "…" + tail


def _judged(test: TestResult | None, unit: Unit, cmp: Comparison | None) -> tuple[str, str]:
    """A side's figure and, against the reference, its verdict and change (``▼ −10.9%``;
    ``""`` when there is nothing to judge)."""
    delta = cmp.delta(test.key, unit) if cmp is not None and test is not None else None
    return _cell(test, unit), format_delta(delta.pct, delta.verdict) if delta is not None else ""


def _verdict_cell(test: TestResult | None, unit: Unit, cmp: Comparison | None) -> str:
    return " ".join(part for part in _judged(test, unit, cmp) if part)


def side_cells(sides: Sides, unit: Unit, judged: bool,
               rows: list[tuple[str, str]] | None = None
               ) -> tuple[list[tuple[str, str]], list[list[tuple[str, str]]]]:
    """(rows, cells): every test (``rows``, or those any side ran) as (key, title), and for
    each a (figure, change) per side; with ``judged`` the change of every side but the
    first against the first (``▼ −10.9%``), else none."""
    rows = _rows(sides) if rows is None else [(key, said_row(key, title)) for key, title in rows]
    comparisons = against_reference(sides) if judged else [None] * len(sides.labels)
    return rows, [[_judged(s.test(key), unit, c) for s, c in zip(sides.sessions, comparisons)]
                  for key, _title in rows]


def aligned(cells: list[list[tuple[str, str]]]) -> list[list[str]]:
    """Each cell's figure and change as one text, so that down a column the figures, the
    glyphs and the changes each line up (right-aligned in the column's widest)."""
    sides = len(cells[0]) if cells else 0
    figures = [max([0] + [text_cells(row[i][0]) for row in cells]) for i in range(sides)]
    changes = [max([0] + [text_cells(row[i][1][2:]) for row in cells]) for i in range(sides)]

    def joined(i: int, figure: str, change: str) -> str:
        if not changes[i]:
            return figure
        glyph, pct = (change[0], change[2:]) if change else (" ", "")
        return f"{rjust_cells(figure, figures[i])} {glyph} {rjust_cells(pct, changes[i])}"

    return [[joined(i, *cell) for i, cell in enumerate(row)] for row in cells]


def grid_lines(sides: Sides, unit: Unit, judged: bool) -> list[str]:
    """The sides in one unit: a heading row, a row per test, a column per side; with
    ``judged`` every side but the first carries its verdict against the first, the
    figures, the glyphs and the changes each in a column of their own."""
    labels = [shown(label_tail(label), one_line=True) for label in sides.labels]
    rows, cells = side_cells(sides, unit, judged)
    # TRANSLATORS: the first column's header: "Test (MB/s)"
    corner = _("Test ({unit})").format(unit=unit.label)
    width = max([24, text_cells(corner)] + [text_cells(title) for _key, title in rows])
    texts = aligned(cells)
    widths = [max([12, text_cells(label)] + [text_cells(row[i]) for row in texts])
              for i, label in enumerate(labels)]
    lines = [ljust_cells(corner, width) + "".join(
        f"  {rjust_cells(label, w)}" for label, w in zip(labels, widths))]
    for (_key, title), row in zip(rows, texts):
        lines.append(ljust_cells(title, width) + "".join(
            f"  {rjust_cells(cell, w)}" for cell, w in zip(row, widths)))
    if any(t.cpu_limited for s in sides.sessions for t in s.tests):
        lines.append("* " + _("the CPU, not the drive, set this figure"))
    return lines


def _states(sides: Sides, notes_from: int) -> list[str]:
    """Each side's state, the device it measured and its notes (from the ``notes_from``-th:
    a fleet's first note is every host's, said once below)."""
    lines = []
    for label, session in zip(sides.labels, sides.sessions):
        if session.system.device:
            # TRANSLATORS: a host (or a target), how its run went, and the device it measured
            lines.append("  " + _("{host}: {status}, {device}").format(
                host=label, status=status_text(session), device=session.system.device))
        else:
            lines.append(f"  {shown(label, one_line=True)}: {status_text(session)}")
        notes = [w for w in session.warnings[notes_from:]]
        lines += ["    " + _("note: {note}").format(note=said_kept(w).splitlines()[0])
                  for w in notes]
    return lines


def _ended(lines: list[str]) -> str:
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"


def fleet_text(result: FleetResult, unit: Unit = Unit.MB_S) -> str:
    """The hosts side by side in one unit, then each host's state."""
    lines = [*_header(result), "", *grid_lines(result, unit, judged=False)]
    lines += ["", _("Hosts:"), *_states(result, 1)]
    if result.sessions:
        lines += ["", _("Note: {note}").format(note=said_kept(result.sessions[0].warnings[0]))
                  if result.sessions[0].warnings else ""]
    return _ended(lines)


def _targets_header(result: TargetsResult) -> list[str]:
    first = result.sessions[0]
    st = first.settings
    count = len(result.targets)
    # TRANSLATORS: {title}: "diskmark 1.0 (fio-3.33)"
    head = ngettext("{title} — {count} target, each test on every target in turn",
                    "{title} — {count} targets, each test on every target in turn", count)
    return [head.format(title=_title(first), count=count),
            # TRANSLATORS: CrystalDiskMark's words for the run's settings; x{count} is the passes
            _("Profile: {profile}  Test: {size} (x{count})").format(
                profile=first.profile_name or st.profile, size=size_text(st.size),
                count=st.count),
            _time_line(first),
            # TRANSLATORS: {target} is the first target's path, which the others are judged against
            _("Reference: {target}").format(target=result.reference)]


def legend() -> str:
    # TRANSLATORS: under the targets side by side: what the glyphs beside the figures say
    return _("▲ better, ▼ worse than the reference, = within the passes' noise")


def sharing_text(sharing: Sharing) -> str:
    """Two targets on one file system or one disk, in a sentence."""
    words = dict(target=sharing.second, other=sharing.first, name=sharing.name)
    if sharing.what == FILESYSTEM:
        # TRANSLATORS: {target} and {other} are targets' paths; {name} a mount point
        return _("{target} shares the file system at {name} with {other}: measured one after "
                 "the other, neither disturbed the other's figures, but they are not two "
                 "drives.").format(**words)
    # TRANSLATORS: {target} and {other} are targets' paths; {name} a disk (vda, nvme0n1)
    return _("{target} shares the disk {name} with {other}: measured one after the other, "
             "neither disturbed the other's figures, but they are not two drives.").format(**words)


def targets_text(result: TargetsResult, unit: Unit = Unit.MB_S) -> str:
    """The targets side by side in one unit, each against the first, then each target's
    state and what they share."""
    lines = [*_targets_header(result), "", *grid_lines(result, unit, judged=True), legend()]
    lines += ["", _("Targets:"), *_states(result, 0)]
    for shared in result.sharing:
        lines += ["", *textwrap.wrap(sharing_text(shared), 78, break_long_words=False,
                                     break_on_hyphens=False)]
    return _ended(lines)


def _markdown(sides: Sides, heading: list[str], judged: bool) -> str:
    """A table to paste into an issue: a row per test, MB/s and µs per side (with
    ``judged``, each but the first with its verdict against the first)."""
    comparisons = against_reference(sides) if judged else [None] * len(sides.labels)
    head = [pgettext("table header", "Test")] + [f"{label} {u.label}" for label in sides.labels
                                                  for u in (Unit.MB_S, Unit.US)]
    out = [f"**{heading[0]}** · {heading[1]}", "",
           "| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for key, title in _rows(sides):
        cells = [_verdict_cell(s.test(key), u, c).replace("*", "\\*")  # not emphasis
                 for s, c in zip(sides.sessions, comparisons) for u in (Unit.MB_S, Unit.US)]
        out.append("| " + " | ".join([title, *cells]) + " |")
    out.append("")
    if any(t.cpu_limited for s in sides.sessions for t in s.tests):
        out += ["\\* " + _("the CPU, not the drive, set this figure"), ""]
    out += [f"- `{label}`: {status_text(s)}" for label, s in zip(sides.labels, sides.sessions)]
    return "\n".join(out) + "\n"


def fleet_markdown(result: FleetResult) -> str:
    """A table to paste into an issue: a row per test, MB/s and µs per host."""
    return _markdown(result, _header(result), judged=False)


def targets_markdown(result: TargetsResult) -> str:
    """The targets' table, each against the first; then what they share."""
    header = _targets_header(result)
    text = _markdown(result, header, judged=True)
    extra = [header[3], legend(), *(sharing_text(shared) for shared in result.sharing)]
    return text + "\n" + "\n".join(f"> {line}" for line in extra) + "\n"


def sides_csv(sides: Sides, column: str) -> str:
    """One row per side and fio pass: the side (under ``column``, ``host`` or ``target``),
    then the columns of a single run's CSV."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([column, "status", *report.CSV_FIELDS])
    for label, session in zip(sides.labels, sides.sessions):
        rows = list(csv.reader(io.StringIO(report.csv_report(session))))[1:]
        for row in rows:
            writer.writerow([label, session.status.value, *row])
        if not rows:
            writer.writerow([label, session.status.value])
    return buf.getvalue()


def fleet_csv(result: FleetResult) -> str:
    return sides_csv(result, "host")


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


def targets_dict(result: TargetsResult,
                 extra: dict[str, dict[str, Any]] | None = None) -> dict[str, Any]:
    """Every target's result, each but the first with its comparison against the first
    (``against_reference``, as ``run --compare`` gives one against a baseline); ``extra``
    adds fields to a target's entry by label (its baseline's comparison, its history id)."""
    targets = []
    for i, ((label, session), cmp) in enumerate(zip(result.pairs(), against_reference(result))):
        entry: dict[str, Any] = {"target": label, "reference": i == 0,
                                 "status": session.status.value, "error": session.error,
                                 "result": session.to_dict()}
        if cmp is not None:
            entry["against_reference"] = cmp.to_dict()
        targets.append(entry | (extra or {}).get(label, {}))
    return {"schema": TARGETS_SCHEMA, "reference": result.reference,
            "order": "interleaved", "failed": result.failed(),
            "sharing": [shared.to_dict() for shared in result.sharing], "targets": targets}


def targets_json(result: TargetsResult, extra: dict[str, dict[str, Any]] | None = None) -> str:
    return json_utf8(json.dumps(targets_dict(result, extra), indent=2, ensure_ascii=False)) + "\n"


def fleet_json(result: FleetResult, extra: dict[str, dict[str, Any]] | None = None) -> str:
    return json_utf8(json.dumps(fleet_dict(result, extra), indent=2, ensure_ascii=False)) + "\n"
