"""Shared fixtures: an isolated DISKMARK_HOME and a check that nothing is left behind."""

from __future__ import annotations

import os
from pathlib import Path

import psutil
import pytest


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Never touch the user's real settings, history or baselines."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DISKMARK_HOME", str(home))
    return home


def fio_processes(directory: Path) -> list[psutil.Process]:
    """fio processes working in ``directory``: fio runs inside a private directory there
    (its working directory), in its own session, so match on where it works, not on the
    process tree."""
    found = []
    where = os.path.realpath(directory)
    for p in psutil.process_iter(["name", "cmdline", "cwd"]):
        try:
            cwd = p.info["cwd"] or ""
            if p.info["name"] == "fio" and (
                    cwd == where or cwd.startswith(where + os.sep)
                    or str(directory) in " ".join(p.info["cmdline"] or [])):
                found.append(p)
        except psutil.Error:
            pass
    return found


def leftovers(directory: Path) -> list[Path]:
    return sorted(directory.glob(".diskmark-*"))


@pytest.fixture
def no_leftovers():
    """Register directories; afterwards no fio process may work in them, and no test file
    may remain in them."""
    dirs: list[Path] = []
    yield dirs
    for d in dirs:
        assert fio_processes(d) == [], f"fio processes left behind in {d}"
        assert leftovers(d) == [], f"test files left behind in {d}"
