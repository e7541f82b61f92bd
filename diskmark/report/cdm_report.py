"""CrystalDiskMark's text export (File → Save text), written so that what reads
CrystalDiskMark's files reads diskmark's: the CLI's ``--format text``, the app's Save and
Copy and ``baselines show`` all write this one layout.

The first block is CrystalDiskMark 8's, line for line: its header (diskmark and fio named
where CrystalDiskMark names itself, diskmark's home where it names Crystal Dew World),
``[Read]``, ``[Write]`` and ``[Mix]`` with every test of the run (one that did not finish
printed with zero figures, as CrystalDiskMark prints a test it did not run), then
``Profile``, ``Test``, ``Mode``, ``Time``, ``Date``, ``OS`` and ``Comment`` as
CrystalDiskMark 8 and 9 write them (``Peak``, ``Real``, `` <0Fill>``). Nothing is appended
to a result line: readers of the format (the ``crystaldiskmark-parser`` package among them)
drop a line that carries more, or stop.

diskmark's own facts (how the figures were chosen, CPU-limited tests, R/Avg, the device,
drive, file system, fio) follow in a block of their own after it, worded so that no line
there looks like one of CrystalDiskMark's fields to such a reader (they search every line
for ``Test: ``, ``Mode: ``, ``OS: ``…).

English in every language, as CrystalDiskMark writes it, so that tools can read it: it
speaks through :data:`~diskmark.model.voice.ENGLISH`.
"""

from __future__ import annotations

from diskmark import HOMEPAGE
from diskmark.locale.text_safety import shown
from diskmark.model.notes import dip_notes, unstable_text
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.model.settings import DIP_THRESHOLD_PCT, DataPattern, Mode, Op
from diskmark.model.units import MIB
from diskmark.model.voice import ENGLISH
from diskmark.report.drive_lines import drive_line, hot_dip_notes, warning_minutes_note
from diskmark.report.formatting import (
    MODE_REPORT,
    block_label,
    disk_kind,
    knee_text,
    size_text,
    steady_text,
    written_text,
)
from diskmark.report.stack_words import below_table, cost_sentences, layer_name, mark_word, why_lines
from diskmark.report.sustained_chart import chart_lines
from diskmark.report.text import io_mode_text, target_of, usage_text

RULE = "-" * 78
#: CrystalDiskMark's line for one test: the test, then its figures.
TEST_HEAD = "  %s %4d%s (Q=%3d, T=%2d):"
TEST_LINE = TEST_HEAD + " %9.3f MB/s [%9.1f IOPS] <%9.2f us>"
#: The column of CrystalDiskMark's second header line, where diskmark names its home.
HOME_COLUMN = 34
#: The words CrystalDiskMark 8 and 9 write on the Profile line for each of its profiles.
CDM_PROFILES = {"default": "Default", "peak": "Peak", "real": "Real", "demo": "Demo"}
#: The first line of diskmark's own block (the importer looks for it).
FACTS_TITLE = "diskmark: what CrystalDiskMark's lines above leave out"


def _seconds(value: float) -> str:
    """5.0 -> '5', 1.5 -> '1.5': CrystalDiskMark prints whole seconds, diskmark's may not be."""
    return f"{value:g}"


def format_test_line(test: TestResult | None, spec_of: TestResult | None = None) -> str:
    """One test as CrystalDiskMark writes it. A test without figures (stopped before it,
    failed, or not run in this mode) is written with zeros, as CrystalDiskMark writes one;
    why is said in diskmark's block. ``spec_of`` names the test when ``test`` is None."""
    shown = test or spec_of
    assert shown is not None
    spec = shown.spec
    head = (spec.pattern, *block_label(spec.block), spec.queues, spec.threads)
    if test is not None and test.runs and test.error is None:
        return TEST_LINE % (*head, test.best_mb_s, test.best_iops, test.best_lat_us)
    return TEST_LINE % (*head, 0.0, 0.0, 0.0)


def _sections(session: SessionResult) -> list[tuple[str, list[str]]]:
    """[Read] and [Write] always (CrystalDiskMark writes both, zeros for an operation the
    run left out), [Mix] when the run mixed, each with a line for every row of the run."""
    rows: dict[str, TestResult] = {}
    for t in sorted(session.tests, key=lambda t: t.index):
        rows.setdefault(t.label, t)
    mixes = sorted({t.mix_read for t in session.tests if t.op is Op.MIX and t.mix_read})
    out = []
    for op, mix, title in ([(Op.READ, None, "[Read]"), (Op.WRITE, None, "[Write]")]
                           + [(Op.MIX, m, f"[Mix] Read {m}%/Write {100 - m}%") for m in mixes]):
        lines = []
        for label, first in rows.items():
            test = next((t for t in session.tests if t.label == label and t.op is op
                         and (op is not Op.MIX or t.mix_read == mix)), None)
            lines.append(format_test_line(test, first))
        out.append((title, lines))
    return out


