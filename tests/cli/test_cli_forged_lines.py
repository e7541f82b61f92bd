"""A value from outside never starts a line of its own in what diskmark prints: a host's
IPv6 scope id, ``--lang``, the path of an imported file, the path of a written page, a
comment, a preset's name. Each holds a newline followed by text that would read as a line of
diskmark's own ("FAKE: imported 999 runs"); each is run through the real ``diskmark``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cdm" / "cdm8_0_1_default.txt"
FORGED = "FAKE: imported 999 runs"
QUICK = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0",
         "--profile", "demo", "--mode", "read"]


def diskmark(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, **(env or {})})


def assert_no_forged_line(out: subprocess.CompletedProcess[str]) -> None:
    for stream in (out.stdout, out.stderr):
        forged = [line for line in stream.splitlines() if line.lstrip().startswith("FAKE")]
        assert not forged, f"a value started a line of its own: {forged!r} in\n{stream}"
    assert "\\n" in out.stdout + out.stderr, "the newline is shown escaped where the value is"


@pytest.fixture
def forged_file(tmp_path: Path) -> Path:
    """A real CrystalDiskMark result under a name that holds a newline."""
    path = tmp_path / f"a\n{FORGED}.txt"
    path.write_bytes(FIXTURE.read_bytes())
    return path


def test_an_ipv6_scope_id_with_a_newline_is_one_line(isolated_home):
    # a short target: a long one (pytest's) is refused for its socket's path before the host
    out = diskmark("run", "--host", "[::1%a\nFAKE LINE]:22", "--target", "/tmp")
    assert out.returncode == 2, out.stderr
    assert_no_forged_line(out)
    assert "[::1%a\\nFAKE LINE]:22" in out.stderr


def test_a_language_with_a_newline_is_one_line(isolated_home):
    out = diskmark("--lang", "ja\nFAKE", "presets")
    assert out.returncode == 2
    assert_no_forged_line(out)
    assert out.stderr.count("\n") == 1, out.stderr


def test_the_path_of_an_imported_file_is_one_line(isolated_home, forged_file):
    out = diskmark("history", "import", str(forged_file))
    assert out.returncode == 0, out.stderr
    assert_no_forged_line(out)
    out = diskmark("baselines", "import", str(forged_file), "--name", "usb")
    assert out.returncode == 0, out.stderr
    assert_no_forged_line(out)


def test_the_path_of_a_shared_page_is_one_line(isolated_home, tmp_path):
    assert diskmark("history", "import", str(FIXTURE)).returncode == 0
    first = json.loads(diskmark("history", "list", "--format", "json").stdout)["runs"][0]["id"]
    page = tmp_path / f"b\n{FORGED}.html"
    out = diskmark("history", "share", first, "--output", str(page))
    assert out.returncode == 0, out.stderr
    assert page.is_file()
    assert_no_forged_line(out)


def test_a_comment_and_a_preset_name_with_newlines_stay_one_line(isolated_home, tmp_path):
    """A comment forged a line of the text report (and a test line, read back, when the
    report is imported); a user preset's name forged one in ``diskmark presets``."""
    presets = isolated_home / "config" / "presets"
    presets.mkdir(parents=True)
    builtin = Path(__file__).resolve().parents[2] / "diskmark" / "presets" / "default.toml"
    text = builtin.read_text().replace('id = "default"', 'id = "mine"').replace(
        'name = "Default"\ndescription', f'name = "Mine\\n{FORGED}"\ndescription', 1)
    (presets / "mine.toml").write_text(text)
    out = diskmark("presets")
    assert out.returncode == 0, out.stderr
    assert "Mine\\nFAKE" in out.stdout, out.stdout + out.stderr
    assert_no_forged_line(out)
    target = tmp_path / "t"
    target.mkdir()
    out = diskmark("run", "--target", str(target), *QUICK, "--comment",
                   "usb\n  Sequential Read 1 MiB (Q=  8, T= 1):  9999.999 MB/s")
    assert out.returncode == 0, out.stderr
    assert "Comment: usb\\n  Sequential" in out.stdout
    assert not [line for line in out.stdout.splitlines() if "9999.999" in line
                and not line.startswith("Comment:")]
