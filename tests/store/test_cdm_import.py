"""CrystalDiskMark's text results imported as baselines and into the history: real files
published by their users (tests/fixtures/cdm/README.md), every figure kept."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from diskmark.model.cdm_text import parse
from diskmark.store.errors import InvalidFile
from diskmark.store.exchange import import_baseline, import_history
from diskmark.store.store import Store

FIXTURES = Path(__file__).parent.parent / "fixtures" / "cdm"
FILES = sorted(FIXTURES.glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_every_figure_of_a_real_file_is_kept(path):
    [cdm] = parse(path.read_bytes())
    entry = import_baseline(Store(), path)
    assert entry.name == path.stem  # as a JSON import, the file's name without extension
    session = Store().get_baseline(path.stem).session
    assert session is not None
    assert len(session.tests) == len(cdm.tests)
    for test in cdm.tests:
        kept = session.test(test.key)
        assert kept is not None, test.key
        assert len(kept.runs) == 1
        run = kept.runs[0]
        assert run.mb_s == test.mb_s, test.key
        if test.iops is not None:
            assert run.iops == test.iops, test.key
        if test.latency_us is not None:
            assert run.lat_us == test.latency_us, test.key
    assert session.settings.size == cdm.size_bytes
    assert session.settings.count == cdm.count
    assert session.settings.interval == cdm.interval_s
    assert session.settings.measure == cdm.measure_s
    assert session.settings.mix == cdm.mix_read
    assert session.settings.comment == cdm.comment
    assert session.profile_name == cdm.profile
    assert session.system.os == cdm.os
    assert session.fio_version == ""  # fio never measured it
    assert cdm.started is not None and session.started.startswith(
        cdm.started.strftime("%Y-%m-%dT%H:%M:%S"))
    assert f"text result of CrystalDiskMark {cdm.version}" in session.warnings[0]
    assert cdm.os in session.warnings[0]


def test_what_the_file_says_of_the_run_is_kept():
    session = Store().get_baseline(
        import_baseline(Store(), FIXTURES / "cdm8_0_1_default.txt", "wd").name).session
    assert session is not None
    s = session.settings
    assert (s.size, s.count, s.measure, s.interval) == (1024**3, 5, 5.0, 5.0)
    assert (s.preset, s.profile, s.comment) == ("default", "default", "WD Blue 3D 1TB")
    assert session.system.os == "Windows 10  [10.0 Build 19042] (x64)"
    assert session.test("SEQ1M Q8T1/read").runs[0].mb_s == 531.458  # type: ignore[union-attr]
    nvme = Store().get_baseline(
        import_baseline(Store(), FIXTURES / "cdm8_0_2_nvme.txt").name).session
    assert nvme is not None and nvme.settings.preset == "nvme"
    old = Store().get_baseline(
        import_baseline(Store(), FIXTURES / "cdm5_2_0_forum.txt").name).session
    # 5.x's "Sequential Read (Q= 32,T= 1)" is SEQ128K Q32T1; it printed no IOPS, which
    # for a fixed block is the bandwidth over the block
    seq = old.test("SEQ128K Q32T1/read")  # type: ignore[union-attr]
    assert seq is not None and seq.runs[0].mb_s == 140.647
    assert seq.runs[0].iops == pytest.approx(140.647e6 / (128 * 1024))


def test_told_by_content_in_the_encodings_crystaldiskmark_saves(tmp_path):
    text = (FIXTURES / "cdm7_0_0_java_quote.txt").read_text("utf-8")
    utf16 = tmp_path / "saved by CDM 7.dat"
    utf16.write_bytes(codecs.BOM_UTF16_LE + text.replace("\n", "\r\n").encode("utf-16-le"))
    entry = import_baseline(Store(), utf16)
    assert entry.name == "saved by CDM 7"
    assert len(Store().get_baseline(entry.name).session.tests) == len(  # type: ignore[union-attr]
        parse(text.encode())[0].tests)


def test_a_text_that_is_no_result_is_refused_with_its_reason(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping list\nmilk\n")
    with pytest.raises(InvalidFile, match=r"notes\.txt cannot be imported: This is not a "
                                          r"CrystalDiskMark text result"):
        import_baseline(Store(), notes)
    broken = tmp_path / "broken.json"
    broken.write_text('{"schema": ')
    with pytest.raises(InvalidFile, match="not valid JSON"):  # JSON's reason for a JSON file
        import_baseline(Store(), broken)
    assert Store().baselines() == []


def test_history_imports_a_crystaldiskmark_file_once(tmp_path):
    path = FIXTURES / "cdm6_0_2_forum.txt"
    first = import_history(Store(), [path])
    assert [result.outcome for result in first] == ["imported"]
    again = import_history(Store(), [path])
    assert [result.outcome for result in again] == ["duplicate"]


@pytest.mark.parametrize(("old", "new", "named"), [
    ("1 GiB (x5)", "9" * 400 + " GiB (x5)", "settings size"),
    ("Measure 5 sec", "Measure " + "9" * 400 + " sec", "measure is not a finite number"),
])
def test_a_footer_figure_no_float_holds_is_refused_by_name(tmp_path, old, new, named):
    """A size or a measure of 400 digits is the file's problem, named as its field, not an
    OverflowError from turning infinity into a whole number."""
    path = tmp_path / "huge.txt"
    path.write_text((FIXTURES / "cdm8_0_1_default.txt").read_text().replace(old, new))
    with pytest.raises(InvalidFile, match=f"huge.txt cannot be imported: .*{named}"):
        import_baseline(Store(), path)
    assert Store().baselines() == []
