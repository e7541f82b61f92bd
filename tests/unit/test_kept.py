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



FRAGMENTED = ("The test file is fragmented ({count} pieces): sequential figures may be lower "
              "than the device can do.")


@pytest.mark.parametrize("lang", ["nl", "de", "ja", "pseudo"])
def test_a_runs_note_kept_in_english_is_said_in_the_readers_language(lang):
    """A run's notes (session.warnings) are kept in English, as the engine writes them
    (Sentence.english); a note made from a message is said again from the catalog with its
    values, whatever message it was; the system's own words stay as they are."""
    from diskmark.engine.sentence import Sentence
    from diskmark.locale.kept import said_kept

    kept = Sentence(FRAGMENTED, count=12).english()
    assert kept.startswith("The test file is fragmented (12 pieces)")
    system = "open(/x): No such file or directory"
    set_language(lang)
    said = said_kept(kept)
    assert said != kept and "12" in said
    if lang != "pseudo":
        assert said == _(FRAGMENTED).format(count=12)
        assert said_kept(system) == system


def test_the_reports_say_a_runs_kept_note_in_the_readers_language(tmp_path):
    """A real run's result with the note the engine keeps in English, in the text report,
    the shared page and the details' words, in Dutch."""
    import asyncio
    import html

    from diskmark.engine.runner import Engine
    from diskmark.engine.sentence import Sentence
    from diskmark.model.results import Status
    from diskmark.model.settings import Settings
    from diskmark.model.units import MIB
    from diskmark.report.share.colours import theme_colours
    from diskmark.report.share.page import render_html
    from diskmark.report.text import markdown_report

    session = asyncio.run(Engine().run(Settings(
        target=str(tmp_path), preset="default", profile="demo", mode="read", size=16 * MIB,
        count=1, measure=1, interval=0)))
    assert session.status is Status.COMPLETE, session.error
    session.warnings.append(Sentence(FRAGMENTED, count=12).english())
    set_language("nl")
    dutch = _(FRAGMENTED).format(count=12)
    assert dutch != FRAGMENTED.format(count=12)
    assert dutch in markdown_report(session)
    page = render_html(session, theme_colours("diskmark"))
    assert html.escape(dutch, quote=False) in page.replace("&#x27;", "'"), "the shared page"
