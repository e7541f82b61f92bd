"""The layers below a target measured (`diskmark run --down`) against raw fio reading the same
block device: the read tests, rounds interleaved.

    .venv/bin/python benchmarks/down_vs_fio.py MOUNTPOINT [--size 256MiB] [--rounds 3]
        [--tests SEQ1M-Q8T1 ...] [--count 2] [--measure 1] [--engine io_uring]

MOUNTPOINT is a file system on one block device (best: ext4 on a zram device, whose noise is
±1–2 % on this VM). Each round runs, the order swapped every round:

- diskmark: `run --target MOUNTPOINT --down --mode read … --format json`; its `below`
  figures are the device's, each read test's best pass, read as a block device target is
  read (O_RDONLY, fio's --readonly).
- raw fio, the fastest honest way: per test, one fio process on the device (direct I/O,
  --readonly, the same region, block size, queue depth and threads), warm-up + COUNT
  stonewalled passes, the best pass.

Printed per test: each side's median MB/s with its noise (R/Avg) and the paired ratio
diskmark ÷ raw fio.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from vs_fio import (
    DEFAULT_TESTS,
    DISKMARK,
    ROOT,
    Test,
    loadavg,
    med,
    noise,
    one_cpu,
    paired,
    run_fio,
    session_arguments,
    write_preset,
)


def device_of(mountpoint: Path) -> str:
    for line in Path("/proc/self/mountinfo").read_text().splitlines():
        fields = line.split()
        if fields[4] == str(mountpoint):
            return fields[fields.index("-") + 2]
    raise SystemExit(f"{mountpoint} is not a mount point")


def diskmark_down(home: Path, target: Path, a: argparse.Namespace) -> dict[str, float]:
    """One `run --down` session; the device's best MB/s per test label."""
    args = [*DISKMARK, "run", "--target", str(target), "--down", "--preset", "vsfio",
            "--profile", "default", "--size", str(a.size), "--count", str(a.count),
            "--measure", f"{a.measure:g}", "--interval", "0", "--mode", "read",
            "--format", "json", "--quiet"]
    env = {**os.environ, "DISKMARK_HOME": str(home)}
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        raise RuntimeError(f"diskmark failed ({out.returncode}): {' '.join(args)}\n{out.stderr[-1500:]}")
    below = json.loads(out.stdout)["below"][0]
    return {key.split("/")[0]: float(v["mb_s"]) for key, v in below["figures"].items()}


def fio_device(device: str, test: Test, a: argparse.Namespace) -> float:
    args = [f"--filename={device}", f"--size={a.size}", f"--ioengine={a.engine}", "--direct=1",
            "--readonly", f"--rw={test.rw('read')}", f"--bs={test.block}",
            f"--iodepth={test.queues}", f"--numjobs={test.threads}", "--group_reporting",
            "--time_based", f"--runtime={a.measure:g}", "--randrepeat=0", "--norandommap"]
    for n in range(a.count + 1):
        args += [f"--name=p{n}"] + (["--stonewall"] if n else [])
    jobs = run_fio(args)["jobs"]
    return max(j["read"]["bw_bytes"] / 1e6 for j in jobs[1:])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", type=Path, help="a mount point on one block device")
    session_arguments(ap, "256MiB", count=2, measure=1)
    ap.add_argument("--engine", default="io_uring", help="raw fio's ioengine (default io_uring)")
    ap.add_argument("--cpu", type=int, metavar="N",
                    help="every side and the kernel's unbound workers on CPU N (root): where the "
                         "scheduler puts fio otherwise decides a queue-depth-1 figure on a VM")
    a = ap.parse_args()
    target = a.target.resolve()
    device = device_of(target)
    tests = a.tests or [Test.parse(t) for t in DEFAULT_TESTS]
    home = Path(tempfile.mkdtemp(prefix="down-vs-fio-home-"))
    write_preset(home, tests)
    dm: dict[str, list[float]] = {}
    fio: dict[str, list[float]] = {}
    print(f"target {target} on {device}; size {a.size / 2**20:g} MiB, {len(tests)} read tests, "
          f"count {a.count}, measure {a.measure:g} s, rounds {a.rounds}; raw fio: {a.engine}; "
          f"load {loadavg()}" + ("" if a.cpu is None else f", all on CPU {a.cpu}"))
    try:
        with one_cpu(a.cpu):
            for rnd in range(a.rounds):
                for side in (["diskmark", "fio"] if rnd % 2 == 0 else ["fio", "diskmark"]):
                    t0 = time.monotonic()
                    if side == "diskmark":
                        for label, mb in diskmark_down(home, target, a).items():
                            dm.setdefault(label, []).append(mb)
                    else:
                        for test in tests:
                            fio.setdefault(test.label, []).append(fio_device(device, test, a))
                    print(f"  round {rnd + 1}: {side} {time.monotonic() - t0:.1f} s "
                          f"(load {loadavg()})", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"\n{device}: the layer below, read\n{'test':<13}{'diskmark MB/s':>16}{'R/Avg':>8}"
          f"{'raw fio MB/s':>15}{'R/Avg':>8}{'dm÷fio (paired)':>22}")
    for test in tests:
        d, f = dm.get(test.label, []), fio.get(test.label, [])
        print(f"{test.label:<13}{med(d):>16.1f}{noise(d):>8}{med(f):>15.1f}{noise(f):>8}"
              f"{paired(d, f):>22}")
    print(f"load at end {loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
