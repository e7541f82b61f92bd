"""Finding fio and asking its version. ``DISKMARK_FIO`` points at another binary."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

from diskmark.engine.errors import FioMissing
from diskmark.locale import N_, _

MIN_VERSION = (3, 16)  # job_runtime and per-second JSON status objects are needed

INSTALL_HINT = N_("Install it with your package manager, e.g. `sudo apt-get install fio` "
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
    m = re.search(r"([0-9]+)\.([0-9]+)", text)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def locate() -> Fio:
    """Find fio (``DISKMARK_FIO`` first, then PATH) and check it is new enough."""
    wanted = os.environ.get("DISKMARK_FIO") or "fio"
    path = shutil.which(wanted)
    if path is None:
        if os.environ.get("DISKMARK_FIO"):
            missing = _("fio was not found (DISKMARK_FIO={path}); diskmark measures with fio.")
        else:
            missing = _("fio was not found ('fio' on PATH); diskmark measures with fio.")
        raise FioMissing(missing.format(path=wanted), _(INSTALL_HINT))
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=10,
                             stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise FioMissing(_("{path} could not be run: {error}").format(path=path, error=e),
                         _(INSTALL_HINT)) from None
    version = (out.stdout or out.stderr).strip().splitlines()[0] if (out.stdout or out.stderr) else ""
    if out.returncode != 0 or not version.startswith("fio"):
        raise FioMissing(_("{path} does not look like fio (--version said {version}).").format(
            path=path, version=repr(version)), _(INSTALL_HINT))
    fio = Fio(path, version)
    if fio.version_tuple < MIN_VERSION:
        need = ".".join(map(str, MIN_VERSION))
        raise FioMissing(_("{path} is {version}; diskmark needs fio {need} or newer.").format(
            path=path, version=version, need=need), _(INSTALL_HINT))
    return fio
