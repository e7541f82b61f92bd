"""How long the facts of a target and the list of mounts take: what the app's first frame and
the target picker wait for.

    .venv/bin/python benchmarks/facts_speed.py [--repeat 50] [--target /]

Each round, in an order swapped every round, times:

- diskmark: `facts_for(TARGET)` (mount, device, file system, sizes, model, link) and
  `list_mounts()` (the target picker's list), in this process;
- the reference, the least work that answers the same questions: reading
  /proc/self/mountinfo once, `os.statvfs` of the target, and psutil's `disk_partitions()`.

It prints each side's median with its noise (R/Avg: range over mean) and the ratio diskmark ÷
reference. The target: diskmark under 0.2 s for both together, on a quiet machine (on a busy
one the figures grow; the ratio holds better). It prints figures; it is not a test and fails
nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from diskmark.drive.probe import facts_for, list_mounts  # noqa: E402


def diskmark_side(target: str) -> None:
    facts_for(target)
    list_mounts()


def reference_side(target: str) -> None:
    Path("/proc/self/mountinfo").read_text(encoding="utf-8", errors="replace")
    os.statvfs(target)
    psutil.disk_partitions(all=False)


def timed(fn: Callable[[str], None], target: str) -> float:
    start = time.perf_counter()
    fn(target)
    return time.perf_counter() - start


def noise(values: list[float]) -> float:
    mean = statistics.fmean(values)
    return (max(values) - min(values)) / mean * 100 if mean else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=50)
    parser.add_argument("--target", default="/")
    args = parser.parse_args()
    sides: dict[str, Callable[[str], None]] = {"diskmark": diskmark_side,
                                               "reference": reference_side}
    times: dict[str, list[float]] = {name: [] for name in sides}
    for fn in sides.values():  # the first call of each pays for imports and caches
        fn(args.target)
    for i in range(args.repeat):
        order = list(sides) if i % 2 == 0 else list(reversed(sides))
        for name in order:
            times[name].append(timed(sides[name], args.target))
    for name, values in times.items():
        print(f"{name:9}  median {statistics.median(values) * 1000:7.2f} ms  "
              f"(R/Avg {noise(values):.0f}%, {len(values)} rounds)")
    ratio = statistics.median(times["diskmark"]) / statistics.median(times["reference"])
    print(f"diskmark ÷ reference: {ratio:.2f}; target: diskmark under 200 ms")


if __name__ == "__main__":
    main()
