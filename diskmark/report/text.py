"""Renderings of a :class:`~diskmark.model.SessionResult` for a person and for scripts: a
terminal grid, a sweep's curve, JSON, CSV and Markdown, and the status line's wording of
progress (CrystalDiskMark's text export is :mod:`diskmark.report.cdm_report`). Figures,
sizes, dates and labels come from :mod:`diskmark.report.formatting`.

Pure functions of the model (no Textual, no I/O), so the CLI and the app print the same
thing and tests can check exact strings. The grid, the curve, the Markdown and the progress
line are in the user's language; the few words shared with the text export take a voice.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from diskmark.locale import N_, _, pgettext
from diskmark.locale.kept import said_kept
from diskmark.locale.text_safety import json_utf8, shown
from diskmark.model.events import Phase, Progress
from diskmark.model.names import from_test_key, test_title
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import SessionResult, Status, TestResult, in_order
from diskmark.model.settings import Op
from diskmark.model.units import GIB, MIB, Unit, format_bytes
from diskmark.model.voice import LOCAL, Voice
from diskmark.presets.words import said_name
from diskmark.report.cells import text_cells
from diskmark.report.drive_lines import drive_line
from diskmark.report.formatting import (
    format_duration,
    format_figure,
    ljust_cells,
    op_word,
    rjust_cells,
    said_title,
    size_text,
)
from diskmark.report.stack_words import marks_footnotes, marks_text


def target_of(session: SessionResult) -> str:
    return session.system.target or session.settings.target


def usage_text(session: SessionResult, voice: Voice = LOCAL) -> str:
    """'/mnt/data: 87% (814/931GiB)' — used/total of the filesystem; ramfs reports no size."""
    s = session.system
    if s.target_kind == "device":  # the tested region at the start of the device
        if s.total_bytes:
            # TRANSLATORS: a block device measured itself: {target} its path, {size} its size
            return voice._("{target}: device of {size}").format(
                target=target_of(session), size=format_bytes(s.total_bytes))
        return voice._("{target}: device").format(target=target_of(session))
    if s.total_bytes <= 0:
        return voice._("{target}: n/a").format(target=target_of(session))
    used = max(0, s.total_bytes - s.free_bytes)
    pct = used / s.total_bytes * 100
    if s.total_bytes >= 10 * GIB:
        amount = f"{used / GIB:.0f}/{s.total_bytes / GIB:.0f}GiB"
    else:
        amount = f"{used / MIB:.0f}/{s.total_bytes / MIB:.0f}MiB"
    return f"{target_of(session)}: {pct:.0f}% ({amount})"


def io_mode_text(session: SessionResult, voice: Voice = LOCAL) -> str:
    mode = (voice._("Direct I/O (O_DIRECT)") if session.settings.direct
            else voice._("Buffered (page cache)"))
    # TRANSLATORS: {mode}: "Direct I/O (O_DIRECT)"; {engine}: fio's I/O engine (io_uring, libaio)
    return voice._("{mode}, {engine}").format(mode=mode, engine=session.ioengine) \
        if session.ioengine else mode


def op_groups(session: SessionResult) -> list[tuple[Op, int | None, list[TestResult]]]:
    """Tests grouped by (op, mix ratio), in CrystalDiskMark's order (reads, then writes,
    then mixes, each group in the profile's row order: :attr:`TestResult.order`)."""
    groups: dict[tuple[Op, int | None], list[TestResult]] = {}
    for t in in_order(session.tests):
        groups.setdefault((t.op, t.mix_read if t.op is Op.MIX else None), []).append(t)
    return [(op, mix, tests) for (op, mix), tests in groups.items()]


# --- terminal grid (the user's language from here on) -------------------------------------


def column_name(op: Op, mix: int | None) -> str:
    """A column of the grid: "Read", "Write", "Mix 70/30"."""
    if op is Op.MIX and mix:
        # TRANSLATORS: a column of mixed tests: {read}% reads, {write}% writes
        return _("Mix {read}/{write}").format(read=mix, write=100 - mix)
    return {Op.READ: pgettext("tile header", "Read"), Op.WRITE: pgettext("tile header", "Write"),
            Op.MIX: pgettext("tile header", "Mix")}[op]



