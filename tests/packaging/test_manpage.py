"""diskmark.1 as the build writes it (diskmark.cli.manpage, from the parser): man renders it
without a warning, and it names every command and action, every exit status, every
environment variable the code reads and where the files live."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from diskmark import locale
from diskmark.cli.manpage import SUMMARY, _commands, render
from diskmark.cli.parser import build_parser
from diskmark.locale import LANGUAGES

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("man")

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    locale.set_language("en")
    path = tmp_path_factory.mktemp("man") / "diskmark.1"
    path.write_text(render(build_parser()))
    return path


def shown(page: Path, width: int = 200) -> str:
    if shutil.which("man") is None:
        pytest.skip("man is not installed (apt-get install man-db)")
    done = subprocess.run(["man", "-l", str(page)], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "MANWIDTH": str(width), "MAN_KEEP_FORMATTING": "",
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


# --- a page per language ----------------------------------------------------------------


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> dict[str, Path]:
    """The page in every language but English, as the build writes them."""
    made = {}
    root = tmp_path_factory.mktemp("man-lang")
    try:
        for lang in LANGUAGES:
            if lang == locale.SOURCE:
                continue
            locale.set_language(lang)
            made[lang] = root / f"diskmark.{lang}.1"
            made[lang].write_text(render(build_parser()))
    finally:
        locale.set_language("en")
    return made


def width(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


def test_every_language_renders_without_a_warning_within_the_width(pages):
    for lang, page in pages.items():
        if shutil.which("groff"):
            done = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z", str(page)],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 0 and done.stderr == "", (lang, done.stderr)
        text = shown(page, width=80).splitlines()
        # Japanese and Chinese have no spaces to break at: the page gives roff the places. The
        # paragraphs roff fills: the program's options, and every section after the commands
        # (whose epilogs are laid out by hand, as --help shows them)
        commands = [i for i, line in enumerate(text) if line.startswith("   diskmark ")]
        after = next(i for i in range(commands[-1], len(text)) if text[i][:1].isalpha())
        filled = text[1:commands[0]] + text[after:-1]  # the header and footer aside
        wide = [line for line in filled if width(line) > 80]
        assert wide == [], (lang, wide[:3])
        # and no line starts with a closing mark, as Japanese and Chinese typesetting wants
        closing = [line for line in filled if line.strip() and line.lstrip()[0] in "、。，．：；？！）」』】"]
        assert closing == [], (lang, closing[:3])


def test_every_language_has_its_headings_texts_and_every_command(pages):
    commands = [words for words, _sub in _commands(build_parser(), ())]
    for lang, page in pages.items():
        text = shown(page)
        locale.set_language(lang)
        try:
            headings = [locale.pgettext("man page section", h) for h in
                        ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXIT STATUS",
                         "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO")]
            done_text = locale._("Done.")
            summary = locale._(SUMMARY)
            run_help = build_parser()._subparsers._group_actions[0].choices["run"].description
        finally:
            locale.set_language("en")
        assert done_text != "Done." and summary != SUMMARY, lang  # translated, not English
        found = [line for line in text.splitlines() if line and not line[0].isspace()]
        assert found[1:-1] == headings, (lang, found)  # header and footer lines aside
        statuses = text.split(f"\n{headings[5]}\n", 1)[1].split(f"\n{headings[6]}\n", 1)[0]
        assert re.findall(r"^       (\d+) ", statuses, re.M) == ["0", "1", "2", "3", "4", "130",
                                                                   "141"], lang
        assert done_text in " ".join(statuses.split()), lang
        assert summary in text and " ".join(run_help.split())[:20] in " ".join(text.split())
        for words in commands:
            assert re.search(rf"^   diskmark {' '.join(words)}$", text, re.M), (lang, words)
