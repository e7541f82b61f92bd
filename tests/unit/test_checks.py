"""Checks are data, judged by rules: the built-in TOML files, a user's files refused with
their file and line, a run's figures held against the limits (the worst pass, the link's
ceiling, a family judged by the same figures), claims read and marked by the comparison's
noise rule, and the history keeping verdicts, jobs and claims (an older document reading as
before, a damaged one refused)."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path

import pytest
from history_data import THREE_PASSES, real_result

from diskmark.checks import CheckError, load_catalog, load_file
from diskmark.checks.claims import claims_for, claims_of_run, parse_claims
from diskmark.checks.judge import judge, judge_all, needs
from diskmark.checks.words import TEXTS
from diskmark.engine.plan import check_plan, job_args
from diskmark.files.toml_file import line_of_key
from diskmark.model.claims import Claim
from diskmark.model.facts import SystemFacts
from diskmark.model.results import FioJob, JobResult, RunResult, SessionResult, TestResult, TestSpec
from diskmark.model.settings import Op, Settings
from diskmark.model.units import MIB, Unit
from diskmark.model.verdicts import Outcome, Why
from diskmark.report.claim_marks import claim_marks, mark_text
from diskmark.report.text import grid_report, json_report
from diskmark.report.verdicts import asked_lines, threshold_line
from diskmark.store.schema import validate_result

NOWHERE = Path("/nonexistent")


def catalog():
    return load_catalog(NOWHERE)


def run(mb_s: float, iops: float = 0.0, lat_us: float = 100.0, **kw) -> RunResult:
    return RunResult(mb_s=mb_s, iops=iops, lat_us=lat_us, io_bytes=1, runtime_ms=1000, **kw)


def session(*tests: TestResult, system: SystemFacts | None = None, jobs=()) -> SessionResult:
    return SessionResult(settings=Settings(), system=system or SystemFacts(),
                         tests=list(tests), jobs=list(jobs))


def seq1m_q1_write(*mb_s: float) -> TestResult:
    return TestResult(0, TestSpec("SEQ", MIB, 1, 1), Op.WRITE, runs=[run(m) for m in mb_s])


def test_the_built_in_checks_load_with_a_source_for_every_threshold():
    checks = catalog().checks
    assert {"etcd", "sd-a1", "sd-a2", "usb3"} <= set(checks)
    assert {f"sd-{c}" for c in ("c2", "c4", "c6", "c10", "u1", "u3", "v6", "v10", "v30", "v60",
                                "v90")} <= set(checks)
    floors = {c.id: c.thresholds[0].limit for c in checks.values() if c.family == "sd-speed"}
    assert floors == {"sd-c2": 2, "sd-c4": 4, "sd-c6": 6, "sd-c10": 10, "sd-u1": 10, "sd-u3": 30,
                      "sd-v6": 6, "sd-v10": 10, "sd-v30": 30, "sd-v60": 60, "sd-v90": 90}
    a1, a2 = checks["sd-a1"], checks["sd-a2"]
    assert [t.limit for t in a1.thresholds] == [1500, 500, 10]
    assert [t.limit for t in a2.thresholds] == [4000, 2000, 10]
    etcd = checks["etcd"]
    (wal,) = etcd.fio_jobs()
    assert (wal.rw, wal.bs, wal.size, wal.ioengine, wal.fdatasync) == ("write", 2300, 22 * MIB,
                                                                        "sync", 1)
    (p99,) = etcd.thresholds
    assert (p99.figure.text, p99.limit, p99.unit, p99.below) == ("sync p99", 10, "ms", True)
    assert all(t.source.strip() for c in checks.values() for t in c.thresholds)
    # what a person reads of a built-in check is in the catalogs (checks/words.py)
    assert {x for c in checks.values() for x in (c.description, c.differs)} == set(TEXTS)


def test_a_check_run_plans_each_test_once_then_its_fio_jobs():
    checks = catalog()
    asked = [checks.get(i) for i in ("sd-v30", "sd-a1", "etcd", "sd-v10")]
    tests, jobs = needs(asked)
    assert [t.title for t in tests] == ["SEQ1M Q1T1 write", "RND4K Q1T1 read", "RND4K Q1T1 write"]
    plan = check_plan(Settings(size=16 * MIB, count=1, measure=1, interval=0),
                      [(t.spec, t.op) for t in tests], jobs)
    assert [t.title for t in plan.tests] == ["RND4K Q1T1 Read", "SEQ1M Q1T1 Write",
                                             "RND4K Q1T1 Write"]
    assert plan.settings.size == 22 * MIB, "the test file holds etcd's 22 MiB"
    args = job_args("fio", plan, plan.jobs[0], "io_uring")
    assert {"--rw=write", "--bs=2300", f"--size={22 * MIB}", "--ioengine=sync", "--fdatasync=1",
            "--direct=0", "--runtime=2s"} <= set(args), args


def test_a_floor_is_judged_by_the_slowest_pass_with_the_best_beside_it():
    v30 = catalog().get("sd-v30")
    verdict = judge(v30, session(seq1m_q1_write(31.0, 28.5, 33.0)))
    (t,) = verdict.thresholds
    assert verdict.outcome is Outcome.FAIL and t.measured == 28.5 and t.best == 33.0
    assert threshold_line(t) == ("MB/s of SEQ1M Q1T1 write: 28.50 MB/s, at least 30 MB/s: fail, "
                                 "1.50 MB/s short (5% below the limit)")


def test_a_floor_the_link_cannot_carry_cannot_be_told_and_says_the_link():
    usb2 = SystemFacts(interface="USB 480 Mb/s", interface_mb_s=60.0)
    checks = catalog()
    (v90,) = judge(checks.get("sd-v90"), session(seq1m_q1_write(35.2), system=usb2)).thresholds
    assert (v90.outcome, v90.why, v90.detail) == (Outcome.UNKNOWN, Why.LINK_CAPS, "USB 480 Mb/s")
    assert "35.20 MB/s was measured through USB 480 Mb/s, which cannot carry 90 MB/s" in \
        threshold_line(v90)
    # below what the link carries, a figure short of the floor is the card's
    (v10,) = judge(checks.get("sd-v10"), session(seq1m_q1_write(5.0), system=usb2)).thresholds
    assert v10.outcome is Outcome.FAIL
    (link,) = judge(checks.get("usb3"), session(system=usb2)).thresholds
    assert link.outcome is Outcome.FAIL and link.measured == 60.0
    assert threshold_line(link).startswith("link: 60.00 MB/s (USB 480 Mb/s), at least 500 MB/s: "
                                           "fail")
    (unknown,) = judge(checks.get("usb3"), session(system=SystemFacts(virtual="virtio"))).thresholds
    assert unknown.why is Why.NO_LINK and "(virtio)" in threshold_line(unknown)


def test_a_failed_class_learns_which_of_its_family_the_same_figures_meet():
    checks = catalog()
    verdicts = judge_all([checks.get("sd-v30")], checks, session(seq1m_q1_write(20.1)))
    assert [v.id for v in verdicts if v.asked] == ["sd-v30"]
    by_id = {v.id: v.outcome for v in verdicts}
    assert by_id["sd-v30"] is by_id["sd-u3"] is by_id["sd-v60"] is Outcome.FAIL
    assert by_id["sd-v10"] is by_id["sd-c10"] is by_id["sd-v6"] is Outcome.PASS
    assert "sd-a1" not in by_id, "A1's random tests were not run"
    lines = asked_lines(verdicts)
    assert lines[0] == "FAIL  sd-v30 (SD Video Speed Class 30 (V30))"
    assert "  By the same figures, it meets: sd-c2, sd-c4, sd-c6, sd-v6, sd-c10, sd-u1, sd-v10" \
        in lines


def test_a_job_that_did_not_run_cannot_be_told_and_its_sync_figure_is_read():
    etcd = catalog().get("etcd")
    (t,) = judge(etcd, session()).thresholds
    assert (t.outcome, t.why) == (Outcome.UNKNOWN, Why.NOT_MEASURED)
    wal = etcd.fio_jobs()[0]
    done = JobResult(job=FioJob(**{**wal.__dict__, "name": "other"}), run=run(1.0),
                     sync_percentiles={"99": 12_500.0, "max": 20_000.0})
    (t,) = judge(etcd, session(jobs=[done])).thresholds
    assert t.outcome is Outcome.FAIL and t.measured == 12.5
    assert threshold_line(t).endswith(": 12.50 ms, below 10 ms: fail, 2.50 ms over (1.25× the "
                                      "limit)")


@pytest.mark.parametrize("text, line, says", [
    ('id = "x"\n[jobs.a]\ntest = "SEQ1M Q1T1 write"\n[[thresholds]]\njob = "b"\nfigure = "MB/s"\n'
     'at_least = "3 MB/s"\nsource = "s"\n', 5, "thresholds[1].job: 'b' is not one of this check's"),
    ('id = "x"\n[jobs.a]\nfio = { rw = "trim", bs = 4096, size = "16MiB" }\n[[thresholds]]\n'
     'job = "a"\nfigure = "IOPS"\nat_least = "3 IOPS"\nsource = "s"\n', 3,
     "jobs.a.fio.rw must be one of read, write, randread, randwrite"),
    ('id = "x"\n[jobs.a]\ntest = "SEQ1M Q1T1 write"\n[[thresholds]]\njob = "a"\n'
     'figure = "sync p99"\nbelow = "3 ms"\nsource = "s"\n', 6,
     "is measured only by a fio job with fdatasync"),
    ('id = "x"\n[jobs.a]\ntest = "SEQ1M Q1T1 write"\n[[thresholds]]\njob = "a"\n'
     'figure = "MB/s"\nat_least = "3 ms"\nsource = "s"\n', 7, "MB/s is bounded in MB/s, GB/s"),
    ('name = "x\\u001b[2J"\n[[thresholds]]\nfigure = "link"\nat_least = "3 MB/s"\nsource = "s"\n',
     1, "name holds a control or format character"),
    ('id = "x"\n[[thresholds]]\nfigure = "link"\nat_least = "3 MB/s"\n', 2,
     "thresholds[1].source must be text"),
])
def test_a_broken_check_names_its_line(tmp_path, text, line, says):
    path = tmp_path / "mine.toml"
    path.write_text(text)
    with pytest.raises(CheckError) as caught:
        load_file(path, str(path))
    assert str(caught.value).startswith(f"{path}:{line}: ") and says in str(caught.value), caught


def test_line_of_key_finds_arrays_of_tables_and_inline_tables():
    text = ('id = "x"\n\n[jobs.wal]\nfio = { rw = "write" }\n\n[jobs."seq-write"]\ntest = "t"\n'
            '\n[[thresholds]]\njob = "wal"\nbelow = 10\n\n[[thresholds]]\n# a comment\n'
            'at_least = 30\n')
    assert line_of_key(text, ("id",)) == 1
    assert line_of_key(text, ("jobs", "wal", "fio", "rw")) == 4
    assert line_of_key(text, ("jobs", "seq-write", "test")) == 7
    assert line_of_key(text, ("thresholds", 0, "below")) == 11
    assert line_of_key(text, ("thresholds", 1, "at_least")) == 15
    assert line_of_key(text, ("thresholds", 1, "source")) == 13


def test_claims_read_as_typed_and_from_the_file_by_model(tmp_path):
    read, write = parse_claims("seq1m q8t1 read=3.5GB/s, write=3000")
    assert (read.label, read.op, read.unit, read.value) == ("SEQ1M Q8T1", Op.READ, Unit.MB_S, 3500)
    assert (write.op, write.value, write.source) == (Op.WRITE, 3000, "--claim")
    (iops,) = parse_claims("RND4K Q32T16 read=1000000IOPS")
    assert iops.unit is Unit.IOPS
    for wrong in ("SEQ1M Q8T1", "read=1", "SEQ1M Q8T1 reed=1", "SEQ1M Q8T1 read=-1",
                  "SEQ1M Q8T1 read=1 furlongs", "SEQ1M Q8T1 read=１"):
        with pytest.raises(ValueError):
            parse_claims(wrong)
    path = tmp_path / "claims.toml"
    path.write_text('[[drive]]\nmodel = "Samsung SSD 980 PRO 1TB"\nsource = "datasheet"\n'
                    'claims = ["SEQ1M Q8T1 read=7000,write=5000"]\n\n'
                    '[[drive]]\nmodel = "Other"\nclaims = "SEQ1M Q8T1 read=1"\n')
    found, problems = claims_for("samsung  SSD 980 pro 1tb ", path)
    assert [(c.op, c.value) for c in found] == [(Op.READ, 7000), (Op.WRITE, 5000)]
    assert found[0].source == f"{path} [Samsung SSD 980 PRO 1TB]: datasheet" and problems == []
    _found, problems = claims_for("Other", path)
    assert problems == [f"{path}:8: claims must be a list such as "
                        "[\"SEQ1M Q8T1 read=3500,write=3000\"]"]
    kept, _problems = claims_of_run("Samsung SSD 980 PRO 1TB", parse_claims("SEQ1M Q8T1 read=1"),
                                    path)
    assert [(c.op, c.value, c.source) for c in kept] == [
        (Op.WRITE, 5000, f"{path} [Samsung SSD 980 PRO 1TB]: datasheet"), (Op.READ, 1, "--claim")]


def test_a_figure_is_short_of_its_claim_only_beyond_the_runs_noise():
    test = TestResult(0, TestSpec("SEQ", MIB, 8, 1), Op.READ, runs=[run(3300.0), run(3400.0)])
    within = session(test)
    within.claims = [Claim("SEQ1M Q8T1", Op.READ, Unit.MB_S, 3450.0, "--claim")]
    (mark,) = claim_marks(within).values()
    assert mark.noise_pct == pytest.approx(100 / 3350 * 100)  # the passes' R/Avg, about 3%
    assert not mark.short and mark_text(mark) == "99%"
    beyond = session(test)
    beyond.claims = [Claim("SEQ1M Q8T1", Op.READ, Unit.MB_S, 3600.0, "--claim")]
    assert mark_text(claim_marks(beyond)[test.key]) == "94%!"
    row = next(x for x in grid_report(beyond).splitlines() if x.startswith("SEQ1M Q8T1"))
    assert row.split()[2:] == ["3400.00", "94%!"]
    (claimed,) = json.loads(json_report(beyond))["claims"]
    assert claimed["verdict"] == "short" and claimed["pct_of_claim"] == pytest.approx(94.44, 0.01)


def test_the_history_keeps_verdicts_jobs_and_claims_and_reads_older_documents():
    doc = real_result(THREE_PASSES)
    assert "checks" not in doc and validate_result(doc).checks == []  # an older document
    checks = catalog()
    kept = validate_result(doc)
    kept.claims = parse_claims("SEQ1M Q8T1 read=3500")
    wal = checks.get("etcd").fio_jobs()[0]
    kept.jobs = [JobResult(job=wal, run=run(2.0), sync_percentiles={"99": 800.0, "max": 900.0},
                           fio_command=["fio", "--fdatasync=1"])]
    kept.checks = judge_all([checks.get("etcd"), checks.get("usb3")], checks, kept)
    again = validate_result(json.loads(json.dumps(kept.to_dict())))
    assert again.to_dict() == kept.to_dict()
    assert [v.outcome for v in again.checks] == [Outcome.PASS, Outcome.UNKNOWN]


def test_a_damaged_verdict_job_or_claim_is_refused_naming_its_field():
    checks = catalog()
    kept = validate_result(real_result(THREE_PASSES))
    kept.claims = parse_claims("SEQ1M Q8T1 read=3500")
    kept.jobs = [JobResult(job=checks.get("etcd").fio_jobs()[0], run=run(2.0))]
    kept.checks = judge_all([checks.get("etcd")], checks, kept)
    good = kept.to_dict()
    leaves = []

    def walk(value, path):
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, (*path, k))
        elif isinstance(value, list) and value and path[0] in ("jobs", "checks", "claims"):
            for i, v in enumerate(value):
                walk(v, (*path, i))
        elif path and path[0] in ("jobs", "checks", "claims"):
            leaves.append(path)

    walk(good, ())
    assert len(leaves) > 30
    for path in leaves:
        for wrong in ("slow", [], {}, -1, math.nan, True, None):
            doc = copy.deepcopy(good)
            holder = doc
            for key in path[:-1]:
                holder = holder[key]
            holder[path[-1]] = wrong
            try:
                session_ = validate_result(doc)
            except ValueError:
                continue
            # taken: then every rendering of it must work
            json_report(session_)
            asked_lines(session_.checks)
