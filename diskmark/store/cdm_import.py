"""A CrystalDiskMark text result turned into a diskmark result document, so a drive's
Windows figures can be kept as a baseline or in the history and compared with its Linux
ones tile by tile.

Every test the file holds becomes one pass with the file's figures. What the file says of
the run (size, count, measure and interval, profile, Mix ratio, comment, date, the OS) goes
where a diskmark result keeps it; that the figures came from CrystalDiskMark, not fio, is
kept as the result's note (in English, as every saved word) and its OS line, and its
``fio_version`` stays empty: fio never measured it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from diskmark.model.cdm_text import CdmResult, CdmTest
from diskmark.model.facts import SystemFacts
from diskmark.model.results import RunResult, SessionResult, TestResult, TestSpec
from diskmark.model.settings import DataPattern, Mode, Settings
from diskmark.model.units import KIB, MIB
from diskmark.model.voice import ENGLISH

_LABEL = re.compile(r"^(SEQ|RND)([0-9]+)([KM]) Q([0-9]+)T([0-9]+)$")
# CrystalDiskMark's profile words (8.x/9.x: Peak, Real; diskmark: Peak Performance, …)
_PROFILES = (("peak", "peak"), ("real", "real"), ("demo", "demo"))


def _spec(label: str) -> TestSpec:
    m = _LABEL.match(label)
    if m is None:  # cdm_text only makes labels of this shape
        raise ValueError(label)
    block = int(m[2]) * (MIB if m[3] == "M" else KIB)
    return TestSpec(m[1], block, int(m[4]), int(m[5]))


def _profile(words: str) -> str:
    lowered = words.strip().lower()
    return next((pid for word, pid in _PROFILES if lowered.startswith(word)), "default")


def _preset(profile: str, labels: set[str]) -> tuple[str, str]:
    """The id and name of the built-in preset whose profile runs every test of the file
    (NVMe SSD's SEQ128K Q32T1 and RND4K Q32T16), the Default one when none does."""
    from diskmark.presets import BUILTIN_DIR, load_file

    presets = [load_file(p) for p in sorted(BUILTIN_DIR.glob("*.toml"))]
    presets.sort(key=lambda p: p.id != "default")
    for preset in presets:
        runs = preset.profiles.get(profile)
        if runs is not None and labels <= {t.label for t in runs.tests}:
            return preset.id, preset.name
    return presets[0].id, presets[0].name


def _run(test: CdmTest, spec: TestSpec, measure: float) -> RunResult:
    # 5.x/6.x print no IOPS for sequential tests: for fixed-size blocks IOPS is the
    # bandwidth over the block, which is how CrystalDiskMark computes the figure it prints
    iops = test.iops if test.iops is not None else test.mb_s * 1e6 / spec.block
    # a measure no float holds has no length; the document's check refuses it by name
    runtime_ms = round(measure * 1000) if math.isfinite(measure) else 0
    return RunResult(mb_s=test.mb_s, iops=iops, lat_us=test.latency_us or 0.0, io_bytes=0,
                     runtime_ms=runtime_ms)


def origin_note(cdm: CdmResult) -> str:
    """Where the figures came from, in English as every saved word: the first note of an
    imported result, which its reports and comparisons show."""
    if cdm.made_by == "diskmark":
        # TRANSLATORS: {version} is diskmark's version that wrote the text report
        return ENGLISH._("Imported from a text report of diskmark {version}: the best pass "
                         "of each test as the report printed it.").format(version=cdm.version)
    if cdm.version and cdm.os:
        # TRANSLATORS: {version} is CrystalDiskMark's (8.0.1), {os} its OS line as written
        return ENGLISH._("Imported from a text result of CrystalDiskMark {version}, measured "
                         "on {os}: another OS, file system and engine than diskmark's, one "
                         "pass per test.").format(version=cdm.version, os=cdm.os)
    if cdm.version:
        return ENGLISH._("Imported from a text result of CrystalDiskMark {version}: another "
                         "OS, file system and engine than diskmark's, one pass per test."
                         ).format(version=cdm.version)
    return ENGLISH._("Imported from a CrystalDiskMark text result: another OS, file system "
                     "and engine than diskmark's, one pass per test.")


def _how(io: str) -> dict[str, Any]:
    """The settings diskmark's own block names (its ``I/O:`` line), for a report it wrote."""
    out: dict[str, Any] = {}
    if io.startswith("Read only"):
        out["mode"] = Mode.READ
    elif io.startswith("Write only"):
        out["mode"] = Mode.WRITE
    if "Buffered (page cache)" in io:
        out["direct"] = False
    return out


def cdm_document(cdm: CdmResult) -> dict[str, Any]:
    """The ``diskmark.result/1`` document of a CrystalDiskMark result, or of a text report
    diskmark wrote (not yet checked: the caller validates it, as every imported document).
    A test CrystalDiskMark wrote with zeros (not run) is a test without a pass."""
    ours = cdm.made_by == "diskmark"
    profile = cdm.profile_id if ours and cdm.profile_id else _profile(cdm.profile)
    defaults = Settings()
    measure = cdm.measure_s or 0.0
    preset, preset_name = _preset(profile, {t.label for t in cdm.tests})
    if ours and cdm.preset_id:
        preset, preset_name = cdm.preset_id, cdm.preset_name or cdm.preset_id
    settings = Settings(
        target=cdm.drive or defaults.target,
        preset=preset, profile=profile,
        mix=cdm.mix_read, size=cdm.size_bytes or defaults.size,
        count=cdm.count or defaults.count, measure=cdm.measure_s, interval=cdm.interval_s,
        data=DataPattern.ZEROS if "0fill" in cdm.mode.lower() else DataPattern.RANDOM,
        comment=cdm.comment, **(_how(cdm.io) if ours else {}))
    rows: dict[str, int] = {}
    tests = []
    for test in cdm.tests:
        spec = _spec(test.label)
        index = rows.setdefault(test.label, len(rows))
        tests.append(TestResult(index=index, spec=spec, op=test.op, mix_read=test.mix_read,
                                runs=[_run(test, spec, measure)] if test.measured else []))
    session = SessionResult(
        settings=settings, system=SystemFacts(target=cdm.drive, os=cdm.os, as_root=cdm.admin),
        preset_name=preset_name, profile_name=(cdm.profile_name if ours else "") or cdm.profile,
        measure=measure,
        interval=cdm.interval_s or 0.0, started=cdm.started.isoformat() if cdm.started else "",
        tests=tests, warnings=[origin_note(cdm), *(p.said(ENGLISH) for p in cdm.problems)],
        fio_version=cdm.fio_version if ours else "",
        diskmark_version=cdm.version if ours else "",
        origin="" if ours else f"CrystalDiskMark {cdm.version}".rstrip())
    return session.to_dict()
