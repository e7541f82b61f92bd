"""diskmark against raw fio, in one go: the same tests, the same directory, interleaved.

    .venv/bin/python benchmarks/vs_fio.py [DIR] [--size 256MiB] [--measure 3] [--rounds 2]

For each test, diskmark's engine runs it (warm-up + 1 pass) and then fio runs a hand-written
CrystalDiskMark-equivalent job (the job file of snow_mountain's fio article, time-based) on its own file, also once to
warm up and once to measure; this repeats for --rounds, with the order swapped every
round. It prints both MB/s figures and their ratio, which should be 1.00 within the noise
of the device (the "fio noise" column: R/Avg of raw fio's own rounds), plus diskmark's
wall-time overhead per pass (process start-up and JSON parsing, outside the measured time).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from diskmark.engine import Engine
from diskmark.model import Mode, Settings, parse_size

TESTS = [  # (row of the Default profile, mode, raw fio options)
    (0, Mode.READ, ["--rw=read", "--bs=1M", "--iodepth=8", "--numjobs=1"]),
    (0, Mode.WRITE, ["--rw=write", "--bs=1M", "--iodepth=8", "--numjobs=1"]),
    (2, Mode.READ, ["--rw=randread", "--bs=4k", "--iodepth=32", "--numjobs=1"]),
    (3, Mode.WRITE, ["--rw=randwrite", "--bs=4k", "--iodepth=1", "--numjobs=1"]),
]


def raw_fio(directory: Path, size: int, measure: float, opts: list[str], time_based=True) -> float:
    """A fio job as a user would write it by hand (snow_mountain's fio article)."""
    fname = directory / "raw-fio.bench"
    timing = ["--time_based", f"--runtime={measure:g}"] if time_based else []
    cmd = ["fio", "--name=raw", f"--filename={fname}", f"--size={size}", "--ioengine=libaio",
           "--direct=1", *timing, "--randrepeat=0",
           "--norandommap", "--refill_buffers", "--group_reporting", "--output-format=json", *opts]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    job = json.loads(out.stdout)["jobs"][0]
    side = job["read"] if any(o.endswith("read") for o in opts) else job["write"]
    return side["bw_bytes"] / 1e6


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", nargs="?")
    ap.add_argument("--size", default="256MiB")
    ap.add_argument("--measure", type=float, default=3)
    ap.add_argument("--rounds", type=int, default=2)
    a = ap.parse_args()
    size = parse_size(a.size)
    directory = Path(a.dir) if a.dir else Path(tempfile.mkdtemp(prefix="diskmark-bench-"))
    print(f"directory {directory}, size {a.size}, measure {a.measure:g} s, rounds {a.rounds}")
    # Prepare fio's file as diskmark prepares its own: a sequential write over a sparse file.
    # (How a file was created matters by itself: on tmpfs a file laid out by fio's layout step
    # reads about 25% slower than one written sequentially, whoever measures it.)
    with open(directory / "raw-fio.bench", "xb") as f:
        f.truncate(size)
    raw_fio(directory, size, 60, ["--rw=write", "--bs=1M", "--iodepth=8", "--fallocate=none"],
            time_based=False)
    print(f"{'test':22} {'diskmark MB/s':>14} {'fio MB/s':>10} {'ratio':>6} {'fio noise':>10} "
          f"{'overhead/pass':>14}")
    ratios = []
    try:
        for row, mode, opts in TESTS:
            dm, fio, overhead = [], [], []
            for round_ in range(a.rounds):
                def run_raw() -> None:
                    raw_fio(directory, size, a.measure, opts)  # the same discarded warm-up
                    fio.append(raw_fio(directory, size, a.measure, opts))

                # Who goes first alternates: what one leaves behind (dirty pages, the discard
                # of diskmark's deleted test file) must not always fall on the other.
                if round_ % 2:
                    run_raw()
                settings = Settings(target=str(directory), only_test=row, mode=mode, size=size,
                                    count=1, measure=a.measure, interval=0)
                t0 = time.monotonic()
                session = asyncio.run(Engine().run(settings))
                wall = time.monotonic() - t0
                if session.error:
                    print(session.error, file=sys.stderr)
                    return 1
                test = session.tests[0]
                dm.append(test.best_mb_s)
                fio_time = (test.runs[0].runtime_ms + test.warmup.runtime_ms) / 1000
                overhead.append((wall - fio_time) / 3)  # prepare + warm-up + pass
                if not round_ % 2:
                    run_raw()
            ratio = statistics.fmean(dm) / statistics.fmean(fio)
            ratios.append(ratio)
            label = f"{test.label} {test.op.value}"
            noise = (max(fio) - min(fio)) / statistics.fmean(fio) * 100  # R/Avg of raw fio rounds
            print(f"{label:22} {statistics.fmean(dm):14.2f} {statistics.fmean(fio):10.2f} "
                  f"{ratio:6.2f} {noise:9.1f}% {statistics.fmean(overhead):12.2f} s")
    finally:
        (directory / "raw-fio.bench").unlink(missing_ok=True)
    print(f"geometric mean ratio {statistics.geometric_mean(ratios):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
