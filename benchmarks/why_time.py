"""How long `diskmark why` takes: the promise is under a second, without running a test.

    .venv/bin/python benchmarks/why_time.py [--repeat 10] [TARGET ...]

For each target (default: /, /dev/shm and the current directory) it times, interleaved:

- the command as a user runs it, a fresh process each time (`python -m diskmark why TARGET`:
  the interpreter's start, diskmark's imports, the stack read, the words printed);
- `stack_of(TARGET)` alone, in this process (mountinfo, sysfs, the bounded stat, a FUSE
  mount's /proc scan, `zfs` and `dmsetup` where they apply).

It prints each one's median and its noise (R/Avg: range over mean). On a loaded machine the
figures grow; a target that does not answer costs its bounded wait (0.25 s) once. It prints
figures; it is not a test and fails nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from diskmark.drive.stack.resolve import stack_of  # noqa: E402


def spread(values: list[float]) -> str:
    mid = statistics.median(values)
    mean = statistics.fmean(values)
    noise = (max(values) - min(values)) / mean * 100 if mean else 0.0
    return f"{mid * 1000:7.1f} ms (R/Avg {noise:.0f}%)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    parser.add_argument("targets", nargs="*", default=["/", "/dev/shm", os.getcwd()])
    args = parser.parse_args()
    command: dict[str, list[float]] = {t: [] for t in args.targets}
    inside: dict[str, list[float]] = {t: [] for t in args.targets}
    layers: dict[str, int] = {}
    for _round in range(args.repeat):
        for target in args.targets:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "diskmark", "why", target], check=True,
                           stdout=subprocess.DEVNULL, cwd=ROOT)
            command[target].append(time.perf_counter() - start)
            start = time.perf_counter()
            layers[target] = len(stack_of(target))
            inside[target].append(time.perf_counter() - start)
    print(f"diskmark why, {args.repeat} rounds (the promise: under a second for the command)")
    for target in args.targets:
        print(f"  {target}: the command {spread(command[target])}; "
              f"stack_of alone {spread(inside[target])}; {layers[target]} layers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
