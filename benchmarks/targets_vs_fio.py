"""Several targets side by side (`diskmark run --target A --target B`) against raw fio doing
the same work: the same tests on every target, interleaved test by test, rounds interleaved.

    .venv/bin/python benchmarks/targets_vs_fio.py A B [C…] [--size 512MiB] [--rounds 3]
        [--tests SEQ1M-Q8T1 ...] [--mode rw|read|write] [--count 3] [--measure 2]
        [--engine io_uring]

Best on targets where the tool, not the disk, is the bottleneck and whose noise is small:
two zram devices with ext4 on each (±1–2 % run to run on this VM, where a loop device on
tmpfs moves by ±20 %). Each round runs, in an order rotated every round:

- diskmark: one `run --target A --target B … --format json` session: its own test file on
  each target, each test's warm-up and COUNT passes on every target in turn.
- raw fio, the fastest honest way to do the same work: a file on each target laid out as
  diskmark lays out its own (a sequential 1 MiB Q8 direct write), then for each test, on each
  target in turn, one fio process with the warm-up and the COUNT passes as stonewalled jobs
  (fio's default buffers, direct I/O, time based), an fsync after writes.

Printed per target and test: each side's median best-of-COUNT MB/s with its own noise across
rounds (R/Avg), and the paired ratio diskmark ÷ raw fio (same round, minutes apart). Then the
wall time of each side's whole round and their paired ratio: what running several targets in
one diskmark session costs beyond the work itself.
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
    fio_test,
    fsync,
    lay_out,
    loadavg,
    med,
    noise,
    paired,
    session_arguments,
    test_key,
    write_preset,
)


def diskmark_targets(home: Path, targets: list[Path], a: argparse.Namespace) -> dict[str, dict]:
    """One diskmark session over every target; per target label, (test, op) → best MB/s."""
    args = [*DISKMARK, "run", *(x for t in targets for x in ("--target", str(t))),
            "--preset", "vsfio", "--profile", "default", "--size", str(a.size),
            "--count", str(a.count), "--measure", f"{a.measure:g}", "--interval", "0",
            "--mode", a.mode, "--format", "json", "--quiet"]
    env = {**os.environ, "DISKMARK_HOME": str(home)}
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        raise RuntimeError(f"diskmark failed ({out.returncode}): {' '.join(args)}\n{out.stderr[-1500:]}")
    best: dict[str, dict] = {}
    for entry in json.loads(out.stdout)["targets"]:
        figures = best.setdefault(entry["target"], {})
        for t in entry["result"].get("tests", []):
            runs = t.get("runs", [])
            if runs:
                figures[test_key(t)] = max(float(r.get("mb_s", 0)) for r in runs)
    return best


def raw_fio(files: list[Path], tests: list[Test], ops: list[str], a: argparse.Namespace) -> dict[Path, dict]:
    """The same work with fio alone; per file, (test, op) → best MB/s."""
    best: dict[Path, dict] = {f: {} for f in files}
    for f in files:
        lay_out(f, a.size)
    for op in ops:
        for test in tests:
            for f in files:
                best[f][test.label, op] = max(fio_test(f, a.size, test, op, a.engine, a.count,
                                                       a.measure))
                if op == "write":
                    fsync(f)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("targets", type=Path, nargs="+", help="directories to test in (two or more)")
    session_arguments(ap, "512MiB", count=3, measure=2)
    ap.add_argument("--mode", choices=["rw", "read", "write"], default="rw")
    ap.add_argument("--engine", default="io_uring", help="raw fio's ioengine (default io_uring)")
    a = ap.parse_args()
    targets = [t.resolve() for t in a.targets]
    if len(targets) < 2 or any(not t.is_dir() for t in targets):
        ap.error("give two or more directories")
    tests = a.tests or [Test.parse(t) for t in DEFAULT_TESTS]
    ops = {"rw": ["read", "write"], "read": ["read"], "write": ["write"]}[a.mode]
    files = [t / ".targets-vs-fio.bench" for t in targets]
    home = Path(tempfile.mkdtemp(prefix="targets-vs-fio-home-"))
    write_preset(home, tests)
    dm: dict[tuple[str, str, str], list[float]] = {}
    fio: dict[tuple[str, str, str], list[float]] = {}
    walls: dict[str, list[float]] = {"diskmark": [], "fio": []}
    print(f"targets {', '.join(map(str, targets))}; size {a.size / 2**20:g} MiB, {len(tests)} tests × "
          f"{ops}, count {a.count}, measure {a.measure:g} s, rounds {a.rounds}; raw fio: {a.engine}; "
          f"{os.cpu_count()} CPUs, load {loadavg()}")
    try:
        for rnd in range(a.rounds):
            for side in (["diskmark", "fio"] if rnd % 2 == 0 else ["fio", "diskmark"]):
                t0 = time.monotonic()
                if side == "diskmark":
                    for label, figures in diskmark_targets(home, targets, a).items():
                        for (test, op), mb in figures.items():
                            dm.setdefault((label, test, op), []).append(mb)
                else:
                    for f, figures in raw_fio(files, tests, ops, a).items():
                        for (test, op), mb in figures.items():
                            fio.setdefault((str(f.parent), test, op), []).append(mb)
                walls[side].append(time.monotonic() - t0)
                print(f"  round {rnd + 1}: {side} {walls[side][-1]:.1f} s (load {loadavg()})",
                      file=sys.stderr, flush=True)
    finally:
        for f in files:
            f.unlink(missing_ok=True)
        shutil.rmtree(home, ignore_errors=True)
    print(f"\n{'target':<22}{'test':<13}{'op':<6}{'diskmark MB/s':>16}{'R/Avg':>8}"
          f"{'raw fio MB/s':>15}{'R/Avg':>8}{'dm÷fio (paired)':>22}")
    for t in targets:
        for op in ops:
            for test in tests:
                key = (str(t), test.label, op)
                d, f = dm.get(key, []), fio.get(key, [])
                print(f"{str(t)[-21:]:<22}{test.label:<13}{op:<6}{med(d):>16.1f}{noise(d):>8}"
                      f"{med(f):>15.1f}{noise(f):>8}{paired(d, f):>22}")
    print(f"\nwall time per round: diskmark {med(walls['diskmark']):.1f} s ({noise(walls['diskmark'])}), "
          f"raw fio {med(walls['fio']):.1f} s ({noise(walls['fio'])}); diskmark ÷ raw fio "
          f"{paired(walls['diskmark'], walls['fio'])}")
    print(f"load at end {loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
