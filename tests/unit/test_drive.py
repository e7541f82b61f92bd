"""The drive's temperature and health: smartctl's JSON and the kernel's hwmon sensors read
from captured output (tests/fixtures/drive/README.md names the sources), the record a
session keeps and its words, and on this machine's virtual disk, a real run that says why
nothing could be read.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TINY_ARGS

from diskmark.app.widgets.chart import chart_text
from diskmark.app.widgets.temperature_chart import hot_seconds, pass_temperatures, temperature_text
from diskmark.drive import hwmon, smart
from diskmark.drive import probe as system
from diskmark.engine.drive_watch import DriveWatch
from diskmark.model.drive_record import DriveRecord, Health
from diskmark.model.events import Phase, Progress
from diskmark.model.facts import SystemFacts
from diskmark.model.results import RESULT_SCHEMA, RunResult, SessionResult
from diskmark.model.settings import Settings
from diskmark.report.cdm_report import text_report
from diskmark.report.drive_lines import NOT_RECORDED, drive_line, health_text, warning_minutes_note
from diskmark.report.text import markdown_report
from diskmark.store.schema import validate_result

FIXTURES = Path(__file__).parents[1] / "fixtures" / "drive"
SYS = FIXTURES / "sys"


def captured(name: str) -> tuple[str, int]:
    text = (FIXTURES / name).read_text()
    return text, json.loads(text)["smartctl"]["exit_status"]


# --- smartctl --json -------------------------------------------------------------------


def test_nvme_healthy():
    h = smart.parse(*captured("scrutiny-smart-nvme2.json"))
    assert (h.passed, h.temperature_c, h.percentage_used, h.media_errors) == (True, 38.0, 1, 0)
    assert (h.critical_warning, h.warning_temp_minutes, h.critical_temp_minutes) == (0, 0, 0)
    assert h.available_spare == 100 and h.source == "smartctl 7.0" and h.reason == ""
    assert h.reallocated_sectors is None  # an ATA attribute: NVMe has none
    assert health_text(h) == "SMART PASSED, 1% used"


def test_nvme_with_media_errors():
    h = smart.parse(*captured("scrutiny-smart-nvme-failed.json"))
    assert (h.passed, h.media_errors, h.percentage_used, h.temperature_c) == (True, 7, 3, 35.0)
    assert health_text(h) == "SMART PASSED, 3% used, 7 media errors"


def test_sata():
    h = smart.parse(*captured("scrutiny-smart-ata.json"))
    # the temperature is smartctl's reading, not attribute 194's packed raw value
    assert (h.passed, h.temperature_c) == (True, 32.0)
    assert (h.reallocated_sectors, h.pending_sectors) == (0, 0)
    assert h.percentage_used is None and h.media_errors is None
    assert health_text(h) == "SMART PASSED"


def test_failing_sata_counts_are_said():
    doc = json.loads((FIXTURES / "scrutiny-smart-ata.json").read_text())
    doc["smart_status"]["passed"] = False
    for row in doc["ata_smart_attributes"]["table"]:
        if row["id"] in (5, 197):
            row["raw"]["value"] = 1 if row["id"] == 197 else 24
    h = smart.parse(json.dumps(doc), 8)
    assert health_text(h) == "SMART FAILED, 24 reallocated sectors, 1 pending sector"


def test_this_vms_virtual_disk_as_captured():
    """What smartctl printed for this VM's virtio disk: no health, and a reason."""
    h = smart.parse(*captured("vm-virtio-vda.json"), device="/dev/vda")
    assert not h.known
    assert h.reason.startswith("smartctl does not know how to ask /dev/vda")


def test_permission_denied_as_captured():
    h = smart.parse(*captured("vm-virtio-vda-nobody.json"), device="/dev/vda")
    assert not h.known
    assert h.reason == ("smartctl may not open /dev/vda: it needs root (or a user in the disk "
                        "group with read access to the device).")


