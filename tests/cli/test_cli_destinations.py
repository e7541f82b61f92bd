"""One rule for every file diskmark writes, `run --output`'s (diskmark.files.destination):
`history share --output` (HTML and PNG), `history export` and `baselines export` write into
a FIFO and a character device and never put a file in their place, refuse a missing
directory instead of making it, replace an existing file only with --replace (or --force,
its old word), and through a symbolic link replace the file it points to. Real processes,
a real FIFO read by a thread, a real device node (a private copy of /dev/null)."""

from __future__ import annotations

import argparse
import json
import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from destinations import FifoReader, is_null_node, make_null_node
from history_data import EIGHT_TESTS, real_result, write_reports

ROOT = os.geteuid() == 0


def diskmark(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ, DISKMARK_HOME=str(home)) if home is not None else None
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=120, env=env)


@pytest.fixture(scope="module")
def kept(tmp_path_factory) -> tuple[Path, str]:
    """One real result, in the history and as baseline b, in a home the module's tests
    share (they only read it); returns the home and the run's id."""
    home = tmp_path_factory.mktemp("home")
    (report,) = write_reports(tmp_path_factory.mktemp("reports"), [real_result(EIGHT_TESTS)])
    done = diskmark("history", "import", str(report), home=home)
    assert done.returncode == 0, done.stderr
    done = diskmark("baselines", "import", str(report), "--name", "b", home=home)
    assert done.returncode == 0, done.stderr
    listed = json.loads(diskmark("history", "list", "--format", "json", home=home).stdout)
    return home, listed["runs"][0]["id"]


@pytest.fixture
def saved(kept, monkeypatch) -> str:
    """The run's id, with DISKMARK_HOME the home that holds it."""
    home, run = kept
    monkeypatch.setenv("DISKMARK_HOME", str(home))
    return run


#: Each command that writes a file: what its file starts with, and how it is asked to
#: write one (the run's id, the file, the options).
COMMANDS: dict[str, tuple[bytes, Callable[[str, Path], list[str]]]] = {
    "history share html": (b"<!DOCTYPE html", lambda run, dest: [
        "history", "share", run, "--output", str(dest), "--format", "html"]),
    "history share png": (b"\x89PNG", lambda run, dest: [
        "history", "share", run, "--output", str(dest), "--format", "png"]),
    "history export": (b"{", lambda run, dest: ["history", "export", str(dest), run]),
    "baselines export": (b"{", lambda run, dest: ["baselines", "export", "b", str(dest)]),
}
SUFFIX = {"history share html": ".html", "history share png": ".png"}


def write(command: str, run: str, dest: Path, *options: str) -> subprocess.CompletedProcess:
    return diskmark(*COMMANDS[command][1](run, dest), *options)


def name(command: str, stem: str) -> str:
    return stem + SUFFIX.get(command, ".json")


@pytest.fixture(params=list(COMMANDS))
def command(request) -> str:
    return request.param


def test_a_fifo_is_written_into_and_stays_a_fifo(command, saved, tmp_path):
    fifo = tmp_path / name(command, "fifo")
    reader = FifoReader(fifo)
    done = write(command, saved, fifo, "--replace")  # allowed to replace, yet never does
    assert done.returncode == 0, done.stderr
    assert reader.received().startswith(COMMANDS[command][0])
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_a_character_device_is_written_into_and_never_replaced(command, saved, tmp_path):
    if not ROOT:
        pytest.skip("making a device node needs root")
    node = make_null_node(tmp_path / name(command, "null"))
    for options in ([], ["--replace"], ["--force"]):
        done = write(command, saved, node, *options)
        assert done.returncode == 0, (options, done.stderr)
        assert is_null_node(node), f"{command} {options} put a file in the device's place"
    assert [p.name for p in tmp_path.iterdir()] == [node.name]  # no temporary left


def test_a_missing_directory_is_refused_not_made(command, saved, tmp_path):
    dest = tmp_path / "no-such-dir" / name(command, "out")
    done = write(command, saved, dest, "--replace")
    assert done.returncode in (1, 2), done.stderr
    assert f"the directory {dest.parent} does not exist".encode() in done.stderr
    assert b"Traceback" not in done.stderr
    assert not dest.parent.exists()


def test_an_existing_file_is_replaced_only_when_asked(command, saved, tmp_path):
    mine = tmp_path / name(command, "mine")
    mine.write_text("mine")
    done = write(command, saved, mine)
    assert done.returncode == 2, done.stderr
    assert done.stderr.decode().splitlines()[0] == \
        f"diskmark: {mine} exists; add --replace to replace it."
    assert mine.read_text() == "mine"
    for word in ("--replace", "--force"):  # --force: the word some commands had, kept
        mine.write_text("mine")
        done = write(command, saved, mine, word)
        assert done.returncode == 0, (word, done.stderr)
        assert mine.read_bytes().startswith(COMMANDS[command][0]), word


def test_a_symbolic_link_replaces_what_it_points_to_and_a_dangling_one_is_refused(
        command, saved, tmp_path):
    real = tmp_path / name(command, "real")
    real.write_text("mine")
    link = tmp_path / name(command, "link")
    link.symlink_to(real)
    done = write(command, saved, link)
    assert done.returncode == 2 and real.read_text() == "mine", done.stderr
    done = write(command, saved, link, "--replace")
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes().startswith(COMMANDS[command][0])
    dangling = tmp_path / name(command, "dangling")
    dangling.symlink_to(tmp_path / name(command, "nowhere"))
    done = write(command, saved, dangling, "--replace")
    assert done.returncode == 2 and b"symbolic link" in done.stderr, done.stderr
    assert dangling.is_symlink() and not (tmp_path / name(command, "nowhere")).exists()


def test_history_export_makes_the_directory_it_is_given_but_not_its_parents(saved, tmp_path):
    """A directory named to hold one file a run is made as a file would be: where its parent
    exists."""
    done = diskmark("history", "export", str(tmp_path / "runs"))
    assert done.returncode == 0, done.stderr
    assert [p.suffix for p in (tmp_path / "runs").iterdir()] == [".json"]
    deep = tmp_path / "a" / "b"
    done = diskmark("history", "export", str(deep))
    assert done.returncode == 1 and f"the directory {deep.parent} does not exist".encode() \
        in done.stderr, done.stderr
    assert not (tmp_path / "a").exists()


def test_one_word_replaces_in_every_command_and_force_is_its_hidden_alias():
    """--replace wherever something may be replaced (a file, a baseline of the same name);
    --force, which some commands had, still works but is neither shown nor completed."""
    from diskmark.cli.parser import build_parser

    replacing: dict[tuple[str, ...], set[str]] = {}

    def walk(parser: argparse.ArgumentParser, command: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, (*command, name))
            elif action.dest == "replace":
                replacing.setdefault(command, set()).update(action.option_strings)
                if "--force" in action.option_strings:
                    assert action.help == argparse.SUPPRESS, command
            else:
                assert "--force" not in action.option_strings, command
        assert "--force" not in parser.format_help(), command

    walk(build_parser(), ())
    assert replacing == {command: {"--replace", "--force"} for command in [
        ("run",), ("baselines", "export"), ("baselines", "import"), ("history", "export"),
        ("history", "share")]}
    for shell in ("bash", "zsh", "fish"):
        script = diskmark("completion", shell).stdout.decode()
        assert "--replace" in script and "--force" not in script, shell
