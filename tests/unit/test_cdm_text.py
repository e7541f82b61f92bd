"""CrystalDiskMark's text results of versions 5 to 8, as published (tests/fixtures/cdm), read
with every figure where the file has it, in the encodings CrystalDiskMark saves."""

from __future__ import annotations

import codecs
import json
from datetime import datetime
from pathlib import Path

import pytest

from diskmark.model.cdm_text import (
    LINE_SHOWN,
    MAX_TESTS,
    MAX_TEXT_BYTES,
    CdmResult,
    CdmTextError,
    UnplacedLine,
    parse,
)
from diskmark.model.settings import Op

CDM = Path(__file__).parent.parent / "fixtures" / "cdm"


def _read(name: str) -> CdmResult:
    [result] = parse((CDM / name).read_bytes())
    return result


def _figures(result: CdmResult, key: str) -> tuple[float, float | None, float | None]:
    [test] = [t for t in result.tests if t.key == key]
    return test.mb_s, test.iops, test.latency_us


def test_cdm8_default_with_comment() -> None:
    r = _read("cdm8_0_1_default.txt")
    assert (r.version, r.profile, r.mode, r.comment) == ("8.0.1", "Default", "[Admin]",
                                                         "WD Blue 3D 1TB")
    assert (r.size_bytes, r.count, r.measure_s, r.interval_s) == (1024**3, 5, 5.0, 5.0)
    assert (r.drive, r.usage) == ("E", "96% (894/932GiB)")
    assert r.started == datetime(2021, 6, 22, 17, 19, 21)
    assert r.os == "Windows 10  [10.0 Build 19042] (x64)"
    assert len(r.tests) == 8 and r.problems == ()
    assert _figures(r, "SEQ1M Q8T1/read") == (531.458, 506.8, 15726.77)
    assert _figures(r, "RND4K Q32T1/write") == (222.691, 54367.9, 583.02)
    assert _figures(r, "RND4K Q1T1/write") == (99.9, 24389.6, 40.73)


def test_cdm8_nvme_rows() -> None:
    r = _read("cdm8_0_2_nvme.txt")
    assert r.version == "8.0.2" and r.drive == "D"
    assert _figures(r, "SEQ128K Q32T1/read") == (2470.266, 18846.6, 1644.22)
    assert _figures(r, "RND4K Q32T16/write") == (1795.237, 438290.3, 1167.29)
    assert [t.op for t in r.tests] == [Op.READ] * 4 + [Op.WRITE] * 4


def test_cdm8_nvme_with_mix_quoted_in_a_page_reads_as_the_file() -> None:
    """A result quoted on a web page, "> " before every line, with [Mix] and an hour
    CrystalDiskMark does not pad (5:41:48)."""
    r = _read("cdm8_0_4_nvme_mix_quoted.txt")
    assert (r.version, r.mix_read, r.mode, r.problems) == ("8.0.4", 70, "[Admin]", ())
    assert r.started == datetime(2024, 1, 6, 5, 41, 48)
    assert (r.drive, r.usage) == ("C", "4% (79/1862GiB)")
    assert [t.op for t in r.tests] == [Op.READ] * 4 + [Op.WRITE] * 4 + [Op.MIX] * 4
    assert _figures(r, "RND4K Q32T16/mix70") == (571.979, 139643.3, 3640.51)
    assert _figures(r, "SEQ128K Q32T1/write") == (6520.628, 49748.4, 640.06)


def test_an_edition_in_the_title_is_not_the_version() -> None:
    r = _read("cdm8_0_4_shizuku_default.txt")
    assert r.version == "8.0.4" and "Shizuku Edition" in r.title
    assert _figures(r, "RND4K Q32T1/read") == (0.64, 156.2, 199524.93)
    assert len(r.tests) == 8 and r.problems == ()


def test_zeros_are_a_test_crystaldiskmark_did_not_run() -> None:
    text = (CDM / "cdm8_0_1_default.txt").read_text().replace(
        "  RND    4KiB (Q=  1, T= 1):    99.900 MB/s [  24389.6 IOPS] <    40.73 us>",
        "  RND    4KiB (Q=  1, T= 1):     0.000 MB/s [      0.0 IOPS] <     0.00 us>")
    [r] = parse(text.encode())
    [zero] = [t for t in r.tests if t.key == "RND4K Q1T1/write"]
    assert not zero.measured and all(t.measured for t in r.tests if t is not zero)


