"""The command line in the user's language: ``--lang`` anywhere on the line (before the
parser is built, so --help follows it), the environment otherwise, a language diskmark does
not speak refused with the ones it does, every help text marked (the pseudo language brackets
each one, so an unmarked or glued text shows up bare), tables padded by terminal cells, and a
damaged catalog in the installed package said in one line while diskmark goes on in English."""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from history_data import EIGHT_TESTS, THREE_PASSES, clone, real_result, write_reports

from diskmark import locale
from diskmark.cli.main import choose_language, read_command_line
from diskmark.report.cells import text_cells


def diskmark(*args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120,
                          env={**os.environ, "COLUMNS": "100", **env})


@pytest.fixture(autouse=True)
def english_after():
    """An in-process test that chose a language leaves English to the tests after it."""
    yield
    locale.set_language("en")


#: The words a user types, which stay as they are in every language: the program, its
#: commands and their actions.
TYPED = ("diskmark run check checks why presets baselines history keys list show compare "
         "delete export import prune trend share completion").split()
#: What may stand bare in a help outside the brackets: what a user types, option strings,
#: metavars (capitals, [USER@]HOST[:PORT] among them), choices ({a,b}) and the punctuation of a usage line.
BARE = re.compile(r"^[\[(]*(" + "|".join(TYPED) + r"|-{1,2}[\w-]+|[A-Z][A-Z|:@\[\]_]*|"
                  r"\{[\w,]+\}|\.\.\.|\||:)[\])]*[,:]?$")