def _grid(session: SessionResult) -> tuple[list[str], list[tuple[str, str, int | None]],
                                             dict[tuple[str, str], TestResult]]:
    """Rows (test labels, in order), columns (title, column key, mix ratio) and cells."""
    rows: dict[str, int] = {}  # label -> its row in the profile
    cells: dict[tuple[str, str], TestResult] = {}
    columns: list[tuple[str, str, int | None]] = []
    for op, mix, tests in op_groups(session):
        col = f"{op.value}{mix or ''}"
        columns.append((column_name(op, mix), col, mix))
        for t in tests:
            rows[t.label] = min(t.index, rows.get(t.label, t.index))
            cells[(t.label, col)] = t
    return sorted(rows, key=rows.__getitem__), columns, cells


def _cell(test: TestResult | None, unit: Unit) -> str:
    if test is None:
        return "-"
    if test.error:
        # TRANSLATORS: in a table cell: the test failed (keep it short)
        return pgettext("cell", "error")
    if not test.runs:
        return "-"
    return format_figure(test.figure(unit), unit)


def grid_report(session: SessionResult, unit: Unit = Unit.MB_S) -> str:
    """CDM's window as a plain table in one unit: a row per test, a column per operation;
    beside a figure, what share of the drive's claim it reached (:mod:`claim_marks`)."""
    from diskmark.report.claim_marks import claim_marks, footnote, mark_text

    rows, columns, cells = _grid(session)
    marks = claim_marks(session) if session.claims else {}
    test = pgettext("table header", "Test")
    width = max([14, text_cells(test)] + [len(r) for r in rows])
    heads = [f"{name} {unit.label}" for name, _col, _mix in columns]
    layer_room = max((text_cells(marks_text(t)) for t in session.tests), default=0)
    texts: list[list[str]] = []
    for _name, col, _mix in columns:
        found = [cells.get((label, col)) for label in rows]
        shares = [mark_text(marks.get(t.key)) if t is not None else "" for t in found]
        room = max(map(len, shares), default=0)
        texts.append([_cell(t, unit) + _star(t) + (f" {share:<{room}}" if room else "")
                      + _marks(t, layer_room) for t, share in zip(found, shares)])
    widths = [max(10, text_cells(h), *(text_cells(c) - 1 for c in column))
              for h, column in zip(heads, texts)]
    out = [ljust_cells(test, width) + "".join(f"  {rjust_cells(h, w)} "
                                              for h, w in zip(heads, widths))]
    for n, label in enumerate(rows):
        out.append(ljust_cells(label, width) + "".join(
            "  " + rjust_cells(column[n], w + 1) for column, w in zip(texts, widths)))
    if any(t.cpu_limited for t in session.tests):
        # TRANSLATORS: the footnote of a figure marked *; [Details] is the text export's section
        out.append("* " + _("the CPU, not the drive, set this figure (see [Details])"))
    out += footnote(session) if marks else []
    out += marks_footnotes(session)
    return "\n".join(line.rstrip() for line in out) + "\n"


def _marks(test: TestResult | None, width: int) -> str:
    """The layers' marks after a figure (``zip,loop``), in a column as wide as the widest."""
    return " " + ljust_cells(marks_text(test), width) if width else ""


def _star(test: TestResult | None) -> str:
    return "*" if test is not None and test.cpu_limited else " "


def curve_report(session: SessionResult, unit: Unit = Unit.MB_S, width: int = 40) -> str:
    """A queue-depth sweep as a curve: one line per depth with a bar (as the RAID6
    offset/fragmentation article swept it)."""
    out = []
    for op, _mix, tests in op_groups(session):
        if not tests:
            continue
        top = max((t.figure(unit) for t in tests if t.runs), default=0.0)
        # TRANSLATORS: a queue-depth sweep's title: "RND4K Read across queue depths (MB/s)"
        out.append(_("{test} {operation} across queue depths ({unit})").format(
            test=tests[0].spec.name, operation=op_word(op), unit=unit.label))
        for t in tests:
            value = t.figure(unit) if t.runs else 0.0
            bar = "#" * round(width * value / top) if top else ""
            out.append(f"  Q{t.spec.queues:<3} {format_figure(value, unit):>12}  {bar}")
        out.append("")
    return "\n".join(out)