def test_cdm7_sections_and_interval_on_the_test_line() -> None:
    r = _read("cdm7_0_0_java_quote.txt")
    assert (r.version, r.profile, r.count, r.interval_s) == ("7.0.0", "Default", 5, 5.0)
    assert r.started == datetime(2020, 1, 3, 11, 44, 51)
    assert _figures(r, "SEQ1M Q8T1/read") == (101.514, 96.8, 81970.32)
    assert _figures(r, "RND4K Q32T16/read") == (0.851, 207.8, 635043.04)
    assert _figures(r, "RND4K Q1T1/write") == (0.664, 162.1, 6152.49)
    assert len(r.tests) == 8 and r.problems == ()


def test_cdm6_names_map_to_diskmark_tests() -> None:
    r = _read("cdm6_0_2_forum.txt")
    assert (r.version, r.size_bytes, r.count, r.interval_s) == ("6.0.2", 1024**3, 5, 5.0)
    assert (r.drive, r.usage) == ("C", "26.4% (122.8/465.2 GiB)")
    assert _figures(r, "SEQ128K Q32T1/read") == (471.231, None, None)
    assert _figures(r, "RND4K Q8T8/read") == (393.9, 96167.0, None)
    assert _figures(r, "RND4K Q32T1/write") == (326.315, 79666.7, None)
    assert _figures(r, "RND4K Q1T1/write") == (134.58, 32856.4, None)
    assert r.started == datetime(2018, 12, 15, 0, 48, 36)


def test_cdm5_sequential_without_queues_is_seq1m_q1t1() -> None:
    r = _read("cdm5_2_0_forum.txt")
    assert r.version == "5.2.0" and r.usage == "0.4% (26.4/7167.0 MiB)"
    assert _figures(r, "SEQ1M Q1T1/read") == (156.034, None, None)
    assert _figures(r, "SEQ128K Q32T1/write") == (89.082, None, None)
    assert _figures(r, "RND4K Q1T1/read") == (10.38, 2534.2, None)
    assert r.os == "Windows 10 Professional [10.0 Build 14393] (x64)"


@pytest.mark.parametrize("encode", [
    lambda b: codecs.BOM_UTF16_LE + b.decode().encode("utf-16-le"),
    lambda b: codecs.BOM_UTF16_LE + b.decode().replace("\n", "\r\n").encode("utf-16-le"),
    lambda b: codecs.BOM_UTF8 + b,
    lambda b: b.replace(b"\n", b"\r\n"),
], ids=["utf16-bom", "utf16-bom-crlf", "utf8-bom", "crlf"])
def test_encodings_cdm_saves_read_alike(encode: object) -> None:
    plain = (CDM / "cdm8_0_1_default.txt").read_bytes()
    assert callable(encode)
    assert parse(encode(plain)) == parse(plain)


def test_mix_section_and_a_mark_after_the_figures() -> None:
    # hand-made from the NVMe fixture: a [Mix] section as CrystalDiskMark 8 writes it and a
    # mark after a line's latency, as diskmark's own reports append
    text = (CDM / "cdm8_0_2_nvme.txt").read_text().replace(
        "\nProfile:",
        "\n[Mix] Read 70%/Write 30%\n"
        "  RND    4KiB (Q=  1, T= 1):    80.100 MB/s [  19555.7 IOPS] <    51.10 us>"
        " [CPU-limited]\n\nProfile:")
    [r] = parse(text.encode())
    assert r.mix_read == 70
    assert _figures(r, "RND4K Q1T1/mix70") == (80.1, 19555.7, 51.1)


def test_a_file_that_is_not_a_cdm_result_is_refused_with_its_reason() -> None:
    with pytest.raises(CdmTextError, match="no CrystalDiskMark title line"):
        parse(json.dumps({"tests": [1, 2]}).encode())
    with pytest.raises(CdmTextError, match="not text in UTF-8 or UTF-16"):
        parse(b"\x89PNG\r\n\x1a\n\xff\xfe\xfa" + bytes(range(128, 160)))


def test_a_title_without_tests_is_refused() -> None:
    head = (CDM / "cdm8_0_1_default.txt").read_text().split("[Read]")[0]
    with pytest.raises(CdmTextError, match="holds no test result"):
        parse(head.encode())


def test_a_line_it_cannot_place_is_named() -> None:
    unknown = "  Sequential Read 1MiB (QD=  32) :    471.21 MB/s [  96167.0 IOPS]"
    text = (CDM / "cdm6_0_2_forum.txt").read_text().replace(
        "  Test :", unknown + "\n  Test :")
    [r] = parse(text.encode())
    assert len(r.tests) == 8
    [problem] = r.problems
    assert (problem.number, problem.line) == (21, unknown.strip())
    assert problem.said() == f"Line 21 reports a figure for no test diskmark knows: {unknown.strip()}"


