"""Units, sizes and CrystalDiskMark's aggregation rules on known inputs."""

import pytest

from diskmark.model.facts import SystemFacts
from diskmark.model.results import RunResult, SessionResult, Spread, TestResult, TestSpec
from diskmark.model.settings import Op, Settings
from diskmark.model.units import GIB, MIB, Unit, format_size, parse_size


def run(mb_s, iops, lat):
    return RunResult(mb_s=mb_s, iops=iops, lat_us=lat, io_bytes=1, runtime_ms=1000)


def test_sizes_are_binary():
    assert parse_size("16MiB") == 16 * MIB == parse_size("16m") == parse_size("16 MiB")
    assert parse_size("1GiB") == GIB == parse_size("1g") == parse_size("1024MiB")
    assert parse_size("1.5GiB") == 1536 * MIB and parse_size("16777216") == 16 * MIB
    for small_or_large in ("1KiB", "15MiB", "65GiB", "1e30G"):
        with pytest.raises(ValueError, match="size must be between 16MiB and 64GiB"):
            parse_size(small_or_large)
    assert format_size(64 * GIB) == "64GiB" and format_size(512 * MIB) == "512MiB"
    for bad in ("", "lots", "-1G", "1X", "nanG", "infM", "0M", "1e999999999G"):
        with pytest.raises(ValueError, match="not a size"):
            parse_size(bad)


@pytest.mark.parametrize("text", ["16.5MiB", "16777217", "100000KiB", "0.1G"])
def test_sizes_must_be_whole_mib_as_the_test_file_is_laid_out_in_1mib_blocks(text):
    with pytest.raises(ValueError, match="whole MiB"):
        parse_size(text)


@pytest.mark.parametrize("text", ["16mb", "16 MB", "1GB", "1gb", "512Kb", "1TB"])
def test_decimal_units_are_refused_not_read_as_binary(text):
    with pytest.raises(ValueError, match=r"MB.*1,000,000 bytes.*binary"):
        parse_size(text)


def test_units_parse_and_know_which_way_is_better():
    assert Unit.parse("mb/s") is Unit.MB_S and Unit.parse("µs") is Unit.US
    assert Unit.parse("iops") is Unit.IOPS and Unit.parse("GB/s") is Unit.GB_S
    assert Unit.US.lower_is_better and not Unit.MB_S.lower_is_better
    with pytest.raises(ValueError):
        Unit.parse("furlongs")


@pytest.mark.parametrize("text", ["\u00b5s", "\u03bcs", Unit.US.label, Unit.US.value, "US",
                                  " \u03bcs ", "\u00b5sec"])
def test_every_spelling_of_microseconds_that_diskmark_prints_is_accepted(text):
    """diskmark prints µs (U+00B5, as keyboards make it); CrystalDiskMark's window and other
    programs print the Greek μs (U+03BC); ``us`` is ASCII: each means microseconds."""
    assert Unit.parse(text) is Unit.US


def test_the_command_line_takes_the_unit_as_the_app_prints_it():
    from diskmark.cli.parser import build_parser

    for unit in Unit:
        args = build_parser().parse_args(["run", "--unit", unit.label])
        assert args.unit is unit


@pytest.mark.parametrize("text", ["\u00b5s", "\u03bcs", "us"])
@pytest.mark.parametrize("command", [["run"], ["history", "trend", "SEQ1M Q8T1"]])
def test_every_command_with_a_unit_takes_either_micro_sign(command, text):
    from diskmark.cli.parser import build_parser

    assert build_parser().parse_args([*command, "--unit", text]).unit is Unit.US


