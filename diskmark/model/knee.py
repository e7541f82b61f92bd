"""Where a long write's throughput fell and stayed down: the knee of a sustained write.

A drive with an SLC cache (or any write through the page cache) writes fast until the cache
is full, then at a fraction of that; a 5 s test never gets there. Given the MB/s of a write
over time in equal bins, :func:`find_knee` fits the series with two flat segments, the split
chosen to minimise the squared error (a step fit: a few wild bins move it little, unlike a
"first bin below X" rule), and calls the split a knee only when the drop is large (after
below :data:`KNEE_RATIO` of before) and lasts (most bins after it stay down). The split is
chosen on the series smoothed by a running median (:data:`SMOOTH_BINS`), so one wild bin,
such as the burst into free memory in a write's first 100 ms, cannot pull it to itself; the
levels and the bytes are the raw series'. Pure arithmetic over numbers: no fio, so it is
tested on series captured from real runs.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

#: A knee: the level after it is below this fraction of the level before it.
KNEE_RATIO = 0.7
#: … and at least this share of the bins after it stay below that fraction of before.
PERSIST_SHARE = 0.8
#: The fewest bins a level is judged on, before the knee and after it (a short burst at the
#: start or a last slow bin is no knee).
MIN_BINS_BEFORE = 2
MIN_BINS_AFTER = 3
#: … and after the knee at least this share of the series.
MIN_SHARE_AFTER = 0.05
#: … and at least this long: a short write's last few 0.1 s bins (the machine pausing, its
#: end) are no knee (a 6 s write on a memory disk once fell for its last 0.3 s).
MIN_SECONDS_AFTER = 1.0
#: The split is chosen on a running median over this many bins: shorter bursts are noise.
SMOOTH_BINS = 5


@dataclass(frozen=True)
class Knee:
    """Throughput fell at ``seconds`` into the write, after ``written_bytes``; the mean MB/s
    of the bins before and after it."""

    seconds: float
    written_bytes: int
    before_mb_s: float
    after_mb_s: float

    @property
    def after_pct(self) -> float:
        """The level after the knee in % of the level before it."""
        return self.after_mb_s / self.before_mb_s * 100 if self.before_mb_s else 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"after_pct": self.after_pct}  # derived; from_dict ignores it

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Knee:
        return cls(seconds=float(d["seconds"]), written_bytes=int(d["written_bytes"]),
                   before_mb_s=float(d["before_mb_s"]), after_mb_s=float(d["after_mb_s"]))


def best_split(values: Sequence[float], low: int, high: int) -> int | None:
    """The split ``k`` (``low`` ≤ k ≤ ``high``) for which two flat segments, values[:k] and
    values[k:], each at its mean, leave the least squared error; None if the range is empty.
    Prefix sums make every candidate cost O(1)."""
    n = len(values)
    if n == 0 or low > high:
        return None
    s = [0.0] * (n + 1)
    q = [0.0] * (n + 1)
    for i, v in enumerate(values):
        s[i + 1] = s[i] + v
        q[i + 1] = q[i] + v * v

    def sse(a: int, b: int) -> float:
        m = b - a
        total = s[b] - s[a]
        return (q[b] - q[a]) - total * total / m

    return min(range(low, high + 1), key=lambda k: sse(0, k) + sse(k, n))


def find_knee(mb_s: Sequence[float], bin_s: float) -> Knee | None:
    """The knee of a write whose MB/s in consecutive bins of ``bin_s`` seconds is ``mb_s``,
    or None when throughput held (or rose, or fell too little or too briefly to count)."""
    n = len(mb_s)
    after_min = max(MIN_BINS_AFTER, round(n * MIN_SHARE_AFTER),
                    math.ceil(MIN_SECONDS_AFTER / bin_s) if bin_s > 0 else 0)
    k = best_split(running_median(mb_s, SMOOTH_BINS), MIN_BINS_BEFORE, n - after_min)
    if k is None:
        return None
    before, after = statistics.fmean(mb_s[:k]), statistics.fmean(mb_s[k:])
    if before <= 0 or after >= KNEE_RATIO * before:
        return None
    stayed = sum(1 for v in mb_s[k:] if v < KNEE_RATIO * before)
    if stayed < PERSIST_SHARE * (n - k):
        return None
    return Knee(seconds=k * bin_s, written_bytes=round(sum(mb_s[:k]) * bin_s * 1e6),
                before_mb_s=before, after_mb_s=after)


def running_median(values: Sequence[float], width: int) -> list[float]:
    """Each value replaced by the median of the ``width`` values around it (fewer at the
    ends): a burst shorter than half the window disappears, a step stays where it was."""
    half = width // 2
    return [statistics.median(values[max(0, i - half):i + half + 1]) for i in range(len(values))]


def steady_mb_s(mb_s: Sequence[float]) -> float:
    """The level of a write without a knee: the mean of its bins."""
    return statistics.fmean(mb_s) if mb_s else 0.0
