"""Comparing a result with a baseline: per-test, per-unit deltas with a noise-aware verdict.

``compare(current, baseline)`` matches tests by :attr:`TestResult.key` (``SEQ1M Q8T1/read``)
and gives, for MB/s, GB/s, IOPS and µs, the current and baseline figures (CDM's: the best
pass, and the lowest latency), the change in % and a verdict:

- "same" when the change is within noise: the two figures are no further apart than the
  passes of the noisier side are, both measured as R/Avg % (range over mean); the band is
  the larger R/Avg % of the two results' passes in that unit, the one side's when only it
  has two passes or more, else ±3 %;
- otherwise "better" or "worse"; lower is better for latency.

Judging the pair by the passes' own statistic keeps a wide band honest: two passes 107 %
apart (range over mean) fell 70 % from one to the other, and a pair 97 % apart in
performance is 189 % apart by the same measure, so it is "worse", not "same". The
regression gate counts only what the verdict calls worse, so the table, the page, the app
and the exit status never disagree about one pair.

One rule for every unit: how much worse a figure is, is how much less it delivers, judged on
the ratio of the two figures (a log scale), so that "X% worse" means the same in MB/s, IOPS
and µs. A latency twice the baseline's is 50% worse, just as half the MB/s is; judged on
its own change (+100%) it would fail a gate that half the MB/s passes.

It also says in plain words where the settings differ (:mod:`diskmark.report.differences`),
because such a comparison misleads. Renderings for the CLI (text, Markdown) live here too;
the JSON form is :meth:`Comparison.to_dict`. Nothing here imports Textual.
"""

from __future__ import annotations

import math
import textwrap
from dataclasses import dataclass, field
from typing import Any

from diskmark.locale import N_, _, ngettext, pgettext
from diskmark.model.names import test_title
from diskmark.model.results import SessionResult, TestResult
from diskmark.model.settings import DEFAULT_NOISE_PCT, Op
from diskmark.model.units import Unit
from diskmark.model.voice import ENGLISH
from diskmark.report.cells import text_cells
from diskmark.report.differences import Missing, missing, settings_differences, software_differences
from diskmark.report.formatting import (
    BETTER,
    SAME,
    WORSE,
    format_date,
    format_figure,
    ljust_cells,
    rjust_cells,
    said_title,
    signed_pct,
    verdict_word,
)

#: The rule in words, for --help, the README and the comparison's footnote (``_`` where shown).
RULE = N_("X% worse means the figure delivers X% less than the baseline: MB/s or IOPS X% lower, "
          "or latency so much higher that 1/latency is X% lower (twice the latency is 50% "
          "worse); better and worse are judged the same way in every unit.")
UNITS = (Unit.MB_S, Unit.GB_S, Unit.IOPS, Unit.US)
#: The units a regression gate and the text table look at (GB/s is MB/s / 1000).
GATE_UNITS = (Unit.MB_S, Unit.IOPS, Unit.US)
_UNIT_KEYS = {Unit.MB_S: "mb_s", Unit.GB_S: "gb_s", Unit.IOPS: "iops", Unit.US: "lat_us"}



@dataclass(frozen=True)
class Delta:
    """One figure of one test against the baseline (what a compared tile shows)."""

    key: str  # the test's key, e.g. "SEQ1M Q8T1/read"
    unit: Unit
    current: float
    baseline: float
    pct: float | None  # (current - baseline) / baseline * 100; None when the baseline is 0
    verdict: str  # "better", "worse" or "same"
    noise_pct: float  # the band within which a change counts as "same"
    noise_from_runs: bool  # True: from the runs' R/Avg %; False: the ±3 % default

    @property
    def worse_by(self) -> float:
        """How much less the figure delivers than the baseline, in % (negative when it
        delivers more): ``(1 - ratio) * 100`` with ``ratio`` the performance ratio (see
        :func:`performance_ratio`), so 57% less MB/s and 2.33× the latency are both 57% worse.
        Infinite when the baseline was 0 and the current figure is worse."""
        return worse_by_pct(self.current, self.baseline, self.unit)

    def to_dict(self) -> dict[str, Any]:
        return {"current": self.current, "baseline": self.baseline, "pct": self.pct,
                "verdict": self.verdict, "noise_pct": self.noise_pct,
                "noise_from_runs": self.noise_from_runs}


@dataclass
class TestComparison:
    """One test present (and measured) on both sides."""

    __test__ = False  # not a pytest test class

    key: str
    label: str
    op: Op
    mix_read: int | None
    current: TestResult
    baseline: TestResult
    deltas: dict[Unit, Delta] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return test_title(self.label, self.op, self.mix_read)

    @property
    def said(self) -> str:
        """The title in the language in use, for what a person reads."""
        return said_title(self.label, self.op, self.mix_read)