def _title(session: SessionResult) -> str:
    title = f"diskmark {session.diskmark_version or ''}".rstrip()
    if session.fio_version:
        title += f" ({session.fio_version})"
    return title + " Linux storage benchmark"


def _mode(session: SessionResult) -> str:
    """CrystalDiskMark's ``Mode:`` line: `` [Admin]`` when it ran as administrator (diskmark:
    as root), then `` <0Fill>`` when it wrote zeros, as CrystalDiskMark 8 and 9 write them;
    the rest of how it measured (direct or buffered, read or write only) is in diskmark's
    own block."""
    return ("   Mode:" + (" [Admin]" if session.system.as_root else "")
            + (" <0Fill>" if session.settings.data is DataPattern.ZEROS else ""))


def _date(iso: str) -> str:
    """CrystalDiskMark's ``%04d/%02d/%02d %d:%02d:%02d`` (the hour not padded), in the
    run's own local time."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso or "n/a"
    return f"{when:%Y/%m/%d} {when.hour}:{when:%M:%S}"


def _os(session: SessionResult) -> str:
    s = session.system
    text = s.os or "n/a"
    return text + (f" [Linux {s.kernel}]" if s.kernel else "")


def _sustained(session: SessionResult) -> bool:
    return any(t.sustained is not None for t in session.tests)


def _time(session: SessionResult) -> str:
    st = session.settings
    if _sustained(session):
        amount = f" or {size_text(st.amount)}, whichever first" if st.amount else ""
        return f"   Time: Write for {_seconds(st.duration)} sec{amount}"
    measure = session.measure or st.measure or 0
    interval = session.interval if session.interval else (st.interval or 0)
    return f"   Time: Measure {_seconds(measure)} sec / Interval {_seconds(interval)} sec "


def cdm_block(session: SessionResult) -> list[str]:
    """CrystalDiskMark's own part of the report, line for line as version 8 writes it."""
    st = session.settings
    home = f"diskmark: {HOMEPAGE}"
    lines = [RULE, _title(session), " " * max(0, min(HOME_COLUMN, 78 - len(home))) + home, RULE,
             "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]",
             "* KB = 1000 bytes, KiB = 1024 bytes", ""]
    for title, tests in _sections(session):
        lines += [title, *tests, ""]
    profile = CDM_PROFILES.get(st.profile, session.profile_name or st.profile)
    passes = "" if _sustained(session) else f" (x{st.count})"
    lines += [f"Profile: {profile}",
              f"   Test: {size_text(st.size)}{passes} [{usage_text(session, ENGLISH)}]",
              _mode(session), _time(session),
              f"   Date: {_date(session.started)}",
              f"     OS: {_os(session)}"]
    if st.comment:
        lines.append(f"Comment: {st.comment}")
    return lines


def text_report(session: SessionResult, unit_note: bool = False) -> str:
    """The report: CrystalDiskMark's block, then diskmark's. ``unit_note`` adds how the
    figures were chosen (best of N passes after a discarded warm-up), for readers who do
    not know CrystalDiskMark."""
    # each line one line: a comment, a path or a model holding a newline cannot start a line
    # of its own (a forged test line, read back as one when the report is imported)
    lines = cdm_block(session) + [""] + facts_block(session, unit_note)
    return "\n".join(shown(line, one_line=True) for line in lines) + "\n"


# --- diskmark's block ------------------------------------------------------------------------


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


def _how(session: SessionResult) -> str:
    st = session.settings
    mode = MODE_REPORT[Mode.WRITE if _sustained(session) else st.mode]
    return f"{mode}, {st.data.label} data; {io_mode_text(session, ENGLISH)}"


def facts_block(session: SessionResult, unit_note: bool = False) -> list[str]:
    """What diskmark knows of the run beyond CrystalDiskMark's lines."""
    st = session.settings
    lines = [RULE, FACTS_TITLE, RULE,
             f"   Preset: {session.preset_name or st.preset} [{st.preset}], "
             f"profile {session.profile_name or st.profile} [{st.profile}]",
             f"      I/O: {_how(session)}"]
    if not st.direct:
        lines.append("           Buffered (page cache), not O_DIRECT: figures include the "
                     "page cache, not the disk alone")
    if unit_note:
        lines.append(f"   Passes: a discarded warm-up pass, then {st.count}; the best MB/s "
                     "(with its IOPS) and the lowest mean latency are shown")
    if session.system.hostname:
        lines.append(f"     Host: {session.system.hostname}")
    lines += [f"   Target: {target_of(session)}",
              f"   Device: {_device(session)}",
              f"    Drive: {drive_line(session.drive, ENGLISH)}",
              f"       FS: {_filesystem(session)}",
              f"      fio: {session.fio_version or 'n/a'}", ""]
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
    if session.stack:
        # every line indented: a name from outside never starts one (nor looks like a field)
        lines.extend(["[Stack] the layers under the target, outermost first",
                      *(f"  {line}" for line in why_lines(session.stack, ENGLISH)), ""])
    costs = cost_sentences(session, ENGLISH)
    if costs:
        lines.extend(["[Below] the same read tests on the devices under the target, read-only",
                      *(f"  {line}" for line in below_table(session, ENGLISH)),
                      *(f"  {line}" for line in costs), ""])
    lines.extend(sustained_lines(session))
    lines.extend(check_lines(session))
    while lines and lines[-1] == "":
        lines.pop()
    return lines


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


