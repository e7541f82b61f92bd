"""CrystalDiskMark's text results brought in from the command line, as a person moving a
drive from Windows does: `baselines import`, `history import DIR`, then a real run compared
with what CrystalDiskMark measured."""

from __future__ import annotations

import codecs
import json
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

from conftest import TINY_ARGS
from history_data import EIGHT_TESTS, clone, real_result, write_reports

from diskmark.model.units import Unit

FIXTURES = Path(__file__).parent.parent / "fixtures" / "cdm"


def diskmark(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=300,
                          env=dict(os.environ) | (env or {}))


def test_history_import_dir_reads_text_results_and_names_what_it_refuses(tmp_path):
    folder = tmp_path / "results"
    write_reports(folder, [clone(real_result(EIGHT_TESTS),
                                 datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc))])
    shutil.copy(FIXTURES / "cdm8_0_1_default.txt", folder / "CrystalDiskMark_20210622.txt")
    (folder / "readme.txt").write_text("These are my results.\n")
    done = diskmark("history", "import", str(folder))
    assert done.returncode == 2, done.stderr
    assert "CrystalDiskMark_20210622.txt as " in done.stderr
    assert ("readme.txt cannot be imported: This is not a CrystalDiskMark text result"
            in done.stderr)
    assert "2 imported, 0 duplicates skipped, 1 refused" in done.stderr
    listed = diskmark("history", "list", "--format", "json")
    assert json.loads(listed.stdout)["total"] == 2


