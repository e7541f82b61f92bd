"""A run judged against checks: each threshold's figure found in the run, held against its
limit, and pass, fail, or why it cannot be told.

A limit a class or a program sets is one every moment must meet, so a test of several passes
is judged by its worst (the slowest MB/s, the highest latency), with the best beside it. A
floor in MB/s that the link the drive was measured through cannot carry is not the drive's
failure: a V90 card in a USB 2 reader (60 MB/s at most) cannot be told, and the verdict
says it was measured on USB 2. When a check of a family is asked for (the SD Association's
speed classes), the family's other checks that the same figures settle are judged too, so
a card that fails V30 learns which class it does meet.
"""

from __future__ import annotations

from diskmark.checks import Check, CheckCatalog, TestRef, Threshold
from diskmark.model.results import FioJob, JobResult, RunResult, SessionResult, TestResult
from diskmark.model.verdicts import CheckVerdict, Outcome, ThresholdVerdict, Why


def needs(checks: list[Check]) -> tuple[list[TestRef], list[FioJob]]:
    """What running ``checks`` takes, each test and job once."""
    tests = list(dict.fromkeys(t for c in checks for t in c.tests()))
    jobs = list(dict.fromkeys(j for c in checks for j in c.fio_jobs()))
    return tests, jobs


def judge_all(asked: list[Check], catalog: CheckCatalog,
              session: SessionResult) -> list[CheckVerdict]:
    """The checks asked for, then the other checks of their families that this run's
    figures settle (each once)."""
    verdicts = [judge(c, session) for c in asked]
    seen = {c.id for c in asked}
    for check in asked:
        for other in catalog.family(check):
            if other.id not in seen and _measured_by(other, session):
                seen.add(other.id)
                verdicts.append(judge(other, session, asked=False))
    return verdicts


def _measured_by(check: Check, session: SessionResult) -> bool:
    tests = {t.key for t in session.tests if t.runs}
    jobs = [j.job for j in session.jobs if j.run is not None]
    return all(t.key in tests for t in check.tests()) and all(j in jobs for j in check.fio_jobs())


def judge(check: Check, session: SessionResult, asked: bool = True) -> CheckVerdict:
    return CheckVerdict(check.id, check.name, [_threshold(check, t, session)
                                               for t in check.thresholds],
                        asked=asked, family=check.family)


def _threshold(check: Check, threshold: Threshold, session: SessionResult) -> ThresholdVerdict:
    job = check.jobs.get(threshold.job)
    verdict = ThresholdVerdict(
        figure=threshold.figure.text,
        test=measured_by(job),
        limit=threshold.limit, unit=threshold.unit, below=threshold.below,
        source=threshold.source)
    link, ceiling = session.system.interface, session.system.interface_mb_s
    if threshold.figure.kind == "link":
        if ceiling is None:
            verdict.why = Why.NO_LINK
            verdict.detail = session.system.virtual or session.system.fstype
            return verdict
        verdict.measured = ceiling / threshold.factor
        verdict.detail = link
        return _held(verdict)
    figures, why, detail = _figures(job, threshold, session)
    verdict.why, verdict.detail = why, detail
    if not figures:
        return verdict
    worst = max(figures) if threshold.below else min(figures)
    best = min(figures) if threshold.below else max(figures)
    verdict.measured = worst / threshold.factor
    verdict.best = best / threshold.factor if len(figures) > 1 else None
    verdict.passes = len(figures)
    _held(verdict)
    if (verdict.outcome is Outcome.FAIL and threshold.figure.kind == "mb_s" and ceiling
            and ceiling < threshold.limit * threshold.factor):
        verdict.outcome, verdict.why, verdict.detail = Outcome.UNKNOWN, Why.LINK_CAPS, link
    return verdict


def measured_by(job: TestRef | FioJob | None) -> str:
    """What measured a figure, the same in every language: ``SEQ1M Q1T1 write``, ``fio
    rw=write bs=2300 …``; "" for the link."""
    if job is None:
        return ""
    return job.title if isinstance(job, TestRef) else f"fio {job.title}"


def _held(verdict: ThresholdVerdict) -> ThresholdVerdict:
    assert verdict.measured is not None
    met = verdict.measured < verdict.limit if verdict.below else verdict.measured >= verdict.limit
    verdict.outcome = Outcome.PASS if met else Outcome.FAIL
    return verdict


def _figures(job: TestRef | FioJob | None, threshold: Threshold,
             session: SessionResult) -> tuple[list[float], Why, str]:
    """The figure of each pass that measured it (in the base unit), or why there are none."""
    runs: list[RunResult]
    sync: list[dict[str, float]] = []
    if isinstance(job, TestRef):
        test: TestResult | None = session.test(job.key)
        if test is None or not test.runs:
            return [], (Why.FAILED if test is not None and test.error else Why.NOT_MEASURED), (
                test.error or "" if test is not None else "")
        runs = test.runs
    elif isinstance(job, FioJob):
        result: JobResult | None = next((j for j in session.jobs if j.job == job), None)
        if result is None or result.run is None:
            return [], (Why.FAILED if result is not None and result.error else Why.NOT_MEASURED), (
                result.error or "" if result is not None else "")
        runs, sync = [result.run], [result.sync_percentiles]
    else:
        return [], Why.NOT_MEASURED, ""
    figure = threshold.figure
    if figure.kind == "mb_s":
        values: list[float | None] = [r.mb_s for r in runs]
    elif figure.kind == "iops":
        values = [r.iops for r in runs]
    elif figure.kind == "lat_mean":
        values = [r.lat_us if r.lat_us > 0 else None for r in runs]
    elif figure.kind == "clat":
        values = [r.lat_percentiles.get(figure.percentile) for r in runs]
    else:
        values = [s.get(figure.percentile) for s in sync]
    found = [v for v in values if v is not None]
    return found, (Why.NONE if found else Why.NO_FIGURE), ""
