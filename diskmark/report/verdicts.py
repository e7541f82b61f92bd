"""Checks' verdicts in words: per check pass, fail or cannot tell; per threshold the figure
measured beside its limit, by how much it passed or failed, or why it cannot be told; and
the list of checks with where each limit comes from (``diskmark checks``).

The command line's ``check``, the app's Checks panel and the text report of a run kept in
the history say a verdict with these same sentences (the text report in English, as it
writes everything). Figures keep the unit the check wrote its limit in; a latency is shown
in µs, ms or s by its size, so a tmpfs's 0.22 µs does not read 0.00 ms.
"""

from __future__ import annotations

from diskmark.checks import Check, CheckCatalog
from diskmark.checks.judge import measured_by
from diskmark.locale import N_
from diskmark.model.results import SessionResult
from diskmark.model.units import Unit
from diskmark.model.verdicts import CheckVerdict, Outcome, ThresholdVerdict, Why
from diskmark.model.voice import LOCAL, Voice
from diskmark.report.formatting import format_figure

#: How long a time is in µs, by the unit a limit was written in.
_TIME_US = {"us": 1.0, "ms": 1000.0, "s": 1e6}
#: A verdict as a word, for a check's heading and the panel's column.
OUTCOME_WORDS = {Outcome.PASS: N_("PASS"), Outcome.FAIL: N_("FAIL"),
                 Outcome.UNKNOWN: N_("CANNOT TELL")}


def outcome_word(outcome: Outcome, voice: Voice = LOCAL) -> str:
    # TRANSLATORS: a check's verdict as a heading: PASS, FAIL, CANNOT TELL (short, emphatic)
    return voice._(OUTCOME_WORDS[outcome])


def amount(value: float, unit: str) -> str:
    """A figure in a limit's unit: ``19.83 MB/s``, ``1523.00 IOPS``; a time in the unit
    its size reads best in (``0.22 µs``, ``24.13 ms``)."""
    if unit in _TIME_US:
        us = value * _TIME_US[unit]
        if us >= 1e6:
            return f"{us / 1e6:.2f} s"
        if us >= 1000:
            return f"{us / 1000:.2f} ms"
        return f"{format_figure(us, Unit.US)} {Unit.US.label}"
    return f"{format_figure(value, Unit.GB_S if unit == 'GB/s' else Unit.MB_S)} {unit}"


def limit_text(t: ThresholdVerdict) -> str:
    """The limit as the check wrote it: ``30 MB/s``, ``10 ms``."""
    return f"{t.limit:g} {Unit.US.label if t.unit == 'us' else t.unit}"


def bound_text(t: ThresholdVerdict, voice: Voice = LOCAL) -> str:
    # TRANSLATORS: a threshold's limit: a floor ("at least 30 MB/s") or a ceiling ("below 10 ms")
    return (voice._("below {limit}") if t.below else voice._("at least {limit}")).format(
        limit=limit_text(t))


def subject(t: ThresholdVerdict, voice: Voice = LOCAL) -> str:
    """What is judged: ``sync p99 of fio rw=write …``, ``MB/s of SEQ1M Q1T1 write``, ``link``."""
    if not t.test:
        return t.figure
    # TRANSLATORS: a figure of a test: "MB/s of SEQ1M Q1T1 write", "sync p99 of fio rw=write …"
    return voice._("{figure} of {test}").format(figure=t.figure, test=t.test)


def why_words(t: ThresholdVerdict, voice: Voice = LOCAL) -> str:
    """Why a threshold cannot be told, as a clause."""
    if t.why is Why.LINK_CAPS:
        # TRANSLATORS: {measured}: "35.20 MB/s"; {link}: "USB 480 Mb/s"; {limit}: "90 MB/s"
        return voice._("{measured} was measured through {link}, which cannot carry {limit}: the "
                       "drive may be faster than this link lets it show").format(
                           measured=amount(t.measured or 0.0, t.unit), link=t.detail,
                           limit=limit_text(t))
    if t.why is Why.NO_LINK:
        return (voice._("the link the drive hangs on is not known here ({what})").format(
            what=t.detail) if t.detail else voice._("the link the drive hangs on is not known "
                                                    "here"))
    if t.why is Why.NO_FIGURE:
        return voice._("fio reported no such figure for it")
    if t.why is Why.FAILED:
        return voice._("measuring it failed: {error}").format(error=t.detail.splitlines()[0]
                                                              if t.detail else "")
    return voice._("the run did not measure it (it was stopped or failed first, or a device's "
                   "writes were not allowed)")


