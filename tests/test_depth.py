"""Measurement depth (issue 5) on real fio and real files: percentiles, per-second samples,
stability, flush time with Dirty/Writeback, extents, and the queue-depth sweep."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess

import pytest

from diskmark.engine import Engine
from diskmark.engine.fileinfo import extents, fragments, meminfo
from diskmark.model import (MIB, SWEEP_DEPTHS, Mode, Op, Phase, Progress, RunResult, Settings,
                            Status, TestResult, TestSpec, Unit)
from diskmark.report import curve_report, text_report


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
    assert shaky.unstable() == "runs differ by 9%"
    assert shaky.unstable(threshold_pct=10) is None
    throttled = RunResult(100, 100, 1, 1, 5000, bw_samples=[500, 510, 490, 200, 505])
    assert throttled.dips() == [(4, 200)]
    t = TestResult(0, spec, Op.WRITE, runs=[throttled])
    assert t.dips() == ["pass 1: 1 s below 70% of the median (lowest 200.0 MB/s at 4 s)"]


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
    from diskmark.engine.runner import _faster_than_link
    from diskmark.model import SystemFacts

    sata = SystemFacts(interface="SATA 6.0 Gb/s", interface_mb_s=600.0)
    spec = TestSpec("SEQ", MIB, 8, 1)
    fast = TestResult(0, spec, Op.READ, runs=[RunResult(2400, 2300, 1, 1, 1000)])
    fine = TestResult(0, spec, Op.READ, runs=[RunResult(560, 530, 1, 1, 1000)])
    assert "faster than the SATA 6.0 Gb/s link can carry (600 MB/s)" in _faster_than_link(fast, sata)
    assert _faster_than_link(fine, sata) is None
    assert _faster_than_link(fast, SystemFacts()) is None  # unknown link: say nothing