def test_baselines_import_of_a_text_that_is_no_result(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a benchmark\n")
    done = diskmark("baselines", "import", str(notes))
    assert done.returncode == 2
    assert "notes.txt cannot be imported: This is not a CrystalDiskMark text result" in \
        done.stderr
    assert "No baselines" in diskmark("baselines", "list").stderr


def test_a_run_compares_with_an_imported_crystaldiskmark_baseline(tmp_path):
    done = diskmark("baselines", "import", str(FIXTURES / "cdm8_0_1_default.txt"),
                    "--name", "windows")
    assert done.returncode == 0, done.stderr
    assert "as baseline 'windows'" in done.stderr
    target = tmp_path / "target"
    target.mkdir()
    run = diskmark("run", "--target", str(target), *TINY_ARGS, "--mode", "read",
                   "--compare", "windows")
    assert run.returncode == 0, run.stderr
    table = run.stdout.split("Comparison:", 1)[1]
    # every read test of the Default profile is in the file: each is compared, figure for
    # figure against the file's
    for title, mb_s in (("SEQ1M Q8T1 Read", "531.46"), ("SEQ1M Q1T1 Read", "489.84"),
                        ("RND4K Q32T1 Read", "269.41"), ("RND4K Q1T1 Read", "41.38")):
        line = next(x for x in table.splitlines() if x.startswith(title))
        assert mb_s in line.split(), line
    assert "SEQ1M Q8T1 Write: only in baseline 'windows'" in table
    # it says in words where the baseline came from, not "kernel … vs unknown"
    assert "the baseline was measured by CrystalDiskMark 8.0.1 on Windows 10" in " ".join(
        table.split())
    assert "kernel" not in table and "fio fio-" not in table
    # a latency the run has and the file has too is compared; the verdicts are the table's
    assert sum(Unit.US.label in x.split() for x in table.splitlines()) == 4


def test_the_text_format_is_the_file_and_the_grid_is_for_a_person(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    saved = tmp_path / "report.txt"
    run = diskmark("run", "--target", str(target), *TINY_ARGS, "--profile", "demo",
                   "--output", str(saved))
    assert run.returncode == 0, run.stderr
    text = saved.read_text()
    lines = text.splitlines()
    assert lines[0] == "-" * 78 and lines[1].endswith(" Linux storage benchmark"), lines[:3]
    assert "Crystal" not in lines[1] and lines[2].strip().startswith("diskmark: https://")
    assert not text.startswith("Test "), "--output FILE writes the text report alone"
    # the file imports back: every figure it printed is the baseline's
    done = diskmark("baselines", "import", str(saved), "--name", "back")
    assert done.returncode == 0, done.stderr
    shown = diskmark("baselines", "show", "back")
    assert shown.returncode == 0, shown.stderr
    figures = [x for x in lines if " MB/s [" in x]
    assert figures and all(x in shown.stdout.splitlines() for x in figures)
    # on standard output a person gets the grid first, then the same report
    grid = diskmark("run", "--target", str(target), *TINY_ARGS, "--profile", "demo")
    assert grid.returncode == 0, grid.stderr
    assert grid.stdout.startswith("Test ") and "\n" + "-" * 78 + "\n" in grid.stdout


# --- files that hold more, or other, than one CrystalDiskMark result (issue 32, item 7) ------

def _utf16(name: str) -> bytes:
    """A fixture as CrystalDiskMark 5 to 7 save it: UTF-16 LE with its byte order mark, CRLF."""
    text = (FIXTURES / name).read_text("utf-8").replace("\r\n", "\n").replace("\n", "\r\n")
    return codecs.BOM_UTF16_LE + text.encode("utf-16-le")


def _with_line(name: str, old: str, new: str) -> str:
    text = (FIXTURES / name).read_text("utf-8")
    assert old in text
    return text.replace(old, new, 1)


def _runs() -> list[dict]:
    done = diskmark("history", "list", "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["runs"]


SEQ_READ = "  SEQ    1MiB (Q=  8, T= 1):   531.458 MB/s [    506.8 IOPS] < 15726.77 us>"


def test_two_results_in_one_file_are_two_runs_and_no_baseline(tmp_path):
    """CrystalDiskMark's exports pasted one after the other (UTF-8, and UTF-16 LE as `cat`
    joins two saves of CrystalDiskMark 7, the second's byte order mark mid-file): the
    history keeps each as its own run and says so; a baseline is one result, so `baselines
    import` refuses the file and says what to do, writing nothing."""
    utf8 = tmp_path / "two.txt"
    utf8.write_bytes((FIXTURES / "cdm8_0_1_default.txt").read_bytes()
                     + (FIXTURES / "cdm8_0_2_nvme.txt").read_bytes())
    utf16 = tmp_path / "two-utf16.txt"
    utf16.write_bytes(_utf16("cdm7_0_0_java_quote.txt") + _utf16("cdm6_0_2_forum.txt"))
    done = diskmark("history", "import", str(utf8), str(utf16))
    assert done.returncode == 0, done.stderr
    for path in (utf8, utf16):
        for number in (1, 2):
            assert f"imported result {number} of 2 of {path} as " in done.stderr, done.stderr
    assert "4 imported, 0 duplicates skipped, 0 refused" in done.stderr
    runs = _runs()
    assert sorted(r["started"][:10] for r in runs) == [
        "2018-12-15", "2020-01-03", "2021-06-22", "2021-06-27"]
    assert {r["head_read"] for r in runs} >= {531.458, 101.514}
    # the same file again: each result is named as the run it repeats
    again = diskmark("history", "import", str(utf8))
    assert f"result 2 of 2 of {utf8} is already in the history as " in again.stderr
    assert "0 imported, 2 duplicates skipped, 0 refused" in again.stderr
    refused = diskmark("baselines", "import", str(utf16), "--name", "windows")
    assert refused.returncode == 2
    assert (f"{utf16} cannot be imported as a baseline: it holds 2 results, and a baseline is "
            "one. Keep the one you mean in the file, or import each as a run of the history "
            "with `diskmark history import`.") in refused.stderr
    assert "No baselines" in diskmark("baselines", "list").stderr


def test_a_test_repeated_is_kept_once_and_a_file_too_large_is_refused_early(tmp_path):
    """A test line repeated as often as a text result may hold (up to 1 MiB): one test,
    its first figures, one note; the import is quick and the database stays small. The
    same line 100,000 times (7.6 MB) is refused from its first MiB, nothing written."""
    lines = (FIXTURES / "cdm8_0_1_default.txt").read_text().splitlines(keepends=True)
    first = lines.index(SEQ_READ + "\n")
    times = (1024 * 1024 - len("".join(lines))) // len(lines[first])
    repeated = tmp_path / "repeated.txt"
    repeated.write_text("".join(lines[:first] + [lines[first]] * times + lines[first + 1:]))
    done = diskmark("baselines", "import", str(repeated), "--name", "repeated")
    assert done.returncode == 0, done.stderr
    notes = [x for x in done.stderr.splitlines() if "imported" not in x]
    assert notes == [f"diskmark: SEQ1M Q8T1 Read appears {times} times; the first, on line "
                     f"{first + 1}, is kept."], done.stderr
    shown = diskmark("baselines", "list", "--format", "json")
    [baseline] = json.loads(shown.stdout)["baselines"]
    assert baseline["head_read"] == 531.458
    assert (isolated_data() / "diskmark.sqlite3").stat().st_size < 256 * 1024
    kept = diskmark("baselines", "show", "repeated")
    assert sum(" MB/s [" in x for x in kept.stdout.splitlines()) == 8
    # in the store: the distinct tests only, read quickly
    from diskmark.store.exchange import import_baseline
    from diskmark.store.store import Store
    began = time.monotonic()
    entry = import_baseline(Store(), repeated, "again")
    assert time.monotonic() - began < 5, "a 1 MiB text result imports in well under seconds"
    assert entry.session is not None and len(entry.session.tests) == 8
    huge = tmp_path / "huge.txt"
    huge.write_text("".join(lines[:first] + [lines[first]] * 100_000 + lines[first + 1:]))
    began = time.monotonic()
    refused = diskmark("history", "import", str(huge))
    assert time.monotonic() - began < 30
    assert refused.returncode == 2
    assert (f"{huge} cannot be imported: This is not a CrystalDiskMark text result: it is "
            "larger than 1 MiB, and CrystalDiskMark's are a few KB.") in refused.stderr
    assert _runs() == []


def isolated_data() -> Path:
    return Path(os.environ["DISKMARK_HOME"]) / "data"


def test_lines_that_name_no_test_are_noted_a_few_then_counted(tmp_path):
    """100,000 lines that report a figure for no test diskmark knows, beside the file's
    eight: the first five are named, the others counted in one line, and what is kept with
    the run is as short. A file of such lines alone holds nothing: both commands refuse
    it by the same rule, in the same words."""
    unknown = "".join(f"X{n % 10} 1 MB/s\n" for n in range(100_000))
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(_with_line("cdm8_0_1_default.txt", "\nProfile:", "\n" + unknown + "Profile:"))
    done = diskmark("history", "import", str(mixed))
    assert done.returncode == 0, done.stderr
    assert len(done.stderr) < 2000, done.stderr[:3000]
    said = [x.removeprefix("diskmark: ") for x in done.stderr.splitlines()]
    assert said[1:7] == [
        *(f"Line {20 + n} reports a figure for no test diskmark knows: X{n} 1 MB/s"
          for n in range(5)),
        "And 99995 more lines were not read."], said
    [run] = _runs()
    document = json.loads(diskmark("history", "show", run["id"], "--format", "json").stdout)
    assert len(document["warnings"]) == 7 and len(json.dumps(document)) < 10_000
    nothing = tmp_path / "nothing.txt"
    nothing.write_text("CrystalDiskMark 8.0.1 x64 (C) 2007-2021 hiyohiyo\n" + unknown)
    by_history = diskmark("history", "import", str(nothing))
    by_baselines = diskmark("baselines", "import", str(nothing), "--name", "nothing")
    for refused in (by_history, by_baselines):
        assert refused.returncode == 2
        assert f"{nothing} cannot be imported: it holds no measured test" in refused.stderr
        assert len(refused.stderr) < 1000, refused.stderr[:3000]
    assert len(_runs()) == 1 and "No baselines" in diskmark("baselines", "list").stderr


def test_a_long_line_is_shown_clipped_and_a_10_mb_one_refused(tmp_path):
    """A line of 500,000 characters (an escape sequence in it) that names no test: shown
    and kept clipped, on one line, the escape written out; a 10 MB line is past what a
    text result may hold and the file is refused before it is read whole."""
    long_line = "  ZZZ \x1b[2J" + "A" * 500_000 + " 5 MB/s"
    long = tmp_path / "long.txt"
    long.write_text(_with_line("cdm8_0_1_default.txt", "\nProfile:", f"\n{long_line}\nProfile:"))
    done = diskmark("baselines", "import", str(long), "--name", "long")
    assert done.returncode == 0, done.stderr
    [note] = [x for x in done.stderr.splitlines() if x.startswith("diskmark: Line ")]
    assert note.startswith("diskmark: Line 20 reports a figure for no test diskmark knows: "
                           "ZZZ \\x1b[2JAAAA") and note.endswith("A…"), note
    assert "\x1b" not in done.stderr and len(note) < 250
    shown = diskmark("baselines", "list", "--format", "json")
    assert len(shown.stdout) < 5000
    kept = diskmark("baselines", "show", "long")
    assert kept.returncode == 0 and len(kept.stdout) < 5000
    assert "ZZZ \\x1b[2JAAAA" in kept.stdout and "\x1b" not in kept.stdout
    huge = tmp_path / "huge-line.txt"
    huge.write_text(_with_line("cdm8_0_1_default.txt", "\nProfile:",
                               "\n  ZZZ " + "A" * 10_000_000 + " 5 MB/s\nProfile:"))
    refused = diskmark("history", "import", str(huge))
    assert refused.returncode == 2
    assert "larger than 1 MiB" in refused.stderr and len(refused.stderr) < 1000


def test_a_date_that_cannot_be_placed_in_time_is_named_and_left_out(tmp_path):
    """Year 1 and 9999/12/31 are dates Python holds but no time zone can turn into a point
    in time (a day's margin, whatever the machine's zone): the result is kept without a
    date and the note names the date, never "non-finite figures" nor a traceback (west of
    Greenwich 9999/12/31 overflowed). A date a day inside the range is kept."""
    files = {}
    for date in ("0001/01/01 00:00:00", "9999/12/31 23:59:59", "9999/12/30 12:00:00"):
        path = tmp_path / f"{date[:4]}-{date[8:10]}.txt"
        path.write_text(_with_line("cdm8_0_1_default.txt", "2021/06/22 17:19:21", date))
        files[date] = path
    for zone in ("America/Los_Angeles", "Asia/Tokyo"):
        env = {"TZ": zone, "DISKMARK_HOME": str(tmp_path / zone.replace("/", "-"))}
        done = diskmark("history", "import", *map(str, files.values()), env=env)
        assert done.returncode == 0, done.stderr
        assert "3 imported, 0 duplicates skipped, 0 refused" in done.stderr
        for date in list(files)[:2]:
            assert (f"The date {date} cannot be placed in time; the result is kept without a "
                    "date.") in done.stderr
        assert "non-finite" not in done.stderr and "Traceback" not in done.stderr
        listed = json.loads(diskmark("history", "list", "--format", "json", env=env).stdout)
        assert sorted(r["started"] for r in listed["runs"]) == ["", "", "9999-12-30T12:00:00"]
    done = diskmark("baselines", "import", str(files["0001/01/01 00:00:00"]), "--name", "old")
    assert done.returncode == 0, done.stderr
    assert "The date 0001/01/01 00:00:00 cannot be placed in time" in done.stderr
