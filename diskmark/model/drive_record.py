"""What the drive said about itself during a session: its temperature second by second and
its health before and after, or why nothing could be read.

A figure means less when the drive was throttling or failing (the fio articles diskmark
follows show bandwidth dips from thermal throttling; CrystalDiskMark's users keep
CrystalDiskInfo open beside it), so every session carries this record. Numbers only, like
:mod:`diskmark.model.results`; the words are :mod:`diskmark.report.drive_lines`'s. ``from_dict`` takes what it
can use from a saved record and drops the rest: a damaged reading must never lose a result.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

#: A dip is said to coincide with a temperature peak when the drive was this close to the
#: hottest it got in the session (°C) …
PEAK_MARGIN_C = 2.0
#: … and it warmed up at least this much over the session (°C): a drive that stayed level
#: has no peak a dip could coincide with.
PEAK_RISE_C = 4.0
#: The temperatures a working drive can report (°C): industrial drives are rated from
#: -40 °C, and no drive works far above silicon's 125 °C. A reading outside them is a
#: sensor's or a program's fault (NVMe's 0 K, a broken smartctl's Infinity), never a figure.
TEMPERATURE_RANGE_C = (-40.0, 150.0)


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        return float(value) if math.isfinite(value) else None
    except OverflowError:  # an int too large for a float
        return None


def plausible_c(value: Any) -> float | None:
    """``value`` as °C when a working drive could report it, else None."""
    n = _number(value)
    low, high = TEMPERATURE_RANGE_C
    return n if n is not None and low <= n <= high else None


def _whole(value: Any) -> int | None:
    n = _number(value)
    return int(n) if n is not None and n == int(n) and n >= 0 else None


@dataclass
class Health:
    """The drive's SMART summary at one moment (smartctl), or the reason there is none."""

    source: str = ""  # "smartctl 7.4"
    passed: bool | None = None  # SMART overall-health self-assessment
    temperature_c: float | None = None
    percentage_used: int | None = None  # NVMe: share of the rated endurance used up
    available_spare: int | None = None  # NVMe, %
    media_errors: int | None = None  # NVMe: unrecovered data integrity errors
    critical_warning: int | None = None  # NVMe: bit field, 0 = none
    warning_temp_minutes: int | None = None  # NVMe: time above the warning temperature, ever
    critical_temp_minutes: int | None = None  # NVMe: time above the critical temperature, ever
    reallocated_sectors: int | None = None  # ATA attribute 5
    pending_sectors: int | None = None  # ATA attribute 197
    reason: str = ""  # why nothing (or not everything) could be read

    @property
    def known(self) -> bool:
        return self.passed is not None or self.temperature_c is not None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, d: Any) -> Health | None:
        if not isinstance(d, dict):
            return None
        h = cls(source=d["source"] if isinstance(d.get("source"), str) else "",
                reason=d["reason"] if isinstance(d.get("reason"), str) else "",
                passed=d["passed"] if isinstance(d.get("passed"), bool) else None,
                temperature_c=plausible_c(d.get("temperature_c")))
        for f in fields(cls):
            if f.name not in ("source", "reason", "passed", "temperature_c"):
                setattr(h, f.name, _whole(d.get(f.name)))
        return h


