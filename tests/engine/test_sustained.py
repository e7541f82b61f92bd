"""The sustained profile: one long write drawn over time, and its knee.

The knee is found by a pure function (diskmark.model.knee), tested here on MB/s series captured
from real runs (tests/fixtures/sustained_*.json, made by the two real runs at the end of
this file: a buffered write into a slow disk, which falls once the page cache's dirty limit
is reached, and an O_DIRECT write to a memory-backed disk, which holds). The real runs are
marked slow.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import fio_processes, leftovers

from diskmark.engine.plan import build_plan, run_args, sustained_args
from diskmark.engine.runner import Engine
from diskmark.model.events import Phase, Progress
from diskmark.model.knee import KNEE_RATIO, find_knee
from diskmark.model.results import SessionResult, Status
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.sustained_write import Sustained, bin_seconds, bins
from diskmark.model.units import GIB, MIB
from diskmark.presets import load_catalog
from diskmark.report.cdm_report import text_report
from diskmark.store.schema import validate_result

FIXTURES = Path(__file__).parents[1] / "fixtures"


def series(name: str) -> tuple[list[float], float]:
    data = json.loads((FIXTURES / f"sustained_{name}.json").read_text())
    return data["mb_s"], data["bin_s"]


# --- the knee, on captured series --------------------------------------------------------------


def test_knee_found_where_a_buffered_write_hit_the_dirty_limit():
    mb_s, bin_s = series("buffered_knee")
    knee = find_knee(mb_s, bin_s)
    assert knee is not None
    assert knee.after_mb_s < KNEE_RATIO * knee.before_mb_s
    # the captured run wrote about 400 MB/s into the page cache (a 2-core machine's fio)
    # until about 1 GiB was dirty (dirty_bytes 1 GiB, background 512 MiB), then about as
    # fast as the throttled disk (96 MiB/s, 100 MB/s) took it
    assert 768 * MIB < knee.written_bytes < 1.25 * GIB, knee
    assert knee.before_mb_s > 300 and 50 < knee.after_mb_s < 150, knee
    assert 1 < knee.seconds < 4, knee


def test_no_knee_on_a_steady_direct_write():
    mb_s, bin_s = series("direct_steady")
    assert find_knee(mb_s, bin_s) is None


def test_a_knee_moved_by_a_few_wild_bins_stays_put():
    """A step fit on a running median, not a threshold: a burst after the knee and a slow
    bin before it move it little (this real knee is a ramp of about a second: the kernel
    slows a writer gradually between the background and the hard dirty limit)."""
    mb_s, bin_s = series("buffered_knee")
    knee = find_knee(mb_s, bin_s)
    assert knee is not None
    k = round(knee.seconds / bin_s)
    noisy = list(mb_s)
    noisy[k + 3] = knee.before_mb_s  # one bin back at cache speed
    noisy[k - 1 - (k > 3)] = knee.after_mb_s  # one slow bin before
    moved = find_knee(noisy, bin_s)
    assert moved is not None and abs(moved.seconds - knee.seconds) <= 1.0, (moved, knee)


def test_no_knee_when_the_drop_is_small_brief_or_a_rise():
    steady, bin_s = series("direct_steady")
    level = sum(steady) / len(steady)
    assert find_knee([level] * 30 + [level * 0.8] * 30, 0.5) is None  # 80%: too small
    assert find_knee([level] * 100 + [level * 0.2] * 2, 0.5) is None  # the last bins only
    assert find_knee([level] * 57 + [level * 0.13] * 3, 0.1) is None  # its last 0.3 s only
    assert find_knee([level * 0.2] * 20 + [level] * 80, 0.5) is None  # a slow start
    assert find_knee([level] * 40 + [level * 0.3, level] * 20, 0.5) is None  # does not last
    assert find_knee([], 0.5) is None and find_knee([level] * 4, 0.5) is None


def test_knee_on_a_cliff_reports_bytes_and_levels():
    knee = find_knee([2000.0] * 20 + [400.0] * 100, 0.5)
    assert knee is not None
    assert knee.seconds == 10.0
    assert knee.written_bytes == 20 * 2000 * 0.5 * 1e6
    assert (knee.before_mb_s, knee.after_mb_s) == (2000.0, 400.0)
    assert knee.after_pct == 20.0


# --- the series -----------------------------------------------------------------------------------


def test_bins_read_bytes_at_each_edge_off_the_line_between_points():
    # 100 MB/s for 1 s, then 50 MB/s; status objects off the bin edges
    points = [(0.0, 0), (300.0, 30_000_000), (1000.0, 100_000_000), (1700.0, 135_000_000),
              (2000.0, 150_000_000)]
    assert bins(points, 0.5) == pytest.approx([100.0, 100.0, 50.0, 50.0])
    assert bins(points, 1.0) == pytest.approx([100.0, 50.0])
    assert bins(points + [(2100.0, 155_000_000)], 0.5) == pytest.approx([100, 100, 50, 50])
    assert bins([(0.0, 0)], 0.5) == []


def test_bin_width_keeps_about_120_bins():
    assert bin_seconds(60) == 0.5
    assert bin_seconds(5) == 0.1
    assert bin_seconds(600) == 5
    assert bin_seconds(3600) == 30


def test_sustained_round_trip_and_saved_check():
    mb_s, bin_s = series("buffered_knee")
    points = [(0.0, 0)]
    for v in mb_s:
        points.append((points[-1][0] + bin_s * 1000, points[-1][1] + int(v * bin_s * 1e6)))
    sus = Sustained.measured(points, duration_s=len(mb_s) * bin_s, amount=None)
    again = Sustained.from_dict(json.loads(json.dumps(sus.to_dict())))
    assert again == sus and again.knee is not None


def test_text_chart_draws_the_fall_and_marks_the_knee():
    from diskmark.report.sustained_chart import chart_lines

    lines = chart_lines([1200.0] * 10 + [60.0] * 50, 0.5, 5.0, width=30, height=4)
    assert lines[0] == "  MB/s over 30.0 s (a column is 1 s; ^ the knee)"
    assert lines[1] == "  1200 |#####"  # 10 bins at 1200 MB/s, two to a column
    assert lines[4] == "       |#####" + "." * 25  # the rest above zero, below a row
    assert lines[5] == "     0 +" + "-" * 30
    assert lines[6] == "        " + " " * 5 + "^ 5.0 s"
    assert chart_lines([], 0.5, None) == []


# --- the plan ---------------------------------------------------------------------------------


def _plan(**kw):
    preset = load_catalog().get("default")
    return build_plan(preset, Settings(target=".", profile="sustained", **kw))


def test_every_builtin_preset_offers_the_sustained_profile():
    for preset in load_catalog().presets.values():
        if preset.source == "built-in":
            assert preset.profile("sustained").layout == "sustained"


def test_sustained_plan_is_one_write_for_the_duration_or_the_amount():
    plan = _plan(duration=90, amount=32 * GIB)
    assert plan.sustained and [t.op for t in plan.tests] == [Op.WRITE]
    args = sustained_args("fio", plan, plan.tests[0])
    # bounded by the amount and the runtime, whichever first: not time-based
    assert "--runtime=90s" in args and "--rw=write" in args and "--time_based" not in args
    assert f"--io_size={32 * GIB}" in args
    assert "--status-interval=100ms" in args
    shown = run_args("fio", plan, plan.tests[0])  # the command a user can run by hand
    assert "--status-interval=1" in shown and f"--io_size={32 * GIB}" in shown
    timed = sustained_args("fio", _plan(), plan.tests[0])
    assert "--time_based" in timed and "--runtime=60s" in timed
    assert not any(a.startswith("--io_size") for a in timed)
    assert plan.total_seconds() < 91


def test_sustained_refuses_read_only_mode():
    with pytest.raises(ValueError, match="only writes"):
        _plan(mode=Mode.READ)


# --- the report and the saved result ---------------------------------------------------------


def _session(name: str) -> SessionResult:
    data = json.loads((FIXTURES / f"sustained_{name}.json").read_text())
    return SessionResult.from_dict(data["result"])


def test_report_names_the_knee_and_the_json_keeps_the_series():
    session = _session("buffered_knee")
    text = text_report(session)
    knee = session.tests[0].sustained.knee
    assert "[Sustained] SEQ1M Q8T1 write" in text
    assert "Knee after " in text and " MB/s before, " in text, text
    assert "Time: Write for " in text and "(x" not in text.split("Profile:")[1]
    d = session.to_dict()
    assert d["tests"][0]["sustained"]["knee"]["seconds"] == knee.seconds
    assert d["tests"][0]["dips"] == []  # its fall is its knee
    assert validate_result(json.loads(json.dumps(d))).tests[0].sustained == session.tests[0].sustained


def test_history_keeps_a_sustained_write_apart_from_the_cdm_test_of_its_shape():
    """One long average must not join the best-of-N trend (or headline) of SEQ1M Q8T1 write."""
    from diskmark.store.indexed import measured_figures

    d = _session("direct_steady").to_dict()
    assert [f[:2] for f in measured_figures(d)] == [("SEQ1M Q8T1 sustained", "write")]
    for t in d["tests"]:
        t["sustained"] = None
    assert [f[:2] for f in measured_figures(d)] == [("SEQ1M Q8T1", "write")]


def test_report_says_steady_without_a_knee():
    text = text_report(_session("direct_steady"))
    assert "No knee: steady at " in text


def test_a_result_without_the_sustained_field_still_loads():
    d = _session("direct_steady").to_dict()
    for t in d["tests"]:
        del t["sustained"]
    assert validate_result(d).tests[0].sustained is None


def test_saved_check_names_a_damaged_series():
    d = _session("buffered_knee").to_dict()
    d["tests"][0]["sustained"]["mb_s"][3] = "fast"
    with pytest.raises(ValueError, match="sustained mb_s bin 3"):
        validate_result(d)


# --- real runs ----------------------------------------------------------------------------------


def _need_root_loop():
    from mounts import can_loop_mount

    ok, reason = can_loop_mount("ext4")
    if not ok:
        pytest.skip(f"ext4 on a loop device unavailable: {reason}")


def _into_group(procs: Path | None):
    """Put this process in the capped group (cgroup v2), returning how to leave it."""
    if procs is None:
        return lambda: None
    home = Path("/sys/fs/cgroup") / Path(
        open("/proc/self/cgroup").read().strip().split("::", 1)[1]).relative_to("/")
    procs.write_text(f"{os.getpid()}\n")
    return lambda: (home / "cgroup.procs").write_text(f"{os.getpid()}\n")


@pytest.mark.slow
@pytest.mark.serial
@pytest.mark.needs("mkfs.ext4")
def test_real_buffered_write_into_a_slow_disk_has_a_knee(tmp_path, no_leftovers):
    """Through the page cache into an ext4 whose device writes 96 MiB/s: fio writes at
    memory speed until the kernel holds it back, then no faster than the disk takes it.
    That happens at about dirty_bytes (1 GiB), or earlier: a new device's own share of the
    dirty limit starts small, and writeback from 512 MiB on costs a 2-core machine's fio
    CPU; either way it is a real knee, which is what this test asks for."""
    _need_root_loop()
    from faults import dirty_limits, majmin, writeback_throttle
    from mounts import loop_mount, tmpfs_mount

    rate = 96 * MIB
    with tmpfs_mount(tmp_path, size_mib=2600, name="ram") as ram, \
            loop_mount(ram, "ext4", size_mib=2400) as mnt, \
            dirty_limits(GIB, GIB // 2):
        no_leftovers.append(mnt)
        try:
            throttle = writeback_throttle(majmin(mnt), rate)
            procs, lift = throttle.__enter__()
        except (RuntimeError, OSError) as e:
            pytest.skip(f"cannot make a slow disk: {e}")
        leave = _into_group(procs)
        try:
            def on_event(event) -> None:
                if isinstance(event, Progress) and event.phase is Phase.SYNC:
                    lift()  # the flush afterwards need not take a minute

            settings = Settings(target=str(mnt), profile="sustained", direct=False,
                                duration=8, size=2 * GIB, interval=0)
            session = asyncio.run(Engine().run(settings, on_event))
        finally:
            leave()
            throttle.__exit__(None, None, None)
    assert session.status is Status.COMPLETE, session.error
    sus = session.tests[0].sustained
    _capture("buffered_knee", session)
    assert sus.knee is not None, f"no knee in {sus.mb_s}"
    knee = sus.knee
    assert knee.after_mb_s < KNEE_RATIO * knee.before_mb_s
    assert 256 * MIB < knee.written_bytes < 1.5 * GIB, knee  # at most about dirty_bytes
    assert knee.after_mb_s < 2 * rate / 1e6, knee  # the disk's speed, not memory's


@pytest.mark.slow
@pytest.mark.serial
@pytest.mark.needs("mkfs.ext4")
def test_real_direct_write_to_a_memory_disk_is_steady(tmp_path, no_leftovers):
    """O_DIRECT to an ext4 on a memory-backed loop device, through the command line:
    nothing fills up, so no knee; the JSON has the series and says so."""
    _need_root_loop()
    from mounts import loop_mount, tmpfs_mount

    with tmpfs_mount(tmp_path, size_mib=700, name="ram") as ram, \
            loop_mount(ram, "ext4", size_mib=600) as mnt:
        no_leftovers.append(mnt)
        out = subprocess.run(
            [sys.executable, "-m", "diskmark", "run", "--target", str(mnt), "--profile",
             "sustained", "--duration", "6", "--size", "256MiB", "--format", "json", "-q"],
            capture_output=True, text=True, timeout=60)
        assert fio_processes(mnt) == [] and leftovers(mnt) == []
    assert out.returncode == 0, out.stderr
    d = json.loads(out.stdout)
    sus = d["tests"][0]["sustained"]
    assert sus["knee"] is None, sus["mb_s"]
    assert sus["bin_s"] == 0.1 and len(sus["mb_s"]) >= 50
    assert sus["steady_mb_s"] > 100
    _capture("direct_steady", SessionResult.from_dict(d))


@pytest.mark.slow
async def test_app_runs_the_sustained_profile_and_shows_its_course(tmp_path, monkeypatch):
    """In the app: one Write tile; after the run, Enter on it shows MB/s over time and the
    knee, or the steady level."""
    from conftest import wait_until

    from diskmark.app.app import DiskmarkApp
    from diskmark.app.screens.details import DetailsScreen
    from diskmark.app.screens.setup_words import describe_setup

    monkeypatch.delenv("NO_COLOR", raising=False)
    target = tmp_path / "target"
    target.mkdir()
    settings = Settings(target=str(target), profile="sustained", size=64 * MIB, duration=3,
                        interval=0)
    app = DiskmarkApp(settings=settings, persist=False)
    async with app.run_test(size=(120, 40)) as pilot:
        assert [t.op for t in app.main.grid.tiles] == [Op.WRITE]
        await pilot.click("#all")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 60, "the run to end")
        await pilot.pause()
        tile = app.main.grid.tiles[0]
        assert tile.result is not None and tile.result.sustained is not None
        assert "write 3 s" in describe_setup(app.state)
        tile.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailsScreen), 5, "details")
        text = str(app.screen.query_one("#knee").render())
        assert "Wrote " in text and ("Knee after " in text or "No knee: steady at" in text), text
        assert app.screen.query_one("#chart").text.strip()
        verdict = str(app.screen.query_one(".details-verdict").render())
        assert "one write of 3 s" in verdict and "best of" not in verdict, verdict
        assert not app.screen.query("#stability"), "a single write has no spread of passes"
    assert leftovers(target) == []


def _capture(name: str, session: SessionResult) -> None:
    """DISKMARK_CAPTURE=1 keeps a real run's series as a fixture for the tests above."""
    if os.environ.get("DISKMARK_CAPTURE") != "1":
        return
    sus = session.tests[0].sustained
    session.system.target = session.settings.target = "/mnt/test"
    session.system.mountpoint = "/mnt/test"
    session.system.hostname = "test-host"
    session.system.model = "loop: mnt.ext4.img"  # the image's path was a temporary one
    (FIXTURES / f"sustained_{name}.json").write_text(json.dumps(
        {"bin_s": sus.bin_s, "mb_s": [round(v, 3) for v in sus.mb_s],
         "result": session.to_dict()}, indent=1) + "\n")
