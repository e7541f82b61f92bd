"""Where two sessions differ, in words: the tests measured on one side only and why, the
settings and system facts that make a comparison mislead ("size 1GiB vs 16MiB", "buffered
vs O_DIRECT"), and the software that changed between them (kernel, fio), current first.
In the user's language on screen, in English in the comparison's JSON (``voice``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from diskmark.locale import N_
from diskmark.model.names import mix_label, test_title
from diskmark.model.results import SessionResult, TestResult
from diskmark.model.settings import DEFAULT_NOISE_PCT, Op
from diskmark.model.units import format_size
from diskmark.model.voice import LOCAL, Voice
from diskmark.report.formatting import MODE_REPORT, said_title

#: Why a test is measured on one side only, by :attr:`Missing.why`.
_MISSING = {
    "not_in_baseline": N_("not run in the baseline"),
    "not_run_now": N_("not run this time"),
    "baseline_not_measured": N_("baseline not measured"),
    "current_not_measured": N_("current not measured"),
    # TRANSLATORS: {error} is why the test failed
    "baseline_failed": N_("baseline failed: {error}"),
    "current_failed": N_("current failed: {error}"),
}


@dataclass(frozen=True)
class Missing:
    """A test measured on one side only."""

    key: str
    label: str
    op: Op
    mix_read: int | None
    side: str  # "current" or "baseline": where it *was* measured
    why: str  # a key of _MISSING: "not_in_baseline", "baseline_failed", …
    error: str = ""  # the failed side's error

    @property
    def title(self) -> str:
        return test_title(self.label, self.op, self.mix_read)

    @property
    def said(self) -> str:
        """The title in the language in use, for what a person reads."""
        return said_title(self.label, self.op, self.mix_read)

    @property
    def reason(self) -> str:
        """Why, in the user's language: "not run this time", "baseline failed: …"."""
        return self.reason_in(LOCAL)

    def reason_in(self, voice: Voice) -> str:
        return voice._(_MISSING[self.why]).format(error=self.error)


def missing(side: str, t: TestResult) -> tuple[str, str]:
    """(why, error) of a side whose test was not measured."""
    return (f"{side}_failed", t.error) if t.error else (f"{side}_not_measured", "")


def _or_unknown(value: str, voice: Voice = LOCAL) -> str:
    return value or voice._("unknown")


def origin_differences(current: SessionResult, baseline: SessionResult,
                       voice: Voice = LOCAL) -> list[str]:
    """A side another program measured (an imported CrystalDiskMark result), said in a
    sentence: its OS, file system and engine differ from diskmark's in ways no field names,
    and its one pass per test leaves the noise band to the other side's passes."""
    out = []
    for side in (baseline, current):
        if not side.origin or side.origin == (current.origin if side is baseline else
                                              baseline.origin):
            continue
        words = ({"program": side.origin, "os": side.system.os} if side.system.os
                 else {"program": side.origin})
        if side is baseline and side.system.os:
            # TRANSLATORS: {program} is "CrystalDiskMark 8.0.1", {os} its OS line (Windows 10…),
            # {pct} the noise band used when a side made one pass (3)
            text = N_("the baseline was measured by {program} on {os}: another OS, file "
                      "system and engine than diskmark's on Linux, and one pass per test: "
                      "the noise band is this run's own spread ({pct}% with one pass)")
        elif side is baseline:
            text = N_("the baseline was measured by {program}: another OS, file system and "
                      "engine than diskmark's on Linux, and one pass per test: the noise "
                      "band is this run's own spread ({pct}% with one pass)")
        elif side.system.os:
            text = N_("this result was measured by {program} on {os}: another OS, file "
                      "system and engine than diskmark's on Linux, and one pass per test: "
                      "the noise band is the baseline's own spread ({pct}% with one pass)")
        else:
            text = N_("this result was measured by {program}: another OS, file system and "
                      "engine than diskmark's on Linux, and one pass per test: the noise "
                      "band is the baseline's own spread ({pct}% with one pass)")
        out.append(voice._(text).format(pct=f"{DEFAULT_NOISE_PCT:g}", **words))
    return out