# --- a file that holds more than one result's lines (issue 32, item 7) --------------------

def test_each_result_of_a_file_is_read_apart() -> None:
    """Results pasted one after the other are read apart, each from its title line (the
    second's byte order mark mid-text included); a header pasted twice is one header, and
    a title with nothing after it is no result."""
    a = (CDM / "cdm8_0_1_default.txt").read_text()
    b = (CDM / "cdm7_0_0_java_quote.txt").read_text()
    first, second = parse((a + "\ufeff" + b).encode())
    assert (first.version, len(first.tests), first.comment) == ("8.0.1", 8, "WD Blue 3D 1TB")
    assert (second.version, len(second.tests), second.comment) == ("7.0.0", 8, "")
    assert _figures(second, "SEQ1M Q8T1/read") == (101.514, 96.8, 81970.32)
    title = a.splitlines()[1]
    [once] = parse((title + "\n" + a + "\n" + title + "\n").encode())
    assert once.version == "8.0.1" and len(once.tests) == 8


def test_what_is_not_read_is_said_in_a_few_notes_then_counted() -> None:
    """Notes in the order of the file, the first five naming their line, then one count of
    the lines the others stand for; every test kept once, the first line's figures."""
    a = (CDM / "cdm8_0_1_default.txt").read_text()
    seq = "  SEQ    1MiB (Q=  1, T= 1):   489.838 MB/s [    467.1 IOPS] <  2139.41 us>"
    other = seq.replace("489.838", "1.000")
    text = a.replace(seq, "\n".join([seq, "?? 1 MB/s", other, other, *["?? 2 MB/s"] * 10]))
    [r] = parse(text.encode())
    assert len(r.tests) == 8 and _figures(r, "SEQ1M Q1T1/read") == (489.838, 467.1, 2139.41)
    said = [note.said() for note in r.problems]
    assert said == [
        "SEQ1M Q1T1 Read appears 3 times; the first, on line 10, is kept.",
        "Line 11 reports a figure for no test diskmark knows: ?? 1 MB/s",
        *(f"Line {n} reports a figure for no test diskmark knows: ?? 2 MB/s"
          for n in (14, 15, 16)),
        "And 7 more lines were not read.",
    ]


def test_a_result_keeps_a_bounded_number_of_tests() -> None:
    lines = [f"  RND    4KiB (Q={q:3d}, T= 1):     1.000 MB/s [    244.1 IOPS] <     4.00 us>"
             for q in range(1, MAX_TESTS + 31)]
    [r] = parse(("CrystalDiskMark 8.0.1\n[Read]\n" + "\n".join(lines)).encode())
    assert len(r.tests) == MAX_TESTS
    assert [n.said() for n in r.problems] == [
        f"Only the first {MAX_TESTS} tests are read; 30 more lines name other tests."]


def test_a_line_is_quoted_clipped_on_one_line() -> None:
    line = "ZZZ \x1b]0;owned\x07 " + "A" * 10_000 + " 1 MB/s"
    text = (CDM / "cdm8_0_1_default.txt").read_text().replace("\nProfile:", f"\n{line}\nProfile:")
    [r] = parse(text.encode())
    [note] = r.problems
    assert isinstance(note, UnplacedLine)
    assert note.line.startswith("ZZZ \\x1b]0;owned\\x07 AAA") and note.line.endswith("A…")
    assert len(note.line) < LINE_SHOWN + 20 and note.line.isprintable()


@pytest.mark.parametrize("date", ["0001/01/01 00:00:00", "0001/01/01 23:59:59",
                                  "9999/12/31 00:00:00", "9999/12/31 23:59:59"])
def test_a_date_no_zone_can_place_is_left_out_and_named(date: str) -> None:
    text = (CDM / "cdm8_0_1_default.txt").read_text().replace("2021/06/22 17:19:21", date)
    [r] = parse(text.encode())
    assert r.started is None and r.date == date and len(r.tests) == 8
    assert [n.said() for n in r.problems] == [
        f"The date {date} cannot be placed in time; the result is kept without a date."]


def test_a_text_larger_than_a_result_can_be_is_refused() -> None:
    text = (CDM / "cdm8_0_1_default.txt").read_bytes()
    with pytest.raises(CdmTextError, match="larger than 1 MiB"):
        parse(text + b" " * MAX_TEXT_BYTES)
