"""Finding fio and asking its version. ``DISKMARK_FIO`` points at another binary."""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass

from diskmark.engine.errors import FioMissing
from diskmark.files import program
from diskmark.files.program import Ending
from diskmark.locale import N_, _

MIN_VERSION = (3, 16)  # job_runtime and per-second JSON status objects are needed
VERSION_TIMEOUT_S = 10.0
#: fio's answer to --version is one short line ("fio-3.33")
VERSION_MAX = 64 * 1024

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
        said = program.run([path, "--version"], timeout=VERSION_TIMEOUT_S, limit=VERSION_MAX)
    except OSError as e:
        raise FioMissing(_("{path} could not be run: {error}").format(
            path=path, error=e.strerror or e), _(INSTALL_HINT)) from None
    if said.ending is Ending.TOO_LONG:
        raise FioMissing(_("{path} does not look like fio: its answer to --version was longer "
                           "than {size}, which no fio says.").format(
                               path=path, size=f"{VERSION_MAX // 1024} KiB"), _(INSTALL_HINT))
    if said.ending is not Ending.EXITED:
        raise FioMissing(_("{path} did not answer --version within {seconds} s: it was "
                           "stopped.").format(path=path, seconds=f"{VERSION_TIMEOUT_S:g}"),
                         _(INSTALL_HINT))
    text = (said.stdout or said.stderr).decode("utf-8", "replace").strip()
    version = text.splitlines()[0] if text else ""
    if said.returncode != 0 or not version.startswith("fio"):
        raise FioMissing(_("{path} does not look like fio (--version said {version}).").format(
            path=path, version=repr(version[:80])), _(INSTALL_HINT))
    fio = Fio(path, version)
    if fio.version_tuple < MIN_VERSION:
        need = ".".join(map(str, MIN_VERSION))
        raise FioMissing(_("{path} is {version}; diskmark needs fio {need} or newer.").format(
            path=path, version=version, need=need), _(INSTALL_HINT))
    return fio
