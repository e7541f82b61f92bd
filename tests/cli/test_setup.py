"""scripts/bootstrap.sh, the set-up behind ./start.sh and ./test.sh, run for real in bash
with a stand-in venv whose python only records what it was asked to do (no network, no
install): start.sh and test.sh never redo each other's work, and the command is linked."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
BOOTSTRAP = ROOT / "scripts" / "bootstrap.sh"


@pytest.fixture
def venv(tmp_path: Path) -> Path:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(f'#!/bin/sh\necho "$@" >> "{tmp_path}/calls"\n')
    python.chmod(0o755)
    (venv / "bin" / "diskmark").write_text("#!/bin/sh\n")
    return venv


def bootstrap(venv: Path, home: Path, script: str, path: str | None = None) -> subprocess.CompletedProcess:
    env = {"PATH": path or os.environ["PATH"], "HOME": str(home), "DISKMARK_VENV": str(venv),
           "PYTHON": sys.executable}
    return subprocess.run(["bash", "-c", f'source "{BOOTSTRAP}"; {script}'], env=env,
                          capture_output=True, text=True, timeout=60)


def installs(tmp_path: Path) -> list[str]:
    calls = tmp_path / "calls"
    return [c for c in calls.read_text().splitlines() if "pip install" in c] if calls.exists() else []


def test_start_after_test_and_test_after_start_reinstall_nothing(venv, tmp_path):
    home = tmp_path / "home"
    for script in ('ensure_venv "[test]"', 'ensure_venv ""', 'ensure_venv "[test]"',
                   'ensure_venv ""'):
        out = bootstrap(venv, home, script)
        assert out.returncode == 0, out.stderr
    assert len(installs(tmp_path)) == 1, installs(tmp_path)  # the test extras include the rest


def test_plain_first_then_test_extras_once_each(venv, tmp_path):
    home = tmp_path / "home"
    for script in ('ensure_venv ""', 'ensure_venv "[test]"', 'ensure_venv ""',
                   'ensure_venv "[test]"'):
        assert bootstrap(venv, home, script).returncode == 0
    assert len(installs(tmp_path)) == 2
    stamp = (venv / ".diskmark-installed").read_text().splitlines()
    assert len(stamp) == 2 and stamp[1].startswith("[test] ")


def test_the_command_is_linked_into_local_bin_and_said_so(venv, tmp_path):
    home = tmp_path / "home"
    out = bootstrap(venv, home, "link_command", path="/usr/bin:/bin")
    link = home / ".local" / "bin" / "diskmark"
    assert link.is_symlink() and os.readlink(link) == str(venv / "bin" / "diskmark")
    assert "linked the diskmark command" in out.stderr
    assert "not on your PATH" in out.stderr
    again = bootstrap(venv, home, "link_command", path=f"{home}/.local/bin:/usr/bin:/bin")
    assert again.returncode == 0 and again.stderr == ""  # done before: nothing to say


def test_someone_elses_command_is_left_alone(venv, tmp_path):
    home = tmp_path / "home"
    theirs = home / ".local" / "bin" / "diskmark"
    theirs.parent.mkdir(parents=True)
    theirs.write_text("#!/bin/sh\necho mine\n")
    out = bootstrap(venv, home, "link_command")
    assert out.returncode == 0 and "left alone" in out.stderr
    assert theirs.read_text() == "#!/bin/sh\necho mine\n"
    quiet = bootstrap(venv, tmp_path / "other", "DISKMARK_NO_LINK=1; link_command")
    assert quiet.returncode == 0 and not (tmp_path / "other" / ".local").exists()


def test_the_man_page_and_the_desktop_entry_are_installed_and_said_so(venv, tmp_path):
    home = tmp_path / "home"
    man1 = venv / "share" / "man" / "man1"
    man1.mkdir(parents=True)
    (man1 / "diskmark.1").write_text('.TH DISKMARK 1\n.SH NAME\ndiskmark \\- a test page\n')
    ja1 = venv / "share" / "man" / "ja" / "man1"
    ja1.mkdir(parents=True)
    (ja1 / "diskmark.1").write_text('.TH DISKMARK 1\n.SH NAME\ndiskmark \\- ja\n')
    out = bootstrap(venv, home, "link_manual; install_desktop_entry")
    assert out.returncode == 0, out.stderr
    link = home / ".local" / "share" / "man" / "man1" / "diskmark.1"
    assert link.is_symlink() and os.readlink(link) == str(man1 / "diskmark.1")
    ja_link = home / ".local" / "share" / "man" / "ja" / "man1" / "diskmark.1"
    assert ja_link.is_symlink() and os.readlink(ja_link) == str(ja1 / "diskmark.1")
    assert "linked the man pages into" in out.stderr and "(man diskmark): en ja\n" in out.stderr
    entry = home / ".local" / "share" / "applications" / "diskmark.desktop"
    assert f"Exec={venv}/bin/diskmark\n" in entry.read_text()
    assert f"Icon={ROOT}/data/diskmark.svg\n" in entry.read_text()
    assert "desktop's application menu" in out.stderr
    # man finds the page through the ~/.local/bin on PATH, as for the command (the venv's
    # bin is not on that PATH), and names it by the file the link leads to
    if shutil.which("man"):
        found = subprocess.run(["man", "-w", "diskmark"], capture_output=True, text=True,
                               env={"HOME": str(home), "PATH": f"{home}/.local/bin:/usr/bin:/bin"})
        assert found.stdout.strip() == str(link.resolve()), found.stderr
        found = subprocess.run(["man", "-L", "ja", "-w", "diskmark"], capture_output=True,
                               text=True, env={"HOME": str(home),
                                               "PATH": f"{home}/.local/bin:/usr/bin:/bin"})
        assert found.stdout.strip() == str(ja_link.resolve()), found.stderr
    if shutil.which("desktop-file-validate"):
        # its hints too (two main categories put it twice in a menu), not only its errors
        valid = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        assert valid.returncode == 0 and valid.stdout + valid.stderr == "", valid.stdout + valid.stderr
    again = bootstrap(venv, home, "link_manual; install_desktop_entry")
    assert again.returncode == 0 and again.stderr == ""  # done before: nothing to say


def test_someone_elses_man_page_and_desktop_entry_are_left_alone(venv, tmp_path):
    home = tmp_path / "home"
    (venv / "share" / "man" / "man1").mkdir(parents=True)
    (venv / "share" / "man" / "man1" / "diskmark.1").write_text(".TH DISKMARK 1\n")
    theirs = {home / ".local" / "share" / "man" / "man1" / "diskmark.1": ".TH THEIRS 1\n",
              home / ".local" / "share" / "applications" / "diskmark.desktop": "[Desktop Entry]\n"}
    for path, text in theirs.items():
        path.parent.mkdir(parents=True)
        path.write_text(text)
    out = bootstrap(venv, home, "link_manual; install_desktop_entry")
    assert out.returncode == 0 and out.stderr.count("left alone") == 2, out.stderr
    assert all(path.read_text() == text for path, text in theirs.items())
    quiet = bootstrap(venv, tmp_path / "other", "DISKMARK_NO_LINK=1; link_manual; install_desktop_entry")
    assert quiet.returncode == 0 and not (tmp_path / "other" / ".local").exists()
