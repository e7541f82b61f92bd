"""Paths that are not UTF-8 and text holding terminal escapes (names, notes, comments, device
and model strings, preset fields), through real `diskmark` processes and real fio: the report
survives, nothing raw reaches the terminal, JSON stays valid UTF-8 and exact."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from conftest import leftovers

from diskmark.locale.text_safety import json_utf8, shown
from diskmark.store.store import Store

QUICK = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0",
         "--profile", "demo", "--mode", "read"]
ESC = "\x1b]0;owned\x07\x1b[2J\x1b[31m"  # OSC retitle, CSI clear screen, red
C1_CSI = "\x9b31m"


def diskmark_bytes(*args: str | bytes) -> subprocess.CompletedProcess:
    """Run diskmark and keep stdout/stderr as bytes, to see exactly what a terminal gets."""
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          stdin=subprocess.DEVNULL, timeout=300)


def raw_controls(data: bytes) -> list[str]:
    """Control characters (but newline and tab) in UTF-8 output, as a terminal would get them."""
    text = data.decode("utf-8")  # also: the output must be UTF-8
    return sorted({repr(c) for c in text if (ord(c) < 32 and c not in "\n\t")
                   or 0x7f <= ord(c) <= 0x9f})


@pytest.fixture
def odd_dir(tmp_path) -> Path:
    """A target directory whose name is the byte 0xff, which is not UTF-8."""
    path = os.fsencode(tmp_path) + b"/\xff"
    os.mkdir(path)
    return Path(os.fsdecode(path))


@pytest.mark.parametrize("fmt", ["text", "json", "csv", "markdown"])
def test_a_path_that_is_not_utf8_keeps_the_report_and_the_history(odd_dir, fmt, isolated_home):
    out = diskmark_bytes("run", "--target", os.fsencode(odd_dir), *QUICK, "--format", fmt)
    assert out.returncode == 0, out.stderr.decode("utf-8", "replace")
    stdout = out.stdout.decode("utf-8")  # valid UTF-8
    shown = os.fsdecode(os.fsencode(odd_dir.parent)) + "/\\xff"
    if fmt == "json":
        assert json.loads(stdout)["system"]["target"] == shown
    else:
        assert shown in stdout
    history = Store(isolated_home / "data").history()
    assert len(history) == 1
    saved = json.loads(json.dumps(history[0].to_file_dict(), ensure_ascii=False).encode("utf-8"))
    assert saved["result"]["settings"]["target"] == shown
    assert leftovers(odd_dir) == []


def test_messages_about_a_path_that_is_not_utf8_show_its_bytes_escaped(odd_dir):
    missing = os.fsencode(odd_dir) + b"/gone\xfe"
    out = diskmark_bytes("run", "--target", missing, *QUICK)
    assert out.returncode == 2
    assert b"/\\xff/gone\\xfe" in out.stderr and b"udc" not in out.stderr
    report = os.fsencode(odd_dir) + b"/report\xfe.txt"
    (odd_dir / "precious").write_text("x")
    out = diskmark_bytes("run", "--target", os.fsencode(odd_dir), *QUICK, "--output", report)
    assert out.returncode == 0, out.stderr
    assert b"report written to " in out.stderr and b"/\\xff/report\\xfe.txt" in out.stderr
    assert b"Test:" in Path(os.fsdecode(report)).read_bytes()


def test_terminal_escapes_in_data_are_shown_escaped(tmp_path, isolated_home):
    """A comment, a note, device and model strings and a preset's name holding ESC, OSC,
    CSI and C1 controls: every command prints them as \\x1b etc., JSON keeps them exact."""
    target = tmp_path / "t"
    target.mkdir()
    out = diskmark_bytes("run", "--target", str(target), *QUICK, "--comment", f"c{ESC}",
                         "--save-baseline", "plain", "--note", f"n{ESC}{C1_CSI}")
    assert out.returncode == 0, out.stderr
    assert raw_controls(out.stdout) == [] and raw_controls(out.stderr) == []
    assert "Comment: c\\x1b]0;owned\\x07\\x1b[2J" in out.stdout.decode()

    # a baseline file from elsewhere with escapes in its device facts
    exported = tmp_path / "plain.json"
    assert diskmark_bytes("baselines", "export", "plain", str(exported)).returncode == 0
    data = json.loads(exported.read_text())
    data["name"] = "odd"
    data["result"]["system"]["model"] = f"m{ESC}"
    data["result"]["system"]["device"] = f"/dev/d{C1_CSI}"
    exported.write_text(json.dumps(data))
    out = diskmark_bytes("baselines", "import", str(exported))
    assert out.returncode == 0, out.stderr
    # a damaged file whose very name holds an escape
    (isolated_home / "data" / "baselines").mkdir(exist_ok=True)  # as an earlier version left it
    (isolated_home / "data" / "baselines" / f"x{ESC}.json").write_text("{")

    for args in (["baselines", "list"], ["baselines", "show", "odd"],
                 ["baselines", "show", "plain"], ["baselines", "compare", "plain", "odd"]):
        out = diskmark_bytes(*args)
        assert out.returncode == 0, (args, out.stderr)
        assert raw_controls(out.stdout) == [] and raw_controls(out.stderr) == [], args
        assert b"\\x1b" in out.stdout or b"\\x9b" in out.stdout, args

    out = diskmark_bytes("baselines", "compare", "plain", "odd", "--format", "json")
    assert raw_controls(out.stdout) == []
    assert json.loads(out.stdout)["current_name"] == "odd"
    shown = diskmark_bytes("baselines", "export", "odd", str(tmp_path / "again.json"))
    assert shown.returncode == 0
    again = json.loads((tmp_path / "again.json").read_text())["result"]["system"]
    assert again["model"] == f"m{ESC}" and again["device"] == f"/dev/d{C1_CSI}"  # exact

    presets = isolated_home / "config" / "presets"
    presets.mkdir(parents=True)
    (presets / "odd.toml").write_text(
        'id = "odd"\nname = "Odd \\u001b[31m"\ndescription = "d \\u001b]0;t\\u0007"\n'
        '[profiles.default]\nname = "P \\u009b1m"\n'
        'tests = [{ pattern = "RND", block = "4KiB", queues = 1, threads = 1 }]\n')
    out = diskmark_bytes("presets")
    assert out.returncode == 0
    assert raw_controls(out.stdout) == [] and b"Odd \\x1b[31m" in out.stdout

    out = diskmark_bytes("run", "--target", str(tmp_path / f"gone{ESC}"), *QUICK)
    assert out.returncode == 2 and raw_controls(out.stderr) == []
    assert b"gone\\x1b]0;owned" in out.stderr


#: Reads as "report-exe.txt" where U+202E is honoured; a zero-width joiner and a tab hide and
#: shift. Each is shown escaped, as control characters are; JSON keeps it exact.
SPOOF = "report-\u202etxt.exe\u200d\tz"
SPOOF_SHOWN = "report-\\u202etxt.exe\\u200d\\tz"


def raw_format(data: bytes) -> list[str]:
    """Format characters (Unicode category Cf) and tabs in UTF-8 output."""
    return sorted({repr(c) for c in data.decode("utf-8")
                   if unicodedata.category(c) == "Cf" or c == "\t"})


def test_every_format_character_is_shown_escaped_and_kept_exact_in_json():
    every = "".join(chr(c) for c in range(sys.maxunicode + 1)
                    if unicodedata.category(chr(c)) == "Cf")
    assert raw_format(shown(every).encode()) == [] and raw_format(json_utf8(json.dumps(
        every, ensure_ascii=False)).encode()) == []
    assert json.loads(json_utf8(json.dumps(every, ensure_ascii=False))) == every
    assert shown("a\tb") == "a\\tb" and shown("x\U000e0041") == "x\\U000e0041"


def test_format_characters_and_tabs_in_data_are_shown_escaped(tmp_path, isolated_home):
    target = tmp_path / f"t{SPOOF}"
    target.mkdir()
    out = diskmark_bytes("run", "--target", str(target), *QUICK, "--comment", SPOOF)
    assert out.returncode == 0, out.stderr
    assert raw_format(out.stdout) == [] and raw_format(out.stderr) == []
    report = out.stdout.decode()
    assert f"Comment: {SPOOF_SHOWN}\n" in report
    test_line = next(line for line in report.splitlines() if line.startswith("   Test:"))
    assert f"/t{SPOOF_SHOWN}: " in test_line
    entry = Store(isolated_home / "data").history()[0]
    assert entry.session.settings.comment == SPOOF  # kept exact
    raw = diskmark_bytes("history", "show", entry.name, "--format", "json")
    assert raw_format(raw.stdout) == []
    assert json.loads(raw.stdout)["settings"]["target"] == str(target)

    presets = isolated_home / "config" / "presets"
    presets.mkdir(parents=True)
    (presets / "odd.toml").write_text(
        'id = "odd"\nname = "Odd \\u202eexe.txt"\ndescription = "d\\tx\\u2066"\n'
        '[profiles.default]\nname = "P \\u200b"\n'
        'tests = [{ pattern = "RND", block = "4KiB", queues = 1, threads = 1 }]\n')
    out = diskmark_bytes("presets")
    assert out.returncode == 0
    assert raw_format(out.stdout) == [] and b"Odd \\u202eexe.txt" in out.stdout
    assert b"d\\tx\\u2066" in out.stdout and b"P \\u200b" in out.stdout
