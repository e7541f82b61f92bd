"""Renderings of a :class:`~diskmark.model.SessionResult`: CrystalDiskMark's text export, a
terminal grid, a sweep's curve, JSON, CSV and Markdown, and the status line's wording of
progress. Figures, sizes, dates and labels come from :mod:`diskmark.report.formatting`.

Pure functions of the model (no Textual, no I/O), so the CLI and the app's export print the
same thing and tests can check exact strings.

The CrystalDiskMark text export is English in every language, as CrystalDiskMark writes it,
so that tools can read it: it speaks through :data:`~diskmark.model.voice.ENGLISH`. The grid,
the curve, the Markdown and the progress line are in the user's language.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from diskmark.files.text_safety import json_utf8
from diskmark.locale import N_, _, pgettext
from diskmark.model.events import Phase, Progress
from diskmark.model.notes import cpu_limit_text, dip_notes, unstable_text
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import DIP_THRESHOLD_PCT, Mode, Op
from diskmark.model.units import GIB, MIB, Unit, format_bytes
from diskmark.model.voice import ENGLISH, LOCAL, Voice
from diskmark.report.cells import text_cells
from diskmark.report.drive_lines import drive_line, hot_dip_notes, warning_minutes_note
from diskmark.report.formatting import (
    MODE_REPORT,
    block_label,
    disk_kind,
    format_date,
    format_duration,
    format_figure,
    knee_text,
    ljust_cells,
    op_word,
    rjust_cells,
    size_text,
    steady_text,
    written_text,
)
from diskmark.report.sustained_chart import chart_lines

RULE = "-" * 78
#: CDM's SaveText line for one test: the test, then its figures.
TEST_HEAD = "  %s %4d%s (Q=%3d, T=%2d):"
TEST_LINE = TEST_HEAD + " %9.3f MB/s [%9.1f IOPS] <%9.2f us>"
_OP_TITLES = {Op.READ: "[Read]", Op.WRITE: "[Write]", Op.MIX: "[Mix]"}
#: After a figure the CPU, not the drive, set (the reason is in [Details] and the JSON).
CPU_MARK = "[CPU-limited]"


def _seconds(value: float) -> str:
    """5.0 -> '5', 1.5 -> '1.5': CDM prints whole seconds, but ours may be fractional."""
    return f"{value:g}"


def _target(session: SessionResult) -> str:
    return session.system.target or session.settings.target


def _usage(session: SessionResult, voice: Voice = LOCAL) -> str:
    """'/mnt/data: 87% (814/931GiB)' — used/total of the filesystem; ramfs reports no size."""
    s = session.system
    if s.target_kind == "device":  # the tested region at the start of the device
        if s.total_bytes:
            # TRANSLATORS: a block device measured itself: {target} its path, {size} its size
            return voice._("{target}: device of {size}").format(
                target=_target(session), size=format_bytes(s.total_bytes))
        return voice._("{target}: device").format(target=_target(session))
    if s.total_bytes <= 0:
        return voice._("{target}: n/a").format(target=_target(session))
    used = max(0, s.total_bytes - s.free_bytes)
    pct = used / s.total_bytes * 100
    if s.total_bytes >= 10 * GIB:
        amount = f"{used / GIB:.0f}/{s.total_bytes / GIB:.0f}GiB"
    else:
        amount = f"{used / MIB:.0f}/{s.total_bytes / MIB:.0f}MiB"
    return f"{_target(session)}: {pct:.0f}% ({amount})"


def _device(session: SessionResult) -> str:
    s = session.system
    kind = disk_kind(s.rotational, s.virtual, ENGLISH)
    details = ", ".join(x for x in (s.model, kind, s.interface) if x)
    text = s.device or "n/a"
    if details:
        text += f" ({details})"
    if s.scheduler:
        text += f" scheduler {s.scheduler}"
    return text


def _filesystem(session: SessionResult) -> str:
    s = session.system
    if s.target_kind == "device":
        return "none: the device itself was measured, no test file"
    text = s.fstype or "n/a"
    if s.mount_options:
        text += f" ({s.mount_options})"
    if s.mountpoint:
        text += f" on {s.mountpoint}"
    return text


def _io_mode(session: SessionResult, voice: Voice = LOCAL) -> str:
    mode = (voice._("Direct I/O (O_DIRECT)") if session.settings.direct
            else voice._("Buffered (page cache)"))
    # TRANSLATORS: {mode}: "Direct I/O (O_DIRECT)"; {engine}: fio's I/O engine (io_uring, libaio)
    return voice._("{mode}, {engine}").format(mode=mode, engine=session.ioengine) \
        if session.ioengine else mode


def _groups(session: SessionResult) -> list[tuple[Op, int | None, list[TestResult]]]:
    """Tests grouped by (op, mix ratio), reads first, then writes, then mixes (CDM's order),
    each group in the profile's row order."""
    order = {Op.READ: 0, Op.WRITE: 1, Op.MIX: 2}
    groups: dict[tuple[Op, int | None], list[TestResult]] = {}
    for t in sorted(session.tests, key=lambda t: t.index):
        groups.setdefault((t.op, t.mix_read if t.op is Op.MIX else None), []).append(t)
    keys = sorted(groups, key=lambda k: (order[k[0]], k[1] or 0))
    return [(op, mix, groups[(op, mix)]) for op, mix in keys]


def _group_title(op: Op, mix: int | None) -> str:
    if op is Op.MIX and mix is not None:
        return f"[Mix] Read {mix}%/Write {100 - mix}%"
    return _OP_TITLES[op]


def format_test_line(test: TestResult) -> str:
    """One test in CDM's SaveText format; a failed or unmeasured test shows why instead."""
    spec = test.spec
    head = (spec.pattern, *block_label(spec.block), spec.queues, spec.threads)
    if test.runs and test.error is None:
        line = TEST_LINE % (*head, test.best_mb_s, test.best_iops, test.best_lat_us)
        return line + (f" {CPU_MARK}" if test.cpu_limited else "")
    return TEST_HEAD % head + (f" error: {test.error}" if test.error else " not measured")


# --- text (CrystalDiskMark's SaveText) ---------------------------------------------------


def text_report(session: SessionResult, unit_note: bool = False) -> str:
    """CrystalDiskMark's text export, so results read (and diff) like CDM's.

    ``unit_note`` adds a header line saying how the figures were chosen (best of N passes
    after a discarded warm-up), for readers who do not know CDM.
    """
    st = session.settings
    title = f"diskmark {session.diskmark_version or ''}".rstrip()
    if session.fio_version:
        title += f" ({session.fio_version})"
    lines = [RULE, f"{title} — CrystalDiskMark-style report", RULE,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]",
             "* KB = 1000 bytes, KiB = 1024 bytes"]
    if not st.direct:
        lines.append("* Buffered (page cache), not O_DIRECT: figures include the page cache, "
                     "not the disk alone")
    if unit_note:
        lines.append(f"* Each test: a discarded warm-up pass, then {st.count} passes; "
                     "the best MB/s (with its IOPS) and the lowest mean latency are shown")
    lines.append("")

    for op, mix, tests in _groups(session):
        lines.append(_group_title(op, mix))
        lines.extend(format_test_line(t) for t in tests)
        lines.append("")
    lines.extend(sustained_lines(session))

    tail = []
    if session.status is Status.CANCELLED:
        tail.append("Cancelled: the session was stopped before all tests finished.")
    elif session.status is Status.FAILED:
        tail.append(f"Failed: {session.error or 'the benchmark did not finish'}")
    tail.extend(f"Note: {w}" for w in session.warnings)
    if tail:
        lines.extend(tail + [""])
    details = _details(session)
    if details:
        lines.extend(["[Details]", *details, ""])

    measure = session.measure or st.measure or 0
    interval = session.interval if session.interval else (st.interval or 0)
    lines += [
        f"Profile: {session.profile_name or st.profile}",
        f"   Test: {size_text(st.size)}{_passes(session)} [{_usage(session, ENGLISH)}]",
        f"   Mode: {MODE_REPORT[Mode.WRITE if _sustained(session) else st.mode]}, "
        f"{st.data.label} data; {_io_mode(session, ENGLISH)}",
        f"   Time: {_time(session, measure, interval)}",
        f"   Date: {format_date(session.started, missing='n/a')}",
    ]
    s = session.system
    os_line = s.os or "n/a"
    if s.kernel:
        os_line += f" [Linux {s.kernel}]"
    lines += [f"     OS: {os_line}",
              f" Device: {_device(session)}",
              f"  Drive: {drive_line(session.drive, ENGLISH)}",
              f"     FS: {_filesystem(session)}",
              f"    fio: {session.fio_version or 'n/a'}"]
    if st.comment:
        lines.append(f"Comment: {st.comment}")
    return "\n".join(lines) + "\n"


