"""Sentences a result keeps in English are said again in the reader's language: the drive's
reasons (a virtual disk, smartctl missing, no sensor) were English in every language."""

from __future__ import annotations

import string

import pytest

from diskmark.drive import reasons
from diskmark.locale import _, set_language
from diskmark.locale.kept import said_again
from diskmark.model.drive_record import DriveRecord, Health
from diskmark.model.voice import ENGLISH, LOCAL
from diskmark.report.drive_lines import drive_line


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def filled(template: str) -> tuple[str, dict[str, str]]:
    values = {f: f"{f}-{i}" for i, (_l, f, _s, _c) in
              enumerate(string.Formatter().parse(template)) if f}
    return template.format(**values), values


@pytest.mark.parametrize("lang", ["ja", "de", "ru"])
def test_every_drive_reason_kept_in_english_is_said_in_the_language_in_use(lang):
    set_language(lang)
    for template in reasons.ALL:
        english, values = filled(template)
        said = said_again(english, reasons.ALL)
        assert said == _(template).format(**values), template
        assert said != english, f"{lang} says {template!r} in English"


def test_a_sentence_no_template_made_is_said_as_it_is():
    set_language("ja")
    assert said_again("the drive caught fire", reasons.ALL) == "the drive caught fire"


def test_the_drive_line_of_a_virtual_disk_is_in_the_readers_language_and_english_kept():
    reason = reasons.VIRTUAL.format(kind="virtio")
    record = DriveRecord(temperature_reason=reason)
    record.before = Health(reason=reason)
    set_language("ja")
    line = drive_line(record, LOCAL)
    assert "仮想ディスク（virtio）" in line and "hypervisor" not in line
    assert "a virtual disk (virtio) reports no temperature" in drive_line(record, ENGLISH)