def settings_differences(current: SessionResult, baseline: SessionResult,
                         voice: Voice = LOCAL) -> list[str]:
    """The settings and system facts that differ, "<current> vs <baseline>" each; a side
    another program measured is said first, and the facts it cannot know are not listed."""
    cs, bs = current.settings, baseline.settings
    cy, by = current.system, baseline.system
    out: list[str] = origin_differences(current, baseline, voice)
    other = bool(current.origin) != bool(baseline.origin)

    def differ(what: str, a: Any, b: Any, show: Callable[[Any], str] = str) -> None:
        if a != b:
            out.append(voice._(what).format(current=show(a), baseline=show(b)))

    def seconds(value: float | None) -> str:
        return f"{value:g} s" if value is not None else voice._("default")

    def unknown(value: str) -> str:
        return _or_unknown(value, voice)

    def mode(value: Any) -> str:
        return voice._(MODE_REPORT[value]) if value in MODE_REPORT else str(value)

    # TRANSLATORS: a setting that differs between this run ({current}) and the baseline
    differ(N_("size {current} vs {baseline}"), cs.size, bs.size, format_size)
    cur_preset = current.preset_name or cs.preset
    base_preset = baseline.preset_name or bs.preset
    differ(N_("preset {current} vs {baseline}"), cur_preset, base_preset)
    differ(N_("profile {current} vs {baseline}"), current.profile_name or cs.profile,
           baseline.profile_name or bs.profile)
    differ(N_("mode {current} vs {baseline}"), cs.mode, bs.mode, mode)
    differ(N_("mix {current} vs {baseline}"), cs.mix, bs.mix,
           lambda v: voice._("none") if v is None else mix_label(v))
    differ(N_("sweep {current} vs {baseline}"), getattr(cs, "sweep", None),
           getattr(bs, "sweep", None), lambda v: v or voice._("none"))
    differ(N_("count {current} vs {baseline}"), cs.count, bs.count)
    differ(N_("measure {current} vs {baseline}"), current.measure or cs.measure,
           baseline.measure or bs.measure, seconds)
    differ(N_("interval {current} vs {baseline}"), current.interval, baseline.interval, seconds)
    differ(N_("data {current} vs {baseline}"), cs.data.value, bs.data.value)
    if cs.direct != bs.direct:
        out.append(voice._("buffered vs O_DIRECT") if not cs.direct
                   else voice._("O_DIRECT vs buffered"))
    if other:  # its file system, device and mount are not in its file: said above
        return out
    differ(N_("filesystem {current} vs {baseline}"), cy.fstype, by.fstype, unknown)
    differ(N_("device {current} vs {baseline}"), cy.device, by.device, unknown)
    differ(N_("model {current} vs {baseline}"), cy.model, by.model, unknown)
    differ(N_("mount options {current} vs {baseline}"), cy.mount_options, by.mount_options,
           unknown)
    return out


def software_differences(current: SessionResult, baseline: SessionResult,
                         voice: Voice = LOCAL) -> list[str]:
    """Software that changed between the two (kernel, fio): worth knowing, not a fault."""
    cur, base = current, baseline
    out: list[str] = []
    if bool(cur.origin) != bool(base.origin):  # another program: said with the settings
        return out
    if cur.system.kernel != base.system.kernel:
        out.append(voice._("kernel {current} vs {baseline}").format(
            current=_or_unknown(cur.system.kernel, voice),
            baseline=_or_unknown(base.system.kernel, voice)))
    if cur.fio_version != base.fio_version:
        out.append(voice._("fio {current} vs {baseline}").format(
            current=_or_unknown(cur.fio_version, voice),
            baseline=_or_unknown(base.fio_version, voice)))
    return out