def test_best_bandwidth_and_lowest_latency_are_taken_separately():
    spec = TestSpec("RND", 4096, 32, 1)
    t = TestResult(0, spec, Op.READ, runs=[run(100, 24000, 50), run(120, 29000, 60), run(90, 22000, 40)])
    assert t.figure(Unit.MB_S) == 120 and t.figure(Unit.GB_S) == pytest.approx(0.12)
    assert t.figure(Unit.IOPS) == 29000  # the IOPS of the best-bandwidth pass
    assert t.figure(Unit.US) == 40  # the lowest latency of any pass
    sp = t.spread()
    assert (sp.min, sp.mean, sp.max) == (90, pytest.approx(310 / 3), 120)
    assert sp.r_avg_pct == pytest.approx(30 / (310 / 3) * 100)
    assert Spread.of([]).r_avg_pct == 0


def test_a_pass_without_io_has_no_latency_to_be_the_lowest():
    """A pass in which no I/O completed (the disk stalled for all of it) reports 0 MB/s and
    no latency: it is not the "lowest latency" of the test."""
    spec = TestSpec("SEQ", MIB, 8, 1)
    t = TestResult(0, spec, Op.WRITE, runs=[run(0, 0, 0), run(900, 860, 9000)])
    assert t.figure(Unit.US) == 9000 and t.figure(Unit.MB_S) == 900
    assert TestResult(0, spec, Op.WRITE, runs=[run(0, 0, 0)]).figure(Unit.US) == 0


def test_session_round_trips_through_json_dict():
    spec = TestSpec("SEQ", MIB, 8, 1, startdelay={"read": 5.0})
    t = TestResult(0, spec, Op.MIX, mix_read=70, runs=[run(500, 500, 16000)], warmup=run(1, 1, 1),
                   fio_command=["fio", "--name=x"], sync_seconds=0.5)
    s = SessionResult(settings=Settings(target="/x", mix=70), system=SystemFacts(target="/x", fstype="ext4"),
                      tests=[t], fio_version="fio-3.33")
    d = s.to_dict()
    assert d["schema"] == "diskmark.result/1" and d["tests"][0]["key"] == "SEQ1M Q8T1/mix70"
    back = SessionResult.from_dict(d)
    assert back.to_dict() == d
    with pytest.raises(ValueError, match="not a diskmark result"):
        SessionResult.from_dict({"schema": "other/1"})


def test_settings_validation():
    Settings().validate()
    for bad in (dict(size=8 * MIB), dict(size=128 * GIB), dict(count=0), dict(mix=75),
                dict(measure=0.5), dict(interval=-1)):
        with pytest.raises(ValueError):
            Settings(**bad).validate()


def test_a_results_tests_have_one_order_every_view_lists_them_in():
    """CrystalDiskMark's order, one rule on the model: reads, then writes, then mixes (by
    their share of reads), each in the profile's row order. The app's result and the text
    grid each wrote their own (the app's ignored the mix's share, so mixes of two shares
    came in one order on screen and another in the report)."""
    from diskmark.model.results import in_order
    from diskmark.report.text import op_groups

    seq, rnd = TestSpec("SEQ", MIB, 8, 1), TestSpec("RND", 4096, 1, 1)
    made = [TestResult(index=1, spec=rnd, op=Op.MIX, mix_read=30),
            TestResult(index=0, spec=seq, op=Op.MIX, mix_read=70),
            TestResult(index=1, spec=rnd, op=Op.WRITE),
            TestResult(index=1, spec=rnd, op=Op.READ),
            TestResult(index=0, spec=seq, op=Op.WRITE),
            TestResult(index=0, spec=seq, op=Op.READ)]
    expected = ["SEQ1M Q8T1/read", "RND4K Q1T1/read", "SEQ1M Q8T1/write", "RND4K Q1T1/write",
                "RND4K Q1T1/mix30", "SEQ1M Q8T1/mix70"]
    assert [t.key for t in in_order(made)] == expected
    session = SessionResult(settings=Settings(), system=SystemFacts(), tests=made)
    assert [t.key for _op, _mix, tests in op_groups(session) for t in tests] == expected
    assert [op.rank for op in Op] == [0, 1, 2]
