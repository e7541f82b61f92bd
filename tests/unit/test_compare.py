"""Comparison arithmetic on hand-built results: deltas, latency direction, the noise rule,
missing tests, settings differences, the regression gate and the renderings."""

from __future__ import annotations

import json

import pytest

from diskmark.model.facts import SystemFacts
from diskmark.model.results import RunResult, SessionResult, TestResult, TestSpec
from diskmark.model.settings import DEFAULT_NOISE_PCT, DataPattern, Mode, Op, Settings
from diskmark.model.units import GIB, MIB, Unit
from diskmark.report.compare import (
    Comparison,
    compare,
    comparison_markdown,
    comparison_text,
    gate,
    judge,
    noise_band,
)

SEQ = TestSpec("SEQ", MIB, 8, 1)
RND = TestSpec("RND", 4096, 1, 1)
K_SEQ_R, K_SEQ_W, K_RND_R = "SEQ1M Q8T1/read", "SEQ1M Q8T1/write", "RND4K Q1T1/read"


def r(mb_s: float, lat_us: float = 100.0, iops: float | None = None) -> RunResult:
    return RunResult(mb_s=mb_s, iops=mb_s if iops is None else iops, lat_us=lat_us,
                     io_bytes=1, runtime_ms=1000)


def t(spec: TestSpec, op: Op, *runs: RunResult, index: int = 0, mix: int | None = None,
      error: str | None = None) -> TestResult:
    return TestResult(index, spec, op, mix_read=mix, runs=list(runs), error=error)


def sess(*tests: TestResult, **kw) -> SessionResult:
    system = SystemFacts(device="/dev/nvme0n1", fstype="ext4", model="Samsung 990",
                         mount_options="rw,relatime", kernel="6.1.0")
    settings = Settings(size=GIB, count=5)
    for k in list(kw):
        if k in ("measure", "interval"):
            continue  # the session's effective values, set below
        if hasattr(system, k) and k not in ("target",):
            setattr(system, k, kw.pop(k))
        elif hasattr(settings, k):
            setattr(settings, k, kw.pop(k))
    s = SessionResult(settings=settings, system=system, preset_name="Default",
                      profile_name="Default", measure=5, interval=5, fio_version="fio-3.33",
                      started="2026-01-01T10:00:00+00:00", tests=list(tests))
    for k, v in kw.items():
        setattr(s, k, v)
    return s


# --- arithmetic --------------------------------------------------------------------------


@pytest.mark.parametrize("cur,pct,verdict", [
    (110.0, 10.0, "better"), (102.0, 2.0, "same"), (97.1, -2.9, "same"),
    (96.9, -3.1, "worse"), (50.0, -50.0, "worse"), (100.0, 0.0, "same")])
def test_bandwidth_delta_single_runs_use_three_percent(cur, pct, verdict):
    c = compare(sess(t(SEQ, Op.READ, r(cur))), sess(t(SEQ, Op.READ, r(100.0))), "base")
    d = c.delta(K_SEQ_R, Unit.MB_S)
    assert d.current == cur and d.baseline == 100.0
    assert d.pct == pytest.approx(pct) and d.verdict == verdict
    assert d.noise_pct == DEFAULT_NOISE_PCT and not d.noise_from_runs
    g = c.delta(K_SEQ_R, Unit.GB_S)
    assert g.current == pytest.approx(cur / 1000) and g.pct == pytest.approx(pct)
    assert g.verdict == verdict


@pytest.mark.parametrize("cur_lat,pct,verdict", [
    (120.0, 20.0, "worse"), (80.0, -20.0, "better"), (102.0, 2.0, "same"), (97.5, -2.5, "same")])
def test_latency_lower_is_better(cur_lat, pct, verdict):
    c = compare(sess(t(SEQ, Op.READ, r(100, lat_us=cur_lat))), sess(t(SEQ, Op.READ, r(100, lat_us=100))))
    d = c.delta(K_SEQ_R, Unit.US)
    assert d.pct == pytest.approx(pct) and d.verdict == verdict
    # bandwidth equal: same
    assert c.delta(K_SEQ_R, Unit.MB_S).verdict == "same"


