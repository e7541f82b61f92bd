"""Fault injection: a broken or hostile ``smartctl`` on PATH, and a sensor that reports
nonsense. A drive's reading is a note beside the figures: whatever smartctl answers (bytes
that are not UTF-8, a number of 5,000 digits, Infinity, NaN, a temperature no drive can
have, SCSI's 0 for "not reported") and however it hangs, the reading is dropped with a
reason and the run is kept. A hung smartctl is ended with every process it started.

Before: non-UTF-8 bytes raised UnicodeDecodeError out of ``smart.read`` (which the run did
not survive), a long integer raised ValueError out of ``json.loads``, ``Drive: inf °C`` was
printed and the result could not be kept, and a hung smartctl's child outlived it.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest
from conftest import TINY_ARGS
from mounts import can_loop_mount, loop_mount

from diskmark.drive import hwmon, smart
from diskmark.drive import probe as system
from diskmark.engine.drive_watch import DriveWatch
from diskmark.model.drive_record import DriveRecord
from diskmark.model.facts import SystemFacts
from diskmark.model.results import SessionResult
from diskmark.model.settings import Settings
from diskmark.report.drive_lines import drive_line
from diskmark.store.store import Store

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("mkfs.ext4")

HEALTHY = '"smartctl": {"version": [7, 3], "exit_status": 0}, "smart_status": {"passed": true}'


def fake_smartctl(tmp_path: Path, answer: bytes | None = None, body: str = "") -> Path:
    """A directory holding a ``smartctl`` that prints ``answer`` (or runs ``body``, shell)."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    if answer is not None:
        (bindir / "answer.json").write_bytes(answer)
        body = f'cat "{bindir / "answer.json"}"'
    script = bindir / "smartctl"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return bindir


@pytest.fixture
def on_path(monkeypatch, tmp_path):
    """Put a fake smartctl first on PATH (and no DISKMARK_SMARTCTL to bypass it)."""
    monkeypatch.delenv("DISKMARK_SMARTCTL", raising=False)

    def put(answer: bytes | None = None, body: str = "") -> Path:
        bindir = fake_smartctl(tmp_path, answer, body)
        monkeypatch.setenv("PATH", f"{bindir}{os.pathsep}{os.environ['PATH']}")
        assert smart.locate() == str(bindir / "smartctl")
        return bindir

    return put


def answer(temperature: str = "", extra: str = "") -> bytes:
    temp = f', "temperature": {{"current": {temperature}}}' if temperature else ""
    return ("{" + HEALTHY + temp + extra + "}").encode()


#: smartctl answers that once aborted the run or were shown as a temperature: the answer,
#: and the start of the reason a reading was left out ("": nothing was).
HOSTILE = {
    "not UTF-8": (b"{" + HEALTHY.encode() + b', "model_name": "\xff\xfe\x80"}', ""),
    "5000 digits": (answer(extra=', "nvme_smart_health_information_log": {"media_errors": 1'
                           + "0" * 5000 + "}"), "smartctl's media_errors for /dev/sdq was not a count"),
    "Infinity": (answer("Infinity"), "smartctl reported a temperature of inf °C"),
    "NaN": (answer("NaN"), "smartctl reported a temperature of nan °C"),
    "-1e308": (answer("-1e308"), "smartctl reported a temperature of -1e+308 °C"),
    "1e999": (answer("1e999"), "smartctl reported a temperature of inf °C"),
    "5000-digit temperature": (answer("9" * 5000), "smartctl reported a temperature of inf °C"),
    "absurd": (answer("100000"), "smartctl reported a temperature of 100000 °C"),
    "SCSI 0": (answer("0", ', "device": {"name": "/dev/sdq", "type": "scsi", '
                           '"protocol": "SCSI"}'), "smartctl reported 0 °C for /dev/sdq"),
    "RAID 0": (answer("0", ', "device": {"name": "/dev/bus/0", "type": "megaraid,4", '
                           '"protocol": "ATA"}'), "smartctl reported 0 °C for /dev/sdq"),
    "nested": (b'{"smartctl": ' + b"[" * 100000 + b"]" * 100000 + b"}",
               "smartctl's answer about /dev/sdq was not its JSON"),
}


