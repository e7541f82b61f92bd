"""scripts/bootstrap.sh, the set-up behind ./start.sh and ./test.sh, run for real in bash
with a stand-in venv whose python only records what it was asked to do (no network, no
install): start.sh and test.sh never redo each other's work, the command is linked, and
test.sh installs the system's programs the tests it runs use, no more."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import chromium
import pytest
from system_tools import TOOLS, missing_packages

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


@pytest.mark.needs("man", "desktop-file-validate")
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


#: What ensure_test_tools finds missing where only /usr/bin is hidden (the mkfs tools, sshd and
#: the fonts are elsewhere): the packages of the programs there, every one a test declares.
HIDDEN = {"xvfb", "man-db", "xclip", "xsel", "zsh", "fish", "chromium", "desktop-file-utils",
          "fuse2fs"}


@pytest.fixture
def test_tools(tmp_path: Path):
    """ensure_test_tools as test.sh runs it, as root, with "$@" its arguments: the venv's
    python recorded, then run (pytest collects for real); apt replaced by a record of the
    packages asked for; /usr/bin off PATH but for what bootstrap.sh itself runs, so its
    programs (zsh, fish, man, Xvfb, Chromium...) are missing. ``everything``: those
    programs on PATH too, nothing missing. Returns (packages asked for, pytest asked)."""
    if os.geteuid() != 0:
        pytest.skip("test.sh installs the tests' programs as root only")
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text(
        f'#!/bin/sh\necho "$*" >> "{tmp_path}/calls"\nexec "{sys.executable}" "$@"\n')
    (venv / "bin" / "python").chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for program in ("id", "mktemp", "rm", "dirname"):
        (bin_dir / program).symlink_to(shutil.which(program))

    def run(*args: str, everything: bool = False) -> tuple[set[str], bool]:
        if everything:
            for name in ("zsh", "fish", "man", "Xvfb", "xclip", "xsel", "desktop-file-validate", "fuse2fs",
                         *chromium.NAMES):
                if not (bin_dir / name).exists() and shutil.which(name):
                    (bin_dir / name).symlink_to(shutil.which(name))
        (tmp_path / "calls").unlink(missing_ok=True)
        words = " ".join(f"'{a}'" for a in args)
        done = subprocess.run(
            ["/bin/bash", "-c", f'source "{BOOTSTRAP}"; install_packages() {{ echo "$@"; }}; '
                                f"ensure_test_tools {words}"],
            env={"PATH": str(bin_dir), "HOME": str(tmp_path), "DISKMARK_VENV": str(venv)},
            capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        calls = (tmp_path / "calls").read_text() if (tmp_path / "calls").exists() else ""
        return set(done.stdout.split()), "-m pytest" in calls

    return run


def test_what_test_sh_installs_is_what_the_tests_it_runs_use(test_tools):
    """-m "not slow" installed Chromium, Xvfb, zsh, fish and the mkfs tools that only the
    slow tests use; it installs what the quick ones use (copying on a virtual display, man
    for the man page), the whole suite (CI's ./test.sh -q) everything, and arguments pytest
    cannot collect with everything missing."""
    assert test_tools("-m", "not slow") == ({"xvfb", "xclip", "xsel", "man-db"}, True)
    assert test_tools("tests/packaging/test_completion.py") == ({"zsh", "fish"}, True)
    assert test_tools("tests/unit/test_model.py") == (set(), True)
    assert test_tools("-q") == (HIDDEN, True)
    assert test_tools("--no-such-option") == (HIDDEN, True)


def test_with_nothing_missing_test_sh_asks_no_collection(test_tools):
    """Where everything is installed (this machine once test.sh has run), test.sh costs a
    look at the table, not a collection of the suite."""
    if missing := missing_packages(TOOLS):
        pytest.skip(f"this machine lacks {', '.join(missing)}: there is always something to ask")
    assert test_tools("-m", "not slow", everything=True) == (set(), False)