def test_figures_follow_cdm_best_pass_and_lowest_latency():
    cur = t(SEQ, Op.READ, r(90, lat_us=50, iops=900), r(120, lat_us=70, iops=1200))
    base = t(SEQ, Op.READ, r(100, lat_us=60, iops=1000))
    c = compare(sess(cur), sess(base))
    assert c.delta(K_SEQ_R, Unit.MB_S).current == 120  # the best pass
    assert c.delta(K_SEQ_R, Unit.IOPS).current == 1200  # that pass's IOPS
    assert c.delta(K_SEQ_R, Unit.US).current == 50  # the lowest latency, tracked separately
    assert c.delta(K_SEQ_R, Unit.US).pct == pytest.approx((50 - 60) / 60 * 100)


def test_noise_rule_uses_the_larger_spread_when_both_have_two_runs():
    # baseline passes 100 and 110: R/Avg = 10 / 105 = 9.52 %; current 104 and 106: 1.89 %
    base = t(SEQ, Op.READ, r(100), r(110))
    cur = t(SEQ, Op.READ, r(104), r(106))
    band, from_runs = noise_band(cur, base, Unit.MB_S)
    assert from_runs and band == pytest.approx(10 / 105 * 100)
    d = compare(sess(cur), sess(base)).delta(K_SEQ_R, Unit.MB_S)
    assert d.pct == pytest.approx((106 - 110) / 110 * 100)  # -3.6 %: beyond ±3 ...
    assert d.verdict == "same" and d.noise_from_runs  # ... but within the runs' own noise
    assert d.noise_pct == pytest.approx(9.5238, abs=1e-3)
    # a drop beyond the spread is worse
    worse = compare(sess(t(SEQ, Op.READ, r(95), r(96))), sess(base)).delta(K_SEQ_R, Unit.MB_S)
    assert worse.pct == pytest.approx((96 - 110) / 110 * 100) and worse.verdict == "worse"


def test_noise_rule_uses_the_spread_that_is_known_when_one_side_had_a_single_pass():
    base = t(SEQ, Op.READ, r(100), r(120))  # two runs, 18.2 % spread
    cur = t(SEQ, Op.READ, r(106))  # one run: says nothing about noise
    band, from_runs = noise_band(cur, base, Unit.MB_S)
    assert band == pytest.approx(20 / 110 * 100) and from_runs
    d = compare(sess(cur), sess(base)).delta(K_SEQ_R, Unit.MB_S)
    assert d.pct == pytest.approx(-11.67, abs=1e-2) and d.verdict == "same"
    assert noise_band(base, cur, Unit.MB_S) == (band, True)  # symmetric
    text = comparison_text(compare(sess(cur), sess(base)))
    assert "±18.2%" in text and "±3.0%" not in text
    # neither side has two passes: the default, marked as assumed
    band, from_runs = noise_band(cur, t(SEQ, Op.READ, r(100)), Unit.MB_S)
    assert band == DEFAULT_NOISE_PCT and not from_runs


def test_noise_band_is_per_unit():
    # bandwidth steady, latency scattered: the latency band is wider than the bandwidth band
    base = t(SEQ, Op.READ, r(100, lat_us=100), r(101, lat_us=140))
    cur = t(SEQ, Op.READ, r(100, lat_us=90), r(101, lat_us=91))
    c = compare(sess(cur), sess(base))
    lat, mb = c.delta(K_SEQ_R, Unit.US), c.delta(K_SEQ_R, Unit.MB_S)
    assert lat.noise_pct == pytest.approx(40 / 120 * 100)
    assert mb.noise_pct == pytest.approx(1 / 100.5 * 100)
    assert lat.pct == pytest.approx(-10.0) and lat.verdict == "same"  # 90 vs 100 µs within 33 %


def test_zero_baseline():
    assert judge(0, 0, Unit.MB_S, 3) == (0.0, "same")
    assert judge(5, 0, Unit.MB_S, 3) == (None, "better")
    assert judge(5, 0, Unit.US, 3) == (None, "worse")
    c = compare(sess(t(SEQ, Op.READ, r(5, iops=5))), sess(t(SEQ, Op.READ, r(5, iops=0))))
    d = c.delta(K_SEQ_R, Unit.IOPS)
    assert d.pct is None and d.verdict == "better" and d.worse_by == float("-inf")
    assert c.regressions(0) == []
    json.dumps(c.to_dict(), allow_nan=False)  # no NaN/inf leaks into JSON


# --- which tests -------------------------------------------------------------------------


