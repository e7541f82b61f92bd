"""The fio JSON parser, on output captured from real fio runs (scripts/capture_fixtures.py)."""

import json
import random
from pathlib import Path

import pytest

from diskmark.engine import parse
from diskmark.model.settings import Op

FIXTURES = Path(__file__).parents[1] / "fixtures"


def objects(name: str, noise: list[str] | None = None) -> list[dict]:
    stream = parse.JsonStream()
    objs = stream.feed((FIXTURES / name).read_text())
    assert stream.noise == (noise or [])
    return objs


SIGINT_NOISE = ["fio: terminating on signal 2"]  # fio 3.33 prints this on stdout


@pytest.mark.parametrize("name", ["fio_seqread.json", "fio_randwrite_t2.json",
                                  "fio_randrw70.json", "fio_sigint.json", "fio_prepare.json"])
def test_stream_splits_status_objects_regardless_of_chunking(name):
    text = (FIXTURES / name).read_text()
    whole = objects(name, SIGINT_NOISE if name == "fio_sigint.json" else None)
    if name != "fio_prepare.json":  # 16 MiB is written in well under a second
        assert len(whole) >= 2, "status-interval=1 gives one object per second plus the final one"
    rng = random.Random(7)
    stream, pieces, i = parse.JsonStream(), [], 0
    while i < len(text):
        n = rng.randint(1, 900)
        pieces += stream.feed(text[i:i + n])
        i += n
    assert pieces == whole
    # cumulative counters never go backwards
    sent = [parse.io_bytes(o) for o in whole]
    assert sent == sorted(sent)


def test_stream_keeps_noise_apart_from_json():
    stream = parse.JsonStream()
    obj = json.dumps({"jobs": [{"read": {"io_bytes": 1}}]})
    out = stream.feed("fio: some warning\n" + obj[:10])
    assert out == []
    out = stream.feed(obj[10:] + "\ntrailing words\n")
    assert len(out) == 1 and parse.io_bytes(out[0]) == 1
    assert stream.noise == ["fio: some warning", "trailing words"]


def test_a_brace_in_a_warning_does_not_hide_the_objects_after_it():
    """fio's objects start a line; a "{" that starts no object (in a warning) is noise, not
    the start of an object that never completes (before: every later object was held back
    until the watchdog failed the step)."""
    obj = json.dumps({"jobs": [{"read": {"io_bytes": 7}}]}, indent=2)
    for text in ("fio: bad option {x}\n" + obj + "\n", "{x}\n" + obj, "{\nnot json\n" + obj):
        stream, out = parse.JsonStream(), []
        for i in range(0, len(text), 5):  # in pieces, as a pipe delivers it
            out += stream.feed(text[i:i + 5])
        assert [parse.io_bytes(o) for o in out] == [7], text
    # an object cut anywhere (in a string, a number, a true or a null) is only incomplete
    rich = json.dumps({"jobs": [{"read": {"io_bytes": 7, "bw_mean": -12.5e-3, "ok": True,
                                          "none": None, "no": False, "name": "a\u00e9"}}]},
                      indent=2, ensure_ascii=True)
    for cut in range(1, len(rich)):
        stream = parse.JsonStream()
        out = stream.feed(rich[:cut]) + stream.feed(rich[cut:] + "\n")
        assert [parse.io_bytes(o) for o in out] == [7] and stream.noise == [], cut


def test_sequential_read_figures_use_decimal_megabytes():
    final = objects("fio_seqread.json")[-1]
    job = final["jobs"][0]["read"]
    run = parse.run_result(final, Op.READ)
    assert run.mb_s == pytest.approx(job["bw_bytes"] / 1e6)
    # KDiskMark's mistake: bw is KiB/s; /1000 reads 2.4% low
    assert run.mb_s == pytest.approx(job["bw"] * 1024 / 1e6, rel=0.01)
    assert run.iops == pytest.approx(job["iops"])
    assert run.lat_us == pytest.approx(job["lat_ns"]["mean"] / 1000)
    assert run.runtime_ms == final["jobs"][0]["job_runtime"] > 1500
    assert run.write_mb_s == 0 and run.read_mb_s == run.mb_s