def threshold_line(t: ThresholdVerdict, voice: Voice = LOCAL) -> str:
    """One threshold: the figure beside its limit, and by how much it passed or failed."""
    words = dict(what=subject(t, voice), bound=bound_text(t, voice))
    if t.outcome is Outcome.UNKNOWN or t.measured is None:
        # TRANSLATORS: {what}: "MB/s of SEQ1M Q1T1 write"; {bound}: "at least 30 MB/s"; {why}: a clause
        return voice._("{what}, {bound}: cannot tell: {why}").format(why=why_words(t, voice),
                                                                     **words)
    measured = amount(t.measured, t.unit) + (f" ({t.detail})" if t.detail and not t.test else "")
    gap = abs(t.measured - t.limit)
    if t.outcome is Outcome.PASS:
        # TRANSLATORS: {measured}: the figure; {margin}: how far it is from the limit
        return voice._("{what}: {measured}, {bound}: pass, {margin} to spare").format(
            measured=measured, margin=amount(gap, t.unit), **words)
    if t.below:
        # TRANSLATORS: a ceiling exceeded: {by} over it, {times} times the limit
        return voice._("{what}: {measured}, {bound}: fail, {by} over ({times}× the limit)").format(
            measured=measured, by=amount(gap, t.unit), times=f"{t.measured / t.limit:.2f}",
            **words)
    # TRANSLATORS: a floor missed: {by} short of it, {pct}% below it
    return voice._("{what}: {measured}, {bound}: fail, {by} short ({pct}% below the "
                   "limit)").format(measured=measured, by=amount(gap, t.unit),
                                    pct=f"{gap / t.limit * 100:.0f}", **words)


def passes_note(t: ThresholdVerdict, voice: Voice = LOCAL) -> str:
    """Which pass was judged, when there were several: the worst, with the best beside."""
    if t.best is None or t.passes < 2:
        return ""
    words = dict(count=t.passes, best=amount(t.best, t.unit))
    if t.below:
        return voice._("judged by the highest of {count} passes; the lowest: {best}").format(
            **words)
    return voice._("judged by the slowest of {count} passes; the best: {best}").format(**words)


def heading(v: CheckVerdict, voice: Voice = LOCAL) -> str:
    """``FAIL  sd-v30 (SD Video Speed Class 30 (V30))``; the id alone when it is the name."""
    named = v.id if v.name in ("", v.id) else f"{v.id} ({v.name})"
    return f"{outcome_word(v.outcome, voice)}  {named}"


def family_lines(verdicts: list[CheckVerdict], voice: Voice = LOCAL) -> list[str]:
    """What the same figures say of the family's other checks: met, missed, cannot tell."""
    others = [v for v in verdicts if not v.asked]
    if not others:
        return []
    out = []
    by = {o: [v.id for v in others if v.outcome is o] for o in Outcome}
    if by[Outcome.PASS]:
        out.append(voice._("By the same figures, it meets: {checks}").format(
            checks=", ".join(by[Outcome.PASS])))
    if by[Outcome.FAIL]:
        out.append(voice._("By the same figures, it does not meet: {checks}").format(
            checks=", ".join(by[Outcome.FAIL])))
    if by[Outcome.UNKNOWN]:
        out.append(voice._("By the same figures, it cannot be told for: {checks}").format(
            checks=", ".join(by[Outcome.UNKNOWN])))
    return out


