"""What fio's status stream costs a latency-bound test: the same job with no status, and with
``json+`` every 1 s, 250 ms and 100 ms (what diskmark's engine asked for), rounds interleaved.

    .venv/bin/python benchmarks/status_ab.py DIR [--rw randread] [--bs 4k] [--qd 1] [--rounds 8]

DIR must hold a laid-out 1 GiB file named t.dat (the raw side's file of vs_fio.py will do,
renamed). Each variant runs 6 s with io_uring and `--thread`, as diskmark runs it; its figure is
fio's final bandwidth. The table gives medians, each variant's R/Avg across rounds and the
paired ratio to the variant without a status stream.
"""

from __future__ import annotations

import argparse
import json
import statistics as st
import subprocess
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--rw", default="randread")
    ap.add_argument("--bs", default="4k")
    ap.add_argument("--qd", default="1")
    ap.add_argument("--rounds", type=int, default=8)
    a = ap.parse_args()
    op = "read" if "read" in a.rw else "write"
    common = ["fio", "--name=x", "--filename=t.dat", "--size=1G", "--direct=1", f"--rw={a.rw}",
              f"--bs={a.bs}", f"--iodepth={a.qd}", "--numjobs=1", "--group_reporting",
              "--time_based", "--runtime=6s", "--randrepeat=0", "--norandommap",
              "--ioengine=io_uring", "--thread"]
    variants = {
        "no status stream": ["--output-format=json"],
        "json+ every 1 s": ["--output-format=json+", "--status-interval=1s"],
        "json+ every 250 ms": ["--output-format=json+", "--status-interval=250ms"],
        "json+ every 100 ms": ["--output-format=json+", "--status-interval=100ms"],
    }

    def run(extra: list[str]) -> float:
        out = subprocess.run([*common, *extra], capture_output=True, text=True, cwd=a.dir, check=True).stdout
        last = json.JSONDecoder().raw_decode(out[out.rindex('{\n  "fio version"'):])[0]
        return last["jobs"][0][op]["bw_bytes"] / 1e6

    names = list(variants)
    res: dict[str, list[float]] = {k: [] for k in names}
    for r in range(a.rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            res[k].append(run(variants[k]))
    base = res[names[0]]
    for k, v in res.items():
        paired = st.median([x / y for x, y in zip(v, base)])
        print(f"{a.rw} {a.bs} Q{a.qd}  {k:20s} median {st.median(v):8.1f} MB/s  "
              f"R/Avg {100 * (max(v) - min(v)) / st.mean(v):5.1f}%  paired ÷ none {paired:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
