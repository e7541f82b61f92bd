"""Numbers and names in words: the one place that decides how diskmark writes a figure, a
size, a duration, a date, a mode, a change against a baseline, and the notes on a result
(unstable passes, bandwidth dips, a figure the CPU set).

The CLI, the reports, the store's listings and the app all print through these, so a figure
reads the same everywhere. Everything here is a pure function of numbers and the basic
names (:mod:`diskmark.model.units`, :mod:`diskmark.model.settings`): the results themselves
(:mod:`diskmark.model.results`) return numbers and leave the words to this module.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import TYPE_CHECKING

from diskmark.locale import N_, _, pgettext
from diskmark.locale.text_safety import shown
from diskmark.model.names import mix_label
from diskmark.model.settings import Mode, Op
from diskmark.model.units import GIB, MIB, Unit, format_bytes
from diskmark.model.voice import LOCAL, Voice
from diskmark.report.cells import text_cells

if TYPE_CHECKING:
    from diskmark.store.entry import Entry


# --- figures -------------------------------------------------------------------------------


def _finite(value: float | None) -> float:
    return value if value is not None and math.isfinite(value) else 0.0


def format_figure(value: float | None, unit: Unit) -> str:
    """CDM's display precision: GB/s %.3f, everything else %.2f; 0 or missing is 0.00."""
    value = _finite(value)
    if value == 0:
        return "0.00"
    return f"{value:.3f}" if unit is Unit.GB_S else f"{value:.2f}"


def meter_fraction(value: float | None, unit: Unit) -> float:
    """How full a tile's meter bar is, on CDM's log scale, in [0, 1].

    MB/s: log10(MB/s x 10) / 6 (0.1 MB/s empty, 100 MB/s half, 100 GB/s full); GB/s is
    converted to MB/s first; IOPS: log10(IOPS x 10) / 7; µs: 1 - log10(µs) / 6 (1 µs full,
    1 ms half, 1 s empty). Nothing measured (0 or less) is an empty bar.
    """
    value = _finite(value)
    if value <= 0:
        return 0.0
    if unit is Unit.GB_S:
        value *= 1000
    if unit is Unit.US:
        fraction = 1 - math.log10(value) / 6
    elif unit is Unit.IOPS:
        fraction = math.log10(value * 10) / 7
    else:
        fraction = math.log10(value * 10) / 6
    return min(1.0, max(0.0, fraction))


# --- sizes, durations, dates ---------------------------------------------------------------


def size_text(nbytes: int) -> str:
    """'1 GiB', '512 MiB': CDM's Test line puts a space before the unit."""
    if nbytes >= GIB and nbytes % GIB == 0:
        return f"{nbytes // GIB} GiB"
    return f"{nbytes / MIB:g} MiB"


def block_label(nbytes: int) -> tuple[int, str]:
    """A block size as CDM's number + unit pair: (1, 'MiB'), (128, 'KiB')."""
    if nbytes >= MIB and nbytes % MIB == 0:
        return nbytes // MIB, "MiB"
    return nbytes // 1024, "KiB"



def _mb_s_words(value: float) -> str:
    return f"{value:,.0f} MB/s" if value >= 100 else f"{value:.1f} MB/s"


def knee_text(seconds: float, written_bytes: int, before_mb_s: float, after_mb_s: float,
              voice: Voice = LOCAL) -> str:
    """A sustained write's knee in one line: how much it wrote before throughput fell and
    stayed down, when, and the levels before and after."""
    pct = after_mb_s / before_mb_s * 100 if before_mb_s else 0.0
    # TRANSLATORS: a sustained write's knee: throughput fell after {written} ({seconds} s into
    # the write), from {before} to {after} ({pct}% of before); {before}/{after} are "1,234 MB/s"
    return voice._("Knee after {written} ({seconds} s): {before} before, {after} after "
                   "({pct}%)").format(written=format_bytes(written_bytes), seconds=f"{seconds:.1f}",
                                      before=_mb_s_words(before_mb_s),
                                      after=_mb_s_words(after_mb_s), pct=f"{pct:.0f}")


