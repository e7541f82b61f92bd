"""The table of the system's programs the tests use (tests/support/system_tools.py) and the
tests' ``needs`` markers agree: a program no test declares would never be installed by
``./test.sh -q``, CI's command, and the tests that use it would skip there."""

from __future__ import annotations

import re
from pathlib import Path

from system_tools import TOOLS

TESTS = Path(__file__).parents[1]
MARK = re.compile(r"mark\.needs\(([^)]*)\)")


def test_every_program_of_the_table_is_declared_by_a_test_and_none_else():
    declared: set[str] = set()
    for module in TESTS.rglob("test_*.py"):
        for args in MARK.findall(module.read_text(encoding="utf-8")):
            declared |= set(re.findall(r'"([^"]+)"', args))
    assert declared == set(TOOLS)
