"""Headless Chromium for the tests that check the shared HTML page as a browser shows it
(diskmark itself needs no browser: its PNGs are drawn by resvg). It runs with a new, empty
profile directory, no sandbox (root in containers), no GPU, and every background network
feature off: the page fetches nothing and neither does the browser. ``DISKMARK_CHROMIUM``
names another binary."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

#: The flags that make headless Chromium quiet and offline.
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--disable-extensions", "--mute-audio")


def find_chromium() -> str | None:
    chosen = os.environ.get("DISKMARK_CHROMIUM")
    if chosen:
        return chosen if shutil.which(chosen) else None
    return next((found for name in NAMES if (found := shutil.which(name))), None)


def command(binary: str, profile: Path, *args: str) -> list[str]:
    return [binary, *FLAGS, f"--user-data-dir={profile}", *args]
