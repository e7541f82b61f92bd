"""When the CPU, not the drive, set a figure: the rule on its own, and on real fio runs."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import subprocess
import sys

import pytest
from mounts import can_loop_mount, tmpfs_mount

from diskmark.engine.runner import Engine
from diskmark.model.notes import cpu_limit_text
from diskmark.model.results import RunResult, Status
from diskmark.model.settings import Settings
from diskmark.model.units import MIB
from diskmark.report.cdm_report import FACTS_TITLE, text_report
from diskmark.report.text import csv_report, grid_report


def run(**kw) -> RunResult:
    return RunResult(mb_s=1.0, iops=1.0, lat_us=1.0, io_bytes=1, runtime_ms=1000, **kw)


def test_a_saturated_thread_is_cpu_limited():
    limit = run(usr_cpu=20.0, sys_cpu=75.0).cpu_limit(1, 8)
    assert cpu_limit_text(limit) == "fio's thread was busy 95% of the time"
    assert run(usr_cpu=20.0, sys_cpu=60.0).cpu_limit(1, 8) is None


def test_a_busy_machine_limits_only_a_pass_that_wanted_cpu():
    # more threads than cores, on a saturated machine: fio's own figure undercounts
    assert "16 threads on 2 cores" in cpu_limit_text(run(usr_cpu=1.0, sys_cpu=5.0,
                                                         machine_busy_pct=97.0).cpu_limit(16, 2))
    assert "busy 97%" in cpu_limit_text(run(usr_cpu=10.0, sys_cpu=30.0,
                                            machine_busy_pct=97.0).cpu_limit(1, 2))
    # a disk-bound pass (its thread mostly waits) is not the CPU's doing, busy machine or not
    assert run(usr_cpu=1.0, sys_cpu=2.0, machine_busy_pct=99.0).cpu_limit(1, 2) is None
    assert run(usr_cpu=30.0, sys_cpu=30.0, machine_busy_pct=60.0).cpu_limit(1, 2) is None
    # twice as many threads as cores or more: a machine 70 % busy already held them back
    assert "busy 75%" in cpu_limit_text(run(usr_cpu=1.0, sys_cpu=5.0,
                                            machine_busy_pct=75.0).cpu_limit(16, 2))
    assert run(usr_cpu=1.0, sys_cpu=5.0, machine_busy_pct=65.0).cpu_limit(16, 2) is None
    assert run(usr_cpu=30.0, sys_cpu=30.0, machine_busy_pct=75.0).cpu_limit(3, 2) is None


def test_nothing_known_is_no_verdict():
    assert run().cpu_limit(4, 2) is None


@pytest.mark.serial
def test_sixteen_threads_on_few_cores_are_marked_everywhere(tmp_path):
    """The NVMe preset's RND4K Q32T16 on a small machine (CI has 2 cores) on a memory disk:
    fio cannot get the CPU it needs, and every view says so."""
    cpus = len(os.sched_getaffinity(0))
    if cpus >= 8:
        pytest.skip(f"{cpus} cores: 16 threads need not saturate this machine")
    ok, reason = can_loop_mount("tmpfs")
    if not ok:
        pytest.skip(f"tmpfs unavailable: {reason}")
    with tmpfs_mount(tmp_path, size_mib=96) as mnt:
        session = asyncio.run(Engine().run(Settings(
            target=str(mnt), preset="nvme", only_test=2, size=32 * MIB, count=1, measure=2,
            interval=0)))
        assert session.status is Status.COMPLETE, session.error
        assert session.system.cpus == cpus
        for t in session.tests:
            assert t.spec.threads == 16
            assert t.cpu_limited and "16 threads" in t.cpu_limited, t.cpu_limited
            for r in [*t.runs, t.warmup]:
                assert r.usr_cpu is not None and r.sys_cpu is not None
                assert r.machine_busy_pct is not None and 0 <= r.machine_busy_pct <= 100
        text = text_report(session)
        cdm, facts = text.split(FACTS_TITLE)
        assert "CPU" not in cdm and "CPU-LIMITED, " in facts, "no mark on a result line"
        assert "*" in grid_report(session).splitlines()[1]
        row = next(csv.DictReader(io.StringIO(csv_report(session))))
        assert row["cpu_limited"] == "1", row


def test_json_carries_cpu_use_for_every_pass(tmp_path):
    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(tmp_path),
                          "--profile", "demo", "--size", "16MiB", "--count", "2", "--measure", "1",
                          "--interval", "0", "--format", "json"], capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["system"]["cpus"] >= 1 and doc["ioengine"] in ("libaio", "io_uring")
    for t in doc["tests"]:
        assert "cpu_limited" in t
        for r in t["runs"] + [t["warmup"]]:
            assert r["usr_cpu"] >= 0 and r["sys_cpu"] >= 0 and r["machine_busy_pct"] >= 0