def check_lines(session: SessionResult) -> list[str]:
    """A check run: its own fio jobs' figures, and the verdicts kept with it."""
    if not (session.jobs or session.checks):
        return []
    from diskmark.report.verdicts import report_lines

    out = []
    for job in session.jobs:
        run = job.run
        if run is None:
            out.append(f"  fio {job.job.title}: {job.error or 'not measured'}")
            continue
        sync = job.sync_percentiles
        syncs = (f", fdatasync p99 {sync['99']:.2f} us, max {sync['max']:.2f} us"
                 if "99" in sync and "max" in sync else "")
        short = f"; stopped at the time limit after {_mib(run.io_bytes)}" if job.cut_short else ""
        out.append(f"  fio {job.job.title}: {run.mb_s:.3f} MB/s [{run.iops:.1f} IOPS], "
                   f"mean {run.lat_us:.2f} us{syncs}{short}")
    return ["[Check jobs]", *out, ""] * bool(out) + (
        ["[Checks]", *report_lines(session, ENGLISH), ""] if session.checks else [])


def _cpu(test: TestResult) -> str:
    """fio's CPU use in the best pass, and the verdict when it, not the drive, set the figure."""
    if test.cpu_limited:
        return f"CPU-LIMITED, {test.cpu_limited}"
    best = test.best_run
    return "" if best is None or best.cpu_pct is None else f"CPU {best.cpu_pct:.0f}% per thread"


def _unmeasured(test: TestResult, session: SessionResult) -> str:
    """Why a test has zeros in CrystalDiskMark's block."""
    if test.error:
        return f"error: {test.error}"
    if session.status is Status.CANCELLED:
        return "not measured: the run was stopped first"
    if session.status is Status.FAILED:
        return "not measured: the run failed first"
    return "not measured"


def _mib(nbytes: int) -> str:
    return f"{nbytes / MIB:.1f} MiB"


def _claim(session: SessionResult, test: TestResult) -> str:
    """What share of the drive's claim the test reached (the run was given one)."""
    from diskmark.report.claim_marks import claim_mark

    claim = next((c for c in reversed(session.claims) if c.key == test.key), None)
    if claim is None:
        return ""
    mark = claim_mark(test, claim)
    claimed = f"{claim.value:g} {claim.unit.label}"
    if mark.pct is None:
        return f"claimed {claimed} ({claim.source})"
    short = (f", SHORT OF CLAIM beyond the run's noise (+-{mark.noise_pct:.1f}%)"
             if mark.short else "")
    return f"{mark.pct:.0f}% of claimed {claimed}{short} ({claim.source})"


def _details(session: SessionResult) -> list[str]:
    """What the fio articles diskmark builds on asked of every figure: stability, dips,
    flush time, file layout, a share of the drive's claim."""
    out = []
    for t in session.tests:
        notes = []
        if not t.runs or t.error:
            notes.append(_unmeasured(t, session))
        if len(t.runs) > 1:
            notes.append(f"R/Avg {t.spread().r_avg_pct:.1f}%")
        if t.unstable() is not None:
            notes.append(f"UNSTABLE, {unstable_text(t.unstable(), ENGLISH)}")
        cpu = _cpu(t)
        if cpu:
            notes.append(cpu)
        notes.extend(f"{mark_word(m.effect)}: {m.effect.value} ({layer_name(m.kind, m.name, ENGLISH)})"
                     for m in t.marks)
        notes.extend(dip_notes(t.dips(), DIP_THRESHOLD_PCT, ENGLISH))
        notes.extend(hot_dip_notes(session.drive.hot_dips(t.key, t.dips()) if session.drive else [],
                                   ENGLISH))
        if t.sync_seconds is not None:
            dirty = sum(x or 0 for x in (t.sync_dirty_bytes, t.sync_writeback_bytes))
            notes.append(f"sync {t.sync_seconds:.2f} s" + (
                f" (Dirty+Writeback up to {_mib(dirty)})" if dirty else ""))
        claim = _claim(session, t) if session.claims else ""
        if claim:
            notes.append(claim)
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