def verdict_lines(v: CheckVerdict, voice: Voice = LOCAL, sources: bool = False) -> list[str]:
    """A check's heading and its thresholds (their sources too, when asked)."""
    out = [heading(v, voice)]
    for t in v.thresholds:
        out.append("  " + threshold_line(t, voice))
        note = passes_note(t, voice)
        if note:
            out.append("      " + note)
        if sources:
            out.append("      " + voice._("source: {source}").format(source=t.source))
    return out


def asked_lines(verdicts: list[CheckVerdict], voice: Voice = LOCAL,
                sources: bool = False) -> list[str]:
    """Each check asked for, and once per family, under its first check asked for, what the
    same figures say of the family's others; a blank line after each check."""
    out: list[str] = []
    told: set[str] = set()
    for v in (v for v in verdicts if v.asked):
        out += verdict_lines(v, voice, sources)
        if v.family and v.family not in told:
            told.add(v.family)
            family = [f for f in verdicts if not f.asked and f.family == v.family]
            out += ["  " + line for line in family_lines(family, voice)]
        out.append("")
    return out


def verdicts_text(session: SessionResult, verbose: bool = False) -> str:
    """What ``diskmark check`` prints: where it measured, each check asked for, what the
    same figures say of their families, and the count."""
    verdicts = session.checks
    s = session.system
    where = ", ".join(dict.fromkeys(x for x in (s.fstype, s.device, s.model, s.interface) if x))
    out = [LOCAL._("Checked on {target} ({where})").format(target=s.target or
                                                              session.settings.target,
                                                              where=where or "?"), ""]
    out += asked_lines(verdicts, sources=verbose)
    asked = [v for v in verdicts if v.asked]
    counts = {o: sum(v.outcome is o for v in asked) for o in Outcome}
    out.append(LOCAL._("Passed {passed}, failed {failed}, cannot tell {unknown}.").format(
        passed=counts[Outcome.PASS], failed=counts[Outcome.FAIL],
        unknown=counts[Outcome.UNKNOWN]))
    return "\n".join(out) + "\n"


def report_lines(session: SessionResult, voice: Voice) -> list[str]:
    """The verdicts a run kept, for its text report (``[Checks]``)."""
    out = []
    for v in session.checks:
        out += ["  " + line for line in verdict_lines(v, voice)]
    return out


# --- the list of checks ------------------------------------------------------------------


def ordered(catalog: CheckCatalog) -> list[Check]:
    """Built-in checks, a family's in the order of their limits, then the user's."""
    def key(c: Check) -> tuple[bool, str, float, str]:
        floor = min((t.limit * t.factor for t in c.thresholds), default=0.0)
        return c.source != "built-in", c.family or c.id, floor, c.id
    return sorted(catalog.checks.values(), key=key)


def check_threshold_text(c: Check, n: int) -> str:
    """A check's threshold ``n`` as it reads before any run: ``MB/s of SEQ1M Q1T1 write, at
    least 30 MB/s``."""
    t = c.thresholds[n]
    job = c.jobs.get(t.job)
    shown = ThresholdVerdict(figure=t.figure.text, test=measured_by(job),
                             limit=t.limit, unit=t.unit, below=t.below, source=t.source)
    return LOCAL._("{what}, {bound}").format(what=subject(shown), bound=bound_text(shown))


def listing(catalog: CheckCatalog, verbose: bool = False) -> str:
    """``diskmark checks``: each check, its thresholds; with ``verbose`` its description,
    where each limit comes from, and how diskmark's measurement differs from its source's."""
    out = []
    for c in ordered(catalog):
        out.append(f"{c.id}: {c.name}" + ("" if c.source == "built-in" else f" ({c.source})"))
        if verbose and c.description:
            out.append("    " + LOCAL._(c.description))
        for n, t in enumerate(c.thresholds):
            out.append("    " + check_threshold_text(c, n))
            if verbose:
                out.append("        " + LOCAL._("source: {source}").format(source=t.source))
        if verbose and c.differs:
            out.append("    " + LOCAL._("How diskmark's measurement differs: {note}").format(
                note=LOCAL._(c.differs)))
        if verbose:
            out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