@dataclass(frozen=True)
class Regression:
    """A figure worse than the baseline by more than the gate allows."""

    key: str
    title: str
    unit: Unit
    current: float
    baseline: float
    pct: float | None
    worse_by: float
    said: str = ""  # the title in the language in use

    def describe(self) -> str:
        change = f"{self.pct:+.1f}%" if self.pct is not None else _("from 0")
        words = dict(test=self.said or self.title, unit=self.unit.label, change=change,
                     baseline=format_figure(self.baseline, self.unit),
                     current=format_figure(self.current, self.unit))
        if math.isfinite(self.worse_by):
            # TRANSLATORS: a figure that fell: the baseline's figure -> this one's (change, how
            # much less it delivers)
            return _("{test} {unit}: {baseline} -> {current} ({change}, {worse}% worse)").format(
                worse=f"{self.worse_by:.1f}", **words)
        return _("{test} {unit}: {baseline} -> {current} ({change})").format(**words)

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "test": self.title, "unit": self.unit.value,
                "current": self.current, "baseline": self.baseline, "pct": self.pct,
                "worse_by_pct": self.worse_by if math.isfinite(self.worse_by) else None}


@dataclass
class Comparison:
    current: SessionResult
    baseline: SessionResult
    baseline_name: str = ""
    tests: list[TestComparison] = field(default_factory=list)
    missing: list[Missing] = field(default_factory=list)

    # --- lookups for the UI ------------------------------------------------------------

    def test(self, key: str) -> TestComparison | None:
        return next((t for t in self.tests if t.key == key), None)

    def delta(self, key: str, unit: Unit) -> Delta | None:
        """The delta a tile shows: test ``key`` in ``unit``; None if it is not on both sides."""
        t = self.test(key)
        return t.deltas.get(Unit(unit)) if t else None

    # --- verdicts ------------------------------------------------------------------------

    @property
    def settings_differences(self) -> list[str]:
        """Where the two sessions' settings or systems differ, in plain words
        (current first): "size 1GiB vs 16MiB", "buffered vs O_DIRECT", ..."""
        return settings_differences(self.current, self.baseline)

    @property
    def other_differences(self) -> list[str]:
        """Software that changed between the two (kernel, fio): worth knowing, not a fault."""
        return software_differences(self.current, self.baseline)

    def regressions(self, pct: float, units: tuple[Unit, ...] = GATE_UNITS) -> list[Regression]:
        """Every figure the verdict calls worse and that delivers more than ``pct`` percent
        less than the baseline, by the one rule of :data:`RULE` (MB/s and IOPS lower, µs
        higher, on the same scale). A fall within the runs' own noise is "same" in the
        table, so it is no regression here either: see :meth:`within_noise`."""
        return self._falls(pct, units, WORSE)

    def within_noise(self, pct: float, units: tuple[Unit, ...] = GATE_UNITS) -> list[Regression]:
        """Figures that fell by more than ``pct`` percent but within the noise band: the
        gate says so, because a threshold below the noise cannot be checked."""
        return self._falls(pct, units, SAME)

    def _falls(self, pct: float, units: tuple[Unit, ...], verdict: str) -> list[Regression]:
        found = []
        for t in self.tests:
            for unit in units:
                d = t.deltas.get(unit)
                if d is not None and d.verdict == verdict and d.worse_by > pct:
                    found.append(Regression(t.key, t.title, unit, d.current, d.baseline,
                                            d.pct, d.worse_by, t.said))
        return found

    def counts(self, unit: Unit = Unit.MB_S) -> dict[str, int]:
        out = {BETTER: 0, WORSE: 0, SAME: 0}
        for t in self.tests:
            d = t.deltas.get(unit)
            if d:
                out[d.verdict] += 1
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "baseline_name": self.baseline_name,
            "baseline_started": self.baseline.started,
            "current_started": self.current.started,
            "default_noise_pct": DEFAULT_NOISE_PCT,
            "settings_differences": settings_differences(self.current, self.baseline, ENGLISH),
            "other_differences": software_differences(self.current, self.baseline, ENGLISH),
            "summary": self.counts(Unit.MB_S),
            "tests": [
                {"key": t.key, "label": t.label, "kind": t.op.value, "mix_read": t.mix_read,
                 "units": {_UNIT_KEYS[u]: d.to_dict() for u, d in t.deltas.items()}}
                for t in self.tests],
            "missing": [{"key": m.key, "label": m.label, "kind": m.op.value,
                         "mix_read": m.mix_read, "measured_in": m.side,
                         "reason": m.reason_in(ENGLISH)}
                        for m in self.missing],
        }