def test_missing_and_unmeasured_tests():
    cur = sess(t(SEQ, Op.READ, r(100)), t(SEQ, Op.WRITE, r(50)),
               t(RND, Op.READ, index=3, error="fio failed"),
               t(SEQ, Op.MIX, r(70), mix=70))
    base = sess(t(SEQ, Op.READ, r(100)), t(RND, Op.READ, r(10), index=3),
                t(RND, Op.WRITE, r(9), index=3), t(SEQ, Op.MIX, r(60), mix=50))
    c = compare(cur, base, "b")
    assert [x.key for x in c.tests] == [K_SEQ_R]
    missing = {(m.key, m.side): m.reason for m in c.missing}
    assert missing == {
        (K_SEQ_W, "current"): "not run in the baseline",
        (K_RND_R, "baseline"): "current failed: fio failed",
        ("SEQ1M Q8T1/mix70", "current"): "not run in the baseline",
        ("RND4K Q1T1/write", "baseline"): "not run this time",
        ("SEQ1M Q8T1/mix50", "baseline"): "not run this time",
    }
    assert c.delta(K_SEQ_W, Unit.MB_S) is None and c.delta("nope", Unit.MB_S) is None
    text = comparison_text(c)
    assert "SEQ1M Q8T1 Write: only in this run (not run in the baseline)" in text
    assert "SEQ1M Q8T1 Mix R50/W50: only in baseline 'b' (not run this time)" in text


def test_mix_tests_compare_by_ratio():
    cur = sess(t(SEQ, Op.MIX, r(110), mix=70))
    base = sess(t(SEQ, Op.MIX, r(100), mix=70))
    c = compare(cur, base)
    assert c.delta("SEQ1M Q8T1/mix70", Unit.MB_S).verdict == "better"
    assert c.tests[0].title == "SEQ1M Q8T1 Mix R70/W30"


# --- settings ----------------------------------------------------------------------------


def test_same_settings_no_differences():
    c = compare(sess(t(SEQ, Op.READ, r(1))), sess(t(SEQ, Op.READ, r(1))))
    assert c.settings_differences == [] and c.other_differences == []


def test_settings_differences_in_plain_words():
    cur = sess(t(SEQ, Op.READ, r(1)), size=GIB, mode=Mode.READ, count=1, direct=False,
               data=DataPattern.ZEROS, mix=70, fstype="ext4", device="/dev/sda",
               model="WD Red", mount_options="rw,noatime", kernel="6.12.0",
               preset_name="NVMe SSD", profile_name="Peak", measure=1.0, interval=0.0,
               fio_version="fio-3.36")
    base = sess(t(SEQ, Op.READ, r(1)), size=16 * MIB, fstype="xfs", device="/dev/nvme0n1",
                model="Samsung 990")
    assert cur.settings.size == GIB and base.system.fstype == "xfs"
    diffs = compare(cur, base).settings_differences
    assert diffs == [
        "size 1GiB vs 16MiB",
        "preset NVMe SSD vs Default",
        "profile Peak vs Default",
        "mode Read only vs Read&Write",
        "mix R70/W30 vs none",
        "count 1 vs 5",
        "measure 1 s vs 5 s",
        "interval 0 s vs 5 s",
        "data zeros vs random",
        "buffered vs O_DIRECT",
        "filesystem ext4 vs xfs",
        "device /dev/sda vs /dev/nvme0n1",
        "model WD Red vs Samsung 990",
        "mount options rw,noatime vs rw,relatime",
    ]
    assert compare(base, cur).settings_differences[9] == "O_DIRECT vs buffered"
    assert compare(cur, base).other_differences == ["kernel 6.12.0 vs 6.1.0",
                                                    "fio fio-3.36 vs fio-3.33"]


def test_unknown_system_facts_are_named_unknown():
    diffs = compare(sess(t(SEQ, Op.READ, r(1)), model=""), sess(t(SEQ, Op.READ, r(1)))).settings_differences
    assert diffs == ["model unknown vs Samsung 990"]


# --- the gate ----------------------------------------------------------------------------


def _gate_pair() -> Comparison:
    cur = sess(t(SEQ, Op.READ, r(80, lat_us=100)),  # MB/s -20 %
               t(SEQ, Op.WRITE, r(100, lat_us=130)),  # latency +30 %
               t(RND, Op.READ, r(120, lat_us=50), index=3))  # everything better
    base = sess(t(SEQ, Op.READ, r(100, lat_us=100)), t(SEQ, Op.WRITE, r(100, lat_us=100)),
                t(RND, Op.READ, r(100, lat_us=100), index=3))
    return compare(cur, base, "base")


