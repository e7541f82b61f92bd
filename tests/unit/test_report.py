"""Report renderings on a hand-made session: pure formatting, so exact strings are checked."""

from __future__ import annotations

import csv
import io
import json

import pytest

from diskmark.model.events import Phase, Progress
from diskmark.model.facts import SystemFacts
from diskmark.model.results import RunResult, SessionResult, Status, TestResult, TestSpec
from diskmark.model.settings import DataPattern, Mode, Op, Settings
from diskmark.model.units import GIB, KIB, MIB, Unit
from diskmark.report.cdm_report import FACTS_TITLE, format_test_line, text_report
from diskmark.report.formatting import format_figure, meter_fraction
from diskmark.report.text import (
    csv_report,
    describe_progress,
    grid_report,
    json_report,
    markdown_report,
)

SEQ1M_Q8 = TestSpec("SEQ", MIB, 8, 1)
RND4K_Q32 = TestSpec("RND", 4 * KIB, 32, 1)
SEQ128K_Q32 = TestSpec("SEQ", 128 * KIB, 32, 1)


def run(mb_s: float, iops: float, lat_us: float) -> RunResult:
    return RunResult(mb_s=mb_s, iops=iops, lat_us=lat_us, io_bytes=int(mb_s * 5e6),
                     runtime_ms=5000)


def result(index, spec, op, runs, mix_read=None, error=None) -> TestResult:
    return TestResult(index=index, spec=spec, op=op, mix_read=mix_read, runs=runs,
                      warmup=run(100.0, 95.0, 80000.0) if runs else None, error=error)


def make_session(**settings) -> SessionResult:
    st = Settings(target="/mnt/data", mix=70, size=GIB, count=3, **settings)
    system = SystemFacts(target="/mnt/data", mountpoint="/mnt/data", device="/dev/nvme0n1p2",
                         fstype="ext4", mount_options="rw,relatime", total_bytes=931 * GIB,
                         free_bytes=117 * GIB, model="Samsung SSD 980", rotational=False,
                         scheduler="none", kernel="6.1.0-18-amd64",
                         os="Debian GNU/Linux 12 (bookworm)")
    # Deliberately out of CDM order, to check the report sorts the blocks.
    tests = [
        result(0, SEQ1M_Q8, Op.MIX, [run(2000.5, 1907.8, 4100.0)], mix_read=70),
        result(0, SEQ1M_Q8, Op.WRITE, [run(3000.0, 2861.0, 2795.25)]),
        result(0, SEQ1M_Q8, Op.READ, [run(120.0, 114.4, 69000.5), run(123.456, 117.7, 68500.0),
                                      run(121.0, 115.4, 67890.12)]),
        result(2, RND4K_Q32, Op.READ, [run(45.678, 11151.9, 2869.33)]),
    ]
    return SessionResult(settings=st, system=system, preset_name="Default",
                         profile_name="Default", measure=5.0, interval=5.0, fio_version="fio-3.33",
                         diskmark_version="0.1.0", started="2026-11-22T10:11:12+01:00",
                         finished="2026-11-22T10:20:00+01:00", tests=tests)


# --- figures and meters ------------------------------------------------------------------


@pytest.mark.parametrize("value, unit, text", [
    (1234.5678, Unit.MB_S, "1234.57"), (1.2345678, Unit.GB_S, "1.235"),
    (117.7, Unit.IOPS, "117.70"), (67890.123, Unit.US, "67890.12"),
    (0, Unit.MB_S, "0.00"), (0, Unit.GB_S, "0.00"), (None, Unit.US, "0.00"),
    (float("nan"), Unit.IOPS, "0.00"),
])
def test_format_figure_uses_cdm_precision(value, unit, text):
    assert format_figure(value, unit) == text


@pytest.mark.parametrize("value, unit, fraction", [
    (100, Unit.MB_S, 0.5), (0.1, Unit.MB_S, 0.0), (100_000, Unit.MB_S, 1.0),
    (0.1, Unit.GB_S, 0.5), (100, Unit.GB_S, 1.0),
    (1, Unit.US, 1.0), (1000, Unit.US, 0.5), (1_000_000, Unit.US, 0.0),
    (0.1, Unit.IOPS, 0.0), (1_000_000, Unit.IOPS, 1.0),
])
def test_meter_fraction_is_cdm_log_scale(value, unit, fraction):
    assert meter_fraction(value, unit) == pytest.approx(fraction)


