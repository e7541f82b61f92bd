"""The system's programs (and fonts) the tests use, beside the Python packages of the test
extras: each with how the tests find it and the Debian package that brings it.

A test says what it uses with ``@pytest.mark.needs("zsh", ...)`` (a whole module with
``pytestmark``). ``./test.sh``, run as root, installs what the tests it runs need and no
more: it asks this module, as a script, what is missing on the machine, and only when
something is, asks pytest which of it the selected tests need (tests/conftest.py,
``--missing-system-packages FILE``, a collection only). So ``./test.sh -m "not slow"`` on a
fresh machine installs no Chromium, zsh, fish, Xvfb or mkfs.xfs, and on a machine that has
everything costs no collection at all. The marker only declares: a test whose program is
missing skips and says why, as it always did.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Callable, Iterable
from pathlib import Path

#: Where root's programs are, on a PATH that may lack them (``command -v`` in test.sh).
SBIN = ("/usr/local/sbin", "/usr/sbin", "/sbin")


def _command(name: str) -> Callable[[], bool]:
    def found() -> bool:
        path = os.pathsep.join([os.environ.get("PATH", ""), *SBIN])
        return shutil.which(name, path=path) is not None
    return found


def _chromium() -> bool:
    from chromium import find_chromium

    return find_chromium() is not None


def _dejavu() -> bool:
    return Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf").exists()


def _cjk_font() -> bool:
    """As scripts/bootstrap.sh's ensure_fonts looks: the font it installs, or any that
    fontconfig says covers Japanese."""
    if Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc").exists():
        return True
    if shutil.which("fc-list") is None:
        return False
    listed = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True,
                            timeout=30, check=False)
    return bool(listed.stdout.strip())


#: Every program a test may need, by the name its marker gives: (is it there, the Debian
#: package). fio is not here: diskmark itself needs it, and test.sh installs it always.
TOOLS: dict[str, tuple[Callable[[], bool], str]] = {
    "mkfs.ext4": (_command("mkfs.ext4"), "e2fsprogs"),
    "mkfs.xfs": (_command("mkfs.xfs"), "xfsprogs"),
    "mkfs.btrfs": (_command("mkfs.btrfs"), "btrfs-progs"),
    # a FUSE file system on an image file (the storage stack's FUSE layer, its program named)
    "fuse2fs": (_command("fuse2fs"), "fuse2fs"),
    "smartctl": (_command("smartctl"), "smartmontools"),
    "man": (_command("man"), "man-db"),
    "desktop-file-validate": (_command("desktop-file-validate"), "desktop-file-utils"),
    "zsh": (_command("zsh"), "zsh"),
    "fish": (_command("fish"), "fish"),
    "Xvfb": (_command("Xvfb"), "xvfb"),
    "xclip": (_command("xclip"), "xclip"),
    "xsel": (_command("xsel"), "xsel"),
    # the fleet tests start their own sshd in namespaces (tests/support/ssh_hosts.py)
    "sshd": (lambda: os.access("/usr/sbin/sshd", os.X_OK), "openssh-server"),
    "chromium": (_chromium, "chromium"),
    "dejavu": (_dejavu, "fonts-dejavu-core"),
    "cjk-font": (_cjk_font, "fonts-wqy-microhei"),
}


def missing_packages(tools: Iterable[str]) -> list[str]:
    """The packages that bring those of ``tools`` this machine lacks, each once, in order."""
    packages = []
    for tool in sorted(set(tools)):
        present, package = TOOLS[tool]
        if not present() and package not in packages:
            packages.append(package)
    return packages


if __name__ == "__main__":  # what is missing of everything any test may need
    print("\n".join(missing_packages(TOOLS)))