@pytest.mark.parametrize("text,reason", HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_answer_is_a_reason_never_an_exception(on_path, text, reason):
    on_path(text)
    health = smart.read("/dev/sdq")
    assert health.temperature_c is None, "no temperature from that answer"
    assert health.reason.startswith(reason) and bool(health.reason) == bool(reason), health.reason
    json.dumps(health.to_dict(), allow_nan=False)  # what the store needs of it
    if not text.startswith(b'{"smartctl": ['):
        assert health.passed is True, "what could be read is kept"


def test_an_implausible_temperature_is_named_with_its_range(on_path):
    on_path(answer("Infinity"))
    health = smart.read("/dev/sdq")
    assert health.reason == ("smartctl reported a temperature of inf °C for /dev/sdq, outside "
                             "what a working drive can report (-40 to 150 °C): it was left out.")


def test_scsi_s_zero_is_not_reported_not_freezing(on_path):
    on_path(HOSTILE["SCSI 0"][0])
    health = smart.read("/dev/sdq")
    assert health.reason == ("smartctl reported 0 °C for /dev/sdq, which a SCSI or RAID answer "
                             "gives when the drive reports no temperature: it was left out.")
    on_path(answer("0", ', "device": {"name": "/dev/sda", "type": "sat", "protocol": "ATA"}'))
    assert smart.read("/dev/sda").temperature_c == 0.0, "an ATA drive's 0 °C is a reading"


def test_a_plausible_reading_is_kept(on_path):
    on_path(answer("41"))
    health = smart.read("/dev/sda")
    assert health.temperature_c == 41.0 and health.reason == ""


def test_an_answer_longer_than_smartctl_s_is_not_read(on_path, monkeypatch):
    monkeypatch.setattr(smart, "TIMEOUT_S", 10.0)
    on_path(body="exec yes")
    started = time.monotonic()
    health = smart.read("/dev/sdq")
    assert time.monotonic() - started < 5, "the flood is cut, not read until the timeout"
    assert health.reason == ("smartctl's answer about /dev/sdq was longer than 4 MiB, which is "
                             "not smartctl's: it was not read.")


def sleepers(tag: str) -> list[psutil.Process]:
    found = []
    for p in psutil.process_iter():
        try:
            if tag in " ".join(p.cmdline()):
                found.append(p)
        except psutil.Error:
            pass
    return found


def running(tag: str) -> list[psutil.Process]:
    found = []
    for p in sleepers(tag):
        try:
            if p.status() != psutil.STATUS_ZOMBIE:
                found.append(p)
        except psutil.Error:
            pass
    return found


def test_a_hung_smartctl_is_ended_with_its_children(on_path, monkeypatch, tmp_path):
    monkeypatch.setattr(smart, "TIMEOUT_S", 1.5)
    tag = f"{os.getpid()}{time.monotonic_ns() % 1000}"  # a sleep no one else runs
    on_path(body=f"sleep 600.{tag}1 &\nexec sleep 600.{tag}2")
    started = time.monotonic()
    try:
        health = smart.read("/dev/sdq")
        took = time.monotonic() - started
        # SIGKILL is sent before read returns; on a loaded machine the kernel may take a moment
        # to end the process, so "left running" means still running a few seconds later
        gone_by = time.monotonic() + 3
        while (alive := running(f"600.{tag}")) and time.monotonic() < gone_by:
            time.sleep(0.05)
        gone = not alive
    finally:
        for p in sleepers(f"600.{tag}"):
            p.kill()
    assert health.reason == "smartctl did not answer about /dev/sdq within 2 s."
    assert took < 4
    assert gone, "the hung smartctl's child was left running"


# --- the kernel's sensor -----------------------------------------------------------------


@pytest.mark.parametrize("millidegrees", ["-273150", "65261850", "999999999"])
async def test_a_sensor_s_absurd_reading_is_left_out_with_a_reason(tmp_path, monkeypatch,
                                                                    millidegrees):
    """NVMe's 0 K, 0xFFFF K and garbage from a hwmon file: no sample, and a reason."""
    sensor = tmp_path / "temp1_input"
    sensor.write_text(millidegrees + "\n")
    monkeypatch.setattr(system, "disks_for", lambda path: [Path("/sys/class/block/nvme9n1")])
    monkeypatch.setattr(hwmon, "find", lambda disk: hwmon.Sensor("nvme Composite", sensor))
    monkeypatch.setenv("DISKMARK_SMARTCTL", "no-such-smartctl-here")
    session = SessionResult(settings=Settings(target=str(tmp_path)), system=SystemFacts())
    async with DriveWatch(session, tmp_path):
        await asyncio.sleep(1.2)
    drive = session.drive
    assert drive.samples == []
    value = int(millidegrees) / 1000
    assert drive.temperature_reason == (
        f"the sensor nvme Composite reported a temperature of {value:g} °C, outside what a "
        f"working drive can report (-40 to 150 °C): it was left out")
    assert drive_line(drive).startswith("nothing recorded: the sensor nvme Composite reported")


def test_saved_readings_out_of_range_are_dropped_on_load():
    record = DriveRecord.from_dict({"samples": [[0.0, 40.0], [1.0, 1e300], [2.0, -1000.0]],
                                    "before": {"temperature_c": 5000.0, "passed": True}})
    assert record.samples == [(0.0, 40.0)]
    assert record.before.temperature_c is None and record.before.passed is True


# --- a real run, smartctl answering for a loop device --------------------------------------


RUN_KEPT = ["not UTF-8", "5000 digits", "Infinity", "NaN", "-1e308", "SCSI 0"]


@pytest.mark.slow
@pytest.mark.parametrize("case", RUN_KEPT)
def test_the_run_is_kept_whatever_smartctl_answers(tmp_path, case):
    ok, reason = can_loop_mount("ext4")
    if not ok:
        pytest.skip(f"ext4 mounts unavailable: {reason}")
    bindir = fake_smartctl(tmp_path, HOSTILE[case][0])
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    env.pop("DISKMARK_SMARTCTL", None)
    with loop_mount(tmp_path, "ext4", size_mib=64) as mnt:
        out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(mnt),
                              *TINY_ARGS, "--profile", "demo", "--mode", "read"],
                             capture_output=True, text=True, stdin=subprocess.DEVNULL,
                             timeout=300, env=env)
    assert out.returncode == 0, out.stderr
    line = next(x for x in out.stdout.splitlines() if x.startswith("    Drive: "))
    assert "SMART PASSED" in line and " °C" not in line.split("(")[0], line
    assert "not kept" not in out.stderr, out.stderr
    history = Store().history()
    assert len(history) == 1, "the run is kept in the history"
    drive = history[0].session.drive
    assert drive.before.temperature_c is None and drive.before.passed is True