@pytest.mark.parametrize("value, unit, fraction", [
    (0, Unit.MB_S, 0.0), (-5, Unit.US, 0.0), (None, Unit.IOPS, 0.0), (0.001, Unit.MB_S, 0.0),
    (1e9, Unit.MB_S, 1.0), (0.01, Unit.US, 1.0), (1e12, Unit.US, 0.0), (1e12, Unit.IOPS, 1.0),
])
def test_meter_fraction_clamps(value, unit, fraction):
    assert meter_fraction(value, unit) == fraction


# --- text report -------------------------------------------------------------------------


def test_text_report_lines_are_cdm_format_with_best_figures():
    lines = text_report(make_session()).splitlines()
    # best MB/s run's MB/s and IOPS; the lowest mean latency of all runs
    assert "  SEQ    1MiB (Q=  8, T= 1):   123.456 MB/s [    117.7 IOPS] < 67890.12 us>" in lines
    assert "  RND    4KiB (Q= 32, T= 1):    45.678 MB/s [  11151.9 IOPS] <  2869.33 us>" in lines
    assert "  SEQ    1MiB (Q=  8, T= 1):  3000.000 MB/s [   2861.0 IOPS] <  2795.25 us>" in lines


def test_text_report_blocks_in_cdm_order_with_mix_ratio():
    lines = text_report(make_session()).splitlines()
    heads = [line for line in lines if line.startswith("[")]
    assert heads == ["[Read]", "[Write]", "[Mix] Read 70%/Write 30%", "[Details]"]
    details = lines[lines.index("[Details]") + 1:]
    assert any("R/Avg" in line for line in details), "every multi-pass test states its spread"
    read = lines.index("[Read]")
    assert lines[read + 1].startswith("  SEQ    1MiB") and lines[read + 2].startswith("  RND    4KiB")
    assert lines[read + 3] == ""


def test_every_row_in_every_cdm_section_zeros_where_not_run():
    """CrystalDiskMark writes [Read] and [Write] with a line for every row: zeros for a test
    the run did not measure (here RND4K was read only)."""
    lines = text_report(make_session()).splitlines()
    write = lines[lines.index("[Write]") + 1:lines.index("[Mix] Read 70%/Write 30%") - 1]
    assert write == [
        "  SEQ    1MiB (Q=  8, T= 1):  3000.000 MB/s [   2861.0 IOPS] <  2795.25 us>",
        "  RND    4KiB (Q= 32, T= 1):     0.000 MB/s [      0.0 IOPS] <     0.00 us>"]


def test_text_report_header_and_footer_as_crystaldiskmark_8_writes_them():
    text = text_report(make_session(comment="new NVMe, ext4"))
    lines = text.splitlines()
    assert lines[0] == "-" * 78 and lines[3] == "-" * 78
    assert lines[1] == "diskmark 0.1.0 (fio-3.33) Linux storage benchmark"
    assert lines[2].endswith("diskmark: https://github.com/diskmark/diskmark") and len(lines[2]) == 78
    assert lines[4] == "* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]"
    assert lines[5] == "* KB = 1000 bytes, KiB = 1024 bytes"
    footer = lines[lines.index("Profile: Default"):lines.index("Profile: Default") + 8]
    assert footer == [
        "Profile: Default",
        "   Test: 1 GiB (x3) [/mnt/data: 87% (814/931GiB)]",
        "   Mode:",
        "   Time: Measure 5 sec / Interval 5 sec ",
        "   Date: 2026/11/22 10:11:12",
        "     OS: Debian GNU/Linux 12 (bookworm) [Linux 6.1.0-18-amd64]",
        "Comment: new NVMe, ext4",
        "",
    ]
    facts = lines[lines.index(FACTS_TITLE) - 1:]
    assert facts[:9] == [
        "-" * 78, FACTS_TITLE, "-" * 78,
        "   Preset: Default [default], profile Default [default]",
        "      I/O: Read&Write, Random data; Direct I/O (O_DIRECT)",
        "   Target: /mnt/data",
        "   Device: /dev/nvme0n1p2 (Samsung SSD 980, SSD) scheduler none",
        "    Drive: not recorded (the result is from a diskmark that did not read the drive)",
        "       FS: ext4 (rw,relatime) on /mnt/data",
    ]
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert "Comment:" not in text_report(make_session())