def _sustained(session: SessionResult) -> bool:
    return any(t.sustained is not None for t in session.tests)


def sustained_lines(session: SessionResult) -> list[str]:
    """A sustained write: how much it wrote, and its knee or its steady level."""
    out = []
    for t in session.tests:
        sus = t.sustained
        if sus is None:
            continue
        knee = sus.knee
        out += [f"[Sustained] {t.label} {t.op.value}",
                f"  {written_text(sus.written_bytes, sus.seconds, session.settings.size, ENGLISH)}",
                "  " + (knee_text(knee.seconds, knee.written_bytes, knee.before_mb_s,
                                  knee.after_mb_s, ENGLISH) if knee
                        else steady_text(sus.steady_mb_s, ENGLISH)),
                "", *chart_lines(sus.mb_s, sus.bin_s, knee.seconds if knee else None), ""]
    return out


def _passes(session: SessionResult) -> str:
    return "" if _sustained(session) else f" (x{session.settings.count})"


def _time(session: SessionResult, measure: float, interval: float) -> str:
    st = session.settings
    if _sustained(session):
        amount = f" or {size_text(st.amount)}, whichever first" if st.amount else ""
        return f"Write for {_seconds(st.duration)} sec{amount}"
    return f"Measure {_seconds(measure)} sec / Interval {_seconds(interval)} sec"


