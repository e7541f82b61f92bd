"""Measurement depth (issue 5) on real fio and real files: percentiles, per-second samples,
stability, flush time with Dirty/Writeback, extents, and the queue-depth sweep."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess

import pytest

from diskmark.engine.fileinfo import extents, fragments, meminfo
from diskmark.engine.runner import Engine
from diskmark.model.events import Phase, Progress
from diskmark.model.notes import dip_notes, unstable_text
from diskmark.model.results import RunResult, Status, TestResult, TestSpec
from diskmark.model.settings import DIP_THRESHOLD_PCT, SWEEP_DEPTHS, Mode, Op, Settings
from diskmark.model.units import MIB, Unit
from diskmark.report.cdm_report import text_report
from diskmark.report.text import curve_report, describe_progress


def run(settings, on_event=None):
    return asyncio.run(Engine().run(settings, on_event))


def test_every_pass_has_percentiles_and_one_sample_per_second(tmp_path):
    session = run(Settings(target=str(tmp_path), size=16 * MIB, count=2, measure=3, interval=0,
                           only_test=2, mode=Mode.READ))
    assert session.status is Status.COMPLETE, session.error
    test = session.tests[0]
    for r in test.runs:
        pct = [r.lat_percentiles[k] for k in ("50", "90", "99", "99.9", "99.99", "max")]
        assert pct == sorted(pct) and pct[0] > 0
        assert len(r.bw_samples) in (2, 3, 4), r.bw_samples  # a 3-second measure
        assert all(v > 0 for v in r.bw_samples)
    d = session.to_dict()["tests"][0]
    assert d["runs"][0]["lat_percentiles"]["99.9"] > 0 and d["runs"][0]["bw_samples"]
    assert d["stats"]["mb_s"]["r_avg_pct"] >= 0


def test_unstable_marker_and_dips_from_constructed_results():
    spec = TestSpec("SEQ", MIB, 8, 1)
    steady = TestResult(0, spec, Op.READ, runs=[RunResult(100, 100, 1, 1, 1000),
                                                RunResult(103, 100, 1, 1, 1000)])
    assert steady.unstable() is None
    shaky = TestResult(0, spec, Op.READ, runs=[RunResult(100, 100, 1, 1, 1000),
                                               RunResult(91, 100, 1, 1, 1000)])
    assert unstable_text(shaky.unstable()) == "runs differ by 9%"
    assert shaky.unstable(threshold_pct=10) is None
    shaky.unstable_pct = 10  # the threshold the test ran with, kept through a save and load
    assert shaky.unstable() is None
    loaded = TestResult.from_dict(shaky.to_dict())
    assert loaded.unstable_pct == 10 and loaded.unstable() is None
    assert unstable_text(loaded.unstable(threshold_pct=5)) == "runs differ by 9%"
    throttled = RunResult(100, 100, 1, 1, 5000, bw_samples=[500, 510, 490, 200, 505])
    assert throttled.dips() == [(4, 200)]
    t = TestResult(0, spec, Op.WRITE, runs=[throttled])
    assert dip_notes(t.dips(), DIP_THRESHOLD_PCT) == [
        "pass 1: 1 s below 70% of the median (lowest 200.0 MB/s at 4 s)"]


def test_buffered_write_reports_sync_time_and_dirty_pages(tmp_path):
    seen = []

    def on_event(e):
        if isinstance(e, Progress) and e.phase is Phase.SYNC:
            seen.append(e)

    session = run(Settings(target=str(tmp_path), size=64 * MIB, count=1, measure=2, interval=0,
                           only_test=0, mode=Mode.WRITE, direct=False), on_event)
    assert session.status is Status.COMPLETE, session.error
    test = session.tests[0]
    assert test.sync_seconds is not None and test.sync_seconds >= 0
    assert seen and all(e.dirty_bytes is not None and e.writeback_bytes is not None for e in seen)
    # the most seen while flushing is kept with the result (and in its JSON)
    assert test.sync_dirty_bytes == max(e.dirty_bytes for e in seen)
    assert test.sync_writeback_bytes == max(e.writeback_bytes for e in seen)
    d = test.to_dict()
    assert d["sync_dirty_bytes"] == test.sync_dirty_bytes and d["sync_seconds"] == test.sync_seconds
    assert "Dirty" in describe_progress(seen[0]) and "Writeback" in describe_progress(seen[0])
    assert "sync" in text_report(session)
    mem = meminfo()
    assert set(mem) == {"Dirty", "Writeback"} and all(v >= 0 for v in mem.values())


def test_extents_are_counted_on_a_deliberately_fragmented_file(tmp_path):
    a, b = tmp_path / "a.bin", tmp_path / "b.bin"
    chunk = os.urandom(64 * 1024)
    with open(a, "wb") as fa, open(b, "wb") as fb:
        for _ in range(32):  # interleave appends, syncing each, so the allocator must split a
            for f in (fa, fb):
                f.write(chunk)
                f.flush()
                os.fsync(f.fileno())
    exts = extents(a)
    if exts is None:
        pytest.skip(f"no FIEMAP on the filesystem of {tmp_path}")
    assert sum(e.length for e in exts) == 32 * 64 * 1024
    assert len(exts) > 1 and fragments(exts) > 1, "interleaved appends should fragment the file"
    if shutil.which("filefrag"):
        out = subprocess.run(["filefrag", str(a)], capture_output=True, text=True).stdout
        assert int(re.search(r"(\d+) extents? found", out).group(1)) == len(exts)
    contiguous = tmp_path / "c.bin"
    contiguous.write_bytes(os.urandom(256 * 1024))
    os.sync()
    assert fragments(extents(contiguous)) == 1


def test_sweep_gives_one_point_per_depth(tmp_path):
    session = run(Settings(target=str(tmp_path), size=16 * MIB, count=1, measure=1, interval=0,
                           sweep="RND4K", mode=Mode.READ))
    assert session.status is Status.COMPLETE, session.error
    assert [t.spec.queues for t in session.tests] == list(SWEEP_DEPTHS)
    assert all(t.best_iops > 0 for t in session.tests)
    curve = curve_report(session, Unit.IOPS)
    assert len([ln for ln in curve.splitlines() if ln.strip().startswith("Q")]) == len(SWEEP_DEPTHS)
    assert session.test_file is not None and session.test_file.extents >= 1


def test_a_figure_faster_than_the_link_is_flagged():
    from diskmark.engine.fileinfo import faster_than_link as _faster_than_link
    from diskmark.model.facts import SystemFacts

    sata = SystemFacts(interface="SATA 6.0 Gb/s", interface_mb_s=600.0)
    spec = TestSpec("SEQ", MIB, 8, 1)
    fast = TestResult(0, spec, Op.READ, runs=[RunResult(2400, 2300, 1, 1, 1000)])
    fine = TestResult(0, spec, Op.READ, runs=[RunResult(560, 530, 1, 1, 1000)])
    assert "faster than the SATA 6.0 Gb/s link can carry (600 MB/s)" in _faster_than_link(fast, sata).english()
    assert _faster_than_link(fine, sata) is None
    assert _faster_than_link(fast, SystemFacts()) is None  # unknown link: say nothing


def test_json_carries_every_depth_field_from_a_real_run(tmp_path):
    """`diskmark run --format json`: percentiles, per-second samples, spread and the unstable
    verdict, dips, flush time with Dirty/Writeback, the test file's extents, the I/O mode."""
    import json
    import sys

    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(tmp_path),
                          "--size", "16MiB", "--count", "2", "--measure", "3", "--interval", "0",
                          "--profile", "demo", "--format", "json", "--quiet"],
                         capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["io"] == "direct" and isinstance(data["warnings"], list)
    layout = data["test_file"]
    assert layout["extents"] >= 1 and layout["fragmented"] is (layout["fragments"] > 1)
    assert 0 <= layout["start_fraction"] <= 1
    for t in data["tests"]:
        assert t["unstable_threshold_pct"] == 5.0
        assert (t["unstable"] is None) == (t["stats"]["mb_s"]["r_avg_pct"] <= 5.0)
        assert isinstance(t["dips"], list)
        for r in t["runs"]:
            pct = [r["lat_percentiles"][k] for k in ("50", "90", "99", "99.9", "99.99", "max")]
            assert pct == sorted(pct) and pct[0] > 0
            assert 2 <= len(r["bw_samples"]) <= 4 and isinstance(r["dips"], list)
    write = next(t for t in data["tests"] if t["kind"] == "write")
    assert write["sync_seconds"] >= 0
    assert write["sync_dirty_bytes"] is not None and write["sync_writeback_bytes"] is not None
    assert not list(tmp_path.glob(".diskmark-*"))


def test_dips_are_located_and_sized_and_kept_in_json():
    run = RunResult(100, 100, 1, 1, 6000, bw_samples=[400, 410, 100, 405, 395, 190])
    assert run.bw_median == 397.5
    assert run.dips() == [(3, 100), (6, 190)]
    assert round(run.dip_depth_pct(100)) == 75
    d = run.to_dict()
    assert [(x["second"], round(x["below_median_pct"])) for x in d["dips"]] == [(3, 75), (6, 52)]
    assert RunResult.from_dict(d) == run  # derived fields are not read back
    assert RunResult(1, 1, 1, 1, 1, bw_samples=[10, 1]).dips() == []  # too short to judge
