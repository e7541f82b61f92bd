"""The drive's temperature sensor, as the kernel exposes it: the hwmon device of an NVMe
controller (``nvme``: its Composite temperature) or of a SATA disk (``drivetemp``), found
from the disk's own /sys directory; psutil's list of sensors as a fallback, by name, when
the machine has one disk and one sensor of that kind.

Reading it is one small sysfs read (the kernel asks the drive: NVMe's SMART log page,
ATA's SCT status), cheap enough to do every second while fio runs, and it needs no root.
The layout is the kernel's (Documentation/hwmon/sysfs-interface.rst, nvme and drivetemp):
``hwmonN/name``, ``tempK_input`` in millidegrees Celsius, ``tempK_label``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from diskmark.drive import reasons
from diskmark.drive.sysfs import read_sys

_SYS = Path("/sys")


@dataclass(frozen=True)
class Sensor:
    """One temperature input: a sysfs file, or a psutil sensor by kind and label."""

    name: str  # "nvme Composite", "drivetemp"
    path: Path | None = None
    psutil_key: tuple[str, str] | None = None  # (kind, label) for the fallback

    def read(self) -> float | None:
        """°C now, or None when the sensor gives nothing (a disk gone, a sensor asleep)."""
        if self.path is not None:
            try:
                return int(self.path.read_text().strip()) / 1000
            except (OSError, ValueError):
                return None
        return _psutil_read(*self.psutil_key) if self.psutil_key else None


def _hwmon_dirs(device: Path) -> list[Path]:
    """hwmon devices registered under a device: ``hwmonN`` or ``hwmon/hwmonN``."""
    found = [*device.glob("hwmon[0-9]*"), *device.glob("hwmon/hwmon[0-9]*")]
    return sorted(set(found), key=lambda p: p.name)


def _first_input(hwmon: Path) -> Path | None:
    """``temp1_input`` (NVMe's Composite, drivetemp's only input), else the lowest one."""
    inputs = sorted(hwmon.glob("temp*_input"),
                    key=lambda p: int(m.group()) if (m := re.search(r"[0-9]+", p.name)) else 0)
    return inputs[0] if inputs else None


def _controllers(disk: Path, sys_root: Path) -> list[Path]:
    """Where an NVMe namespace's controller lives: ``device`` of the namespace, or with
    native multipath the ``nvmeN`` controllers beside it or in /sys/class/nvme."""
    places = [disk / "device"]
    places += [c for c in sorted(disk.resolve().parent.glob("nvme[0-9]*"))
               if re.fullmatch(r"nvme[0-9]+", c.name)]
    m = re.match(r"nvme([0-9]+)", disk.name)
    if m:
        places.append(sys_root / "class" / "nvme" / f"nvme{m.group(1)}")
    return places


def find(disk: Path, sys_root: Path = _SYS) -> Sensor | None:
    """The temperature sensor of a physical disk (its /sys/class/block directory), or None."""
    for place in _controllers(disk, sys_root):
        for hwmon in _hwmon_dirs(place):
            path = _first_input(hwmon)
            if path is not None and read_sys(path):
                name = read_sys(hwmon / "name") or hwmon.name
                label = read_sys(path.with_name(path.name.replace("_input", "_label")))
                return Sensor(f"{name} {label}".strip(), path)
    return None


def _psutil_sensors() -> dict[str, list[Any]]:
    try:
        import psutil
        return psutil.sensors_temperatures() or {}
    except (ImportError, AttributeError, OSError, RuntimeError):
        return {}


def _psutil_read(kind: str, label: str) -> float | None:
    for entry in _psutil_sensors().get(kind, []):
        if entry.label == label:
            return float(entry.current)
    return None


def _disks_of_kind(nvme: bool, sys_root: Path) -> int:
    if nvme:
        return sum(1 for c in (sys_root / "class" / "nvme").glob("nvme*") if re.fullmatch(r"nvme[0-9]+", c.name))
    return sum(1 for b in (sys_root / "class" / "block").glob("sd*") if re.fullmatch(r"sd[a-z]+", b.name))


def from_psutil(disk_name: str, sys_root: Path = _SYS) -> Sensor | None:
    """psutil's sensor for a disk, only when it cannot be anyone else's: the machine has one
    NVMe controller and one ``nvme`` Composite sensor, or one sd disk and one ``drivetemp``
    sensor (psutil names a sensor's kind, not its disk: with two disks it would guess)."""
    nvme = disk_name.startswith("nvme")
    if not nvme and not re.fullmatch(r"sd[a-z]+", disk_name):
        return None  # a loop, zram, mmc… disk: no drivetemp sensor is ever its own
    kind = "nvme" if nvme else "drivetemp"
    entries = _psutil_sensors().get(kind, [])
    if nvme:  # one drive lists Composite, Sensor 1, Sensor 2…
        entries = [e for e in entries if e.label in ("Composite", "")]
    if len(entries) == 1 and _disks_of_kind(nvme, sys_root) == 1:
        return Sensor(f"{kind} {entries[0].label}".strip(), psutil_key=(kind, entries[0].label))
    return None


def missing_reason(disk: Path) -> str:
    """Why a real disk shows no temperature sensor, with what would give it one: in English,
    as the result keeps it (marked, so that a view can say it in its language)."""
    if disk.name.startswith("nvme"):
        return reasons.NO_SENSOR_NVME
    if re.fullmatch(r"sd[a-z]+", disk.name):
        return reasons.NO_SENSOR_SATA
    if disk.name.startswith("loop"):
        return reasons.NO_SENSOR_LOOP
    if disk.name.startswith(("zram", "ram")):
        return reasons.NO_SENSOR_RAM
    return reasons.NO_SENSOR