def steady_text(mb_s: float, voice: Voice = LOCAL) -> str:
    # TRANSLATORS: a sustained write whose throughput held; {speed} is "1,234 MB/s"
    return voice._("No knee: steady at {speed}").format(speed=_mb_s_words(mb_s))


def written_text(written_bytes: int, seconds: float, file_bytes: int,
                 voice: Voice = LOCAL) -> str:
    """How much a sustained write wrote, and whether it went round its test file again."""
    written, took = format_bytes(written_bytes), f"{seconds:.1f}"
    if file_bytes and written_bytes > file_bytes:
        return voice._("Wrote {written} in {seconds} s, {times} times the {size} test file (it "
                       "starts again at the beginning when it reaches the end)").format(
            written=written, seconds=took, times=f"{written_bytes / file_bytes:.1f}",
            size=size_text(file_bytes))
    return voice._("Wrote {written} in {seconds} s").format(written=written, seconds=took)


def format_duration(seconds: float) -> str:
    """``1:05`` or ``1:02:05``: compact enough for a status line."""
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_date(iso: str, *, seconds: bool = True, time: bool = True,
                missing: str | None = None) -> str:
    """``2024/05/01 10:00:00`` (CDM's date order), shorter without ``seconds`` or ``time``;
    the text as it is when it is no date, ``missing`` (by default "unknown date") when there
    is none."""
    try:
        when = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso or (_("unknown date") if missing is None else missing)
    return when.strftime("%Y/%m/%d" + (" %H:%M" if time else "") + (":%S" if time and seconds else ""))


# --- names ---------------------------------------------------------------------------------

#: A mode as the app names it (marked: translate with ``_`` where shown) …
MODE_LABELS = {Mode.READ_WRITE: N_("Read & Write"), Mode.READ: N_("Read only"),
               Mode.WRITE: N_("Write only")}
#: … and as CrystalDiskMark's text report does (English there; ``_`` elsewhere).
MODE_REPORT = {Mode.READ_WRITE: N_("Read&Write"), Mode.READ: N_("Read only"),
               Mode.WRITE: N_("Write only")}


def disk_kind(rotational: bool | None, virtual: str = "", voice: Voice = LOCAL) -> str:
    """"SSD", "HDD", "virtual disk (virtio)" or "" when unknown. A hypervisor's disk claims
    to rotate (the kernel's default), so it is never called an HDD."""
    if virtual:
        # TRANSLATORS: {hypervisor} is virtio, Xen, VMware, Hyper-V, QEMU…
        return voice._("virtual disk ({hypervisor})").format(hypervisor=virtual)
    return {True: "HDD", False: "SSD"}.get(rotational, "")  # type: ignore[arg-type]


# --- changes against a baseline ------------------------------------------------------------

#: A comparison's verdicts (diskmark.report.compare judges; they are here, with their glyphs, for
#: the views that only show them).
BETTER, WORSE, SAME = "better", "worse", "same"
#: The verdict as a glyph, so that a monochrome terminal tells better from worse too.
DELTA_GLYPHS = {BETTER: "▲", WORSE: "▼", SAME: "="}


def verdict_word(verdict: str) -> str:
    """"better", "worse" or "same" in the language in use (the verdict itself, what JSON
    holds, stays English)."""
    return {BETTER: pgettext("verdict", "better"), WORSE: pgettext("verdict", "worse"),
            SAME: pgettext("verdict", "same")}.get(verdict, verdict)


def format_delta(pct: float | None, verdict: str, *, glyph: bool = True) -> str:
    """``▲ +4.2%``, ``▼ −7.9%``, ``= +0.8%``: the glyph is the verdict (▲ better, whatever
    the direction: for latency a fall is better), the number the change of the figure."""
    if pct is None:
        # TRANSLATORS: a change against a baseline of 0 (no percentage can be given)
        change = _("from 0")
    elif round(abs(pct), 1) == 0:
        change = "±0.0%"
    else:
        change = f"{'+' if pct > 0 else '−'}{abs(pct):.1f}%"
    return f"{DELTA_GLYPHS[verdict]} {change}" if glyph else change


def signed_pct(pct: float | None) -> str:
    """``+4.2%``, ``n/a`` when there is no change to speak of (a baseline of 0)."""
    return _("n/a") if pct is None else f"{pct:+.1f}%"


