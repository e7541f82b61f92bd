"""A shared page as a PNG: the HTML rendered by headless Chromium.

Chromium draws the page exactly as a browser shows the HTML file, fonts and SVG included,
which no hand-made rasteriser would. It runs with a new, empty profile directory, no
sandbox (root in containers), no GPU, and every background network feature off: the page
fetches nothing and neither does the browser. ``DISKMARK_CHROMIUM`` names another binary.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from diskmark.locale import _

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
WIDTH = 1100
TIMEOUT_S = 90

#: The flags that make headless Chromium quiet and offline (and the test uses).
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--disable-extensions", "--mute-audio")


class ChromiumMissing(RuntimeError):
    """No Chromium to render with; the message says how to get one."""


def find_chromium() -> str | None:
    chosen = os.environ.get("DISKMARK_CHROMIUM")
    if chosen:
        return chosen if shutil.which(chosen) else None
    return next((found for name in NAMES if (found := shutil.which(name))), None)


def command(binary: str, profile: Path, *args: str) -> list[str]:
    return [binary, *FLAGS, f"--user-data-dir={profile}", *args]


def render_png(html: str, dest: Path, height: int | None = None, width: int = WIDTH) -> Path:
    """Render ``html`` to ``dest`` (a PNG of ``width`` × ``height`` pixels; the height
    defaults to what the page needs, estimated). Raises ChromiumMissing or RuntimeError
    with Chromium's own words."""
    binary = find_chromium()
    if binary is None:
        raise ChromiumMissing(_("a PNG needs Chromium to draw the page, and none was found "
                                "(Debian/Ubuntu: {command}); the .html form needs nothing").format(
            command="sudo apt install chromium"))
    if height is None:
        height = 2000
    dest = Path(dest)
    with tempfile.TemporaryDirectory(prefix="diskmark-png-") as work:
        work_dir = Path(work)
        page = work_dir / "page.html"
        page.write_text(html, encoding="utf-8")
        shot = work_dir / "shot.png"
        profile = work_dir / "profile"
        profile.mkdir()
        try:
            done = subprocess.run(command(binary, profile, f"--screenshot={shot}",
                                          f"--window-size={width},{height}", page.as_uri()),
                                  capture_output=True, text=True, timeout=TIMEOUT_S,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise RuntimeError(_("Chromium did not finish the picture within {seconds} s").format(
                seconds=TIMEOUT_S)) from None
        if not shot.exists() or shot.stat().st_size == 0:
            said = (done.stderr or done.stdout).strip().splitlines()[-3:]
            # TRANSLATORS: {said}: the last lines Chromium printed
            raise RuntimeError(_("Chromium made no picture (exit {code}): {said}").format(
                code=done.returncode, said=" / ".join(said)))
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.tmp")
        shutil.copyfile(shot, tmp)
        os.replace(tmp, dest)
    return dest
