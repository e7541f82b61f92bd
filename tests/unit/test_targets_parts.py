"""The parts of a run on several targets that need no fio: the targets read from the command
line, the same target given twice, --destroy-data given to the device it names, what two
targets share, and the side-by-side reports with their verdicts against the reference."""

from __future__ import annotations

import argparse
import csv
import io
import json
from dataclasses import replace

import pytest
from test_report import RND4K_Q32, SEQ1M_Q8, make_session, result, run

from diskmark.cli.parser import build_parser
from diskmark.drive.sharing import Placement, placement, sharing
from diskmark.engine.errors import TargetError
from diskmark.engine.sides import destroy_for, distinct_targets, target_label
from diskmark.model.results import Status
from diskmark.model.settings import Op
from diskmark.model.sides import DEVICE, FILESYSTEM, Sharing, TargetsResult
from diskmark.model.units import Unit
from diskmark.report import side_by_side


def parse(*words: str) -> argparse.Namespace:
    return build_parser(["run"]).parse_args(["run", *words])


def test_target_once_stays_a_value_and_repeated_becomes_a_list():
    assert parse().target == "."
    assert parse("--target", "/mnt/a").target == "/mnt/a"
    assert parse("--target", "/mnt/a", "--target", "/mnt/b", "--target", "/mnt/c").target == [
        "/mnt/a", "/mnt/b", "/mnt/c"]


def test_labels_are_absolute_paths_and_one_target_twice_is_refused(tmp_path, monkeypatch):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path)
    assert distinct_targets(["a", "b"]) == [str(tmp_path / "a"), str(tmp_path / "b")]
    assert target_label("~") == str(target_label(str(tmp_path.home())))
    with pytest.raises(TargetError) as e:
        distinct_targets(["a", "b", "./a/"])
    assert str(e.value).startswith(f"--target {tmp_path / 'a'} is given twice.")


def test_destroy_data_goes_to_no_directory():
    assert destroy_for(["/mnt/a", "/mnt/b"], None) == [None, None]
    # no device among the targets: the first target's check refuses it, naming it
    assert destroy_for(["/mnt/a", "/mnt/b"], "/dev/null") == ["/dev/null", None]


def test_two_directories_on_one_file_system_share_it(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    places = [placement(tmp_path / "a"), placement(tmp_path / "b")]
    assert places[0].filesystem == places[1].filesystem is not None
    found = sharing(["A", "B"], places)
    assert [(s.first, s.second, s.what) for s in found] == [("A", "B", FILESYSTEM)]


def test_a_disk_is_shared_only_where_two_targets_lie_on_it():
    places = [Placement(1, "/a", frozenset({"sda"})), Placement(2, "/b", frozenset({"sdb"})),
              Placement(3, "/c", frozenset({"sda", "sdc"})), Placement(None, "", frozenset())]
    found = sharing(["a", "b", "c", "d"], places)
    assert found == [Sharing("a", "c", DEVICE, "sda")]


def sides(second_read: float, status: Status = Status.COMPLETE) -> TargetsResult:
    """Two targets: b's SEQ1M read at ``second_read`` MB/s against a's 3000 (three passes
    each, 1% apart: a band of about 1%)."""
    def session(target: str, read: float):
        s = make_session()
        s.system.target = target
        s.tests = [result(0, SEQ1M_Q8, Op.READ, [run(read, read, 100.0),
                                                 run(read * 0.995, read, 100.0),
                                                 run(read * 0.99, read, 100.0)]),
                   result(2, RND4K_Q32, Op.READ, [run(50.0, 12000.0, 2000.0)])]
        return s

    b = replace(session("/mnt/b", second_read), status=status)
    return TargetsResult(["/mnt/a", "/mnt/b"], [session("/mnt/a", 3000.0), b],
                         [Sharing("/mnt/a", "/mnt/b", DEVICE, "nvme0n1")])


@pytest.mark.parametrize("read, glyph, change", [(1500.0, "▼", "−50.0%"), (3300.0, "▲", "+10.0%"),
                                                 (3003.0, "=", "+0.1%")])
def test_every_target_but_the_first_is_judged_against_it(read, glyph, change):
    text = side_by_side.targets_text(sides(read))
    row = next(line for line in text.splitlines() if line.startswith("SEQ1M Q8T1 Read")).split()
    assert row[3:] == ["3000.00", f"{read:.2f}", glyph, change]
    assert "Reference: /mnt/a" in text.splitlines()
    assert "▲ better, ▼ worse than the reference, = within the passes' noise" in text
    assert "/mnt/b shares the disk nvme0n1 with /mnt/a" in " ".join(text.split())


def test_a_figure_not_measured_on_the_reference_is_shown_not_judged():
    both = sides(1500.0)
    both.sessions[0].tests[1] = result(2, RND4K_Q32, Op.READ, [])
    text = side_by_side.targets_text(both, Unit.MB_S)
    row = next(line for line in text.splitlines() if line.startswith("RND4K Q32T1 Read")).split()
    assert row[3:] == ["-", "50.00"]


def test_json_holds_every_result_and_the_comparison_with_the_reference():
    doc = json.loads(side_by_side.targets_json(sides(1500.0, Status.FAILED),
                                               {"/mnt/a": {"history_id": "x1"}}))
    assert doc["schema"] == "diskmark.targets/1" and doc["reference"] == "/mnt/a"
    assert doc["failed"] == ["/mnt/b"] and doc["order"] == "interleaved"
    assert doc["sharing"] == [{"targets": ["/mnt/a", "/mnt/b"], "shares": "device",
                               "name": "nvme0n1"}]
    a, b = doc["targets"]
    assert a["history_id"] == "x1" and "against_reference" not in a
    seq = next(t for t in b["against_reference"]["tests"] if t["key"] == "SEQ1M Q8T1/read")
    assert seq["units"]["mb_s"]["verdict"] == "worse"
    assert b["result"]["schema"] == "diskmark.result/1" and b["status"] == "failed"


def test_csv_and_markdown_carry_every_target():
    rows = list(csv.reader(io.StringIO(side_by_side.sides_csv(sides(1500.0), "target"))))
    assert rows[0][:2] == ["target", "status"]
    assert {r[0] for r in rows[1:]} == {"/mnt/a", "/mnt/b"}
    md = side_by_side.targets_markdown(sides(1500.0))
    assert "| SEQ1M Q8T1 Read | 3000.00 | 100.00 | 1500.00 ▼ −50.0% | 100.00 = ±0.0% |" in md
    assert "> Reference: /mnt/a" in md