# --- JSON, CSV, Markdown -----------------------------------------------------------------


def json_report(session: SessionResult, extra: dict[str, Any] | None = None) -> str:
    """Everything, in the versioned schema the store and ``SessionResult.from_dict`` read
    (``history show --format json`` prints the same document); each claim with the figure
    measured, its % of the claim and whether it fell short (``from_dict`` reads the claim
    and leaves the rest)."""
    d = session.to_dict()
    if session.claims:
        from diskmark.report.claim_marks import claim_marks

        d["claims"] = [m.to_dict() for m in claim_marks(session).values()]
    text = json.dumps(d | (extra or {}), indent=2, ensure_ascii=False)
    return json_utf8(text) + "\n"


CSV_FIELDS = ["date", "target", "device", "fstype", "preset", "profile", "test", "kind",
              "mix_read", "run", "warmup", "mb_s", "iops", "lat_us", "io_bytes", "runtime_ms",
              "size", "direct", "usr_cpu", "sys_cpu", "cpu_limited", "marks"]


def csv_report(session: SessionResult) -> str:
    """One row per fio pass (warm-up as run 0), like the CSV files of snow_mountain's fio article, for spreadsheets."""
    st, sy = session.settings, session.system
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for t in session.tests:
        passes = ([(0, 1, t.warmup)] if t.warmup else []) + [
            (n, 0, r) for n, r in enumerate(t.runs, 1)]
        for n, warm, r in passes:
            writer.writerow([
                session.started, target_of(session), sy.device, sy.fstype, st.preset, st.profile,
                t.label, t.op.value, t.mix_read if t.mix_read is not None else "", n, warm,
                f"{r.mb_s:.3f}", f"{r.iops:.2f}", f"{r.lat_us:.2f}", r.io_bytes, r.runtime_ms,
                st.size, int(st.direct), _opt(r.usr_cpu), _opt(r.sys_cpu),
                int(bool(r.cpu_limit(t.spec.threads, sy.cpus))), _csv_marks(t)])
    return buf.getvalue()


def _csv_marks(test: TestResult) -> str:
    """A test's marks for a spreadsheet: each effect and the layer it is of
    (``compressed@/mnt/btrfs;loop-cache@/dev/loop0``), the same in every language."""
    return ";".join(f"{m.effect.value}@{m.name}" for m in test.marks)


