"""What share of its claim each figure reached, and whether it fell short of it: the mark
beside a figure in the grid, the reports, the JSON and the app's tiles, as the CPU's mark is.

A figure is the one the tile shows (CrystalDiskMark's: the best pass; for µs the lowest
mean). "% of claim" is how much of the claimed performance it delivered, by the
comparison's one rule (:func:`diskmark.report.compare.performance_ratio`: 1/latency for µs).
It falls short only beyond the run's own noise, by the comparison's rule too: the passes'
R/Avg % when the test had two or more, else the ±3 % default; a figure 2 % under its claim
in a run whose passes spread 5 % is not short of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diskmark.locale import _
from diskmark.model.claims import Claim
from diskmark.model.results import SessionResult, TestResult
from diskmark.model.units import Unit
from diskmark.report.compare import judge, noise_from, performance_ratio
from diskmark.report.formatting import WORSE, format_figure, op_word


@dataclass(frozen=True)
class ClaimMark:
    """One test's figure against its claim."""

    claim: Claim
    measured: float | None  # in the claim's unit; None when the test has no figure
    pct: float | None  # of the claimed performance delivered
    short: bool  # short of the claim beyond the run's noise
    noise_pct: float

    def to_dict(self) -> dict[str, Any]:
        return self.claim.to_dict() | {
            "measured": self.measured, "pct_of_claim": self.pct, "noise_pct": self.noise_pct,
            "verdict": ("not_measured" if self.measured is None
                        else "short" if self.short else "meets")}


def claim_mark(test: TestResult | None, claim: Claim) -> ClaimMark:
    if test is None or not test.complete:
        return ClaimMark(claim, None, None, False, 0.0)
    unit = Unit.MB_S if claim.unit is Unit.GB_S else claim.unit
    measured = test.figure(unit)
    spread = [test.spread(unit).r_avg_pct] if len(test.runs) >= 2 else []
    noise, _from_runs = noise_from(spread)
    if not measured:
        return ClaimMark(claim, measured, 0.0, True, noise)
    _pct, verdict = judge(measured, claim.value, unit, noise)
    return ClaimMark(claim, measured, performance_ratio(measured, claim.value, unit) * 100,
                     verdict == WORSE, noise)


def claim_marks(session: SessionResult) -> dict[str, ClaimMark]:
    """Each claimed test's mark, by the test's key (the last claim of a test wins: a claim
    typed after the claims file's)."""
    return {c.key: claim_mark(session.test(c.key), c) for c in session.claims}


def mark_text(mark: ClaimMark | None) -> str:
    """What stands beside a figure: ``97%``, ``82%!`` when short of the claim; "" without."""
    if mark is None or mark.pct is None:
        return ""
    return f"{mark.pct:.0f}%" + ("!" if mark.short else "")


def mark_words(mark: ClaimMark) -> str:
    """A claim's mark in a sentence, for the footnotes and the details."""
    claimed = f"{format_figure(mark.claim.value, mark.claim.unit)} {mark.claim.unit.label}"
    what = f"{mark.claim.label} {op_word(mark.claim.op)}"
    if mark.measured is None or mark.pct is None:
        # TRANSLATORS: {test}: "SEQ1M Q8T1 Read"; {claimed}: "3500.00 MB/s"; {source}: where the claim is from
        return _("{test}: not measured, claimed {claimed} ({source})").format(
            test=what, claimed=claimed, source=mark.claim.source)
    words = dict(test=what, pct=f"{mark.pct:.0f}", claimed=claimed, source=mark.claim.source,
                 noise=f"{mark.noise_pct:.1f}")
    if mark.short:
        # TRANSLATORS: a figure short of the drive's claim by more than the run's own spread
        return _("{test}: {pct}% of the claimed {claimed}, short of it beyond the run's noise "
                 "(±{noise}%) ({source})").format(**words)
    return _("{test}: {pct}% of the claimed {claimed} ({source})").format(**words)


def footnote(session: SessionResult) -> list[str]:
    """The grid's footnote of its claim marks, one line per claim."""
    marks = claim_marks(session)
    if not marks:
        return []
    # TRANSLATORS: the footnote of the marks such as "97%" beside the grid's figures
    return [_("NN%: the share of the drive's claim a figure reached; NN%! short of it beyond "
              "the run's noise")] + ["  " + mark_words(m) for m in marks.values()]
