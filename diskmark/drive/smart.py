"""The drive's health as it reports it: ``smartctl --json -H -A``, run when smartmontools is
installed and may open the device, and its JSON read into a :class:`Health`.

smartctl is a program of its own (no root helper of diskmark's): run as a list of arguments,
never through a shell, in a process group of its own with a timeout and a bound on its
answer, off the event loop (the engine calls it in a thread, before and after a session
only: a SMART query is a command to the drive). Whatever it cannot say comes back as a
reason in plain words, and so does whatever it says that no drive can mean (bytes that are
not UTF-8, Infinity, a temperature out of :data:`~diskmark.drive_record.TEMPERATURE_RANGE_C`):
a reading is a note beside the figures, and must never cost the run. ``DISKMARK_SMARTCTL``
points at another binary (tests use it to run without one).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import threading
from typing import Any

from diskmark.drive import reasons
from diskmark.drive.readings import implausible_text
from diskmark.files import program
from diskmark.files.program import Ending
from diskmark.model.drive_record import TEMPERATURE_RANGE_C, Health, plausible_c

TIMEOUT_S = 20.0
#: The longest answer read: ``smartctl --json -x`` of a drive is some 100 KiB.
ANSWER_MAX = 4 * 1024 * 1024
#: The most digits a number in the answer may have: smartctl's widest counters are 128-bit
#: (39 digits); Python refuses to convert more than 4,300 at all.
DIGITS_MAX = 40
#: smartctl's exit status is a bit field (its man page, RETURN VALUES)
_BAD_COMMAND_LINE, _OPEN_FAILED, _COMMAND_FAILED = 1, 2, 4
_ATA_REALLOCATED, _ATA_PENDING = 5, 197
#: Device types of RAID controllers (``-d megaraid,N``…): behind them, as for SCSI, smartctl
#: reports a temperature of 0 when the drive reported none.
_RAID_TYPES = ("megaraid", "cciss", "aacraid", "areca", "3ware", "hpt", "sssraid", "jmb39x")


def locate() -> str | None:
    """smartctl's path, or None when it is not installed."""
    return shutil.which(os.environ.get("DISKMARK_SMARTCTL") or "smartctl")


def read(device: str, stop: threading.Event | None = None) -> Health:
    """Ask smartctl about ``device`` ("/dev/nvme0n1"). Never raises. Setting ``stop`` ends
    smartctl at once: a run being stopped must not wait out a hung smartctl's timeout."""
    path = locate()
    if path is None:
        return Health(reason=reasons.SMART_NOT_INSTALLED)
    try:
        out, status, problem = _ask([path, "--json", "-H", "-A", device], stop)
    except OSError as e:
        if e.errno in (1, 13):  # EPERM, EACCES: not even allowed to run it
            return Health(reason=reasons.SMART_CANNOT_RUN)
        return Health(reason=reasons.SMART_RUN_FAILED.format(error=e.strerror or e))
    if problem == "timeout":
        return Health(reason=reasons.SMART_TIMEOUT.format(device=device,
                                                           seconds=f"{TIMEOUT_S:.0f}"))
    if problem == "stopped":
        return Health(reason=reasons.SMART_STOPPED.format(device=device))
    if problem == "too long":
        return Health(reason=reasons.SMART_TOO_LONG.format(device=device,
                                                            size=f"{ANSWER_MAX >> 20} MiB"))
    return parse(out.decode("utf-8", errors="replace"), status, device)


def _ask(argv: list[str], stop: threading.Event | None = None) -> tuple[bytes, int, str]:
    """Run smartctl: (its output, its exit status, "" or what went wrong: "timeout", "too
    long", "stopped": ``stop`` was set). Started the one way diskmark starts a program
    (:func:`diskmark.files.program.run`): a hung or flooding smartctl is ended with every
    process it started (a wrapper's children hold the pipe too)."""
    done = program.run(argv, timeout=TIMEOUT_S, limit=ANSWER_MAX, stderr=False, stop=stop)
    problem = "" if done.ending is Ending.EXITED else done.ending.value
    return done.stdout, done.returncode or 0, problem


def _obj(doc: Any, key: str) -> dict[str, Any]:
    """``doc[key]`` when it is an object, else {}: odd JSON must not raise."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def _messages(doc: dict[str, Any]) -> list[str]:
    found = _obj(doc, "smartctl").get("messages")
    found = found if isinstance(found, list) else []
    return [m["string"].strip() for m in found if isinstance(m, dict) and isinstance(m.get("string"), str)]


def _count(value: Any) -> int | None:
    """A counter's value, when it is one: a whole number, not negative."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _version(doc: dict[str, Any]) -> str:
    v = _obj(doc, "smartctl").get("version")
    if isinstance(v, list) and v and all(_count(x) is not None for x in v):
        return "smartctl " + ".".join(map(str, v))
    return "smartctl"


