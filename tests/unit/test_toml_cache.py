"""What the preset and theme files parsed to is kept between starts, and used only while the
file is unchanged. Real files in a fresh DISKMARK_HOME; tomllib is made to fail to show that
a start did not parse."""

from __future__ import annotations

import json
import os
import tomllib

import pytest

from diskmark.app.themes import load_themes
from diskmark.files import toml_cache
from diskmark.files.paths import cache_dir, user_presets_dir
from diskmark.presets import load_catalog

PRESET = ('id = "mine"\nname = "Mine"\n[profiles.default]\n'
          'tests = [{ pattern = "RND", block = "8KiB", queues = 4, threads = 2 }]\n')


@pytest.fixture(autouse=True)
def fresh_cache():
    toml_cache.forget()
    yield
    toml_cache.forget()


def no_parsing(monkeypatch):
    def refuse(text):
        raise AssertionError("a file was parsed again")

    monkeypatch.setattr(tomllib, "loads", refuse)


def test_a_second_start_parses_nothing(monkeypatch):
    user_presets_dir().mkdir(parents=True)
    (user_presets_dir() / "mine.toml").write_text(PRESET)
    first = load_catalog()
    themes, _ = load_themes()
    cached = json.loads((cache_dir() / toml_cache.FILE_NAME).read_text())
    assert cached["schema"] == toml_cache.SCHEMA
    assert len(cached["files"]) == len(first.presets) + len(themes)  # 3 + 1 presets, 4 themes
    toml_cache.forget()  # as a new start
    no_parsing(monkeypatch)
    again = load_catalog()
    assert again.presets == first.presets and again.problems == []
    assert [t.name for t in load_themes()[0]] == [t.name for t in themes]


def test_a_file_changed_behind_an_old_modification_time_is_parsed_again(monkeypatch):
    user_presets_dir().mkdir(parents=True)
    path = user_presets_dir() / "mine.toml"
    path.write_text(PRESET)
    st = path.stat()
    assert load_catalog().presets["mine"].profiles["default"].tests[0].queues == 4
    toml_cache.forget()
    path.write_text(PRESET.replace("queues = 4", "queues = 8"))  # the same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))  # and the old modification time
    assert load_catalog().presets["mine"].profiles["default"].tests[0].queues == 8


def test_a_damaged_cache_is_parsed_around_and_written_anew():
    cache_dir().mkdir(parents=True)
    (cache_dir() / toml_cache.FILE_NAME).write_bytes(b"\x00{not json")
    catalog = load_catalog()
    assert "default" in catalog.presets and catalog.problems == []
    cached = json.loads((cache_dir() / toml_cache.FILE_NAME).read_text())
    assert cached["schema"] == toml_cache.SCHEMA and cached["files"]


def test_a_cache_directory_that_cannot_be_made_only_costs_time():
    cache_dir().parent.mkdir(parents=True, exist_ok=True)
    cache_dir().write_text("a file where the cache directory would be")
    assert "default" in load_catalog().presets
    assert cache_dir().read_text() == "a file where the cache directory would be"


def test_a_wrong_value_from_the_cache_is_reported_at_its_line(monkeypatch):
    user_presets_dir().mkdir(parents=True)
    bad = user_presets_dir() / "bad.toml"
    bad.write_text(PRESET.replace('"mine"', '"bad"').replace("queues = 4", "queues = 0"))
    first = load_catalog().problems
    assert len(first) == 1 and first[0].startswith(f"{bad}:3: "), first
    toml_cache.forget()
    no_parsing(monkeypatch)
    assert load_catalog().problems == first  # from the cache, with the same line