def _opt(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def markdown_report(session: SessionResult) -> str:
    """A compact table to paste into an issue: per test, each operation in MB/s, IOPS, µs."""
    st, sy = session.settings, session.system
    rows, columns, cells = _grid(session)
    where = ", ".join(x for x in (sy.fstype or (pgettext("target kind", "device") if sy.target_kind
                                                 else ""), sy.model) if x)
    summary = shown(f"**diskmark {session.diskmark_version}** ({session.fio_version or 'fio'}) · "
               f"`{target_of(session)}`{f' ({where})' if where else ''} · {size_text(st.size)} "
               f"x{st.count} · {said_name(session.preset_name or st.preset)} / "
               f"{said_name(session.profile_name or st.profile)} · {io_mode_text(session)}",
               one_line=True)
    units = (Unit.MB_S, Unit.IOPS, Unit.US)
    head = [pgettext("table header", "Test")] + [f"{name} {u.label}" for name, _col, _mix in columns
                                                  for u in units]
    out = [summary, "", "| " + " | ".join(head) + " |",
           "|---" + "|---:" * (len(head) - 1) + "|"]
    for label in rows:
        vals = [(_cell(test, u) + (f" {marks_text(test)}" if u is Unit.MB_S and test is not None
                                    and test.marks else ""))
                for _name, col, _mix in columns for u in units
                for test in (cells.get((label, col)),)]
        out.append("| " + " | ".join([label] + vals) + " |")
    limited = [t for t in session.tests if t.cpu_limited]
    if limited:
        out.append("")
        # TRANSLATORS: {test}: "SEQ1M Q8T1 Read"; {reason}: why the CPU set the figure
        out += ["> " + _("CPU-limited: {test}: {reason}").format(
            test=f"{t.label} {op_word(t.op)}", reason=cpu_limited_words(t, session)) for t in limited]
    footnotes = marks_footnotes(session)
    if session.claims:
        from diskmark.report.claim_marks import claim_marks, mark_words

        footnotes += [mark_words(m) for m in claim_marks(session).values()]
    if footnotes:
        out.append("")
        out += ["> " + line for line in footnotes]
    if session.status is not Status.COMPLETE:
        status = f"**{_(STATUS_WORDS[session.status])}**"
        out += ["", _("{status}: {error}").format(status=status, error=session.error)
                if session.error else status]
    out += ["\n> " + _("Note: {note}").format(note=said_kept(w)) for w in session.warnings]
    out.append("\n" + _("Drive: {drive}").format(drive=drive_line(session.drive)))
    return "\n".join(out) + "\n"


#: A session's status as a word (marked: translate with ``_`` where shown).
STATUS_WORDS = {Status.COMPLETE: N_("Complete"), Status.CANCELLED: N_("Cancelled"),
                Status.FAILED: N_("Failed")}


def cpu_limited_words(test: TestResult, session: SessionResult | None) -> str:
    """Why the CPU set ``test``'s figure, in the user's language: said again from the best
    pass's numbers (the saved reason is English), or the saved reason when they no longer
    say it. Without its ``session``, the machine's cores are not known."""
    best = test.best_run
    cpus = session.system.cpus if session is not None else None
    limit = best.cpu_limit(test.spec.threads, cpus) if best is not None else None
    return cpu_limit_text(limit, LOCAL) or test.cpu_limited or ""


# --- progress ----------------------------------------------------------------------------


def _mib(nbytes: int | None) -> str:
    return _("n/a") if nbytes is None else f"{nbytes / MIB:.1f} MiB"


#: What the engine is doing, when its progress names no test.
_PHASES = {Phase.CHECKING: N_("Checking"), Phase.PREPARING: N_("Preparing"),
           Phase.WARMUP: N_("Warm-up"), Phase.MEASURING: N_("Measuring"),
           Phase.INTERVAL: N_("Interval"), Phase.SYNC: N_("Sync"), Phase.SETTLE: N_("Settle"),
           Phase.CLEANUP: N_("Cleanup")}


def _said_message(event: Progress) -> str:
    """What the event says, in the language in use: the engine names the test in English
    ("SEQ1M Q8T1 Read", as CrystalDiskMark's status bar does in every language), which a
    person reads as the test's title in theirs."""
    test = from_test_key(event.test_key) if event.test_key else None
    if test is not None and event.message == test_title(*test):
        return said_title(*test)
    return event.message or (_(_PHASES[event.phase]) if event.phase in _PHASES
                             else event.phase.value.capitalize())


def describe_progress(event: Progress) -> str:
    """CDM's status-bar wording ('Preparing... SEQ1M Q8T1 Read', 'RND4K Q1T1 Write (2/5)'), plus
    the live MB/s and the session's ETA that CDM does not show."""
    message = _said_message(event)
    if event.phase is Phase.WARMUP:
        # TRANSLATORS: CrystalDiskMark's status bar during the discarded warm-up pass of {test}
        text = _("Preparing... {test}").format(test=message)
    elif event.phase is Phase.MEASURING and event.runs:
        text = f"{message} ({event.run}/{event.runs})"
    elif event.phase is Phase.PREPARING and event.percent:
        text = f"{message} {event.percent:.0f}%"
    else:
        text = message
    if event.mb_s is not None:
        text += f"  {format_figure(event.mb_s, Unit.MB_S)} MB/s"
    if event.phase in (Phase.SYNC, Phase.SETTLE) and (event.dirty_bytes is not None
                                      or event.writeback_bytes is not None):
        # black_cat's filesystem article watched these drain: what the kernel still has to write, system-wide
        # TRANSLATORS: Dirty and Writeback are /proc/meminfo's names for what the kernel still
        # has to write
        text += "  " + _("Dirty {dirty} · Writeback {writeback}").format(
            dirty=_mib(event.dirty_bytes), writeback=_mib(event.writeback_bytes))
    if event.eta_s:
        # TRANSLATORS: the estimated time left, {time} as 1:05
        text += "  " + _("ETA {time}").format(time=format_duration(event.eta_s))
    return text