def _attribute(doc: dict[str, Any], ident: int) -> Any:
    """An ATA attribute's raw value (the counts of 5 and 197 are the raw value itself)."""
    table = _obj(doc, "ata_smart_attributes").get("table")
    for row in table if isinstance(table, list) else []:
        if isinstance(row, dict) and row.get("id") == ident:
            return _obj(row, "raw").get("value")
    return None


def _zero_is_none(doc: dict[str, Any]) -> bool:
    """Whether a temperature of 0 means "not reported": a SCSI drive's answer, or one from
    behind a RAID controller."""
    device = _obj(doc, "device")
    kind = device.get("type")
    return device.get("protocol") == "SCSI" or (
        isinstance(kind, str) and any(raid in kind.lower() for raid in _RAID_TYPES))


def _temperature(doc: dict[str, Any], nvme: dict[str, Any], device: str) -> tuple[float | None, str]:
    """The drive's temperature, or None and why it was left out ("" when there was none)."""
    for value in (_obj(doc, "temperature").get("current"), nvme.get("temperature")):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if value == 0 and _zero_is_none(doc):
            return None, (f"smartctl reported 0 °C for {device}, which a SCSI or RAID answer "
                          f"gives when the drive reports no temperature: it was left out.")
        celsius = plausible_c(value)
        if celsius is None:
            return None, implausible_text("smartctl", float(value), *TEMPERATURE_RANGE_C,
                                          device=device) + "."
        return celsius, ""
    return None, ""


def _int(digits: str) -> int | float:
    """A number too long to be any of smartctl's is out of every range: infinite."""
    if len(digits) <= DIGITS_MAX:
        return int(digits)
    return -math.inf if digits.startswith("-") else math.inf


def _why_not(doc: dict[str, Any], status: int, device: str) -> str:
    """The reason smartctl gave no health, in plain words."""
    said = "; ".join(_messages(doc))
    if "permission denied" in said.lower():  # EACCES; EPERM as root means the disk refused
        return reasons.SMART_NO_PERMISSION.format(device=device)
    if status & _BAD_COMMAND_LINE or "unable to detect device type" in said.lower():
        return (reasons.SMART_UNKNOWN_DEVICE_SAID if said else reasons.SMART_UNKNOWN_DEVICE).format(
            device=device, said=said)
    if status & _OPEN_FAILED:
        return (reasons.SMART_CANNOT_OPEN_SAID if said else reasons.SMART_CANNOT_OPEN).format(
            device=device, said=said)
    return (reasons.SMART_NO_HEALTH_SAID if said else reasons.SMART_NO_HEALTH).format(
        device=device, said=said)


def parse(text: str, status: int = 0, device: str = "the drive") -> Health:
    """smartctl's JSON (``--json``, any of -H -A -a -x) as a :class:`Health`. Never raises:
    output that is not smartctl's becomes a reason."""
    try:  # a number of 5,000 digits would raise: it reads as infinite
        doc = json.loads(text, parse_int=_int)
    except (ValueError, TypeError, RecursionError):
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("smartctl"), dict):
        return Health(reason=reasons.SMART_NOT_JSON.format(device=device, status=status))
    health = Health(source=_version(doc))
    if isinstance(_obj(doc, "smart_status").get("passed"), bool):
        health.passed = _obj(doc, "smart_status")["passed"]
    nvme = _obj(doc, "nvme_smart_health_information_log")
    health.temperature_c, dropped = _temperature(doc, nvme, device)
    notes = [dropped] if dropped else []
    for name, key, value in (
            ("percentage_used", "percentage_used", nvme.get("percentage_used")),
            ("available_spare", "available_spare", nvme.get("available_spare")),
            ("media_errors", "media_errors", nvme.get("media_errors")),
            ("critical_warning", "critical_warning", nvme.get("critical_warning")),
            ("warning_temp_minutes", "warning_temp_time", nvme.get("warning_temp_time")),
            ("critical_temp_minutes", "critical_comp_time", nvme.get("critical_comp_time")),
            ("reallocated_sectors", "attribute 5", _attribute(doc, _ATA_REALLOCATED)),
            ("pending_sectors", "attribute 197", _attribute(doc, _ATA_PENDING))):
        setattr(health, name, _count(value))
        if value is not None and _count(value) is None:
            notes.append(f"smartctl's {key} for {device} was not a count (a whole number from "
                         f"0): it was left out.")
    if not health.known:
        notes.append(_why_not(doc, status, device))
    elif status & _COMMAND_FAILED and _messages(doc):
        notes.append(f"smartctl: {'; '.join(_messages(doc))}")
    health.reason = " ".join(notes)
    return health