def test_a_disk_that_refuses_is_not_called_a_permission_problem():
    h = smart.parse(*captured("vm-virtio-vda-scsi-root.json"), device="/dev/vda")
    assert not h.known and "root" not in h.reason
    assert h.reason == ("smartctl could not open /dev/vda: Smartctl open device: /dev/vda "
                        "failed: Operation not permitted.")


@pytest.mark.parametrize("text", ["", "smartctl: command not found", "[1, 2]", '{"a": 1}'])
def test_not_smartctls_json(text):
    h = smart.parse(text, 1, "/dev/sda")
    assert not h.known and "was not its JSON (exit status 1)" in h.reason


def test_smartctl_missing_gives_the_install_hint(monkeypatch):
    monkeypatch.setenv("DISKMARK_SMARTCTL", "no-such-smartctl-here")
    h = smart.read("/dev/sda")
    assert not h.known
    assert h.reason.startswith("smartctl is not installed")
    assert "sudo apt-get install smartmontools" in h.reason


@pytest.mark.skipif(os.geteuid() != 0, reason="smartctl needs root to open a disk")
@pytest.mark.needs("smartctl")
def test_real_smartctl_on_this_machine():
    """The real program on this machine's disk: whatever the disk, a reading or a reason."""
    if smart.locate() is None:
        pytest.skip("smartctl is not installed here (apt-get install smartmontools)")
    disks = system.disks_for("/")
    if not disks:
        pytest.skip("/ has no block device under it here")
    h = smart.read(f"/dev/{disks[0].name}")
    assert h.known or h.reason


# --- hwmon -------------------------------------------------------------------------------


def test_nvme_composite_sensor_from_captured_sysfs():
    sensor = hwmon.find(SYS / "class" / "block" / "nvme0n1", SYS)
    assert sensor is not None and sensor.name == "nvme Composite"
    assert sensor.read() == 43.85


def test_drivetemp_sensor_of_a_sata_disk():
    sensor = hwmon.find(SYS / "class" / "block" / "sda", SYS)
    assert sensor is not None and sensor.name == "drivetemp"
    assert sensor.read() == 35.0


def test_disk_without_a_sensor_says_what_would_give_it_one():
    assert hwmon.find(SYS / "class" / "block" / "sdb", SYS) is None
    assert "modprobe drivetemp" in hwmon.missing_reason(SYS / "class" / "block" / "sdb")
    assert "CONFIG_NVME_HWMON" in hwmon.missing_reason(Path("/sys/class/block/nvme1n1"))
    assert "backing file" in hwmon.missing_reason(Path("/sys/class/block/loop3"))
    assert hwmon.from_psutil("loop3") is None and hwmon.from_psutil("zram0") is None


def test_a_sensor_that_stops_answering_reads_none(tmp_path):
    path = tmp_path / "temp1_input"
    path.write_text("41000\n")
    sensor = hwmon.Sensor("nvme Composite", path)
    assert sensor.read() == 41.0
    path.unlink()
    assert sensor.read() is None


# --- the record and its words ------------------------------------------------------------


def record(**kw) -> DriveRecord:
    return DriveRecord(device="/dev/nvme0n1", sensor="nvme Composite", **kw)


def test_drive_line_with_temperatures_and_health():
    h = smart.parse(*captured("scrutiny-smart-nvme-failed.json"))
    r = record(samples=[(0.0, 41.0), (1.0, 49.2), (2.0, 47.0)], before=h, after=h)
    assert drive_line(r) == "41 °C → 47 °C (peak 49 °C), SMART PASSED, 3% used, 7 media errors"


