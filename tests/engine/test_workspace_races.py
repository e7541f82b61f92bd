"""Another program renaming diskmark's test directory in the moment between its mkdir and
its open (or its lock) must not leave that directory behind. The race is made certain here:
the real mkdir (or flock) runs, then the directory is really renamed on a real filesystem,
as another user's program would. The end-to-end attack by another user is in test_faults.py.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

import pytest

from diskmark.engine import workspace
from diskmark.engine.errors import TargetError
from diskmark.engine.workspace import Workspace


def _create(target: Path) -> Workspace:
    fd = os.open(target, os.O_RDONLY | os.O_DIRECTORY)
    try:
        return Workspace.create(target, fd)
    finally:
        os.close(fd)


def _rename_after(real, tmp_path: Path, *, then_symlink: bool):
    """A wrapper of ``real`` (os.mkdir or fcntl.flock) that, the first time, renames the
    directory just made to ``<name>.moved`` and may put a symlink where it was."""
    done = []

    def wrapper(*args, **kwargs):
        result = real(*args, **kwargs)
        made = [p for p in (tmp_path / "target").iterdir() if workspace.NAME_RE.match(p.name)]
        if made and not done:  # not a call of the register's own (in the state directory)
            done.append(True)
            made = made[0]
            made.rename(made.with_name(made.name + ".moved"))
            if then_symlink:
                made.symlink_to(tmp_path / "elsewhere")
        return result

    return wrapper


@pytest.fixture
def target(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "target").mkdir()
    return tmp_path / "target"


def test_a_directory_swapped_for_a_symlink_as_it_is_made_is_removed(target, tmp_path,
                                                                    monkeypatch):
    with monkeypatch.context() as m, pytest.raises(TargetError) as refused:
        m.setattr(os, "mkdir", _rename_after(os.mkdir, tmp_path, then_symlink=True))
        _create(target)
    assert "replaced by another program" in str(refused.value)
    assert "could not find" not in str(refused.value)
    left = sorted(p.name for p in target.iterdir())
    assert len(left) == 1 and (target / left[0]).is_symlink(), left  # only the other's symlink
    assert list((tmp_path / "elsewhere").iterdir()) == []
    assert list(workspace.register_dir().glob("*.json")) == []


def test_a_directory_renamed_before_it_is_locked_is_removed_and_another_made(target, tmp_path,
                                                                             monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(fcntl, "flock", _rename_after(fcntl.flock, tmp_path, then_symlink=False))
        made = _create(target)
    try:
        assert [p.name for p in target.iterdir()] == [made.name]  # the renamed one is gone
    finally:
        assert made.remove() == []
    assert list(target.iterdir()) == []


def test_an_empty_directory_that_is_not_diskmark_s_is_never_taken(target, tmp_path,
                                                                  monkeypatch):
    """Only a directory with the exact name diskmark gave as a prefix, this user's and closed
    to others, is removed: one open to others with that prefix stays."""
    real = os.mkdir
    planted = []

    def mkdir(path, mode=0o777, *, dir_fd=None):
        real(path, mode, dir_fd=dir_fd)
        if dir_fd is not None and not planted:  # the test directory, not the register's
            made = target / path
            made.rename(target / f"{path}.moved")
            other = target / f"{path}.other"
            real(other)
            other.chmod(0o755)
            planted.append(other)
            made.symlink_to(tmp_path / "elsewhere")

    with monkeypatch.context() as m, pytest.raises(TargetError):
        m.setattr(os, "mkdir", mkdir)
        _create(target)
    names = sorted(p.name for p in target.iterdir())
    assert planted[0].is_dir() and planted[0].name in names
    assert not any(n.endswith(".moved") for n in names), names


def test_a_target_removed_from_the_inside_out_is_named_as_removed(target):
    """``rm -rf`` unlinks the test file first, then its directory, then the target: a check
    that falls between those steps sees only the test file gone, yet what happened is the
    target's removal, and the message must say so (CI once reported "the test file was
    removed" for a removed target). The removal here is real and in that order, with its
    last steps a moment after the check."""
    import shutil
    import threading

    from diskmark.engine.errors import FioFailed
    from diskmark.engine.place import SETTLE_S, check_place

    made = _create(target)
    made.create_test_file(1 << 20)
    assert made.lost() is None
    made.test_file.unlink()
    assert "test file" in (made.lost() or "")  # what a check in the middle sees
    rest = threading.Timer(SETTLE_S / 4, lambda: shutil.rmtree(target))
    rest.start()
    try:
        with pytest.raises(FioFailed) as failed:
            check_place(made)
    finally:
        rest.join()
        made.remove()
    assert "unmounted or removed" in str(failed.value), failed.value
    assert not target.exists()