def test_percentiles_are_present_and_ordered():
    for name, op in (("fio_seqread.json", Op.READ), ("fio_randwrite_t2.json", Op.WRITE),
                     ("fio_randrw70.json", Op.MIX)):
        pct = parse.run_result(objects(name)[-1], op).lat_percentiles
        order = ["50", "90", "99", "99.9", "99.99", "max"]
        assert list(pct) == order, name
        values = [pct[k] for k in order]
        assert values == sorted(values) and values[0] > 0, name


def test_percentile_buckets_above_the_slowest_io_are_capped_at_max():
    """Seen on real fio 3.33: p99.99 = 7241.728 µs (a bucket bound) with max = 7232.108 µs."""
    final = objects("fio_seqread.json")[-1]
    clat = final["jobs"][0]["read"]["clat_ns"]
    clat["max"] = 7232108
    clat["percentile"]["99.990000"] = 7241728
    pct = parse.run_result(final, Op.READ).lat_percentiles
    assert pct["99.99"] == pct["max"] == pytest.approx(7232.108)
    values = [pct[k] for k in ("50", "90", "99", "99.9", "99.99", "max")]
    assert values == sorted(values)


def test_threads_are_folded_by_group_reporting():
    final = objects("fio_randwrite_t2.json")[-1]
    assert len(final["jobs"]) == 1
    assert final["jobs"][0]["job options"]["numjobs"] == "2"
    run = parse.run_result(final, Op.WRITE)
    assert run.iops == pytest.approx(final["jobs"][0]["write"]["iops"])
    assert run.mb_s == pytest.approx(run.iops * 4096 / 1e6, rel=0.02)


def test_mix_sums_bandwidth_and_weights_latency_by_ios():
    final = objects("fio_randrw70.json")[-1]
    r, w = final["jobs"][0]["read"], final["jobs"][0]["write"]
    run = parse.run_result(final, Op.MIX)
    assert run.mb_s == pytest.approx((r["bw_bytes"] + w["bw_bytes"]) / 1e6)
    assert run.read_mb_s == pytest.approx(r["bw_bytes"] / 1e6)
    expected = (r["lat_ns"]["mean"] * r["total_ios"] + w["lat_ns"]["mean"] * w["total_ios"]) / (
        (r["total_ios"] + w["total_ios"]) * 1000)
    assert run.lat_us == pytest.approx(expected)
    share = r["total_ios"] / (r["total_ios"] + w["total_ios"])
    assert 0.6 < share < 0.8, "rwmixread=70"


def test_interrupted_run_still_ends_with_a_complete_object():
    objs = objects("fio_sigint.json", SIGINT_NOISE)
    assert parse.job_error(objs[-1]) == 0
    run = parse.run_result(objs[-1], Op.READ)
    assert run.mb_s > 0 and run.runtime_ms < 30000


def test_live_rate_gives_one_sample_per_second():
    rate = parse.LiveRate()
    values = [rate.update(o) for o in objects("fio_seqread.json")]
    assert all(v is None or v > 0 for v in values)
    assert 1 <= len(rate.samples) <= 3  # a 2-second run
    final = parse.run_result(objects("fio_seqread.json")[-1], Op.READ)
    assert min(rate.samples) <= final.mb_s * 1.5


def test_live_rate_restarts_when_fio_resets_counters_after_ramp():
    rate = parse.LiveRate()
    def mk(b, ms):
        return {"jobs": [{"read": {"io_bytes": b}, "write": {"io_bytes": 0}, "job_runtime": ms}]}
    assert rate.update(mk(1_000_000, 1000)) == pytest.approx(1.0)
    assert rate.update(mk(3_000_000, 2000)) == pytest.approx(2.0)
    assert rate.update(mk(500_000, 500)) is None  # ramp_time ended: counters restart
    assert rate.samples == []
    assert rate.update(mk(2_500_000, 1500)) == pytest.approx(2.0)


# --- damaged output: a clear FioOutputError naming the field, never a TypeError -----------

def _final():
    return objects("fio_seqread.json")[-1]