# --- notes on a result ---------------------------------------------------------------------



def short_date(iso: str, time: bool = True) -> str:
    """``2024/05/01 10:00`` (``2024/05/01`` without ``time``): a date in a list or a line."""
    return format_date(iso, seconds=False, time=time)


def _listing_date(iso: str) -> str:
    return format_date(iso, seconds=False, missing="-")


def _mb(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def ljust_cells(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (a wide character takes two)."""
    return text + " " * max(0, width - text_cells(text))


def rjust_cells(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal cells."""
    return " " * max(0, width - text_cells(text)) + text


def format_listing(entries: list[Entry]) -> str:
    """Baselines as a table: name, date of the run, device, filesystem and the headline test's
    read/write MB/s, then the note; damaged files flagged with their reason and path."""
    if not entries:
        return ""
    ok = [e for e in entries if e.ok]
    # TRANSLATORS: the headers of the baselines table (diskmark baselines); capitals as in `ls`
    heads = (_("NAME"), _("RUN DATE"), _("DEVICE"), pgettext("filesystem column", "FS"),
             _("READ MB/s"), _("WRITE MB/s"), _("HEADLINE TEST / NOTE"))
    # measured as shown (escaped), so a name holding a tab or U+202E keeps its column
    nw = max([text_cells(heads[0])] + [text_cells(shown(e.name, one_line=True)) for e in entries])
    tw = max(16, text_cells(heads[1]))
    dw = max([text_cells(heads[2])] + [text_cells(shown(e.device, one_line=True)) for e in ok])
    fw = max([text_cells(heads[3])] + [text_cells(shown(e.fstype, one_line=True)) for e in ok])
    rw, ww = max(10, text_cells(heads[4])), max(10, text_cells(heads[5]))
    lines = ["  ".join([ljust_cells(heads[0], nw), ljust_cells(heads[1], tw),
                        ljust_cells(heads[2], dw), ljust_cells(heads[3], fw),
                        rjust_cells(heads[4], rw), rjust_cells(heads[5], ww), heads[6]])]
    for e in entries:
        name = ljust_cells(shown(e.name, one_line=True), nw)
        if not e.ok:
            # TRANSLATORS: a baseline file that cannot be read: {reason}, then its path
            lines.append(name + "  " + _("DAMAGED: {reason} [{path}]").format(
                reason=e.damaged, path=e.path))
            continue
        label, read, write = e.headline()
        extra = " / ".join(x for x in (label, e.note.replace("\n", " ")) if x)
        device, fstype = shown(e.device, one_line=True), shown(e.fstype, one_line=True)
        lines.append("  ".join([name, ljust_cells(_listing_date(e.started or e.saved), tw),
                                ljust_cells(device or "-", dw), ljust_cells(fstype or "-", fw),
                                rjust_cells(_mb(read), rw), rjust_cells(_mb(write), ww), extra]))
    return "\n".join(lines) + "\n"


def said_title(label: str, op: Op, mix_read: int | None = None) -> str:
    """A test's title in the language in use ("SEQ1M Q8T1 読み込み"), for what a person
    reads; JSON, CSV and CrystalDiskMark's text keep the English :func:`test_title`."""
    if op is Op.MIX:
        # TRANSLATORS: a mixed test's title: SEQ1M Q8T1, "Mix", R70/W30
        return _("{test} {operation} {ratio}").format(test=label, operation=op_word(op, title=True),
                                                      ratio=mix_label(mix_read or 0))
    # TRANSLATORS: a test's title: SEQ1M Q8T1, then "Read" or "Write"
    return _("{test} {operation}").format(test=label, operation=op_word(op, title=True))


def op_word(op: Op, *, title: bool = False) -> str:
    """An operation in the language in use: inside a phrase after a test's name ("SEQ1M
    read", "SEQ1M Q8T1 read has not run yet", a progress line), or in a title ("Read")."""
    if title:
        return {Op.READ: pgettext("operation", "Read"), Op.WRITE: pgettext("operation", "Write"),
                Op.MIX: pgettext("operation", "Mix")}[op]
    return {Op.READ: pgettext("operation", "read"), Op.WRITE: pgettext("operation", "write"),
            Op.MIX: pgettext("operation", "mix")}[op]
