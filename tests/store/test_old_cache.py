"""The TOML cache of earlier versions is gone: a start writes no cache file, and removes the
one an earlier diskmark left, but never a file of that name diskmark did not write. Real
files in the isolated DISKMARK_HOME; the command runs in this process."""

from __future__ import annotations

import json
import os

from diskmark.cli.main import main
from diskmark.files.old_cache import FILE_NAME, remove_toml_cache
from diskmark.files.paths import cache_dir

# What an earlier diskmark wrote (toml_cache.save: the schema first, compact separators).
EARLIER = json.dumps({"schema": "diskmark.toml-cache/1",
                      "files": {"/x/default.toml": {"id": [1, 2, 3, 4, 5], "data": {"id": "x"}}}},
                     ensure_ascii=True, separators=(",", ":"))


def test_a_start_writes_no_cache_and_removes_the_earlier_one(capsys):
    assert main(["presets"]) == 0
    assert not cache_dir().exists(), sorted(p.name for p in cache_dir().rglob("*"))
    cache_dir().mkdir(parents=True)
    (cache_dir() / FILE_NAME).write_text(EARLIER)
    assert main(["presets"]) == 0
    assert "default" in capsys.readouterr().out
    assert not (cache_dir() / FILE_NAME).exists()
    assert not cache_dir().exists()  # the directory was diskmark's and is empty now


def test_a_file_of_that_name_diskmark_did_not_write_stays():
    cache_dir().mkdir(parents=True)
    theirs = cache_dir() / FILE_NAME
    theirs.write_text('{"schema": "diskmark.toml-cache/1", "mine": true}')  # not as diskmark wrote
    assert remove_toml_cache() is False and theirs.exists()
    theirs.unlink()
    elsewhere = cache_dir().parent / "elsewhere.json"
    elsewhere.write_text(EARLIER)
    os.symlink(elsewhere, theirs)  # a link to a cache-looking file: the link is not diskmark's
    assert remove_toml_cache() is False and theirs.is_symlink() and elsewhere.exists()
    theirs.unlink()
    theirs.mkdir()
    assert remove_toml_cache() is False and theirs.is_dir()


def test_the_directory_stays_when_something_else_is_in_it():
    cache_dir().mkdir(parents=True)
    (cache_dir() / FILE_NAME).write_text(EARLIER)
    other = cache_dir() / "someone-elses.txt"
    other.write_text("kept")
    assert remove_toml_cache() is True
    assert not (cache_dir() / FILE_NAME).exists() and other.read_text() == "kept"
