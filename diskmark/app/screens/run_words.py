"""What a run says on the window while it goes and once it has ended: a tile's caption and
meter for each progress event, the status line's phrases after a run or a sweep (the most
important first: a narrow terminal drops the last), and what the tiles' marks mean."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from diskmark.app.core.keymap import PALETTE_KEY, Keymap
from diskmark.app.widgets.comparison_line import COUNTED
from diskmark.app.widgets.tiles import Live
from diskmark.locale import N_, _, ngettext
from diskmark.model.results import SessionResult, Status, TestResult
from diskmark.report.formatting import BETTER, DELTA_GLYPHS, SAME, WORSE, format_duration

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from diskmark.model.events import Progress
    from diskmark.model.sides import TargetsResult
    from diskmark.model.units import Unit
    from diskmark.report.compare import Comparison

#: What the line after a run offers next, by binding id: the key the keymap gives it.
HINTS = {"save_baseline": N_("{key} saves it as a baseline"),
         "save_report": N_("{key} saves the report")}


def session_seconds(session: SessionResult) -> float | None:
    """How long a session took, from its own timestamps."""
    try:
        return (datetime.fromisoformat(session.finished)
                - datetime.fromisoformat(session.started)).total_seconds()
    except (TypeError, ValueError):
        return None


def progress_text(progress: Progress) -> str:
    """CrystalDiskMark's status-bar words for ``progress``; its ETA is drawn apart, to the
    right of the line, beside the session's bar."""
    from dataclasses import replace

    from diskmark.report.text import describe_progress  # the reports: not at the app's start

    return describe_progress(replace(progress, eta_s=None))


def live_tile(progress: Progress) -> Live | None:
    """What the tile of the test under way shows for ``progress``: its meter over the
    warm-up and the passes, or what the drive is doing after the writes (None: nothing
    new for the tile)."""
    from diskmark.model.events import Phase

    if progress.phase in (Phase.WARMUP, Phase.MEASURING):
        runs = max(progress.runs, 1)
        fraction = (progress.run + progress.percent / 100) / (runs + 1)
        # TRANSLATORS: a tile's caption while the test warms up (a few cells wide)
        caption = _("warm-up") if progress.phase is Phase.WARMUP else f"{progress.run}/{runs}"
        return Live(fraction, progress.mb_s, caption)
    if progress.phase in (Phase.SYNC, Phase.SETTLE):
        pending = (progress.dirty_bytes or 0) + (progress.writeback_bytes or 0)
        mib = f"{pending / 2**20:.0f}"
        # TRANSLATORS: a tile's caption while the written data is flushed to the drive
        # (sync) or the drive settles after it; {mib} is how much is still to write
        if progress.phase is Phase.SYNC:
            caption = _("sync {mib} MiB").format(mib=mib) if pending else _("sync")
        else:
            caption = _("settle {mib} MiB").format(mib=mib) if pending else _("settle")
        return Live(1.0, None, caption)
    return None


def marks_legend(shown: Iterable[TestResult]) -> list[str]:
    """What the ``~9%``, ``cpu`` and layers' (``zip``, ``loop``…) marks on tiles mean, said once where they appear:
    short, so that both fit beside the time at 120 columns."""
    tests = list(shown)
    out = []
    shaky = [t for t in tests if t.unstable() is not None]
    if shaky:
        # TRANSLATORS: ~N% is the mark on a tile (keep it); {pct} the threshold, a number
        out.append(_("~N%: passes differ by N% (over {pct}%)").format(
            pct=f"{shaky[0].unstable_pct:g}"))
    if any(t.cpu_limited for t in tests):
        # TRANSLATORS: "cpu" is the mark on a tile, which stays as it is
        out.append(_("cpu: the CPU, not the drive, set the figure"))
    if any(t.marks for t in tests):
        from diskmark.report.stack_words import mark_word  # the stack's words: not at start

        words = sorted({mark_word(m.effect) for t in tests for m in t.marks})
        # TRANSLATORS: {marks} are the marks on tiles (zip, mem, loop), which stay as they are
        out.append(_("{marks}: a layer under the target explains the figure").format(
            marks=",".join(words)))
    return out


