"""One rule for every number diskmark reads from text (diskmark.model.numerals): the ASCII
digits 0 to 9. Python's int() and float() read every script's digits (٣ is 3, the ３ an
input method types too) and str.isdigit() is true for ² and ①, which int() then refuses
with a traceback; ssh, fio and the files diskmark writes read 0 to 9 only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import diskmark
from diskmark.model.numerals import decimal_number, digits_only, whole_number
from diskmark.presets import PresetError, sweep_profile
from diskmark.report.trend import parse_test
from diskmark.store.ids import HISTORY_ID
from diskmark.store.schema import SCHEMA_PREFIX, _schema_problem

OTHER = ["٣", "３", "²", "①", "߃", "३"]


@pytest.mark.parametrize("text", OTHER)
def test_other_digits_are_no_number_and_the_message_names_them(text):
    assert not digits_only(text)
    for read in (whole_number, decimal_number):
        with pytest.raises(ValueError, match=f"^{re.escape(repr(text))}: write numbers with "
                                             "the digits 0 to 9$"):
            read(text)


def test_ascii_numbers_read_as_before():
    assert whole_number(" 42 ") == 42 and whole_number("-1") == -1
    assert decimal_number("2.5") == 2.5 and decimal_number("1e3") == 1000.0
    assert str(decimal_number("nan")) == "nan"  # refused later by the range, by name
    for bad in ("", "x", "1_000", "0x10", "4.2.1"):
        with pytest.raises(ValueError, match="^$"):  # the caller says what it wanted
            whole_number(bad)
    assert digits_only("0123456789") and not digits_only("+1") and not digits_only("")


@pytest.mark.parametrize("args", [
    ["run", "--target", "/mnt/x", "--count", "３"],
    ["run", "--target", "/mnt/x", "--measure", "٥"],
    ["run", "--target", "/mnt/x", "--interval", "٠"],
    ["run", "--target", "/mnt/x", "--mix", "٧٠%"],
    ["run", "--target", "/mnt/x", "--size", "１GiB"],
    ["run", "--target", "/mnt/x", "--unstable", "５"],
    ["run", "--target", "/mnt/x", "--compare", "a", "--fail-on-regression", "５"],
    ["history", "list", "--limit", "３"],
    ["history", "prune", "--older-than", "٣٠"],
    ["history", "trend", "SEQ1M Q8T1", "--width", "８０"],
])
def test_every_option_refuses_other_digits_naming_them(args, capsys):
    from diskmark.cli.main import main

    assert main(args) == 2
    err = capsys.readouterr().err
    value = next(a for a in args if not a.isascii())
    assert f"{value!r}: write numbers with the digits 0 to 9" in err, err


def test_text_read_from_files_takes_ascii_digits_only():
    assert _schema_problem(f"{SCHEMA_PREFIX}²") == f"unknown schema version '{SCHEMA_PREFIX}²'"
    assert _schema_problem(f"{SCHEMA_PREFIX}٩") == f"unknown schema version '{SCHEMA_PREFIX}٩'"
    with pytest.raises(ValueError, match="not a test"):
        parse_test("SEQ１M Q8T1")
    with pytest.raises(PresetError):
        sweep_profile("RND٤K")
    assert not HISTORY_ID.fullmatch("٢٠٢٦٠١٠١T045959Z-3fa2c1")


def test_no_other_way_of_reading_digits_is_left_in_the_package():
    """isdigit, isdecimal and isnumeric are true for characters int() refuses or reads as
    another number; \\d matches every script's digits. The rule is numerals', used everywhere,
    CrystalDiskMark's own text results read by model/cdm_text included."""
    package = Path(diskmark.__file__).parent
    found = []
    for source in sorted(package.rglob("*.py")):
        if source.name == "numerals.py":
            continue
        for number, line in enumerate(source.read_text("utf-8").splitlines(), 1):
            if re.search(r"\.is(?:digit|decimal|numeric)\(|\\d", line):
                found.append(f"{source.relative_to(package)}:{number}: {line.strip()}")
    assert found == []