@pytest.mark.slow
@pytest.mark.parametrize("sig", ["SIGINT", "SIGTERM"])
def test_a_stop_while_smartctl_hangs_ends_the_run_within_two_seconds(tmp_path, sig):
    """smartctl is asked before the session starts; a hung one must not hold a stop for its
    20 s timeout (twice: the thread asking it was joined at exit). Before: 37 s."""
    import signal

    ok, reason = can_loop_mount("ext4")
    if not ok:
        pytest.skip(f"ext4 mounts unavailable: {reason}")
    tag = f"{os.getpid()}{time.monotonic_ns() % 1000}"
    bindir = fake_smartctl(tmp_path, body=f"exec sleep 600.{tag}")
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    env.pop("DISKMARK_SMARTCTL", None)
    with loop_mount(tmp_path, "ext4", size_mib=64) as mnt:
        proc = subprocess.Popen([sys.executable, "-m", "diskmark", "run", "--target", str(mnt),
                                 *TINY_ARGS, "--profile", "demo"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        try:
            deadline = time.monotonic() + 30
            while not sleepers(f"600.{tag}") and time.monotonic() < deadline:
                time.sleep(0.05)
            assert sleepers(f"600.{tag}"), "smartctl was never asked"
            started = time.monotonic()
            proc.send_signal(getattr(signal, sig))
            out, err = proc.communicate(timeout=30)
            took = time.monotonic() - started
        finally:
            proc.kill()
            for p in sleepers(f"600.{tag}"):
                p.kill()
        left = [p for p in sleepers(f"600.{tag}") if p.status() != psutil.STATUS_ZOMBIE]
        assert sorted(p.name for p in mnt.iterdir()) == ["lost+found"]
    assert proc.returncode == 130, err
    assert took < 2, f"the stop took {took:.1f} s"
    assert left == [], "smartctl was left running"
    assert "smartctl was stopped with the run" in out
