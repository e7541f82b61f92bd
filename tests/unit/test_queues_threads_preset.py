"""The preset the Queues & Threads settings make: CrystalDiskMark 9.0.1's lists, its reset
sets read from the built-in presets, a file the loader reads back as the same preset, and the
names a preset may have. Real files, no app."""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from diskmark.files.destination import DestinationExists
from diskmark.model.results import TestSpec
from diskmark.model.units import KIB, MIB
from diskmark.presets import load_catalog, load_file
from diskmark.presets.queues_threads import (
    BLOCK_SIZES,
    QUEUES,
    THREADS,
    Rows,
    edited_preset,
    name_problem,
    preset_path,
    preset_toml,
    rows_of,
    save_preset,
)


def test_the_lists_are_crystaldiskmarks():
    # SettingsDlg.cpp:268, :298, :322 (MAX_QUEUES 512, MAX_THREADS 64: Library/stdafx.h)
    assert [b // KIB for b in BLOCK_SIZES] == [4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048,
                                               4096, 8192]
    assert QUEUES == (1, 2, 4, 8, 16, 32, 64, 128, 256, 512)
    assert THREADS == tuple(range(1, 65))


def test_the_reset_sets_are_the_built_in_presets_as_crystaldiskmark_sets_them():
    """SettingsDlg.cpp:109-172: Default, NVMe SSD (SEQ128K Q32T1 and RND4K Q32T16), Flash
    Memory (the Default rows, 1 s and 30 s)."""
    catalog = load_catalog()
    base = catalog.get("default")
    nvme = rows_of(catalog.get("nvme"), base)
    assert [t.label for t in nvme.tests["default"]] == ["SEQ1M Q8T1", "SEQ128K Q32T1",
                                                       "RND4K Q32T16", "RND4K Q1T1"]
    assert [t.label for t in nvme.tests["peak"]] == ["SEQ1M Q8T1", "RND4K Q32T16"]
    assert [t.label for t in nvme.tests["real"]] == ["SEQ1M Q1T1", "RND4K Q1T1"]
    assert (nvme.measure, nvme.interval) == (5.0, 5.0)
    flash = rows_of(catalog.get("flash"), base)
    assert flash.tests == rows_of(base, base).tests and (flash.measure, flash.interval) == (1, 30)


def test_a_saved_preset_is_read_back_the_same(tmp_path):
    catalog = load_catalog()
    base = catalog.get("default")
    rows = rows_of(base, base)
    rows = Rows({**rows.tests, "default": (TestSpec("RND", 4 * KIB, 64, 4), *rows.tests["default"][1:]),
                 "demo": (TestSpec("SEQ", 8 * MIB, 512, 64),)}, 1.0, 30.0)
    preset = edited_preset("mine.v2+x", rows, base)
    path = save_preset(preset, tmp_path / "config" / "presets" / "mine.v2+x.toml")
    assert load_file(path, source=str(path)) == replace(preset, source=str(path))
    # never over a file unasked; asked, atomically, with nothing left beside it
    with pytest.raises(DestinationExists):
        save_preset(preset, path)
    save_preset(replace(preset, measure=2.0), path, replace=True)
    assert load_file(path).measure == 2.0
    assert os.listdir(path.parent) == ["mine.v2+x.toml"]


def test_what_the_stable_profile_adds_is_not_carried_into_the_editor():
    """A row's start delay and ramp time have no field: the editor's rows are plain."""
    catalog = load_catalog()
    preset = replace(catalog.get("default"), profiles={
        "default": catalog.get("default").profiles["stable"]})
    rows = rows_of(preset, catalog.get("default"))
    assert all(not t.startdelay and not t.ramp_time for t in rows.tests["default"])
    assert "startdelay" not in preset_toml(edited_preset("x", rows, catalog.get("default")))


@pytest.mark.parametrize("name, words", [
    ("", "Type a name"),
    ("nvme", "built-in"), ("flash", "built-in"),
    ("$(id)", "shell"), ("a b", "shell"), ("-rf", "shell"), ("a/b", "shell"), ("x;y", "shell"),
    (".hidden", "shell"), ("é" * 65, "shell"),
])
def test_names_a_preset_cannot_have(name, words):
    assert words in (name_problem(name, load_catalog()) or "")


@pytest.mark.parametrize("name", ["mine", "NVMe_8", "ssd.2024", "a+b-c", "日本語"])
def test_names_a_preset_may_have(name):
    assert name_problem(name, load_catalog()) is None


def test_a_user_preset_is_kept_where_its_file_is(tmp_path):
    folder = tmp_path / "presets"
    folder.mkdir()
    (folder / "old-name.toml").write_text(
        'id = "mine"\n[profiles.default]\ntests = [{ pattern = "SEQ", block = "1MiB" }]\n')
    catalog = load_catalog(folder)
    assert preset_path("mine", catalog, folder) == folder / "old-name.toml"
    assert preset_path("other", catalog, folder) == folder / "other.toml"