# --- the arithmetic ----------------------------------------------------------------------


def noise_band(current: TestResult, baseline: TestResult, unit: Unit) -> tuple[float, bool]:
    """The ± % within which a change is "same": the spread (R/Avg %) that is known. Both
    sides with two passes or more: the larger of the two; only one side: that side's (a
    single pass says nothing about noise, the other side's passes do); neither: the 3 %
    default. Returns (band, from_runs)."""
    u = Unit.MB_S if unit is Unit.GB_S else unit
    return noise_from([t.spread(u).r_avg_pct for t in (current, baseline) if len(t.runs) >= 2])


def noise_from(known: list[float]) -> tuple[float, bool]:
    """The band of :func:`noise_band` from the R/Avg % of the sides that have two passes or
    more (a trend has the spreads without the passes): the largest, else the default."""
    if known:
        return max(known), True
    return DEFAULT_NOISE_PCT, False


def performance_ratio(current: float, baseline: float, unit: Unit) -> float:
    """How much the current figure delivers per unit the baseline did: above 1 is better.
    ``current / baseline``, inverted for latency (lower is better). 0 or inf at the edges."""
    good, base = (baseline, current) if unit.lower_is_better else (current, baseline)
    if base == 0:
        return 1.0 if good == 0 else math.inf
    return good / base


def worse_by_pct(current: float, baseline: float, unit: Unit) -> float:
    """``(1 - performance_ratio) * 100``: 57 when the figure delivers 57% less; negative
    when better; -inf when the baseline delivered nothing and this does."""
    ratio = performance_ratio(current, baseline, unit)
    if math.isinf(ratio):
        return -math.inf
    if baseline == 0 and unit.lower_is_better and current > 0:
        return math.inf  # a latency where the baseline had none
    return (1 - ratio) * 100


def judge(current: float, baseline: float, unit: Unit, noise_pct: float) -> tuple[float | None, str]:
    """(change of the figure in %, verdict) of ``current`` against ``baseline`` for ``unit``.

    "same" when the two figures' range over their mean (their R/Avg %, see
    :func:`pair_spread_pct`) is within ``noise_pct``, the passes' own R/Avg %: a pair no
    further apart than the passes themselves is noise. Symmetric (100 vs 97 and 97 vs 100
    read alike); otherwise better or worse as the performance ratio says, in every unit."""
    if baseline == 0:
        if current == 0:
            return 0.0, SAME
        return None, WORSE if unit.lower_is_better else BETTER
    pct = (current - baseline) / baseline * 100
    ratio = performance_ratio(current, baseline, unit)
    if ratio == 0 or math.isinf(ratio):
        return pct, WORSE if ratio == 0 else BETTER
    if pair_spread_pct(ratio) <= noise_pct + 1e-9:  # inclusive, and deaf to float rounding
        return pct, SAME
    return pct, BETTER if ratio > 1 else WORSE


def pair_spread_pct(ratio: float) -> float:
    """R/Avg % of two figures whose performance ratio is ``ratio``: their range over their
    mean, ``200·|ratio − 1| / (ratio + 1)``. The same for ``ratio`` and ``1 / ratio``, so a
    fall and the rise that undoes it read alike; it never exceeds 200 %, which is why a band
    of 100 % or more still separates a 97 % fall (189 %) from noise."""
    return 200 * abs(ratio - 1) / (ratio + 1)


def compare(current: SessionResult, baseline: SessionResult, baseline_name: str = "") -> Comparison:
    cmp = Comparison(current=current, baseline=baseline, baseline_name=baseline_name)
    base_by_key = {t.key: t for t in baseline.tests}
    cur_keys = {t.key for t in current.tests}
    for cur in current.tests:
        base = base_by_key.get(cur.key)
        if base is None:
            if cur.complete:
                cmp.missing.append(Missing(cur.key, cur.label, cur.op, cur.mix_read, "current",
                                           "not_in_baseline"))
            continue
        if not (cur.complete and base.complete):
            if cur.complete:
                cmp.missing.append(Missing(cur.key, cur.label, cur.op, cur.mix_read, "current",
                                           *missing("baseline", base)))
            elif base.complete:
                cmp.missing.append(Missing(cur.key, cur.label, cur.op, cur.mix_read, "baseline",
                                           *missing("current", cur)))
            continue
        tc = TestComparison(cur.key, cur.label, cur.op, cur.mix_read, cur, base)
        for unit in UNITS:
            noise, from_runs = noise_band(cur, base, unit)
            c, b = cur.figure(unit), base.figure(unit)
            if unit is Unit.US and not (c and b):
                continue  # a side without a latency: CrystalDiskMark 5 and 6 write none
            pct, verdict = judge(c, b, unit, noise)
            tc.deltas[unit] = Delta(cur.key, unit, c, b, pct, verdict, noise, from_runs)
        cmp.tests.append(tc)
    for base in baseline.tests:
        if base.key not in cur_keys and base.complete:
            cmp.missing.append(Missing(base.key, base.label, base.op, base.mix_read, "baseline",
                                       "not_run_now"))
    return cmp


