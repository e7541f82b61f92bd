"""`diskmark history`, run as a user runs it: import reports gathered from elsewhere (real
results, copied with other dates and figures), list and filter them, show, export, delete,
prune, and a drive's trend with the changes beyond the runs' noise."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import unicodedata
from datetime import datetime, timezone
from pathlib import Path

import pytest
from history_data import EIGHT_TESTS, THREE_PASSES, clone, real_result, series, write_reports


def diskmark(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    if home is not None:
        env["DISKMARK_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=120, env=env)


def listing(*args: str) -> dict:
    done = diskmark("history", "list", "--format", "json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def reports(tmp_path) -> Path:
    """Three real runs on three drives, as `diskmark run --format json` wrote them."""
    when = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
    docs = [clone(real_result(EIGHT_TESTS), when, 1.0, hostname="ci-1"),
            clone(real_result(THREE_PASSES), when.replace(day=2), 1.0, hostname="ci-2"),
            clone(real_result("20261123T203454Z-96f2a4"), when.replace(day=3), 1.0,
                  hostname="desk")]
    write_reports(tmp_path / "reports", docs)
    return tmp_path / "reports"


def test_import_list_filter_show(reports):
    done = diskmark("history", "import", str(reports))
    assert done.returncode == 0, done.stderr
    assert "3 imported, 0 duplicates skipped, 0 refused" in done.stderr

    again = diskmark("history", "import", str(reports / "run-00001.json"))
    assert again.returncode == 0 and "already in the history" in again.stderr
    assert listing()["total"] == 3

    runs = listing()["runs"]
    assert [r["host"] for r in runs] == ["desk", "ci-2", "ci-1"]  # newest first
    assert runs[1]["device"] == "/dev/loop0" and runs[1]["head_label"] == "SEQ1M Q8T1"
    assert runs[1]["head_read"] == pytest.approx(7217.53, abs=0.01)
    assert [r["host"] for r in listing("--device", "tmpfs")["runs"]] == ["ci-1"]
    assert [r["host"] for r in listing("--target", "/mnt/md")["runs"]] == ["ci-2"]
    assert [r["host"] for r in listing("--host", "desk")["runs"]] == ["desk"]
    assert listing("--host", "nowhere")["runs"] == []

    text = diskmark("history", "list", "--limit", "2")
    assert text.returncode == 0
    lines = text.stdout.splitlines()
    assert lines[0].split()[:3] == ["ID", "RUN", "DATE"] and len(lines) == 3
    assert "ci-2" in lines[2] and "7217.53" in lines[2]
    assert "2 of 3 runs" in text.stderr

    one = runs[1]["id"]
    shown = diskmark("history", "show", one[:12])  # a unique beginning of the id
    assert shown.returncode == 0, shown.stderr
    assert f"Run: {one}" in shown.stdout and "Host: ci-2" in shown.stdout
    assert "7217.532 MB/s" in shown.stdout  # CrystalDiskMark's report line
    raw = diskmark("history", "show", one, "--format", "json")
    assert json.loads(raw.stdout) == json.loads((reports / "run-00001.json").read_text())

    missing = diskmark("history", "show", "19990101")
    assert missing.returncode == 2 and "no history entry" in missing.stderr


def test_import_refuses_what_is_not_a_result(tmp_path, reports):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "diskmark.result/1", "tests": "many"}')
    done = diskmark("history", "import", str(bad), str(reports / "run-00000.json"),
                    str(tmp_path / "absent.json"))
    assert done.returncode == 2
    assert "bad.json cannot be imported" in done.stderr and "absent.json" in done.stderr
    assert "1 imported, 0 duplicates skipped, 2 refused" in done.stderr
    assert listing()["total"] == 1


def test_export_delete_import_round_trip(tmp_path, reports):
    assert diskmark("history", "import", str(reports)).returncode == 0
    before = {r["id"]: diskmark("history", "show", r["id"], "--format", "json").stdout
              for r in listing()["runs"]}
    out = tmp_path / "exported"
    done = diskmark("history", "export", str(out))
    assert done.returncode == 0, done.stderr
    assert sorted(p.stem for p in out.iterdir()) == sorted(before)
    refused = diskmark("history", "export", str(out))  # never replaced silently
    assert refused.returncode == 2 and "exists" in refused.stderr

    gone = diskmark("history", "delete", *before)
    assert gone.returncode == 0, gone.stderr
    assert listing()["total"] == 0
    assert diskmark("history", "import", str(out)).returncode == 0
    after = {r["id"]: diskmark("history", "show", r["id"], "--format", "json").stdout
             for r in listing()["runs"]}
    assert after == before  # the same runs under the same ids


def test_prune_keeps_baselines_and_the_newest(tmp_path):
    docs = series(real_result(), [1.0] * 5, start=datetime(2025, 1, 1, tzinfo=timezone.utc))
    write_reports(tmp_path / "r", docs)
    assert diskmark("history", "import", str(tmp_path / "r")).returncode == 0
    oldest = listing()["runs"][-1]["id"]
    assert diskmark("baselines", "import", str(tmp_path / "r" / "run-00000.json"), "--name",
                    "first").returncode == 0

    dry = diskmark("history", "prune", "--keep", "2", "--dry-run")
    assert dry.returncode == 0 and "would remove 3 runs" in dry.stderr
    assert listing()["total"] == 5
    done = diskmark("history", "prune", "--keep", "2")
    assert done.returncode == 0 and "removed 3 runs" in done.stderr
    kept = listing()["runs"]
    assert [r["started"][:10] for r in kept] == ["2025-01-29", "2025-01-22"]
    assert oldest not in {r["id"] for r in kept}
    assert diskmark("history", "prune", "--older-than", "1").returncode == 0
    assert listing()["total"] == 0
    assert "first" in diskmark("baselines", "list").stdout  # baselines are never pruned


def test_trend_points_out_changes_beyond_the_noise(tmp_path):
    # one drive: steady, a drop of 30% (a firmware update?), then back; single passes, so
    # the band is the default 3%: 1% up or down is noise
    docs = series(real_result(), [1.0, 1.01, 0.99, 0.70, 0.71, 1.0], device="/dev/sdb")
    docs += series(real_result(), [1.0, 1.0], device="/dev/sdc")
    write_reports(tmp_path / "r", docs)
    assert diskmark("history", "import", str(tmp_path / "r")).returncode == 0
    assert diskmark("baselines", "import", str(tmp_path / "r" / "run-00001.json"), "--name",
                    "after install").returncode == 0

    done = diskmark("history", "trend", "seq1m-q8t1", "--format", "json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["test"] == "SEQ1M Q8T1" and data["kind"] == "read"
    first, second = data["series"]
    assert first["device"] == "/dev/sdb" and len(first["points"]) == 6
    assert second["device"] == "/dev/sdc" and len(second["points"]) == 2
    verdicts = [p["verdict"] for p in first["points"]]
    assert verdicts == [None, "same", "same", "worse", "same", "better"]
    assert first["points"][3]["pct"] == pytest.approx(-29.3, abs=0.2)
    assert first["points"][1]["baselines"] == ["after install"]
    values = [p["value"] for p in first["points"]]
    assert values[0] == pytest.approx(4361.99, abs=0.01)

    text = diskmark("history", "trend", "SEQ1M Q8T1", "--device", "/dev/sdb", "--width", "70")
    assert text.returncode == 0, text.stderr
    assert "SEQ1M Q8T1 Read in MB/s: /dev/sdb" in text.stdout and "/dev/sdc" not in text.stdout
    assert "2 changes beyond the runs' noise" in text.stdout
    assert "▼ -29.3% worse" in text.stdout and "▲ +40.8% better" in text.stdout
    axis = next(line for line in text.stdout.splitlines() if "└" in line)
    assert "▼" in axis and "▲" in axis and "B" in axis
    assert "B 2026/01/12" in text.stdout  # the baseline, marked with its date

    # latency: lower is better, so the drop in speed is a rise in µs, still "worse"
    lat = json.loads(diskmark("history", "trend", "RND4K Q1T1", "--kind", "write", "--unit",
                              "us", "--device", "/dev/sdb", "--format", "json").stdout)
    assert [p["verdict"] for p in lat["series"][0]["points"]][3] == "worse"
    unknown = diskmark("history", "trend", "fast please")
    assert unknown.returncode == 2 and "not a test" in unknown.stderr


def test_trend_in_microseconds_takes_either_sign_and_prints_the_micro_sign(reports):
    """`--unit µs` (U+00B5, a keyboard's), `--unit μs` (U+03BC, copied from CrystalDiskMark's
    window) and `--unit us` are one unit; the trend says it with U+00B5, as `keys` and the
    README do (0.2.0 printed U+03BC here)."""
    assert diskmark("history", "import", str(reports)).returncode == 0
    for spelling in ("\u00b5s", "\u03bcs", "us"):
        done = diskmark("history", "trend", "RND4K Q1T1", "--kind", "write", "--unit", spelling)
        assert done.returncode == 0, done.stderr
        assert "RND4K Q1T1 Write in \u00b5s" in done.stdout and "\u03bc" not in done.stdout
    keys = diskmark("keys")
    assert "\u00b5s" in keys.stdout and "\u03bc" not in keys.stdout


def test_export_names_and_leaves_out_a_damaged_run(tmp_path, reports, isolated_home):
    assert diskmark("history", "import", str(reports)).returncode == 0
    runs = [r["id"] for r in listing()["runs"]]
    with sqlite3.connect(isolated_home / "data" / "diskmark.sqlite3") as conn:
        conn.execute("UPDATE results SET document = '{\"schema\": \"diskmark.res' WHERE name = ?",
                     (runs[1],))
    out = tmp_path / "exported"
    done = diskmark("history", "export", str(out))
    assert done.returncode == 1, done.stderr
    assert f"run {runs[1]} is damaged" in done.stderr and "not exported" in done.stderr
    assert "exported 2 of 3 runs" in done.stderr
    assert sorted(p.stem for p in out.iterdir()) == sorted([runs[0], runs[2]])
    assert all(json.loads(p.read_text())["schema"] == "diskmark.result/1" for p in out.iterdir())

    one = tmp_path / "one.json"
    done = diskmark("history", "export", str(one), runs[1])
    assert done.returncode == 2 and f"{runs[1]!r} is damaged" in done.stderr
    assert not one.exists()


def test_export_into_a_file_that_is_not_a_directory_is_refused(tmp_path, reports):
    assert diskmark("history", "import", str(reports)).returncode == 0
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    done = diskmark("history", "export", str(notes))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert f"{notes} exists and is not a directory" in done.stderr
    assert notes.read_text() == "mine"
    below = diskmark("history", "export", str(notes / "runs"))
    assert below.returncode == 1 and "Traceback" not in below.stderr
    assert f"{notes} is not a directory" in below.stderr


#: U+202E turns "gpj.exe" into what reads as "exe.jpg"; a zero-width space and a tab hide
#: and shift; a tag character is invisible. Each is shown escaped; JSON keeps it exact.
SPOOF = "evil\u202egpj.exe\u200b\tend\U000e0041"
SPOOF_SHOWN = "evil\\u202egpj.exe\\u200b\\tend\\U000e0041"


def raw_format(text: str) -> list[str]:
    """Format characters (Unicode category Cf) and tabs, as a terminal would get them."""
    return sorted({repr(c) for c in text if unicodedata.category(c) == "Cf" or c == "\t"})


def test_format_characters_in_runs_and_baselines_are_shown_escaped(tmp_path):
    doc = real_result(THREE_PASSES)
    doc["system"].update(hostname=f"h{SPOOF}", device=f"/dev/{SPOOF}", target=f"/mnt/{SPOOF}")
    doc["settings"]["comment"] = SPOOF
    write_reports(tmp_path / "r", [doc])
    assert diskmark("history", "import", str(tmp_path / "r")).returncode == 0
    assert diskmark("baselines", "import", str(tmp_path / "r" / "run-00000.json"), "--name",
                    "b").returncode == 0
    run = listing()["runs"][0]["id"]
    for args in (["history", "list"], ["history", "show", run], ["baselines", "list"],
                 ["baselines", "show", "b"]):
        done = diskmark(*args)
        assert done.returncode == 0, (args, done.stderr)
        assert raw_format(done.stdout) == [] and raw_format(done.stderr) == [], args
        assert SPOOF_SHOWN in done.stdout, args
    shown = diskmark("history", "show", run).stdout
    assert f"Comment: {SPOOF_SHOWN}\n" in shown and f"/mnt/{SPOOF_SHOWN}: " in shown
    raw = diskmark("history", "show", run, "--format", "json")
    assert raw_format(raw.stdout) == [] and "\\u202e" in raw.stdout
    assert json.loads(raw.stdout)["settings"]["comment"] == SPOOF  # exact
    assert listing()["runs"][0]["host"] == f"h{SPOOF}"  # JSON stays JSON, and exact
    trend = diskmark("history", "trend", "SEQ1M Q8T1", "--format", "json")
    assert trend.returncode == 0 and raw_format(trend.stdout) == []
    assert json.loads(trend.stdout)["series"][0]["device"] == f"/dev/{SPOOF}"
    trend = diskmark("history", "trend", "SEQ1M Q8T1")
    assert raw_format(trend.stdout) == [] and f"/dev/{SPOOF_SHOWN}" in trend.stdout
    exported = tmp_path / "b.json"
    assert diskmark("baselines", "export", "b", str(exported)).returncode == 0
    assert raw_format(exported.read_text()) == []
    assert json.loads(exported.read_text())["result"]["system"]["device"] == f"/dev/{SPOOF}"


def test_a_row_with_escaped_characters_keeps_its_columns(tmp_path):
    """An escape is wider than the character it stands for: the columns are measured on the
    escaped text, so the next column starts where it does on a plain row."""
    odd, plain = real_result(THREE_PASSES), real_result(THREE_PASSES)
    odd["system"].update(hostname=f"h{SPOOF}\tx", device=f"/dev/{SPOOF}")
    plain["started"] = "2026-01-01T00:00:00+00:00"
    write_reports(tmp_path / "r", [odd, plain])
    assert diskmark("history", "import", str(tmp_path / "r")).returncode == 0
    for i in range(2):
        assert diskmark("baselines", "import", str(tmp_path / "r" / f"run-{i:05d}.json"),
                        "--name", f"b{i}").returncode == 0
    for args, column in ((["history", "list"], "FS"), (["baselines", "list"], "FS")):
        lines = diskmark(*args).stdout.splitlines()
        start = lines[0].index(column)
        assert len(lines) == 3, lines
        for line in lines[1:]:
            assert line[start - 2:start] == "  " and line[start] != " ", (args, lines)


def test_a_damaged_run_can_be_deleted(reports, isolated_home):
    assert diskmark("history", "import", str(reports)).returncode == 0
    runs = [r["id"] for r in listing()["runs"]]
    with sqlite3.connect(isolated_home / "data" / "diskmark.sqlite3") as conn:
        conn.execute("UPDATE results SET document = '{\"schema\": \"diskmark.res' WHERE name = ?",
                     (runs[1],))
    done = diskmark("history", "delete", runs[1])
    assert done.returncode == 0, done.stderr
    assert [r["id"] for r in listing()["runs"]] == [runs[0], runs[2]]