def test_regressions_by_direction():
    c = _gate_pair()
    found = {(x.key, x.unit): x.worse_by for x in c.regressions(10)}
    # latency +30 %: 1/latency is 23.1 % lower, which is how much worse it is
    assert found == {(K_SEQ_R, Unit.MB_S): pytest.approx(20), (K_SEQ_R, Unit.IOPS): pytest.approx(20),
                     (K_SEQ_W, Unit.US): pytest.approx(30 / 130 * 100)}
    assert {(x.key, x.unit) for x in c.regressions(21)} == {(K_SEQ_W, Unit.US)}
    assert c.regressions(24) == [] and c.regressions(1000) == []
    # a 2 % drop within the ±3 % noise reads "same", so a 1 % gate does not count it
    # (the table and the exit status agree); the gate names it as not counted instead
    small = compare(sess(t(SEQ, Op.READ, r(98))), sess(t(SEQ, Op.READ, r(100))))
    assert small.delta(K_SEQ_R, Unit.MB_S).verdict == "same"
    assert small.regressions(1) == []
    assert [x.unit for x in small.within_noise(1)] == [Unit.MB_S, Unit.IOPS]
    assert "SEQ1M Q8T1 Read MB/s: 100.00 -> 98.00 (-2.0%, 2.0% worse)" == \
        small.within_noise(1)[0].describe()
    verdict, lines = gate(small, 1)
    assert verdict == "pass" and any(line.startswith("not counted: 2 figures") for line in lines)


def test_one_rule_for_every_unit():
    """A read that fell 57 % is 57 % worse in MB/s, in IOPS and in µs (its latency +133 %):
    a 95 % gate passes it in every unit, a 50 % gate fails it in every unit."""
    cur = sess(t(SEQ, Op.READ, r(43, lat_us=100 / 0.43, iops=43)))
    base = sess(t(SEQ, Op.READ, r(100, lat_us=100, iops=100)))
    c = compare(cur, base, "base")
    worse = {u: c.delta(K_SEQ_R, u).worse_by for u in (Unit.MB_S, Unit.IOPS, Unit.US)}
    assert worse == {u: pytest.approx(57) for u in worse}
    assert c.delta(K_SEQ_R, Unit.US).pct == pytest.approx(132.56, abs=1e-2)
    assert gate(c, 95)[0] == "pass"
    assert {x.unit for x in c.regressions(50)} == {Unit.MB_S, Unit.IOPS, Unit.US}
    # the verdict is symmetric too: 3 % less in MB/s and 3 % more latency-per-IO read alike
    lat = compare(sess(t(SEQ, Op.READ, r(100, lat_us=100 / 0.971))), sess(t(SEQ, Op.READ, r(100))))
    assert lat.delta(K_SEQ_R, Unit.US).verdict == "same"
    assert judge(100 / 0.969, 100, Unit.US, 3)[1] == judge(96.9, 100, Unit.MB_S, 3)[1] == "worse"


def test_gate_messages():
    verdict, lines = gate(_gate_pair(), 10, "baseline 'base'")
    assert verdict == "fail"
    assert lines[0] == "regression: 3 figures worse than baseline 'base' by more than 10%:"
    assert "  SEQ1M Q8T1 Write µs: 100.00 -> 130.00 (+30.0%, 23.1% worse)" in lines
    assert gate(_gate_pair(), 50)[0] == "pass"
    nothing = compare(sess(t(SEQ, Op.WRITE, r(1))), sess(t(SEQ, Op.READ, r(1))))
    assert gate(nothing, 5)[0] == "nothing"


# --- renderings --------------------------------------------------------------------------


def test_to_dict_is_json():
    c = _gate_pair()
    d = json.loads(json.dumps(c.to_dict(), allow_nan=False))
    assert d["baseline_name"] == "base"
    assert d["summary"] == {"better": 1, "worse": 1, "same": 1}
    first = d["tests"][0]
    assert first["key"] == K_SEQ_R and first["kind"] == "read" and first["label"] == "SEQ1M Q8T1"
    assert set(first["units"]) == {"mb_s", "gb_s", "iops", "lat_us"}
    assert first["units"]["mb_s"] == {"current": 80, "baseline": 100, "pct": pytest.approx(-20),
                                      "verdict": "worse", "noise_pct": 3.0,
                                      "noise_from_runs": False}
    assert d["settings_differences"] == [] and d["missing"] == []