def test_drive_line_says_why_not():
    virtual = "a virtual disk (virtio) reports no temperature or health"
    r = DriveRecord(device="/dev/vda", temperature_reason=virtual, before=Health(reason=virtual),
                    after=Health(reason=virtual))
    assert drive_line(r) == f"nothing recorded: {virtual}"
    no_smartctl = Health(reason="smartctl is not installed: install smartmontools")
    r = record(samples=[(0.0, 40.0)], before=no_smartctl, after=no_smartctl)
    assert drive_line(r) == "40 °C (no health: smartctl is not installed: install smartmontools)"
    assert drive_line(None) == NOT_RECORDED


def test_a_dip_at_the_temperature_peak_is_pointed_out():
    samples = [(float(t), 45.0 + (25 if 18 <= t <= 20 else 0)) for t in range(40)]
    r = record(samples=samples, passes={"SEQ1M Q8T1/write": [5.0, 10.0, 15.0, 20.0]})
    dips = [(2, [(4, 900.0)]), (1, [(2, 950.0)])]  # pass 2 second 4 is at t=18.5: 70 °C
    assert r.hot_dips("SEQ1M Q8T1/write", dips) == [(2, 4, 900.0, 70.0)]
    assert r.hot_dips("RND4K Q1T1/read", dips) == []  # no pass times for that test
    level = record(samples=[(float(t), 45.0 + (t % 2)) for t in range(40)],
                   passes={"SEQ1M Q8T1/write": [5.0, 10.0, 15.0]})
    assert level.hot_dips("SEQ1M Q8T1/write", dips) == []  # 1 °C of noise is no peak


def test_temperature_chart_lines_up_with_the_bandwidth_chart():
    """The details draw the temperature under the bandwidth on the same columns: the dip's
    mark and the hot column's mark fall in the same place."""
    runs = [RunResult(mb_s=1000, iops=1000, lat_us=8, io_bytes=4 * 10**9, runtime_ms=4000,
                      bw_samples=samples) for samples in ([1000.0, 990, 400, 1010],
                                                          [1000.0, 1000, 990, 1000])]
    key = "SEQ1M Q8T1/read"
    r = record(samples=[(float(t), 50.0 + (20 if t in (7, 8) else 0)) for t in range(16)],
               passes={key: [0.0, 5.0, 10.0]})  # pass 1 second 3 is at t = 7.5
    assert hot_seconds(r, key, runs) == {(1, 3)}
    for width in (40, 80):
        bandwidth = chart_text(runs, width).splitlines()
        temperature = temperature_text(runs, pass_temperatures(r, key, runs), {(1, 3)},
                                       width).splitlines()
        assert bandwidth[6].index("▲") == temperature[-1].index("▲")
        assert temperature[0].startswith("  70 ┤") and "°C" in temperature[1]


def test_minutes_above_warning_come_from_the_drive():
    r = record(before=Health(warning_temp_minutes=12), after=Health(warning_temp_minutes=14))
    assert warning_minutes_note(r).startswith("the drive counted 2 min above its warning")
    assert warning_minutes_note(record(before=Health(), after=Health())) == ""


def test_round_trip_and_damaged_readings_are_dropped():
    h = smart.parse(*captured("scrutiny-smart-nvme2.json"))
    r = record(samples=[(0.0, 41.0), (1.5, 42.0)], before=h, after=h,
               passes={"SEQ1M Q8T1/read": [3.2, 8.4]})
    assert DriveRecord.from_dict(json.loads(json.dumps(r.to_dict()))) == r
    damaged = r.to_dict() | {"samples": [[0, 41], ["x", 2], [1], [2, float("nan")]],
                             "passes": {"a": ["x"]}, "before": "broken", "sensor": 7}
    back = DriveRecord.from_dict(damaged)
    assert back.samples == [(0.0, 41.0)] and back.passes == {} and back.before is None
    assert back.sensor == "" and back.after == h


def old_result() -> dict:
    """A saved result of a diskmark from before the drive was read (no "drive" field)."""
    return {"schema": RESULT_SCHEMA, "settings": {"size": 16 * 1024 * 1024, "count": 1},
            "system": {"target": "/data"}, "tests": []}


