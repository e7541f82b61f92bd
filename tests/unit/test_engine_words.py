"""What the engine and the store say, in the pseudo-language: a notice or a refusal in the
language in use, and what is kept in a result in English (CrystalDiskMark's text export
prints a result's warnings as they are). Real directories, no fio."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from diskmark.engine.sentence import Sentence, said_together
from diskmark.engine.target import open_target
from diskmark.locale import N_, set_language
from diskmark.model.units import MIB
from diskmark.store import app_settings


@pytest.fixture
def pseudo() -> Iterator[None]:
    set_language("pseudo")
    try:
        yield
    finally:
        set_language("en")


def test_a_sentence_is_kept_in_english_and_said_in_the_language_in_use(pseudo):
    uses = [Sentence(N_("{device} is in use as swap"), device="/dev/sdb2"),
            Sentence(N_("{device} is mounted at {mountpoint}"), device="/dev/sdb1",
                     mountpoint="/mnt")]
    note = Sentence(N_("{uses}: the read tests change nothing, but its own I/O can disturb the "
                       "figures."), uses=uses)
    assert note.english() == ("/dev/sdb2 is in use as swap; /dev/sdb1 is mounted at /mnt: the "
                              "read tests change nothing, but its own I/O can disturb the "
                              "figures.")
    said = note.said()
    assert said.startswith("⟦⟦/dev/sdb2 îs îñ ûsé às swàp") and "/mnt" in said, said
    assert said_together(uses).count("⟦") == 3  # each use, and the "; " between them
    # the system's own words are never looked up
    assert Sentence.verbatim("{path}: {error}", path="/x", error="Busy").said() == "/x: Busy"


def test_a_target_s_notes_are_said_translated_and_kept_in_english(tmp_path, pseudo):
    check = open_target(tmp_path, 16 * MIB, direct=False)
    try:
        kept = [n.english() for n in check.notes]
        said = [n.said() for n in check.notes]
    finally:
        check.workspace.remove()
    assert "Buffered run (no O_DIRECT): figures include the page cache." in kept
    assert said and all(s.startswith("⟦") for s in said), said


def test_a_refusal_is_said_in_the_language_in_use(tmp_path, pseudo):
    with pytest.raises(Exception) as e:
        open_target(tmp_path / "nowhere", 16 * MIB, direct=True)
    assert str(e.value).startswith("⟦Tàrgét ") and str(tmp_path / "nowhere") in str(e.value)


def test_a_damaged_settings_file_is_told_apart_from_a_bad_value_in_any_language(
        tmp_path, monkeypatch, pseudo):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path))
    path = app_settings.config_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("[1]")  # the file as a whole: every value its default
    _cfg, notice = app_settings.load_config()
    assert notice is not None and "défàûlts àré ûséd. " in notice, notice
    path.write_text('{"schema": "diskmark.config/1", "theme": "no such/theme"}')  # one value
    _cfg, notice = app_settings.load_config()
    assert notice is not None and "défàûlts àré ûséd för thé vàlûés" in notice, notice
