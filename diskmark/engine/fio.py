"""Finding fio and asking its version. ``DISKMARK_FIO`` points at another binary."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from diskmark.engine.errors import FioMissing

MIN_VERSION = (3, 16)  # job_runtime and per-second JSON status objects are needed

INSTALL_HINT = ("Install it with your package manager, e.g. `sudo apt-get install fio` "
                "(Debian, Ubuntu), `sudo dnf install fio` (Fedora) or `sudo pacman -S fio` (Arch); "
                "or point DISKMARK_FIO at a fio binary.")


@dataclass(frozen=True)
class Fio:
    path: str
    version: str  # "fio-3.33"

    @property
    def version_tuple(self) -> tuple[int, ...]:
        return parse_version(self.version)


def parse_version(text: str) -> tuple[int, ...]:
    m = re.search(r"(\d+)\.(\d+)", text)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def locate() -> Fio:
    """Find fio (``DISKMARK_FIO`` first, then PATH) and check it is new enough."""
    wanted = os.environ.get("DISKMARK_FIO") or "fio"
    path = shutil.which(wanted)
    if path is None:
        where = f"DISKMARK_FIO={wanted}" if os.environ.get("DISKMARK_FIO") else "'fio' on PATH"
        raise FioMissing(f"fio was not found ({where}); diskmark measures with fio.", INSTALL_HINT)
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise FioMissing(f"{path} could not be run: {e}", INSTALL_HINT) from None
    version = (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else ""
    if out.returncode != 0 or not version.startswith("fio"):
        raise FioMissing(f"{path} does not look like fio (--version said {version!r}).", INSTALL_HINT)
    fio = Fio(path, version)
    if fio.version_tuple < MIN_VERSION:
        need = ".".join(map(str, MIN_VERSION))
        raise FioMissing(f"{path} is {version}; diskmark needs fio {need} or newer.", INSTALL_HINT)
    return fio
