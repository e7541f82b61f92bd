"""A sustained write's course: MB/s over time in equal bins, and its knee.

The engine reads fio's cumulative counters every 100 ms; :func:`bins` turns those (time,
bytes) points into the MB/s of each bin, reading the bytes at every bin edge off the line
between the points around it, so a bin's figure does not depend on when a status object
happened to arrive. :func:`bin_seconds` keeps about :data:`BINS` of them whatever the length
of the write, so a minute and an hour draw and store alike.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from diskmark.model.knee import Knee, find_knee, steady_mb_s

#: About this many bins per write; never finer than fio's status interval.
BINS = 120
_NICE_S = (0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60)


def bin_seconds(duration_s: float) -> float:
    """The bin width for a write of at most ``duration_s``: the smallest round width that
    keeps it to about :data:`BINS` bins (0.5 s for the default minute)."""
    want = duration_s / BINS
    return float(next((b for b in _NICE_S if b >= want - 1e-9), _NICE_S[-1]))


def bins(points: Sequence[tuple[float, int]], bin_s: float) -> list[float]:
    """MB/s in consecutive bins of ``bin_s`` seconds from cumulative ``(ms, bytes)`` points
    (time ascending, starting at (0, 0)). A last bin less than half full is dropped: its
    figure would be noise."""
    if len(points) < 2:
        return []
    times = [t for t, _ in points]
    end = times[-1]
    width = bin_s * 1000

    def bytes_at(t: float) -> float:
        i = min(max(bisect_left(times, t), 1), len(points) - 1)
        (t0, b0), (t1, b1) = points[i - 1], points[i]
        return b0 if t1 <= t0 else b0 + (b1 - b0) * (t - t0) / (t1 - t0)

    out: list[float] = []
    start, previous = 0.0, 0.0
    while start + width / 2 <= end:
        stop = min(start + width, end)
        now = bytes_at(stop)
        out.append((now - previous) / (stop - start) / 1000)  # bytes/ms -> MB/s
        start, previous = stop, now
    return out


@dataclass
class Sustained:
    """What a sustained write asked for and what it did: ``mb_s`` holds one figure per bin of
    ``bin_s`` seconds from the first byte; ``knee`` is where throughput fell and stayed down
    (None: it held)."""

    bin_s: float
    mb_s: list[float] = field(default_factory=list)
    duration_s: float = 0.0  # the longest it was to write
    amount: int | None = None  # the most it was to write (None: as much as time allows)
    written_bytes: int = 0
    seconds: float = 0.0  # how long it wrote
    knee: Knee | None = None

    @classmethod
    def measured(cls, points: Sequence[tuple[float, int]], duration_s: float,
                 amount: int | None) -> Sustained:
        seconds = points[-1][0] / 1000 if points else 0.0
        # a write that the amount ended early is drawn as finely as its length allows
        bin_s = bin_seconds(min(duration_s, seconds) if seconds > 0 else duration_s)
        series = bins(points, bin_s)
        return cls(bin_s=bin_s, mb_s=series, duration_s=duration_s, amount=amount,
                   written_bytes=int(points[-1][1]) if points else 0, seconds=seconds,
                   knee=find_knee(series, bin_s))

    @property
    def steady_mb_s(self) -> float:
        """The level of the whole write, for one without a knee."""
        return steady_mb_s(self.mb_s)

    def to_dict(self) -> dict[str, Any]:
        return {"bin_s": self.bin_s, "mb_s": list(self.mb_s), "duration_s": self.duration_s,
                "amount": self.amount, "written_bytes": self.written_bytes,
                "seconds": self.seconds, "knee": self.knee.to_dict() if self.knee else None,
                "steady_mb_s": None if self.knee else self.steady_mb_s}  # derived

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Sustained:
        amount = d.get("amount")
        return cls(bin_s=float(d["bin_s"]), mb_s=[float(v) for v in d.get("mb_s", [])],
                   duration_s=float(d.get("duration_s", 0)),
                   amount=int(amount) if amount is not None else None,
                   written_bytes=int(d.get("written_bytes", 0)),
                   seconds=float(d.get("seconds", 0)),
                   knee=Knee.from_dict(d["knee"]) if d.get("knee") else None)
