"""diskmark.1 as the build writes it (diskmark.cli.manpage, from the parser): man renders it
without a warning, and it names every command and action, every exit status, every
environment variable the code reads and where the files live."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from diskmark import locale
from diskmark.cli import build_parser
from diskmark.cli.manpage import render

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    locale.set_language("en")
    path = tmp_path_factory.mktemp("man") / "diskmark.1"
    path.write_text(render(build_parser()))
    return path


def shown(page: Path) -> str:
    if shutil.which("man") is None:
        pytest.skip("man is not installed (apt-get install man-db)")
    done = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MANWIDTH": "200", "MAN_KEEP_FORMATTING": "",
                               "LANG": "C.UTF-8"})
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return done.stdout


def test_man_renders_it_without_a_warning(page):
    if shutil.which("groff") is None:
        pytest.skip("groff is not installed (apt-get install groff-base)")
    done = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(page)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == "", done.stderr


def test_it_names_every_command_and_action(page):
    text = shown(page)
    parser = build_parser()
    commands = []
    for action in parser._actions:
        if action.choices and hasattr(action, "_name_parser_map"):
            for word, sub in action.choices.items():
                commands.append(word)
                for inner in sub._actions:
                    if hasattr(inner, "_name_parser_map"):
                        commands += [f"{word} {w}" for w in inner.choices]
    assert {"run", "baselines list", "history share", "completion"} <= set(commands)
    for command in commands:
        assert re.search(rf"^   diskmark {command}$", text, re.M), f"no section for {command}"
    for option in ("--fail-on-regression PCT", "--names", "--save-baseline NAME"):
        assert option in text


def test_it_has_exit_statuses_environment_files_and_examples(page):
    text = shown(page)
    for section in ("EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"):
        assert re.search(rf"^{section}$", text, re.M), section
    statuses = text.split("EXIT STATUS", 1)[1].split("ENVIRONMENT", 1)[0]
    assert re.findall(r"^       (\d+) ", statuses, re.M) == ["0", "1", "2", "3", "4", "130", "141"]
    read = set()
    for source in (ROOT / "diskmark").rglob("*.py"):
        read |= set(re.findall(r"\"(DISKMARK_[A-Z_]+|NO_COLOR)\"", source.read_text()))
    environment = text.split("ENVIRONMENT", 1)[1].split("FILES", 1)[0]
    assert read and all(name in environment for name in read), read
    for path in ("~/.config/diskmark/settings.json", "~/.local/share/diskmark/diskmark.sqlite3",
                 "~/Documents/diskmark/"):
        assert path in text