def test_old_results_without_the_drive_still_load():
    session = validate_result(old_result())
    assert session.drive is None
    assert f"    Drive: {NOT_RECORDED}" in text_report(session)
    assert f"Drive: {NOT_RECORDED}" in markdown_report(session)
    assert SessionResult.from_dict(old_result() | {"drive": None}).drive is None
    with pytest.raises(ValueError, match="drive is not an object"):
        validate_result(old_result() | {"drive": [1, 2]})


async def test_watch_samples_a_sensor_and_notes_pass_starts(tmp_path, monkeypatch):
    """The watcher around a session, on a sensor file that changes (the real sampling loop,
    the real smartctl path: missing here on purpose)."""
    sensor = tmp_path / "temp1_input"
    sensor.write_text("40000\n")
    monkeypatch.setattr(system, "disks_for", lambda path: [Path("/sys/class/block/nvme9n1")])
    monkeypatch.setattr(hwmon, "find", lambda disk: hwmon.Sensor("nvme Composite", sensor))
    monkeypatch.setenv("DISKMARK_SMARTCTL", "no-such-smartctl-here")
    session = SessionResult(settings=Settings(target=str(tmp_path)), system=SystemFacts())
    seen = []
    async with DriveWatch(session, tmp_path) as watch:
        emit = watch.observe(seen.append)
        for run in (0, 0, 1):
            emit(Progress(Phase.MEASURING if run else Phase.WARMUP, test_key="SEQ1M Q8T1/read",
                          run=run))
        await asyncio.sleep(1.3)
        sensor.write_text("47500\n")
        await asyncio.sleep(1.3)
    drive = session.drive
    assert len(seen) == 3, "every event reaches the sink"
    assert drive.device == "/dev/nvme9n1" and drive.sensor == "nvme Composite"
    assert drive.temperatures[0] == 40.0 and drive.temperatures[-1] == 47.5
    assert len(drive.samples) >= 3 and [t for t, _ in drive.samples] == sorted(t for t, _ in drive.samples)
    assert len(drive.passes["SEQ1M Q8T1/read"]) == 2
    assert drive.before.reason.startswith("smartctl is not installed") and drive.after is not None
    assert drive_line(drive).startswith("40 °C → 48 °C (no health: smartctl is not installed")


# --- a real run on this machine ------------------------------------------------------------


@pytest.mark.slow
def test_real_run_carries_the_reason_in_its_json(tmp_path, no_leftovers):
    """``diskmark run --format json`` on a directory here: the record is there, with
    readings on a real disk and the reason on a virtual one (this VM's)."""
    no_leftovers.append(tmp_path)
    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(tmp_path),
                          *TINY_ARGS, "--profile", "demo", "--mode", "write", "--format", "json"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    assert out.returncode == 0, out.stderr
    drive = json.loads(out.stdout)["drive"]
    assert drive is not None
    assert len(drive["passes"]["SEQ1M Q8T1/write"]) == 2  # the warm-up's start and the pass's
    facts = system.facts_for(tmp_path)
    if facts.virtual:
        assert drive["samples"] == [] and drive["temperature_reason"].startswith(
            f"a virtual disk ({facts.virtual}) reports no temperature")
        assert drive["before"]["reason"] and drive["after"]["reason"]
    elif not system.disks_for(tmp_path):
        assert "no disk under it" in drive["temperature_reason"]
    else:
        assert drive["samples"] or drive["temperature_reason"]
        assert drive["before"]["passed"] is not None or drive["before"]["reason"]
    text = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(tmp_path),
                           *TINY_ARGS, "--profile", "demo", "--mode", "read", "-q"],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=300)
    assert text.returncode == 0, text.stderr
    line = next(x for x in text.stdout.splitlines() if x.startswith("    Drive: "))
    assert line != f"    Drive: {NOT_RECORDED}"
    if facts.virtual:
        assert "virtual disk" in line