# --- renderings --------------------------------------------------------------------------


def _pct(d: Delta) -> str:
    return signed_pct(d.pct)


def _marker(d: Delta) -> str:
    # TRANSLATORS: the verdict column of the comparison table; WORSE in capitals stands out
    return {BETTER: verdict_word(BETTER), WORSE: pgettext("verdict", "WORSE"),
            SAME: verdict_word(SAME)}[d.verdict]


def _base_name(cmp: Comparison) -> str:
    if cmp.baseline_name:
        # TRANSLATORS: a saved baseline, {name} in quotes
        return _("baseline {name}").format(name=repr(cmp.baseline_name))
    return _("the baseline")


def _heading(cmp: Comparison, current_name: str) -> list[str]:
    # TRANSLATORS: {current}: "this run" or a baseline's name; {baseline}: "baseline 'name'"
    return [_("Comparison: {current} ({current_date}) against {baseline} ({baseline_date})").format(
        current=current_name, current_date=format_date(cmp.current.started),
        baseline=_base_name(cmp), baseline_date=format_date(cmp.baseline.started))]


def _heads() -> tuple[str, ...]:
    """The comparison table's headers: Test, Unit, Baseline, Current, Delta, Noise, Verdict."""
    return (pgettext("table header", "Test"), pgettext("table header", "Unit"),
            pgettext("table header", "Baseline"), pgettext("table header", "Current"),
            pgettext("table header", "Delta"), pgettext("table header", "Noise"),
            pgettext("table header", "Verdict"))


def _only_in(cmp: Comparison, m: Missing, current_name: str) -> str:
    where = current_name if m.side == "current" else _base_name(cmp)
    # TRANSLATORS: a test measured on one side only: {where} is "this run" or "baseline 'name'"
    return _("{test}: only in {where} ({reason})").format(test=m.said, where=where,
                                                          reason=m.reason)


def comparison_text(cmp: Comparison, current_name: str | None = None,
                    units: tuple[Unit, ...] = GATE_UNITS) -> str:
    """A table of every compared test in MB/s, IOPS and µs: baseline, current, delta % and
    the verdict (same means within the noise band shown), then tests on one side only, then
    a warning block when the settings differ. ``current_name`` defaults to "this run"."""
    current_name = _("this run") if current_name is None else current_name
    lines = _heading(cmp, current_name)
    names = _heads()
    w = max([22, text_cells(names[0])] + [text_cells(t.said) for t in cmp.tests])
    widths = [w] + [max(least, text_cells(name)) for least, name in zip((4, 12, 12, 9, 6), names[1:6])]
    head = "  ".join([ljust_cells(names[0], w), ljust_cells(names[1], widths[1]),
                      *(rjust_cells(name, width) for name, width in zip(names[2:6], widths[2:])),
                      names[6]])
    lines += ["", head, "-" * text_cells(head)]
    for t in cmp.tests:
        for i, unit in enumerate(u for u in units if u in t.deltas):
            d = t.deltas[unit]
            noise = f"±{d.noise_pct:.1f}%" + ("" if d.noise_from_runs else "*")
            cells = (format_figure(d.baseline, unit), format_figure(d.current, unit), _pct(d), noise)
            lines.append("  ".join([ljust_cells(t.said if i == 0 else "", w),
                                    ljust_cells(unit.label, widths[1]),
                                    *(rjust_cells(c, width) for c, width in zip(cells, widths[2:])),
                                    _marker(d)]))
    if not cmp.tests:
        lines.append(_("(no test was measured on both sides)"))
    note = _("Same = within noise: the two figures are no further apart (their range over their "
             "mean) than the passes of the noisier side are (the Noise column: the larger R/Avg % "
             "of the sides with two passes or more; * where neither has, ±{noise}% is assumed). "
             "Latency: lower is better; a latency twice the baseline's counts as 50% worse, as "
             "half the MB/s does.").format(noise=f"{DEFAULT_NOISE_PCT:g}")
    lines += ["", *textwrap.wrap(note, 88)]
    counts = cmp.counts(Unit.MB_S)
    # TRANSLATORS: how many tests' MB/s are better, worse and the same as the baseline's
    lines.append(_("MB/s: {better} better, {worse} worse, {same} same.").format(
        better=counts[BETTER], worse=counts[WORSE], same=counts[SAME]))
    if cmp.missing:
        lines += ["", _("Not compared:")]
        lines += [f"  {_only_in(cmp, m, current_name)}" for m in cmp.missing]
    diffs = cmp.settings_differences
    if diffs:
        lines += ["", "! " + _("Settings differ ({current} vs {baseline}); this comparison may "
                               "mislead:").format(current=current_name, baseline=_base_name(cmp))]
        lines += [f"!   {d}" for d in diffs]
    others = cmp.other_differences
    if others:
        # TRANSLATORS: {changes}: "kernel 6.1 vs 6.8; fio fio-3.33 vs fio-3.36"
        lines += ["", _("Also changed: {changes}").format(changes="; ".join(others))]
    return "\n".join(lines) + "\n"