@pytest.mark.parametrize("damage", [
    lambda o: o.update(jobs="oops"),
    lambda o: o.update(jobs=[]),
    lambda o: o.update(jobs=["not a job"]),
    lambda o: o["jobs"][0]["read"].update(io_bytes="many"),
    lambda o: o["jobs"][0]["read"].update(bw_bytes=None),
    lambda o: o["jobs"][0]["read"].update(lat_ns=[1, 2]),
    lambda o: o["jobs"][0].update(read="nothing"),
    lambda o: o["jobs"][0].update(job_runtime=float("nan")),
    lambda o: o["jobs"][0].update(usr_cpu=True),
    lambda o: o["jobs"][0]["read"]["clat_ns"]["percentile"].update({"50.000000": "x"}),
], ids=["jobs-string", "jobs-empty", "job-string", "io_bytes-string", "bw-null",
        "lat-list", "side-string", "runtime-nan", "cpu-bool", "percentile-string"])
def test_malformed_fio_output_is_a_clear_error(damage):
    obj = _final()
    damage(obj)
    with pytest.raises(parse.FioOutputError):
        parse.run_result(parse.job(obj), Op.READ)
        parse.io_bytes(parse.job(obj))
        parse.LiveRate().update(parse.job(obj))


def test_a_missing_side_counts_as_nothing_moved():
    obj = _final()
    del obj["jobs"][0]["write"]
    assert parse.run_result(parse.job(obj), Op.READ).write_mb_s == 0


def test_job_error_of_damaged_output_is_zero_not_a_crash():
    assert parse.job_error({"jobs": "x"}) == 0
    assert parse.job_error({"jobs": [{"error": "EIO"}]}) == 0
    assert parse.job_error({"jobs": [{"error": 0}, {"error": 5}]}) == 5


