"""diskmark's text reports read by an independent reader of CrystalDiskMark's files (the
``crystaldiskmark-parser`` package) with every figure diskmark saved, and imported back
into diskmark with every figure equal. The sessions are real runs of fio: the Default
profile (a run kept from an earlier version), NVMe SSD with Mix, Peak stopped after its
first test, and a CPU-limited test."""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path

import pytest
from conftest import tiny
from crystaldiskmark_parser import parse as cdm_parse
from history_data import THREE_PASSES, real_result

from diskmark.engine.runner import Engine
from diskmark.model.events import TestFinished
from diskmark.model.results import SessionResult, Status
from diskmark.model.settings import Op
from diskmark.model.voice import ENGLISH
from diskmark.report.cdm_report import FACTS_TITLE, text_report
from diskmark.report.formatting import size_text
from diskmark.report.text import usage_text
from diskmark.store.saved_files import read_result_file

pytestmark = pytest.mark.slow

SECTIONS = {Op.READ: "read_results", Op.WRITE: "write_results", Op.MIX: "mix_results"}


def _run(target: Path, stop_after_first: bool = False, **settings) -> SessionResult:
    engine = Engine()

    def on_event(event) -> None:
        if stop_after_first and isinstance(event, TestFinished):
            engine.stop()

    return asyncio.run(engine.run(tiny(target, **settings), on_event))


@pytest.fixture(scope="module")
def sessions(tmp_path_factory) -> dict[str, SessionResult]:
    target = tmp_path_factory.mktemp("cdm-reports")
    nvme = _run(target, preset="nvme", mix=70, comment="NVMe SSD with Mix, a real run")
    peak = _run(target, profile="peak", stop_after_first=True)
    limited = copy.deepcopy(nvme)
    for t in limited.tests:  # the mark as the engine sets it on a 2-core machine
        if t.spec.threads > 1 and t.op is Op.READ:
            t.cpu_limited = t.cpu_limited or "fio used 98% of a CPU per thread over 16 threads"
    return {"default": SessionResult.from_dict(real_result(THREE_PASSES)), "nvme_mix": nvme,
            "peak_stopped": peak, "cpu_limited": limited}


CASES = ["default", "nvme_mix", "peak_stopped", "cpu_limited"]


def test_the_runs_are_what_the_cases_say(sessions):
    assert sessions["nvme_mix"].status is Status.COMPLETE
    assert {t.op for t in sessions["nvme_mix"].tests} == {Op.READ, Op.WRITE, Op.MIX}
    peak = sessions["peak_stopped"]
    assert peak.status is Status.CANCELLED
    finished = [t for t in peak.tests if t.runs]
    assert len(finished) == 1 and len(peak.tests) == 4, "every test of the run is named"
    assert any(t.cpu_limited for t in sessions["cpu_limited"].tests)


@pytest.mark.parametrize("case", CASES)
def test_crystaldiskmark_parser_reads_every_figure_diskmark_saved(sessions, case, tmp_path):
    session = sessions[case]
    path = tmp_path / f"{case}.txt"
    path.write_text(text_report(session, unit_note=True), encoding="utf-8")
    read = cdm_parse(str(path))
    for op, attr in SECTIONS.items():
        ours = sorted((t for t in session.tests if t.op is op), key=lambda t: t.index)
        theirs = getattr(read, attr)
        if op is Op.MIX and not ours:
            assert theirs == []
            continue
        rows = sorted({t.label: t.index for t in session.tests}.items(), key=lambda kv: kv[1])
        assert len(theirs) == len(rows), f"{op}: a line for every test, as CrystalDiskMark"
        by_label = {t.label: t for t in ours}
        specs = {t.label: t.spec for t in session.tests}
        for (label, _index), line in zip(rows, theirs, strict=True):
            test = by_label.get(label)
            measured = test is not None and test.complete
            assert line.rate == (round(test.best_mb_s, 3) if measured else 0.0), label
            assert line.iops == (round(test.best_iops, 1) if measured else 0.0), label
            assert line.latency == (round(test.best_lat_us, 2) if measured else 0.0), label
            spec = specs[label]
            assert (line.test_type, line.queues, line.threads) == (spec.pattern, spec.queues,
                                                                   spec.threads), label
    profiles = {"default": "Default", "peak": "Peak", "real": "Real", "demo": "Demo"}
    assert read.profile == profiles[session.settings.profile]
    st = session.settings
    assert read.test == f"{size_text(st.size)} (x{st.count}) [{usage_text(session, ENGLISH)}]"
    assert read.os == (session.system.os + (f" [Linux {session.system.kernel}]"
                                            if session.system.kernel else ""))
    assert read.time.startswith("Measure ")
    assert read.comment == (session.settings.comment or None)
    # "   Mode:" with nothing after it: random data, not elevated; "[Admin]" for a run as root
    assert read.mode == ("[Admin]" if session.system.as_root else None)


@pytest.mark.parametrize("case", CASES)
def test_a_text_report_imports_back_with_every_figure_equal(sessions, case, tmp_path):
    session = sessions[case]
    written = text_report(session)
    path = tmp_path / f"{case}.txt"
    path.write_text(written, encoding="utf-8")
    [(_header, document)] = read_result_file(path)
    back = SessionResult.from_dict(document)
    assert {t.key for t in back.tests} == {t.key for t in session.tests}
    for test in session.tests:
        again = back.test(test.key)
        assert again is not None and again.complete == test.complete, test.key
        if test.complete:
            assert round(again.best_mb_s, 3) == round(test.best_mb_s, 3), test.key
            assert round(again.best_iops, 1) == round(test.best_iops, 1), test.key
            assert round(again.best_lat_us, 2) == round(test.best_lat_us, 2), test.key
    st, bt = session.settings, back.settings
    assert (bt.preset, bt.profile, bt.size, bt.count, bt.mix, bt.comment, bt.direct, bt.mode) == \
        (st.preset, st.profile, st.size, st.count, st.mix, st.comment, st.direct, st.mode)
    assert (back.preset_name, back.profile_name) == (session.preset_name, session.profile_name)
    assert (back.diskmark_version, back.fio_version) == (session.diskmark_version,
                                                         session.fio_version)
    assert back.origin == "", "diskmark's own report is not another program's"
    assert "text report of diskmark" in back.warnings[0]
    # the CrystalDiskMark block it writes again is the one it read, but for the disk's usage
    again = text_report(back).split(FACTS_TITLE)[0].splitlines()
    first = written.split(FACTS_TITLE)[0].splitlines()
    differ = [(a, b) for a, b in zip(first, again, strict=True) if a != b]
    assert [a for a, _b in differ if not a.startswith("   Test: ")] == []
