"""Is a pass cut from one continuous fio job slower than a fresh fio job? (FINDINGS.md)

    .venv/bin/python benchmarks/window_ab.py DIR [--rw randread] [--bs 4k] [--qd 1] [--rounds 10]

DIR must hold a laid-out 1 GiB file named t.dat. Each round runs every variant once, in an
order rotated each round. A variant's figure is its best pass of two after a warm-up. For
continuous jobs, the passes are windows of fio's status stream cut as diskmark cuts them. For
stonewalled jobs, they are the second and third jobs. The table gives the medians, each variant's
R/Avg across rounds, and the paired ratio to raw stonewalled io_uring jobs without `--thread`.
"""

from __future__ import annotations

import argparse
import json
import statistics as st
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from diskmark.engine import parse  # noqa: E402
from diskmark.model.settings import Op  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=Path)
    ap.add_argument("--rw", default="randread")
    ap.add_argument("--bs", default="4k")
    ap.add_argument("--qd", default="1")
    ap.add_argument("--rounds", type=int, default=10)
    a = ap.parse_args()
    op = Op.READ if "read" in a.rw else Op.WRITE
    common = ["--filename=t.dat", "--size=1G", "--direct=1", f"--rw={a.rw}", f"--bs={a.bs}",
              f"--iodepth={a.qd}", "--numjobs=1", "--group_reporting", "--time_based",
              "--randrepeat=0", "--norandommap"]

    def fio(args: list[str]) -> str:
        return subprocess.run(args, capture_output=True, text=True, cwd=a.dir, check=True).stdout

    def continuous(extra: list[str]) -> float:
        objs = parse.JsonStream().feed(fio(["fio", "--name=x", *common, "--ioengine=io_uring",
                                            "--runtime=9s", *extra]))
        snaps = [parse.snapshot(parse.job(o), op, 1) for o in objs]
        near = lambda t: min(snaps[1:], key=lambda s: abs(s.t_ms - t))  # noqa: E731
        return max(parse.window(near(x), near(y), op).mb_s for x, y in [(3000, 6000), (6000, 9000)])

    def stonewalled(extra: list[str]) -> float:
        args = ["fio", "--ioengine=io_uring", "--output-format=json", "--runtime=3s", *extra]
        for n in range(3):
            args += [f"--name=p{n}", *common] + (["--stonewall"] if n else [])
        return max(j[op.value]["bw_bytes"] / 1e6 for j in json.loads(fio(args))["jobs"][1:])

    variants = {
        "diskmark's continuous job": lambda: continuous(["--thread", "--output-format=json+",
                                                         "--status-interval=100ms"]),
        "continuous, processes, json 1 s": lambda: continuous(["--output-format=json",
                                                               "--status-interval=1s"]),
        "stonewalled, --thread": lambda: stonewalled(["--thread"]),
        "stonewalled, processes (raw)": lambda: stonewalled([]),
    }
    names = list(variants)
    res: dict[str, list[float]] = {k: [] for k in names}
    for r in range(a.rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            res[k].append(variants[k]())
    base = res[names[-1]]
    for k, v in res.items():
        paired = st.median([x / y for x, y in zip(v, base)])
        print(f"{a.rw} {a.bs} Q{a.qd}  {k:34s} median {st.median(v):8.1f} MB/s  "
              f"R/Avg {100 * (max(v) - min(v)) / st.mean(v):5.1f}%  paired ÷ raw {paired:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