def test_comparison_text_table():
    cur = sess(t(SEQ, Op.READ, r(80, lat_us=100)), size=16 * MIB)
    base = sess(t(SEQ, Op.READ, r(100, lat_us=100)))
    text = comparison_text(compare(cur, base, "new NVMe"))
    assert "against baseline 'new NVMe'" in text
    header = next(line for line in text.splitlines() if line.startswith("Test"))
    assert header.split() == ["Test", "Unit", "Baseline", "Current", "Delta", "Noise", "Verdict"]
    rows = [line.split() for line in text.splitlines() if "±" in line]
    assert rows[0][-6:] == ["MB/s", "100.00", "80.00", "-20.0%", "±3.0%*", "WORSE"]
    assert rows[1][-6:] == ["IOPS", "100.00", "80.00", "-20.0%", "±3.0%*", "WORSE"]
    assert rows[2][-6:] == ["µs", "100.00", "100.00", "+0.0%", "±3.0%*", "same"]
    assert "! Settings differ (this run vs baseline 'new NVMe')" in text
    assert "!   size 16MiB vs 1GiB" in text
    md = comparison_markdown(compare(cur, base, "new NVMe"))
    assert "| SEQ1M Q8T1 Read | MB/s | 100.00 | 80.00 | -20.0% | worse |" in md
    assert "**Settings differ**" in md


def test_help_and_readme_state_the_rule():
    from pathlib import Path

    from diskmark.cli.parser import build_parser

    parser = build_parser()
    run = parser._subparsers._group_actions[0].choices["run"]  # type: ignore[union-attr]
    text = " ".join(run.format_help().split())
    assert "twice the latency is 50% worse" in text and "X% worse means" in text
    readme = " ".join((Path(__file__).parents[2] / "docs" / "baselines.md").read_text().split())
    assert "X% worse means the figure delivers X% less" in readme


def test_a_band_of_100_percent_or_more_does_not_call_a_97_percent_fall_same():
    """Two baseline passes 107.1 % apart (range over mean) and a one-pass run 97.3 % below
    the best of them: the band is wide, but the pair is wider still (189 % by the same
    measure), so every view says worse and the gate fails, as its message says."""
    ratio = (2 + 1.071) / (2 - 1.071)  # two passes whose R/Avg is 107.1 %
    base = t(SEQ, Op.READ, r(100.0), r(100.0 * ratio))
    cur = t(SEQ, Op.READ, r(100.0 * ratio * 0.027))
    c = compare(sess(cur), sess(base), "B")
    d = c.delta(K_SEQ_R, Unit.MB_S)
    assert d.noise_pct == pytest.approx(107.1) and d.noise_from_runs
    assert d.pct == pytest.approx(-97.3) and d.verdict == "worse"
    row = next(line for line in comparison_text(c).splitlines() if "SEQ1M Q8T1" in line)
    assert "-97.3%" in row and "±107.1%" in row and row.endswith("WORSE")
    verdict, lines = gate(c, 1, "baseline 'B'")
    assert verdict == "fail" and "97.3% worse" in "\n".join(lines)
    # a fall no larger than the passes' own (they fell 70 %) is still noise
    within = compare(sess(t(SEQ, Op.READ, r(100.0 * ratio * 0.35))), sess(base), "B")
    assert within.delta(K_SEQ_R, Unit.MB_S).verdict == "same"
    assert gate(within, 1)[0] == "pass"


def test_a_baseline_without_latency_gets_no_latency_verdict():
    """CrystalDiskMark 5 and 6 write no latency: an import keeps 0, which is no figure, so
    the µs row is left out rather than judged "worse" against nothing."""
    base = sess(t(SEQ, Op.READ, r(100.0, lat_us=0.0)), origin="CrystalDiskMark 6.0.2")
    c = compare(sess(t(SEQ, Op.READ, r(120.0, lat_us=80.0))), base, "windows")
    assert c.delta(K_SEQ_R, Unit.US) is None
    assert c.delta(K_SEQ_R, Unit.MB_S).verdict == "better"
    assert c.regressions(1.0) == []
    text = comparison_text(c)
    assert Unit.US.label not in text.split("Test", 1)[1].split("Same =")[0].split()
    assert "the baseline was measured by CrystalDiskMark 6.0.2" in text
    assert "filesystem" not in text and "kernel" not in text, "no facts a file cannot know"