@dataclass
class DriveRecord:
    """The temperature curve and health of the disk under the target, for one session."""

    device: str = ""  # "/dev/nvme0n1": the physical disk the readings are of
    sensor: str = ""  # where temperatures came from: "hwmon nvme Composite", "drivetemp"…
    #: (seconds since the session began, °C), about one a second, first before the test
    #: file is laid out and last after the session ends
    samples: list[tuple[float, float]] = field(default_factory=list)
    temperature_reason: str = ""  # why there are no samples (or why some were left out)
    before: Health | None = None
    after: Health | None = None
    #: per test key, when each pass began (seconds since the session began), warm-up first:
    #: what places a second of a pass's bandwidth on the temperature curve
    passes: dict[str, list[float]] = field(default_factory=dict)

    @property
    def temperatures(self) -> list[float]:
        return [c for _, c in self.samples]

    @property
    def first_c(self) -> float | None:
        return self.samples[0][1] if self.samples else None

    @property
    def last_c(self) -> float | None:
        return self.samples[-1][1] if self.samples else None

    @property
    def peak_c(self) -> float | None:
        return max(self.temperatures) if self.samples else None

    def temperature_at(self, t: float) -> float | None:
        """The sample nearest ``t`` seconds into the session, within two seconds."""
        if not self.samples:
            return None
        nearest = min(self.samples, key=lambda s: abs(s[0] - t))
        return nearest[1] if abs(nearest[0] - t) <= 2.0 else None

    def pass_temperatures(self, key: str, pass_no: int, seconds: int) -> list[float | None]:
        """The temperature during each second of pass ``pass_no`` (0: the warm-up) of a test."""
        starts = self.passes.get(key, [])
        if pass_no >= len(starts):
            return [None] * seconds
        return [self.temperature_at(starts[pass_no] + i + 0.5) for i in range(seconds)]

    def hot(self, temperature: float | None) -> bool:
        """Whether ``temperature`` is at the session's peak, and the drive warmed up to it."""
        peak = self.peak_c
        return (temperature is not None and peak is not None
                and peak - min(self.temperatures) >= PEAK_RISE_C
                and temperature >= peak - PEAK_MARGIN_C)

    def hot_dips(self, key: str, dips: list[tuple[int, list[tuple[int, float]]]]
                 ) -> list[tuple[int, int, float, float]]:
        """The dips of a test (:meth:`TestResult.dips`) that fell at a temperature peak:
        ``(pass, second, MB/s, °C)``. Coinciding is not proof of throttling, but it is
        what throttling looks like from outside the drive."""
        found = []
        starts = self.passes.get(key, [])
        for pass_no, seconds in dips:
            if pass_no >= len(starts):
                continue  # the pass's start was not seen: no place on the curve
            for second, mb_s in seconds:
                temp = self.temperature_at(starts[pass_no] + second - 0.5)
                if temp is not None and self.hot(temp):
                    found.append((pass_no, second, mb_s, temp))
        return found

    def minutes_above_warning(self) -> int | None:
        """Minutes the drive itself counted above its warning temperature during the session
        (NVMe's counter, read before and after), or None when it cannot tell."""
        if self.before is None or self.after is None:
            return None
        a, b = self.before.warning_temp_minutes, self.after.warning_temp_minutes
        return b - a if a is not None and b is not None and b >= a else None

    def to_dict(self) -> dict[str, Any]:
        return {"device": self.device, "sensor": self.sensor,
                "samples": [[round(t, 1), c] for t, c in self.samples],
                "temperature_reason": self.temperature_reason,
                "first_c": self.first_c, "last_c": self.last_c, "peak_c": self.peak_c,  # derived
                "before": self.before.to_dict() if self.before else None,
                "after": self.after.to_dict() if self.after else None,
                "passes": {k: list(v) for k, v in self.passes.items()}}

    @classmethod
    def from_dict(cls, d: Any) -> DriveRecord | None:
        if not isinstance(d, dict):
            return None
        samples = []
        raw_samples = d.get("samples")
        for s in raw_samples if isinstance(raw_samples, list) else []:
            if isinstance(s, (list, tuple)) and len(s) == 2:
                t, c = _number(s[0]), plausible_c(s[1])
                if t is not None and c is not None:
                    samples.append((t, c))
        passes = {}
        raw_passes = d.get("passes")
        for key, starts in (raw_passes if isinstance(raw_passes, dict) else {}).items():
            if isinstance(starts, list) and all(_number(x) is not None for x in starts):
                passes[str(key)] = [float(x) for x in starts]
        text = {k: d[k] if isinstance(d.get(k), str) else "" for k in ("device", "sensor",
                                                                    "temperature_reason")}
        return cls(samples=samples, before=Health.from_dict(d.get("before")),
                   after=Health.from_dict(d.get("after")), passes=passes, **text)
