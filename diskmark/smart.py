"""The drive's health as it reports it: ``smartctl --json -H -A``, run when smartmontools is
installed and may open the device, and its JSON read into a :class:`Health`.

smartctl is a program of its own (no root helper of diskmark's): run as a list of arguments,
never through a shell, with a timeout, off the event loop (the engine calls it in a thread,
before and after a session only: a SMART query is a command to the drive). Whatever it
cannot say comes back as a reason in plain words. ``DISKMARK_SMARTCTL`` points at another
binary (tests use it to run without one).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from typing import Any

from diskmark.drive_record import Health

TIMEOUT_S = 20.0
INSTALL_HINT = ("install smartmontools for the drive's health: `sudo apt-get install smartmontools` "
                "(Debian, Ubuntu), `sudo dnf install smartmontools` (Fedora) or "
                "`sudo pacman -S smartmontools` (Arch)")
NO_PERMISSION = "it needs root (or a user in the disk group with read access to the device)"

#: smartctl's exit status is a bit field (its man page, RETURN VALUES)
_BAD_COMMAND_LINE, _OPEN_FAILED, _COMMAND_FAILED = 1, 2, 4
_ATA_REALLOCATED, _ATA_PENDING = 5, 197


def locate() -> str | None:
    """smartctl's path, or None when it is not installed."""
    return shutil.which(os.environ.get("DISKMARK_SMARTCTL") or "smartctl")


def read(device: str) -> Health:
    """Ask smartctl about ``device`` ("/dev/nvme0n1"). Never raises."""
    path = locate()
    if path is None:
        return Health(reason=f"smartctl is not installed: {INSTALL_HINT}.")
    try:
        out = subprocess.run([path, "--json", "-H", "-A", device], capture_output=True,
                             text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return Health(reason=f"smartctl did not answer about {device} within {TIMEOUT_S:.0f} s.")
    except OSError as e:
        if e.errno in (1, 13):  # EPERM, EACCES: not even allowed to run it
            return Health(reason=f"smartctl could not be run: {NO_PERMISSION}.")
        return Health(reason=f"smartctl could not be run: {e.strerror or e}.")
    return parse(out.stdout, out.returncode, device)


def _obj(doc: Any, key: str) -> dict[str, Any]:
    """``doc[key]`` when it is an object, else {}: odd JSON must not raise."""
    value = doc.get(key) if isinstance(doc, dict) else None
    return value if isinstance(value, dict) else {}


def _messages(doc: dict[str, Any]) -> list[str]:
    found = _obj(doc, "smartctl").get("messages")
    found = found if isinstance(found, list) else []
    return [m["string"].strip() for m in found if isinstance(m, dict) and isinstance(m.get("string"), str)]


def _version(doc: dict[str, Any]) -> str:
    v = _obj(doc, "smartctl").get("version")
    return "smartctl " + ".".join(map(str, v)) if isinstance(v, list) and v else "smartctl"


def _attribute(doc: dict[str, Any], ident: int) -> int | None:
    """An ATA attribute's raw value (the counts of 5 and 197 are the raw value itself)."""
    table = _obj(doc, "ata_smart_attributes").get("table")
    for row in table if isinstance(table, list) else []:
        if isinstance(row, dict) and row.get("id") == ident:
            raw = _obj(row, "raw").get("value")
            return raw if isinstance(raw, int) and not isinstance(raw, bool) else None
    return None


def _why_not(doc: dict[str, Any], status: int, device: str) -> str:
    """The reason smartctl gave no health, in plain words."""
    said = "; ".join(_messages(doc))
    if "permission denied" in said.lower():  # EACCES; EPERM as root means the disk refused
        return f"smartctl may not open {device}: {NO_PERMISSION}."
    if status & _BAD_COMMAND_LINE or "unable to detect device type" in said.lower():
        return (f"smartctl does not know how to ask {device} (a virtual or unusual disk)"
                + (f": {said}" if said else "") + ".")
    if status & _OPEN_FAILED:
        return f"smartctl could not open {device}" + (f": {said}" if said else "") + "."
    return f"{device} reports no SMART health" + (f" ({said})" if said else "") + "."


def parse(text: str, status: int = 0, device: str = "the drive") -> Health:
    """smartctl's JSON (``--json``, any of -H -A -a -x) as a :class:`Health`. Never raises:
    output that is not smartctl's becomes a reason."""
    try:
        doc = json.loads(text)
    except (json.JSONDecodeError, TypeError):
        doc = None
    if not isinstance(doc, dict) or not isinstance(doc.get("smartctl"), dict):
        return Health(reason=f"smartctl's answer about {device} was not its JSON "
                             f"(exit status {status}).")
    health = Health(source=_version(doc))
    if isinstance(_obj(doc, "smart_status").get("passed"), bool):
        health.passed = _obj(doc, "smart_status")["passed"]
    current = _obj(doc, "temperature").get("current")
    if isinstance(current, (int, float)) and not isinstance(current, bool):
        health.temperature_c = float(current)
    nvme = _obj(doc, "nvme_smart_health_information_log")
    if nvme:
        for name, key in (("percentage_used", "percentage_used"),
                          ("available_spare", "available_spare"),
                          ("media_errors", "media_errors"),
                          ("critical_warning", "critical_warning"),
                          ("warning_temp_minutes", "warning_temp_time"),
                          ("critical_temp_minutes", "critical_comp_time")):
            value = nvme.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                setattr(health, name, value)
        if health.temperature_c is None and isinstance(nvme.get("temperature"), int):
            health.temperature_c = float(nvme["temperature"])
    health.reallocated_sectors = _attribute(doc, _ATA_REALLOCATED)
    health.pending_sectors = _attribute(doc, _ATA_PENDING)
    if not health.known:
        health.reason = _why_not(doc, status, device)
    elif status & _COMMAND_FAILED and _messages(doc):
        health.reason = f"smartctl: {'; '.join(_messages(doc))}"
    return health