@pytest.mark.parametrize("profile, word", [("peak", "Peak"), ("real", "Real"), ("demo", "Demo"),
                                           ("default", "Default"), ("stable", "Stable")])
def test_profile_line_uses_crystaldiskmark_words(profile, word):
    session = make_session(profile=profile)
    session.profile_name = {"peak": "Peak Performance", "real": "Real World Performance"}.get(
        profile, word)
    assert f"Profile: {word}" in text_report(session).splitlines()


def test_unit_note_explains_best_of_n():
    assert "then 3;" in text_report(make_session(), unit_note=True)
    assert "then 3;" not in text_report(make_session())


def test_zeros_and_buffered_said_where_crystaldiskmark_and_diskmark_say_them():
    text = text_report(make_session(direct=False, data=DataPattern.ZEROS, mode=Mode.READ))
    cdm, facts = text.split(FACTS_TITLE)
    assert "   Mode: <0Fill>" in cdm.splitlines()
    assert "Buffered (page cache), not O_DIRECT" in facts
    assert "      I/O: Read only, All 0x00 data; Buffered (page cache)" in facts
    assert "O_DIRECT)" not in text


def test_a_write_only_run_writes_read_zeros():
    session = make_session(mode=Mode.WRITE)
    session.tests = [t for t in session.tests if t.op is Op.WRITE]
    text = text_report(session)
    assert "[Write]" in text and "[Read]" in text and "[Mix]" not in text
    assert "  SEQ    1MiB (Q=  8, T= 1):     0.000 MB/s [      0.0 IOPS] <     0.00 us>" in text
    assert "I/O: Write only" in text


def test_ramfs_without_size_does_not_crash():
    session = make_session(direct=False)
    session.system = SystemFacts(target="/mnt/ram", fstype="ramfs")
    session.warnings = ["ramfs reports no size or free space"]
    text = text_report(session)
    assert "   Test: 1 GiB (x3) [/mnt/ram: n/a]" in text
    assert "   Device: n/a" in text and "       FS: ramfs" in text and "     OS: n/a" in text
    assert "Note: ramfs reports no size or free space" in text
    csv_report(session), markdown_report(session), grid_report(session), json_report(session)


def test_small_filesystem_usage_in_mib():
    session = make_session()
    session.system.total_bytes, session.system.free_bytes = 200 * MIB, 50 * MIB
    assert "[/mnt/data: 75% (150/200MiB)]" in text_report(session)


def test_failed_test_and_failed_session_are_reported():
    session = make_session()
    session.tests.append(result(1, SEQ128K_Q32, Op.READ, [], error="fio exited with status 1"))
    session.status, session.error = Status.FAILED, "fio exited with status 1"
    lines = text_report(session).splitlines()
    assert "  SEQ  128KiB (Q= 32, T= 1):     0.000 MB/s [      0.0 IOPS] <     0.00 us>" in lines
    assert "  SEQ128K Q32T1 read: error: fio exited with status 1" in lines
    assert "Failed: fio exited with status 1" in lines
    # the failed row sits between row 0 and row 2 of the Read block
    read = lines.index("[Read]")
    assert lines[read + 2].startswith("  SEQ  128KiB")


def test_cancelled_session_says_so_and_names_what_it_did_not_measure():
    session = make_session()
    session.status = Status.CANCELLED
    session.tests.append(result(1, SEQ128K_Q32, Op.WRITE, []))
    session.warnings = ["tmpfs measures memory, not a disk"]
    text = text_report(session)
    assert "Cancelled: the session was stopped before all tests finished." in text
    assert "Note: tmpfs measures memory, not a disk" in text
    assert "  SEQ128K Q32T1 write: not measured: the run was stopped first" in text


def test_no_mark_on_a_result_line():
    session = make_session()
    session.tests[2].cpu_limited = "fio used 99% of a CPU per thread"
    cdm, facts = text_report(session).split(FACTS_TITLE)
    assert "CPU" not in cdm and "CPU-LIMITED, fio used 99% of a CPU per thread" in facts


