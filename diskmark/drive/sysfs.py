"""Reading the kernel's attributes in /sys: one short line of text each, which may vanish
at any moment (a disk unplugged, a loop device detached), so a file that cannot be read is
an empty answer, never an error."""

from __future__ import annotations

from pathlib import Path


def read_sys(path: str | Path) -> str:
    """The attribute at ``path`` stripped, or "" when it cannot be read."""
    try:
        return Path(path).read_text(errors="replace").strip()
    except OSError:
        return ""