def _cpu(test: TestResult) -> str:
    """fio's CPU use in the best pass, and the verdict when it, not the drive, set the figure."""
    best = test.best_run
    if best is None or best.cpu_pct is None:
        return ""
    use = f"CPU {best.cpu_pct:.0f}% per thread"
    return f"CPU-LIMITED, {test.cpu_limited}" if test.cpu_limited else use


def _details(session: SessionResult) -> list[str]:
    """What the fio articles diskmark builds on asked of every figure: stability, dips, flush time, file layout."""
    out = []
    for t in session.tests:
        notes = []
        if len(t.runs) > 1:
            notes.append(f"R/Avg {t.spread().r_avg_pct:.1f}%")
        if t.unstable() is not None:
            notes.append(f"UNSTABLE, {unstable_text(t.unstable(), ENGLISH)}")
        cpu = _cpu(t)
        if cpu:
            notes.append(cpu)
        notes.extend(dip_notes(t.dips(), DIP_THRESHOLD_PCT, ENGLISH))
        notes.extend(hot_dip_notes(session.drive.hot_dips(t.key, t.dips()) if session.drive else [],
                                   ENGLISH))
        if t.sync_seconds is not None:
            dirty = sum(x or 0 for x in (t.sync_dirty_bytes, t.sync_writeback_bytes))
            notes.append(f"sync {t.sync_seconds:.2f} s" + (
                f" (Dirty+Writeback up to {_mib(dirty)})" if dirty else ""))
        if notes:
            name = f"{t.label} {t.op.value}{t.mix_read or ''}"
            out.append(f"  {name}: " + "; ".join(notes))
    if warning_minutes_note(session.drive, ENGLISH):
        out.append(f"  Drive: {warning_minutes_note(session.drive, ENGLISH)}")
    layout = session.test_file
    if layout:
        where = (f", starts at {layout.start_fraction * 100:.0f}% of the filesystem"
                 if layout.start_fraction is not None else "")
        shape = f"fragmented into {layout.fragments} pieces" if layout.fragmented else "contiguous"
        out.append(f"  Test file: {layout.extents} extent{'s' if layout.extents != 1 else ''}, "
                   f"{shape}{where}")
        if session.system.spinning and layout.start_fraction is not None:
            out.append("  On a spinning disk, the outer tracks (near the start) are faster: "
                       "where the test file lies changes sequential figures.")
    return out


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
    for op, mix, tests in _groups(session):
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
    """CDM's window as a plain table in one unit: a row per test, a column per operation."""
    rows, columns, cells = _grid(session)
    test = pgettext("table header", "Test")
    width = max([14, text_cells(test)] + [len(r) for r in rows])
    heads = [f"{name} {unit.label}" for name, _col, _mix in columns]
    widths = [max(10, text_cells(h)) for h in heads]
    out = [ljust_cells(test, width) + "".join(f"  {rjust_cells(h, w)} "
                                              for h, w in zip(heads, widths))]
    for label in rows:
        out.append(ljust_cells(label, width) + "".join(
            "  " + rjust_cells(_cell(cells.get((label, col)), unit) + _star(cells.get((label, col))),
                               w + 1)
            for (_name, col, _mix), w in zip(columns, widths)))
    if any(t.cpu_limited for t in session.tests):
        # TRANSLATORS: the footnote of a figure marked *; [Details] is the text export's section
        out.append("* " + _("the CPU, not the drive, set this figure (see [Details])"))
    return "\n".join(line.rstrip() for line in out) + "\n"


def _star(test: TestResult | None) -> str:
    return "*" if test is not None and test.cpu_limited else " "


def curve_report(session: SessionResult, unit: Unit = Unit.MB_S, width: int = 40) -> str:
    """A queue-depth sweep as a curve: one line per depth with a bar (as the RAID6
    offset/fragmentation article swept it)."""
    out = []
    for op, _mix, tests in _groups(session):
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
    """Everything, in the versioned schema the store and ``SessionResult.from_dict`` read."""
    text = json.dumps(session.to_dict() | (extra or {}), indent=2, ensure_ascii=False)
    return json_utf8(text) + "\n"


