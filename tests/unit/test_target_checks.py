"""The target checks' words: figures that differ never read the same, and root is told why
a directory others can write to is still safe. Real directories, no fio."""

from __future__ import annotations

import os

import pytest

from diskmark.engine.target import _differing, open_target
from diskmark.model.units import MIB


def test_needed_and_free_space_never_read_the_same():
    need, have = 272 * MIB + 40 * 1024, 272 * MIB - 30 * 1024
    a, b = _differing(need, have)
    assert a != b, (a, b)
    # and when one decimal is enough, it is used
    assert _differing(300 * MIB, 200 * MIB) == ("300.0 MiB", "200.0 MiB")
    # sizes equal to the byte still come back as two figures (never a crash)
    assert _differing(10, 9) != ("", "")


def _note_about_others(tmp_path, mode: int) -> list[str]:
    target = tmp_path / "shared"
    target.mkdir()
    target.chmod(mode)
    check = open_target(target, 1 * MIB, direct=False)
    try:
        return [n.english() for n in check.notes if "Others can write" in n.english()]
    finally:
        assert check.workspace.remove() == []
        assert list(target.iterdir()) == []


def test_root_is_told_when_others_can_write_to_the_target(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root: the note is for root only")
    (note,) = _note_about_others(tmp_path, 0o1777)
    assert "only root can enter" in note


def test_no_such_note_for_a_private_target(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("needs root: the note is for root only")
    assert _note_about_others(tmp_path, 0o755) == []