def test_a_runaway_brace_does_not_grow_the_buffer_forever():
    """More than BUFFER_MAX without a complete object is not fio talking: it is refused
    (before, the buffer slid one character at a time, 100 % CPU for minutes)."""
    stream = parse.JsonStream()
    with pytest.raises(parse.FioOutputError, match="without a status object"):
        for _ in range(parse.BUFFER_MAX // 1000 + 1):
            stream.feed("{" + "x" * 998 + "\n")


def test_a_line_longer_than_fio_writes_is_refused():
    stream = parse.JsonStream()
    stream.feed("x" * (parse.LINE_MAX - 1))
    stream.feed("\n" + "y" * parse.LINE_MAX)  # a line of its own, at the limit: fio's still
    with pytest.raises(parse.FioOutputError, match="without a line break"):
        stream.feed("y")


def test_kept_noise_is_bounded_in_lines_and_length():
    stream = parse.JsonStream()
    for n in range(parse.NOISE_LINES + 50):
        stream.feed(f"warning {n}: " + "z" * 2000 + "\n")
    out = stream.feed('{"jobs": []}\n')
    assert out == [{"jobs": []}]
    assert len(stream.noise) == parse.NOISE_LINES
    assert stream.noise[-1].startswith(f"warning {parse.NOISE_LINES + 49}: ")
    assert max(map(len, stream.noise)) <= parse.NOISE_LINE_CHARS + 1


def test_absurd_nesting_is_skipped_not_a_recursion_error():
    stream = parse.JsonStream()
    out = stream.feed("{\"a\":" * 100000 + "1" + "}" * 100000 + '\n{"jobs": []}')
    assert out[-1] == {"jobs": []}


# --- passes as windows of one continuous job (json+ status every 500 ms, captured) ---------

CONTINUOUS = [("fio_continuous_seqread.json", Op.READ, 1),
              ("fio_continuous_randrw70_t2.json", Op.MIX, 2)]


@pytest.mark.parametrize("name,op,threads", CONTINUOUS)
def test_windows_add_up_to_fio_s_own_totals(name, op, threads):
    objs = objects(name)
    snaps = [parse.snapshot(o, op, threads) for o in objs]
    assert [s.t_ms for s in snaps] == sorted(s.t_ms for s in snaps)
    final = objs[-1]["jobs"][0]
    whole = parse.run_result(final, op)
    # the whole run as one window is fio's own figure
    one = parse.window(parse.ZERO, snaps[-1], op)
    assert one.mb_s == pytest.approx(whole.mb_s, rel=0.01)
    assert one.iops == pytest.approx(whole.iops, rel=0.01)
    assert one.lat_us == pytest.approx(whole.lat_us, rel=0.001)
    assert one.usr_cpu == pytest.approx(whole.usr_cpu, rel=0.01, abs=0.01)
    # fio's percentiles are its histogram's buckets: the same ones, from the bins
    for key in ("50", "99", "max"):
        assert one.lat_percentiles[key] == pytest.approx(whole.lat_percentiles[key], rel=0.02), key
    # consecutive windows add up to the whole
    cuts = [parse.ZERO, snaps[len(snaps) // 2], snaps[-1]]
    parts = [parse.window(a, b, op) for a, b in zip(cuts, cuts[1:])]
    assert sum(p.io_bytes for p in parts) == one.io_bytes
    assert sum(p.runtime_ms for p in parts) == pytest.approx(one.runtime_ms, abs=2)
    for p in parts:
        assert p.mb_s > 0 and p.lat_percentiles["50"] <= p.lat_percentiles["99"] <= p.lat_percentiles["max"]


def test_a_window_counts_the_ios_that_completed_not_those_issued():
    """fio's ``total_ios`` runs up to the queue depth ahead of the I/Os that completed
    (which the bytes and the latency mean are over): at Q8 with 1 MiB blocks, each window's
    bytes per I/O must be the block size and its latency the exact mean of its own I/Os."""
    objs = objects("fio_continuous_seqread.json")
    snaps = [parse.ZERO] + [parse.snapshot(o, Op.READ, 1) for o in objs]
    for a, b in zip(snaps, snaps[1:]):
        if b.t_ms <= a.t_ms:
            continue
        w = parse.window(a, b, Op.READ)
        ios = w.iops * w.runtime_ms / 1000
        assert w.io_bytes / ios == pytest.approx(1 << 20, rel=0.01), (a.t_ms, b.t_ms)
    first = objs[0]["jobs"][0]["read"]
    w = parse.window(parse.ZERO, snaps[1], Op.READ)
    assert w.lat_us == pytest.approx(first["lat_ns"]["mean"] / 1000)
    assert first["total_ios"] > first["lat_ns"]["N"]  # the capture does show I/Os in flight


def test_mix_window_keeps_both_sides():
    objs = objects("fio_continuous_randrw70_t2.json")
    run = parse.window(parse.ZERO, parse.snapshot(objs[-1], Op.MIX, 2), Op.MIX)
    assert run.read_mb_s > run.write_mb_s > 0
    assert run.mb_s == pytest.approx(run.read_mb_s + run.write_mb_s)
    # job_runtime sums the two threads; the window's clock is the job's
    assert 1900 <= run.runtime_ms <= 2100


def test_a_window_of_no_length_is_an_error():
    snap = parse.snapshot(objects("fio_continuous_seqread.json")[-1], Op.READ, 1)
    with pytest.raises(parse.FioOutputError):
        parse.window(snap, snap, Op.READ)


def test_second_rate_samples_whole_seconds():
    rate = parse.SecondRate()
    snaps = [parse.snapshot(o, Op.READ, 1) for o in objects("fio_continuous_seqread.json")]
    values = [rate.update(s) for s in snaps]
    assert values.count(None) >= 1 and 1 <= len(rate.samples) <= 2  # a 2-second run
    assert all(mb > 0 for _, mb in rate.samples)
    assert rate.between(0, snaps[-1].t_ms) == [mb for _, mb in rate.samples]


def test_histogram_percentiles_pick_the_bucket_that_covers_the_share():
    hist = {1000: 50, 2000: 40, 9000: 9, 50000: 1}
    pct = parse.histogram_percentiles([hist])
    assert pct["50"] == 1.0 and pct["90"] == 2.0 and pct["99"] == 9.0 and pct["max"] == 50.0
    # a mix: the slower side's value
    assert parse.histogram_percentiles([hist, {3000: 10}])["50"] == 3.0


def test_pass_bounds_pick_the_object_nearest_each_boundary():
    from diskmark.engine.parse import pass_bounds as _pass_bounds

    ticks = [100.0 * i for i in range(1, 31)]  # 0.1 s … 3.0 s; the last ends the last pass
    assert _pass_bounds(ticks, 2, 1000) == [9, 19]  # the objects at 1.0 s and 2.0 s
    # reports that stalled across a boundary: the nearest object still ends that pass
    assert _pass_bounds([100, 200, 1400, 2100, 2900, 3000], 2, 1000) == [2, 3]
    # too few objects to tell three passes apart
    assert _pass_bounds([2900.0, 3000.0], 2, 1000) is None