def test_format_test_line_unmeasured():
    assert format_test_line(TestResult(0, RND4K_Q32, Op.WRITE)) == \
        "  RND    4KiB (Q= 32, T= 1):     0.000 MB/s [      0.0 IOPS] <     0.00 us>"


# --- JSON, CSV, Markdown, grid -----------------------------------------------------------


def test_json_round_trips_with_equal_best_figures():
    session = make_session()
    text = json_report(session, extra={"comparison": None})
    assert text.endswith("}\n")
    data = json.loads(text)
    assert data["schema"] == "diskmark.result/1" and "comparison" in data
    assert data["tests"][2]["label"] == "SEQ1M Q8T1" and data["tests"][2]["kind"] == "read"
    back = SessionResult.from_dict(data)
    for a, b in zip(session.tests, back.tests, strict=True):
        assert (a.key, a.best_mb_s, a.best_iops, a.best_lat_us) == \
            (b.key, b.best_mb_s, b.best_iops, b.best_lat_us)
    assert back.settings == session.settings and back.system == session.system


def test_csv_has_warmup_and_every_run():
    session = make_session()
    rows = list(csv.DictReader(io.StringIO(csv_report(session))))
    assert len(rows) == sum(1 + len(t.runs) for t in session.tests) == 10
    seq_read = [r for r in rows if r["test"] == "SEQ1M Q8T1" and r["kind"] == "read"]
    assert [(r["run"], r["warmup"]) for r in seq_read] == [("0", "1"), ("1", "0"), ("2", "0"),
                                                           ("3", "0")]
    assert seq_read[2]["mb_s"] == "123.456" and seq_read[2]["lat_us"] == "68500.00"
    first = rows[0]
    assert first["kind"] == "mix" and first["mix_read"] == "70"
    assert (first["target"], first["device"], first["fstype"], first["size"], first["direct"]) == \
        ("/mnt/data", "/dev/nvme0n1p2", "ext4", str(GIB), "1")
    assert seq_read[0]["mix_read"] == ""


def test_csv_skips_failed_test_without_runs():
    session = make_session()
    session.tests.append(result(1, SEQ128K_Q32, Op.READ, [], error="boom"))
    assert len(csv_report(session).splitlines()) == 1 + 10


def test_markdown_table():
    lines = markdown_report(make_session()).splitlines()
    assert lines[2] == ("| Test | Read MB/s | Read IOPS | Read µs | Write MB/s | Write IOPS | "
                        "Write µs | Mix 70/30 MB/s | Mix 70/30 IOPS | Mix 70/30 µs |")
    assert lines[3] == "|---" + "|---:" * 9 + "|"
    assert lines[4] == ("| SEQ1M Q8T1 | 123.46 | 117.70 | 67890.12 | 3000.00 | 2861.00 | "
                        "2795.25 | 2000.50 | 1907.80 | 4100.00 |")
    assert lines[5] == "| RND4K Q32T1 | 45.68 | 11151.90 | 2869.33 | - | - | - | - | - | - |"


def test_grid_in_chosen_unit():
    lines = grid_report(make_session(), Unit.IOPS).splitlines()
    assert lines[0].split() == ["Test", "Read", "IOPS", "Write", "IOPS", "Mix", "70/30", "IOPS"]
    assert lines[1].split() == ["SEQ1M", "Q8T1", "117.70", "2861.00", "1907.80"]
    assert lines[2].split() == ["RND4K", "Q32T1", "11151.90", "-", "-"]


def test_describe_progress_uses_cdm_wording():
    assert describe_progress(Progress(Phase.WARMUP, "Sequential Read")) == \
        "Preparing... Sequential Read"
    assert describe_progress(Progress(Phase.MEASURING, "Random Write", run=2, runs=5,
                                      mb_s=123.456, eta_s=83)) == \
        "Random Write (2/5)  123.46 MB/s  ETA 1:23"
    assert describe_progress(Progress(Phase.INTERVAL, "Interval Time 3/5 sec", eta_s=3723)) == \
        "Interval Time 3/5 sec  ETA 1:02:03"