CSV_FIELDS = ["date", "target", "device", "fstype", "preset", "profile", "test", "kind",
              "mix_read", "run", "warmup", "mb_s", "iops", "lat_us", "io_bytes", "runtime_ms",
              "size", "direct", "usr_cpu", "sys_cpu", "cpu_limited"]


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
                session.started, _target(session), sy.device, sy.fstype, st.preset, st.profile,
                t.label, t.op.value, t.mix_read if t.mix_read is not None else "", n, warm,
                f"{r.mb_s:.3f}", f"{r.iops:.2f}", f"{r.lat_us:.2f}", r.io_bytes, r.runtime_ms,
                st.size, int(st.direct), _opt(r.usr_cpu), _opt(r.sys_cpu),
                int(bool(r.cpu_limit(t.spec.threads, sy.cpus)))])
    return buf.getvalue()


def _opt(value: float | None) -> str:
    return "" if value is None else f"{value:.1f}"


def markdown_report(session: SessionResult) -> str:
    """A compact table to paste into an issue: per test, each operation in MB/s, IOPS, µs."""
    st, sy = session.settings, session.system
    rows, columns, cells = _grid(session)
    where = ", ".join(x for x in (sy.fstype or (pgettext("target kind", "device") if sy.target_kind
                                                 else ""), sy.model) if x)
    summary = (f"**diskmark {session.diskmark_version}** ({session.fio_version or 'fio'}) · "
               f"`{_target(session)}`{f' ({where})' if where else ''} · {size_text(st.size)} "
               f"x{st.count} · {session.preset_name or st.preset} / "
               f"{session.profile_name or st.profile} · {_io_mode(session)}")
    units = (Unit.MB_S, Unit.IOPS, Unit.US)
    head = [pgettext("table header", "Test")] + [f"{name} {u.label}" for name, _col, _mix in columns
                                                  for u in units]
    out = [summary, "", "| " + " | ".join(head) + " |",
           "|---" + "|---:" * (len(head) - 1) + "|"]
    for label in rows:
        vals = [_cell(cells.get((label, col)), u) for _name, col, _mix in columns for u in units]
        out.append("| " + " | ".join([label] + vals) + " |")
    limited = [t for t in session.tests if t.cpu_limited]
    if limited:
        out.append("")
        # TRANSLATORS: {test}: "SEQ1M Q8T1 Read"; {reason}: why the CPU set the figure
        out += ["> " + _("CPU-limited: {test}: {reason}").format(
            test=f"{t.label} {op_word(t.op)}", reason=cpu_limited_words(t, session)) for t in limited]
    if session.status is not Status.COMPLETE:
        status = f"**{_(STATUS_WORDS[session.status])}**"
        out += ["", _("{status}: {error}").format(status=status, error=session.error)
                if session.error else status]
    out += ["\n> " + _("Note: {note}").format(note=w) for w in session.warnings]
    out.append("\n" + _("Drive: {drive}").format(drive=drive_line(session.drive)))
    return "\n".join(out) + "\n"


#: A session's status as a word (marked: translate with ``_`` where shown).
STATUS_WORDS = {Status.COMPLETE: N_("Complete"), Status.CANCELLED: N_("Cancelled"),
                Status.FAILED: N_("Failed")}


def cpu_limited_words(test: TestResult, session: SessionResult) -> str:
    """Why the CPU set ``test``'s figure, in the user's language: said again from the best
    pass's numbers (the saved reason is English), or the saved reason when they no longer
    say it."""
    best = test.best_run
    limit = best.cpu_limit(test.spec.threads, session.system.cpus) if best is not None else None
    return cpu_limit_text(limit, LOCAL) or test.cpu_limited or ""


# --- progress ----------------------------------------------------------------------------


def _mib(nbytes: int | None) -> str:
    return _("n/a") if nbytes is None else f"{nbytes / MIB:.1f} MiB"


#: What the engine is doing, when its progress names no test.
_PHASES = {Phase.CHECKING: N_("Checking"), Phase.PREPARING: N_("Preparing"),
           Phase.WARMUP: N_("Warm-up"), Phase.MEASURING: N_("Measuring"),
           Phase.INTERVAL: N_("Interval"), Phase.SYNC: N_("Sync"), Phase.SETTLE: N_("Settle"),
           Phase.CLEANUP: N_("Cleanup")}


def describe_progress(event: Progress) -> str:
    """CDM's status-bar wording ('Preparing... SEQ1M Q8T1 Read', 'RND4K Q1T1 Write (2/5)'), plus
    the live MB/s and the session's ETA that CDM does not show."""
    message = event.message or (_(_PHASES[event.phase]) if event.phase in _PHASES
                                else event.phase.value.capitalize())
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