def bare_words(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo language's brackets that are not an option,
    a metavar or a choice: English a translator never saw."""
    outside = re.sub(r"⟦.*?⟧", " ", text, flags=re.S)
    return [w for w in outside.split() if not BARE.match(w)]


def test_run_help_in_the_pseudo_language_has_every_text_marked():
    done = diskmark("--lang", "pseudo", "run", "--help")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("⟦ûsàgé: ")  # argparse's own words go through diskmark.locale
    assert "⟦öptîöñs" in out and "⟦shöw thîs hélp méssàgé àñd éxît" in out
    assert "⟦éxàmplés:" in out and "⟦\nflééts:" in out  # the epilog, both parts
    assert "⟦bàsélîñés àñd çömpàrîsöñ" in out  # an argument group's title
    assert bare_words(out) == []


@pytest.mark.parametrize("command", [[], ["check"], ["checks"], ["presets"], ["baselines"],
                                     ["baselines", "compare"],
                                     ["history"], ["history", "export"], ["history", "trend"],
                                     ["history", "share"], ["keys"], ["completion"], ["why"]])
def test_every_help_in_the_pseudo_language_has_every_text_marked(command):
    done = diskmark("--lang=pseudo", *command, "--help")
    assert done.returncode == 0, done.stderr
    assert bare_words(done.stdout) == []


def test_lang_after_the_command_and_as_one_word():
    after = diskmark("history", "list", "--lang", "pseudo", "--help")
    joined = diskmark("history", "list", "--lang=pseudo", "--help")
    assert after.returncode == joined.returncode == 0
    assert after.stdout == joined.stdout and "⟦ûsàgé: " in after.stdout
    assert bare_words(after.stdout) == []


def test_an_error_in_the_pseudo_language_is_marked_whole():
    done = diskmark("history", "lsit", "--lang", "pseudo")
    assert done.returncode == 2
    assert "⟦ûñkñöwñ àçtîöñ 'lsit'; dîd ýöû méàñ 'list'?" in done.stderr
    missing = diskmark("--lang", "pseudo", "baselines", "show")
    assert missing.returncode == 2
    assert "⟦thé föllöwîñg àrgûméñts àré réqûîréd: NAME" in missing.stderr


def test_a_language_diskmark_does_not_speak_is_refused_with_the_ones_it_does():
    for typed in (["--lang", "xx", "run", "--help"], ["presets", "--lang=klingon"]):
        done = diskmark(*typed)
        assert done.returncode == 2 and done.stdout == ""
        assert "does not speak that language" in done.stderr
        assert "ja (日本語)" in done.stderr and "de (Deutsch)" in done.stderr
        assert "ru (Русский)" in done.stderr and "pseudo" not in done.stderr


def test_lang_is_kept_for_the_app_and_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    _parser, args = read_command_line(["--lang", "de_DE.UTF-8"])
    assert args.command is None and args.lang == "de" and locale.language() == "de"
    _parser, args = read_command_line(["presets"])
    assert args.lang is None and locale.language() == "ja"


def test_the_environment_chooses_japanese(monkeypatch):
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert locale.from_environment() == "ja"
    assert choose_language(["run", "--help"]) is None and locale.language() == "ja"
    monkeypatch.setenv("LC_ALL", "de_AT.UTF-8")  # LC_ALL comes before LANG, as in gettext
    assert choose_language([]) is None and locale.language() == "de"
    assert choose_language(["--", "--lang", "ko"]) is None and locale.language() == "de"


def test_history_list_columns_line_up_in_cells(tmp_path):
    """A host named in Japanese takes two cells a character: the columns after it stay in
    line, as the header's would in a Japanese translation."""
    when = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    docs = [clone(real_result(EIGHT_TESTS), when, 1.0, hostname="東京サーバ"),
            clone(real_result(THREE_PASSES), when.replace(day=2), 1.0, hostname="ci-2")]
    write_reports(tmp_path / "reports", docs)
    assert diskmark("history", "import", str(tmp_path / "reports")).returncode == 0
    done = diskmark("history", "list")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    starts = {text_cells(line[:line.index(device)])
              for line, device in zip(lines, ("DEVICE", "/dev/loop0", "tmpfs"))}
    assert len(starts) == 1, done.stdout
    widths = {text_cells(line) for line in lines}
    assert len(widths) == 1, done.stdout  # the right-aligned figures end together


def test_help_in_a_wide_script_is_wrapped_by_cells(monkeypatch):
    """argparse counts characters and breaks at spaces only: Japanese help ran twice as wide
    as the terminal. Wrapped by cells, between characters, no closing mark starts a line."""
    from diskmark.cli.arguments import Parser

    monkeypatch.setenv("COLUMNS", "50")
    text = ("テストファイルのサイズ（MiB 単位の整数、16MiB … 64GiB、既定 1GiB）。K、M、G と "
            "KiB、MiB、GiB は 2 進単位です。diskmark の MB は 1,000,000 バイトなので、MB と GB "
            "は受け付けません")
    parser = Parser(prog="diskmark", description=text)
    parser.add_argument("--size", help=text)
    shown = parser.format_help()
    lines = shown.splitlines()
    assert max(text_cells(line) for line in lines) <= 48, shown
    assert not [line for line in lines if line.lstrip()[:1] in ("、", "。", "）")], shown
    assert shown.count("".join(text.split())[:20]) == 0  # it was wrapped...
    squeezed = "".join(shown.split())
    assert squeezed.count("".join(text.split())) == 2  # ...and nothing of it was lost


@pytest.mark.parametrize("lang", [code for code in locale.LANGUAGES if code != "en"])
def test_run_help_in_each_shipped_language(lang):
    """``--lang X run --help`` in each language the package ships: argparse's words, the
    options' help and the epilog from that language's catalog, the options as typed."""
    import gettext

    catalog = gettext.translation(locale.DOMAIN, locale.LOCALE_DIR, languages=[lang])
    english = diskmark("--lang", "en", "run", "--help").stdout
    done = diskmark("--lang", lang, "run", "--help")
    assert done.returncode == 0, done.stderr
    for msgid in ("usage: ", "show this help message and exit"):
        translated = catalog.gettext(msgid)
        assert translated != msgid, f"{lang} has no translation of {msgid!r}"
        assert translated.strip() in done.stdout, (lang, translated)
    assert done.stdout != english
    assert "--target" in done.stdout and "--size" in done.stdout  # typed words stay


#: How a catalog of the installed package is damaged, by language: what its warning says.
DAMAGED = {"ja": "damaged (", "de": "damaged (Bad magic number)", "fr": "not a regular file",
           "es": "not a regular file", "ko": "larger than 4 MiB", "ru": "missing",
           "zh_TW": "damaged (unknown encoding: \\x1b[31mRED)"}


def mo_file(messages: dict[bytes, bytes]) -> bytes:
    """A catalog in gettext's binary format, made by hand: what no compiler would write."""
    keys = sorted(messages)
    ids, strs = b"", b""
    id_table, str_table = [], []
    for key in keys:
        id_table.append((len(key), len(ids)))
        ids += key + b"\0"
        str_table.append((len(messages[key]), len(strs)))
        strs += messages[key] + b"\0"
    start = 28 + 16 * len(keys)
    head = struct.pack("<7I", 0x950412DE, 0, len(keys), 28, 28 + 8 * len(keys), 0, start)
    tables = b"".join(struct.pack("<2I", n, start + at) for n, at in id_table)
    tables += b"".join(struct.pack("<2I", n, start + len(ids) + at) for n, at in str_table)
    return head + tables + ids + strs


@pytest.fixture(scope="module")
def damaged_package(tmp_path_factory) -> Path:
    """A copy of the package as it is installed (the compiled catalogs, no sources), in a
    directory whose name holds a newline, with its catalogs damaged: ja truncated, de
    garbage, fr a link to /dev/zero, es a FIFO, ko larger than any catalog, ru gone, zh_TW
    a hostile one whose charset is a terminal escape. The copy is what ``python -m diskmark``
    imports, PYTHONPATH coming before the venv's."""
    site = tmp_path_factory.mktemp("pkg") / "site\nFAKE LINE"
    package = Path(locale.__file__).parents[1]
    shutil.copytree(package, site / "diskmark",
                    ignore=shutil.ignore_patterns("*.po", "*.pot", "__pycache__"))
    catalogs = site / "diskmark" / "locale"
    mo = {lang: catalogs / lang / "LC_MESSAGES" / "diskmark.mo" for lang in DAMAGED}
    mo["ja"].write_bytes(mo["ja"].read_bytes()[:100])
    mo["de"].write_bytes(bytes(range(256)) * 100)
    for lang in ("fr", "es", "ru"):
        mo[lang].unlink()
    mo["fr"].symlink_to("/dev/zero")
    os.mkfifo(mo["es"])
    with mo["ko"].open("r+b") as f:
        f.truncate(5 * 1024 * 1024)
    mo["zh_TW"].write_bytes(mo_file({b"": b"Content-Type: text/plain; charset=\x1b[31mRED\n",
                                     b"Ready": b"\x1b[31mRED"}))
    return site


def installed(site: Path, *args: str, **env: str) -> tuple[subprocess.CompletedProcess, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=60, cwd=site.parent,
                          env={**os.environ, "COLUMNS": "100", "PYTHONPATH": str(site), **env})
    return done, time.monotonic() - started


@pytest.mark.parametrize("lang", DAMAGED)
@pytest.mark.parametrize("how", ["--lang", "LANG"])
def test_a_damaged_catalog_is_said_in_one_line_and_english_spoken(damaged_package, lang, how):
    """A truncated or garbage catalog ended every command in its language in a traceback,
    chosen by --lang or by LANG; a link to /dev/zero or a FIFO hung it. Now: English, the
    exit status of the command, one line in English naming the catalog (escaped: the
    package's directory has a newline in its name), in the time a command takes."""
    english, _took = installed(damaged_package, "--lang", "en", "presets")
    assert english.returncode == 0 and english.stderr == "", english.stderr
    if how == "--lang":
        done, took = installed(damaged_package, "--lang", lang, "presets")
    else:
        done, took = installed(damaged_package, "presets", LANG=f"{lang}.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout == english.stdout
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    path = damaged_package / "diskmark" / "locale" / lang / "LC_MESSAGES" / "diskmark.mo"
    shown = str(path).replace("\n", "\\n")
    assert lines[0].startswith(
        f"diskmark: cannot read the catalog for {lang} ({shown}): {DAMAGED[lang]}"), lines[0]
    assert lines[0].endswith("; speaking English instead. Reinstalling diskmark restores it.")
    assert took < 30


def test_a_damaged_catalog_asked_for_twice_is_said_once(damaged_package):
    done, _took = installed(damaged_package, "--lang", "ja", "run", "--help",
                            LANG="ja_JP.UTF-8")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: diskmark run")
    assert len(done.stderr.splitlines()) == 1
    assert "cannot read the catalog for ja" in done.stderr


def test_a_damaged_catalog_the_command_line_does_not_use_is_not_said(damaged_package):
    done, _took = installed(damaged_package, "--lang", "zh_CN", "presets", LANG="de_DE.UTF-8")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "测试" in done.stdout