def comparison_markdown(cmp: Comparison, current_name: str | None = None) -> str:
    current_name = _("this run") if current_name is None else current_name
    names = [name for i, name in enumerate(_heads()) if i != 5]  # no Noise column
    lines = [f"**{_heading(cmp, current_name)[0]}**", "",
             "| " + " | ".join(names) + " |",
             "|---|---|---:|---:|---:|---|"]
    for t in cmp.tests:
        for unit in (u for u in GATE_UNITS if u in t.deltas):
            d = t.deltas[unit]
            lines.append(f"| {t.said} | {unit.label} | {format_figure(d.baseline, unit)} | "
                         f"{format_figure(d.current, unit)} | {_pct(d)} | {verdict_word(d.verdict)} |")
    for m in cmp.missing:
        where = current_name if m.side == "current" else _base_name(cmp)
        lines.append("\n> " + _("Not compared: {test}, only in {where} ({reason})").format(
            test=m.said, where=where, reason=m.reason))
    diffs = cmp.settings_differences
    if diffs:
        # TRANSLATORS: {bold} and {end} make "Settings differ" bold in Markdown: keep them around it
        lines += ["", "> " + _("{bold}Settings differ{end} ({current} vs {baseline}): "
                               "{differences}").format(
            bold="**", end="**", current=current_name, baseline=_base_name(cmp),
            differences="; ".join(diffs))]
    return "\n".join(lines) + "\n"


# --- the regression gate -----------------------------------------------------------------


def gate(cmp: Comparison, pct: float, against: str | None = None) -> tuple[str, list[str]]:
    """The CI gate: ("pass" | "fail" | "nothing", message lines). "fail" names every figure
    worse than the baseline by more than ``pct`` %; "nothing" means no test was measured on
    both sides, so the gate could not check anything. ``against`` names the baseline
    ("the baseline" by default)."""
    against = _("the baseline") if against is None else against
    if not cmp.tests:
        return "nothing", [_("nothing to compare: no test was measured both here and in "
                             "{against}; the regression gate cannot pass").format(against=against)]
    found = cmp.regressions(pct)
    noisy = cmp.within_noise(pct)
    lines: list[str] = []
    limit = f"{pct:g}"
    if found:
        # TRANSLATORS: {against} is "baseline 'name'"; {pct} the gate's threshold
        lines = [ngettext("regression: {count} figure worse than {against} by more than {pct}%:",
                          "regression: {count} figures worse than {against} by more than {pct}%:",
                          len(found)).format(count=len(found), against=against, pct=limit)]
        lines += [f"  {r.describe()}" for r in found]
    else:
        lines = [ngettext("no test is worse than {against} by more than {pct}% ({count} test "
                          "compared)",
                          "no test is worse than {against} by more than {pct}% ({count} tests "
                          "compared)", len(cmp.tests)).format(
            against=against, pct=limit, count=len(cmp.tests))]
    if noisy:
        lines.append(ngettext(
            "not counted: {count} figure fell by more than {pct}% but within the runs' own noise "
            "(the comparison calls it same):",
            "not counted: {count} figures fell by more than {pct}% but within the runs' own "
            "noise (the comparison calls them same):", len(noisy)).format(
            count=len(noisy), pct=limit))
        lines += [f"  {r.describe()}" for r in noisy]
    return ("fail" if found else "pass"), lines
