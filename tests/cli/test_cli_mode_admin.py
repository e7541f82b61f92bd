"""CrystalDiskMark's text report says ``Mode: [Admin]`` when it ran elevated; diskmark's says
it when the run was measured as root, keeps it in the result, and keeps it from an imported
CrystalDiskMark file. Before: the Mode line was empty whoever ran, and an import dropped it.
A real run as root, one as the user nobody, and imports of published CrystalDiskMark files.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import TINY_ARGS
from faults import as_nobody, can_drop_privileges

from diskmark.model.results import SessionResult

FIXTURES = Path(__file__).parent.parent / "fixtures" / "cdm"
QUICK = ["--profile", "demo", *TINY_ARGS]


def diskmark(*args: str, wrap=None, env=None) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "diskmark", *args]
    return subprocess.run(wrap(command) if wrap else command, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=300, cwd="/",
                          env=env or dict(os.environ))


def mode_line(report: str) -> str:
    return next(line for line in report.splitlines() if line.startswith("   Mode:"))


def test_a_run_as_root_says_admin_as_crystaldiskmark_does(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("this test runs diskmark as root: run the suite as root")
    target = tmp_path / "target"
    target.mkdir()
    out = diskmark("run", "--target", str(target), *QUICK, "--format", "text")
    assert out.returncode == 0, out.stderr
    assert mode_line(out.stdout) == "   Mode: [Admin]"
    saved = json.loads(diskmark("history", "show", "last", "--format", "json").stdout)
    assert saved["system"]["as_root"] is True
    assert mode_line(diskmark("history", "show", "last").stdout) == "   Mode: [Admin]"


def test_a_run_as_a_user_has_an_empty_mode_line():
    ok, reason = can_drop_privileges()
    if not ok:
        pytest.skip(reason)
    top = Path("/tmp") / f"dm-admin-{os.getpid()}"
    for folder in (top, top / "target", top / "home"):
        folder.mkdir(mode=0o777)
        os.chmod(folder, 0o777)
    env = dict(os.environ, DISKMARK_HOME=str(top / "home"))
    try:
        out = diskmark("run", "--target", str(top / "target"), *QUICK, "--format", "text",
                       wrap=as_nobody, env=env)
        saved = diskmark("history", "show", "last", "--format", "json", wrap=as_nobody, env=env)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    assert out.returncode == 0, out.stderr
    assert mode_line(out.stdout) == "   Mode:"
    assert json.loads(saved.stdout)["system"]["as_root"] is False


@pytest.mark.parametrize(("fixture", "line"), [
    ("cdm8_0_1_default.txt", "   Mode: [Admin]"),
    ("cdm8_0_4_nvme_mix_quoted.txt", "   Mode: [Admin]"),
    ("cdm7_0_0_java_quote.txt", "   Mode:"),  # no Mode line at all: not known
])
def test_an_imported_crystaldiskmark_file_keeps_admin(fixture, line):
    done = diskmark("history", "import", str(FIXTURES / fixture))
    assert done.returncode == 0, done.stderr
    assert mode_line(diskmark("history", "show", "last").stdout) == line
    saved = json.loads(diskmark("history", "show", "last", "--format", "json").stdout)
    assert saved["system"].get("as_root") is (True if "[Admin]" in line else None)


def test_a_result_of_an_earlier_version_reads_without_it():
    """The field is optional: a document without it reads as not known, and writes no
    [Admin]."""
    from history_data import THREE_PASSES, real_result

    document = real_result(THREE_PASSES)
    assert "as_root" not in document["system"]
    assert SessionResult.from_dict(document).system.as_root is None