def run_ended_line(session: SessionResult, *, measured: bool, keys: Keymap,
                   comparison: Comparison | None, baseline_name: str | None, unit: Unit,
                   shown: Iterable[TestResult]) -> list[str]:
    """The status line once the engine returned ``session``: how long it took and what is
    next, the verdicts against the baseline (in ``unit``, the unit on screen), or why it
    stopped."""
    if session.status is Status.CANCELLED:
        return [_("Stopped · fio ended and the test file was removed; finished tiles are kept")
                if measured else
                _("Stopped · fio ended and the test file was removed; nothing was measured")]
    if session.status is not Status.COMPLETE:
        return [_("Failed · see the message")]
    took = session_seconds(session)
    # TRANSLATORS: {duration} is how long the run took (1m 05s)
    finished = (_("Finished in {duration}").format(duration=format_duration(took))
                if took is not None else _("Finished"))
    hints = [_(hint).format(key=keys.key(binding_id)) for binding_id, hint in HINTS.items()
             if keys.keys[binding_id]]  # not for a binding a conflict left keyless
    if comparison is not None and baseline_name is not None:
        counts = comparison.counts(unit)
        verdicts = "  ".join(_(COUNTED[v]).format(glyph=DELTA_GLYPHS[v], count=counts[v])
                             for v in (BETTER, WORSE, SAME))
        # TRANSLATORS: {name} is the baseline's name; {verdicts} "▲ 3 better  ▼ 1 worse  = 4 same"
        return [finished, _("against “{name}”: {verdicts}").format(name=baseline_name,
                                                                   verdicts=verdicts),
                _("{key} shows the comparison").format(key=keys.key("show_comparison")),
                *hints[:1]]
    done = len(session.tests)
    return [finished, ngettext("{count} test", "{count} tests", done).format(count=done),
            *marks_legend(shown), *hints, _("enter on a tile shows details")]


def sweep_ended_line(session: SessionResult) -> str:
    """The status line once a queue-depth sweep has ended (its curve is on its screen)."""
    if session.status is Status.CANCELLED:
        return _("Sweep stopped · fio ended and the test file was removed")
    if session.status is Status.FAILED:
        return _("Sweep failed · see the sweep window")
    took = session_seconds(session)
    if took is None:
        return _("Sweep finished")
    return _("Sweep finished in {duration}").format(duration=format_duration(took))


def checks_ended_line(session: SessionResult) -> str:
    """The status line once a check run has ended (its verdicts are in the Checks panel)."""
    if session.status is Status.CANCELLED:
        return _("Checks stopped · fio ended and the test file was removed")
    if session.status is Status.FAILED:
        return _("Checks failed: {error}").format(error=session.error or "")
    from diskmark.model.verdicts import Outcome

    asked = [v for v in session.checks if v.asked]
    counts = {o: sum(v.outcome is o for v in asked) for o in Outcome}
    # TRANSLATORS: {palette} is the key of the command palette, where Checks… opens the panel
    return _("Checks: passed {passed}, failed {failed}, cannot tell {unknown} · Checks… in the "
             "palette ({palette}) says why").format(
                 passed=counts[Outcome.PASS], failed=counts[Outcome.FAIL],
                 unknown=counts[Outcome.UNKNOWN], palette=PALETTE_KEY)


def sides_ended_line(result: TargetsResult) -> str:
    """The status line once a run on several targets has ended (the table is on its
    screen)."""
    if result.cancelled():
        return _("Targets side by side: stopped · fio ended and every test file was removed")
    failed = result.failed()
    if failed:
        # TRANSLATORS: {targets} are the paths of the targets that failed
        return ngettext("Targets side by side: {targets} failed; the other targets' figures "
                        "are kept", "Targets side by side: {targets} failed; the other "
                        "targets' figures are kept", len(failed)).format(
                            targets=", ".join(failed))
    took = session_seconds(result.sessions[0]) if result.sessions else None
    if took is None:
        return _("Targets side by side: finished")
    return _("Targets side by side: finished in {duration}").format(
        duration=format_duration(took))


def notice_severity(severity: str) -> SeverityLevel:
    """How loudly a notice of the engine is shown (one it does not name is a warning)."""
    if severity == "information":
        return "information"
    return "error" if severity == "error" else "warning"
