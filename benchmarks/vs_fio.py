"""diskmark against raw fio and DiskSpd: the same tests, the same target, rounds interleaved.

    .venv/bin/python benchmarks/vs_fio.py TARGET [--size 1GiB] [--rounds 3] [--tests SEQ1M-Q8T1 ...]
        [--mode rw|read|write] [--count 3] [--measure 5] [--interval 0] [--engines libaio,io_uring]
        [--cpu 0]

Best on a target where the tool, not the disk, is the bottleneck: a memory-backed ext4
(`sudo benchmarks/memdisk.sh up /mnt/md 8G`). Each round runs, in an order rotated every round:

- diskmark: `diskmark run --format json` as a subprocess, one session over all the tests (its
  own test file, warm-up + COUNT passes per test, CrystalDiskMark's best-of-COUNT).
- raw fio, the fastest honest way: fio's default buffers (random data filled once, lightly
  scrambled per write), time-based, the same bs/iodepth/numjobs, one fio process per test
  with the warm-up and the COUNT passes as stonewalled jobs, on its own file laid out the
  way diskmark lays out its file (a sequential 1 MiB Q8 write over a sparse file); once per
  ioengine in --engines, and the engine with the higher median is "raw fio".
- diskspd (when `diskspd` is on PATH, or DISKSPD=/path): CrystalDiskMark's flags
  (`-b1M -o8 -t1 -W0 -Sd -w100 -Zr -d5 -xk FILE` for SEQ1M Q8T1 write), one process per
  pass as CrystalDiskMark runs it, warm-up pass discarded. Its "MB/s" column is MiB/s: MB/s
  here is its total bytes / its duration / 1e6.

Printed per test: each side's median best-of-COUNT MB/s with its own noise across rounds
(R/Avg: range over mean), and the ratios diskmark ÷ raw fio and diskmark ÷ diskspd. Then the
session overhead: diskmark's wall time against the time it must spend anyway (fio's measured
time of every warm-up and pass incl. startdelay and ramp_time, the intervals, laying out the
file as fast as raw fio does, and diskmark's own flushes after writes). Last, the CPU cost of
diskmark's recorded write command (`tests[].fio_command`) against the same job with fio's
default buffers: fio's usr+sys CPU (× numjobs) per GB/s.

With `--cpu N` (root) every side runs on CPU N alone, and so do the kernel's unbound workers
(`/sys/devices/virtual/workqueue/cpumask`, restored afterwards), the loop device's among them.
On a VM a queue-depth-1 test on the memory disk is otherwise decided by where the scheduler
puts fio's thread and the loop device's worker: on one vCPU RND4K Q1T1 write ran at a steady
~250 MB/s, on two at 45–60, and unpinned a job starts near the first and drifts towards the
second within seconds, so fresh jobs beat windows of a long one. Pinned, that placement is the
same for every side and the tool is the bottleneck again.

The script reads diskmark's JSON tolerantly: `tests[].runs[].mb_s`, `runtime_ms`, and, when
present, `tests[].runs[].cpu` (a number, or a dict with usr/sys) are used; new fields are
ignored. DISKMARK_FIO selects fio for both sides.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIO = os.environ.get("DISKMARK_FIO") or shutil.which("fio") or "fio"
DISKMARK = [sys.executable, "-m", "diskmark"]
TEST_RE = re.compile(r"(SEQ|RND)(\d+)([KM])(?:I?B)?[-_ ]?Q(\d+)T(\d+)", re.I)
DEFAULT_TESTS = ["SEQ1M-Q8T1", "SEQ1M-Q1T1", "RND4K-Q32T1", "RND4K-Q1T1"]  # CDM's Default


# --- helpers ------------------------------------------------------------------------------

def parse_size(text: str) -> int:
    m = re.fullmatch(r"(\d+)\s*([KMGT]?)(i?B)?", text.strip(), re.I)
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {text!r} (e.g. 256MiB, 1GiB)")
    return int(m.group(1)) * 1024 ** " KMGT".index((m.group(2) or " ").upper())


def json_objects(text: str) -> list[dict]:
    dec, out, i = json.JSONDecoder(), [], 0
    while (j := text.find("{", i)) >= 0:
        try:
            obj, i = dec.raw_decode(text, j)
        except json.JSONDecodeError:
            break
        if isinstance(obj, dict):
            out.append(obj)
    return out


def loadavg() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def noise(values: list[float]) -> str:
    """R/Avg % (range over mean) of one side's rounds."""
    if len(values) < 2 or not statistics.fmean(values):
        return "-"
    return f"{(max(values) - min(values)) / statistics.fmean(values) * 100:.1f}%"


def paired(a: list[float], b: list[float]) -> str:
    """Median (min–max) of a[i] / b[i]: the two sides of the same round, run minutes apart."""
    r = [x / y for x, y in zip(a, b) if y]
    return f"{statistics.median(r):.2f} ({min(r):.2f}–{max(r):.2f})" if r else "-"


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


@dataclass(frozen=True)
class Test:
    seq: bool
    block: int  # bytes
    queues: int
    threads: int

    @classmethod
    def parse(cls, text: str) -> Test:
        m = TEST_RE.fullmatch(text.strip())
        if not m:
            raise argparse.ArgumentTypeError(f"bad test {text!r}: write e.g. SEQ1M-Q8T1 or RND4K-Q32T16")
        unit = 1024 if m.group(3).upper() == "K" else 2**20
        return cls(m.group(1).upper() == "SEQ", int(m.group(2)) * unit, int(m.group(4)), int(m.group(5)))

    @property
    def label(self) -> str:
        size = f"{self.block // 2**20}M" if self.block >= 2**20 else f"{self.block // 1024}K"
        return f"{'SEQ' if self.seq else 'RND'}{size} Q{self.queues}T{self.threads}"

    def toml(self) -> str:
        return (f'{{ pattern = "{"SEQ" if self.seq else "RND"}", block = "{self.block // 1024}KiB", '
                f"queues = {self.queues}, threads = {self.threads} }}")

    def rw(self, op: str) -> str:
        return op if self.seq else f"rand{op}"


@dataclass
class Cell:
    """One (test, op) and every side's best-of-count MB/s per round."""
    dm: list[float] = field(default_factory=list)
    fio: dict[str, list[float]] = field(default_factory=dict)  # per ioengine
    dspd: list[float] = field(default_factory=list)
    dm_cpu: list[float] = field(default_factory=list)


# --- raw fio ------------------------------------------------------------------------------

WORKQUEUE_CPUMASK = Path("/sys/devices/virtual/workqueue/cpumask")


@contextmanager
def one_cpu(cpu: int | None):
    """This process (and so every side it starts) and the kernel's unbound workers on one CPU;
    both put back as they were afterwards."""
    if cpu is None:
        yield
        return
    mine = os.sched_getaffinity(0)
    before = WORKQUEUE_CPUMASK.read_text().strip()
    WORKQUEUE_CPUMASK.write_text(f"{1 << cpu:x}\n")
    os.sched_setaffinity(0, {cpu})
    try:
        yield
    finally:
        os.sched_setaffinity(0, mine)
        WORKQUEUE_CPUMASK.write_text(before + "\n")


def run_fio(args: list[str]) -> dict:
    out = subprocess.run([FIO, *args, "--output-format=json"], capture_output=True, text=True,
                         stdin=subprocess.DEVNULL)
    objs = json_objects(out.stdout)
    if out.returncode != 0 or not objs:
        raise RuntimeError(f"fio failed ({out.returncode}): {' '.join(args)}\n{out.stderr[-800:]}")
    return objs[-1]


def lay_out(path: Path, size: int) -> float:
    """The raw side's file, made as diskmark makes its own; returns the seconds it took
    (with the fsync), the part of diskmark's session it cannot avoid either."""
    path.unlink(missing_ok=True)
    t0 = time.monotonic()
    with open(path, "xb") as f:
        f.truncate(size)
    run_fio(["--name=layout", f"--filename={path}", f"--size={size}", "--rw=write", "--bs=1M",
             "--iodepth=8", "--ioengine=libaio", "--direct=1", "--fallocate=none", "--end_fsync=1"])
    return time.monotonic() - t0


def fio_test(path: Path, size: int, test: Test, op: str, engine: str, count: int,
             measure: float) -> list[float]:
    """Warm-up + COUNT passes as stonewalled jobs of one fio process; MB/s of the passes."""
    args = [f"--filename={path}", f"--size={size}", f"--ioengine={engine}", "--direct=1",
            f"--rw={test.rw(op)}", f"--bs={test.block}", f"--iodepth={test.queues}",
            f"--numjobs={test.threads}", "--group_reporting", "--time_based",
            f"--runtime={measure:g}", "--randrepeat=0", "--norandommap"]
    for n in range(count + 1):
        args += [f"--name=p{n}"] + (["--stonewall"] if n else [])
    jobs = run_fio(args)["jobs"]
    return [j[op]["bw_bytes"] / 1e6 for j in jobs[1:]]


def fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- diskspd ------------------------------------------------------------------------------

def find_diskspd() -> str | None:
    return os.environ.get("DISKSPD") or shutil.which("diskspd")


def diskspd_pass(binary: str, path: Path, test: Test, op: str, measure: float) -> float:
    args = [binary, f"-b{test.block // 1024}K", f"-o{test.queues}", f"-t{test.threads}", "-W0",
            "-Sd", f"-w{100 if op == 'write' else 0}", "-Zr", f"-d{max(1, round(measure))}", "-xk"]
    if not test.seq:
        args.append("-r")
    out = subprocess.run([*args, str(path)], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    if out.returncode != 0:
        raise RuntimeError(f"diskspd failed ({out.returncode}): {' '.join(args)}\n"
                           f"{(out.stderr or out.stdout)[-800:]}")
    return diskspd_mb_s(out.stdout)


def diskspd_mb_s(text: str) -> float:
    """MB/s (decimal) from diskspd's text report: the 'total:' row's bytes over the test time
    ('test time: 5s'). Its own MB/s column is MiB/s."""
    secs = None
    m = re.search(r"test time:\s*([\d.]+)\s*s", text) or re.search(r"duration:\s*([\d.]+)\s*s", text)
    if m:
        secs = float(m.group(1))
    section = text.split("Total IO", 1)[-1]
    m = re.search(r"^\s*total:\s*([\d]+)\s*\|", section, re.M)
    if not m or not secs:
        raise RuntimeError(f"cannot read diskspd's output:\n{text[-1500:]}")
    return int(m.group(1)) / secs / 1e6


# --- diskmark -----------------------------------------------------------------------------

def diskmark_session(home: Path, target: Path, a, tests: list[Test]) -> tuple[dict, float]:
    args = [*DISKMARK, "run", "--target", str(target), "--preset", "vsfio", "--profile", "default",
            "--size", str(a.size), "--count", str(a.count), "--measure", f"{a.measure:g}",
            "--interval", f"{a.interval:g}", "--mode", a.mode, "--format", "json", "--quiet"]
    env = {**os.environ, "DISKMARK_HOME": str(home)}
    t0 = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT,
                         stdin=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    if out.returncode != 0:
        raise RuntimeError(f"diskmark failed ({out.returncode}): {' '.join(args)}\n{out.stderr[-1500:]}")
    return json.loads(out.stdout), wall


def write_preset(home: Path, tests: list[Test]) -> None:
    d = home / "config" / "presets"
    d.mkdir(parents=True, exist_ok=True)
    rows = ",\n  ".join(t.toml() for t in tests)
    (d / "vsfio.toml").write_text(
        'schema = 1\nid = "vsfio"\nname = "vs_fio"\ndescription = "benchmarks/vs_fio.py"\n'
        f"measure = 5\ninterval = 0\n\n[profiles.default]\nname = \"Default\"\nlayout = \"default\"\n"
        f"tests = [\n  {rows},\n]\n")


def test_key(t: dict) -> tuple[str, str]:
    spec = t.get("spec", {})
    block = int(spec.get("block", 0))
    test = Test(str(spec.get("pattern", "SEQ")).upper() == "SEQ", block, int(spec.get("queues", 1)),
                int(spec.get("threads", 1)))
    return test.label, str(t.get("kind", ""))


def run_cpu(run: dict) -> float | None:
    """A pass's CPU figure if diskmark reports one (any shape we can make sense of)."""
    if isinstance(run.get("usr_cpu"), (int, float)):  # diskmark.result/1: fio's usr/sys per pass
        return float(run["usr_cpu"]) + float(run.get("sys_cpu") or 0)
    cpu = run.get("cpu")
    if isinstance(cpu, (int, float)):
        return float(cpu)
    if isinstance(cpu, dict):
        if "usr" in cpu or "sys" in cpu:
            return float(cpu.get("usr", 0)) + float(cpu.get("sys", 0))
        for k in ("usr_sys", "total", "percent"):
            if isinstance(cpu.get(k), (int, float)):
                return float(cpu[k])
    return None


def must_spend(session: dict, layout_s: float) -> tuple[float, dict]:
    """What the session cannot avoid: fio's measured time of every warm-up and pass (its
    job_runtime sums the jobs of a group: divided by threads), the start delays and ramp times,
    the intervals between tests, laying out the file, the flushes after writes."""
    parts = {"passes": 0.0, "delays": 0.0, "intervals": 0.0, "layout": layout_s, "flush": 0.0}
    tests = session.get("tests", [])
    for t in tests:
        spec, kind = t.get("spec", {}), t.get("kind", "")
        threads = max(int(spec.get("threads", 1)), 1)
        runs = list(t.get("runs", [])) + ([t["warmup"]] if t.get("warmup") else [])
        parts["passes"] += sum(r.get("runtime_ms", 0) for r in runs) / 1000 / threads
        per = float(spec.get("startdelay", {}).get(kind, 0)) + float(spec.get("ramp_time", {}).get(kind, 0))
        parts["delays"] += per * len(runs)
        parts["flush"] += float(t.get("sync_seconds") or 0)
    parts["intervals"] = max(len(tests) - 1, 0) * float(session.get("interval", 0) or 0)
    return sum(parts.values()), parts


# --- CPU cost of diskmark's write command ---------------------------------------------------

def cpu_cost(commands: dict[str, list[str]], path: Path, size: int, rounds: int) -> None:
    if not commands:
        return
    print("\nCPU cost of diskmark's write command against fio's default buffers "
          "(fio usr+sys × numjobs, % of one core; interleaved)")
    print(f"{'test':22} {'data options':28} {'MB/s':>9} {'cpu %':>7} {'cpu %/GBps':>11}")
    for label, cmd in commands.items():
        keep = [c for c in cmd[1:] if not c.startswith(("--filename=", "--output-format",
                                                        "--status-interval", "--size="))]
        data = [c for c in keep if c in ("--refill_buffers", "--zero_buffers")
                or c.startswith(("--scramble_buffers", "--buffer_compress"))]
        base = [c for c in keep if c not in data]
        numjobs = next((int(c.split("=")[1]) for c in keep if c.startswith("--numjobs=")), 1)
        variants = {" ".join(data) or "(none)": data, "fio default buffers": []}
        res: dict[str, list[tuple[float, float]]] = {k: [] for k in variants}
        for rnd in range(rounds):
            names = list(variants) if rnd % 2 == 0 else list(reversed(variants))
            for name in names:
                j = run_fio([*base, *variants[name], f"--filename={path}", f"--size={size}"])["jobs"][0]
                mb = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6
                res[name].append((mb, (j["usr_cpu"] + j["sys_cpu"]) * numjobs))
        for name, rr in res.items():
            mb = med([r[0] for r in rr])
            cpu = med([r[1] for r in rr])
            per = med([r[1] / (r[0] / 1000) for r in rr if r[0]])
            print(f"{label:22} {name:28} {mb:9.1f} {cpu:7.1f} {per:11.1f}")


# --- main ---------------------------------------------------------------------------------

def session_arguments(ap: argparse.ArgumentParser, size: str, count: int, measure: float) -> None:
    """The options every benchmark of a diskmark session against raw fio takes, with the
    defaults that suit it: --size, --rounds, --tests, --count, --measure."""
    ap.add_argument("--size", type=parse_size, default=parse_size(size))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--tests", nargs="+", type=Test.parse, metavar="TEST",
                    help=f"e.g. SEQ1M-Q8T1 RND4K-Q32T16 (default: {' '.join(DEFAULT_TESTS)})")
    ap.add_argument("--count", type=int, default=count,
                    help=f"measured passes per test (default {count})")
    ap.add_argument("--measure", type=float, default=measure,
                    help=f"seconds per pass (default {measure:g})")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", type=Path, help="directory to test in")
    session_arguments(ap, "1GiB", count=3, measure=5)
    ap.add_argument("--mode", choices=["rw", "read", "write"], default="rw")
    ap.add_argument("--interval", type=float, default=0, help="seconds between tests (default 0)")
    ap.add_argument("--engines", default="libaio,io_uring",
                    help="ioengines for raw fio; the faster one per test is compared (default both)")
    ap.add_argument("--no-diskspd", action="store_true", help="skip diskspd even if present")
    ap.add_argument("--cpu-rounds", type=int, help="rounds of the CPU-cost comparison (default --rounds)")
    ap.add_argument("--json", type=Path, help="also write every round's figures to this file")
    ap.add_argument("--cpu", type=int, metavar="N",
                    help="run every side and the kernel's unbound workers on CPU N (root)")
    a = ap.parse_args()
    with one_cpu(a.cpu):
        return run(a, ap)


def run(a, ap) -> int:
    tests = a.tests or [Test.parse(t) for t in DEFAULT_TESTS]
    ops = {"rw": ["read", "write"], "read": ["read"], "write": ["write"]}[a.mode]
    engines = [e for e in a.engines.split(",") if e]
    dspd = None if a.no_diskspd else find_diskspd()
    target = a.target.resolve()
    if not target.is_dir():
        ap.error(f"{target} is not a directory")
    raw = target / ".vs-fio-raw.bench"
    home = Path(tempfile.mkdtemp(prefix="vs-fio-home-"))
    write_preset(home, tests)
    cells: dict[tuple[str, str], Cell] = {(t.label, op): Cell() for op in ops for t in tests}
    overhead: list[tuple[float, float, dict]] = []
    commands: dict[str, list[str]] = {}
    print(f"target {target}, size {a.size / 2**20:g} MiB, {len(tests)} tests × {ops}, count {a.count}, "
          f"measure {a.measure:g} s, interval {a.interval:g} s, rounds {a.rounds}; raw fio: "
          f"{', '.join(engines)}, default buffers; diskspd: {dspd or 'not found'}; "
          f"{os.cpu_count()} CPUs{'' if a.cpu is None else f' (all on CPU {a.cpu})'}, load {loadavg()}")
    try:
        for rnd in range(a.rounds):
            sides = ["diskmark", "fio"] + (["diskspd"] if dspd else [])
            k = rnd % len(sides)
            sides = sides[k:] + sides[:k]  # who goes first rotates
            layout_s = None
            for side in sides:
                t0 = time.monotonic()
                if side == "diskmark":
                    session, wall = diskmark_session(home, target, a, tests)
                    for t in session.get("tests", []):
                        label, kind = test_key(t)
                        if (label, kind) not in cells:
                            continue
                        runs = t.get("runs", [])
                        if runs:
                            cells[label, kind].dm.append(max(float(r.get("mb_s", 0)) for r in runs))
                        cpus = [c for r in runs if (c := run_cpu(r)) is not None]
                        if cpus:
                            cells[label, kind].dm_cpu.append(med(cpus))
                        if kind == "write" and t.get("fio_command"):
                            commands.setdefault(label, list(t["fio_command"]))
                    dm_wall, dm_session = wall, session
                elif side == "fio":
                    layout_s = lay_out(raw, a.size)
                    for op in ops:
                        for i, test in enumerate(tests):
                            if i and a.interval:
                                time.sleep(a.interval)
                            order = engines if rnd % 2 == 0 else list(reversed(engines))
                            for engine in order:
                                mbs = fio_test(raw, a.size, test, op, engine, a.count, a.measure)
                                cells[test.label, op].fio.setdefault(engine, []).append(max(mbs))
                            if op == "write":
                                fsync(raw)
                else:
                    if not raw.exists():
                        lay_out(raw, a.size)
                    for op in ops:
                        for test in tests:
                            mbs = [diskspd_pass(dspd, raw, test, op, a.measure)
                                   for _ in range(a.count + 1)][1:]
                            cells[test.label, op].dspd.append(max(mbs))
                print(f"  round {rnd + 1}: {side} {time.monotonic() - t0:.1f} s (load {loadavg()})",
                      file=sys.stderr, flush=True)
            if layout_s is None:
                layout_s = lay_out(raw, a.size)
            must, parts = must_spend(dm_session, layout_s)
            overhead.append((dm_wall, must, parts))
        report(cells, tests, ops, engines, bool(dspd), overhead, a)
        if a.json:
            a.json.write_text(json.dumps({
                "cells": {f"{k[0]} {k[1]}": vars(c) for k, c in cells.items()},
                "overhead": [{"wall": w, "must": m, "parts": p} for w, m, p in overhead]}, indent=1))
        cpu_cost(commands, raw, a.size, a.cpu_rounds or a.rounds)
    finally:
        raw.unlink(missing_ok=True)
        shutil.rmtree(home, ignore_errors=True)
    print(f"\nload at end {loadavg()}")
    return 0


def report(cells, tests, ops, engines, with_dspd, overhead, a) -> None:
    print(f"\nbest-of-{a.count} MB/s, median over {a.rounds} rounds (noise: R/Avg across rounds; "
          f"dm÷fio: ratio of the medians, then the median of the per-round ratios, both against "
          f"the engine with the higher median)")
    head = f"{'test':22} {'diskmark':>10} {'noise':>6}"
    for e in engines:
        head += f" {'fio ' + e:>14} {'noise':>6}"
    head += f" {'dm÷fio':>7} {'paired (min–max)':>17}"
    if with_dspd:
        head += f" {'diskspd':>9} {'noise':>6} {'dm÷dspd':>8} {'paired (min–max)':>17}"
    print(head)
    ratios_fio, ratios_dspd = [], []
    for op in ops:
        for t in tests:
            c = cells[t.label, op]
            dm = med(c.dm)
            line = f"{t.label + ' ' + op:22} {dm:10.1f} {noise(c.dm):>6}"
            # the faster engine by its median over the rounds; pairing with the faster of the
            # two in each round would take the larger of two noisy samples (+10 % by itself)
            fastest = max(c.fio, key=lambda e: med(c.fio[e]), default=None)
            best = med(c.fio[fastest]) if fastest else float("nan")
            for e in engines:
                v = c.fio.get(e, [])
                line += f" {med(v):14.1f} {noise(v):>6}"
            r = dm / best if best else float("nan")
            ratios_fio.append(r)
            line += f" {r:7.3f} {paired(c.dm, c.fio[fastest]) if fastest else '-':>17}"
            if with_dspd:
                ds = med(c.dspd)
                rd = dm / ds if ds else float("nan")
                ratios_dspd.append(rd)
                line += f" {ds:9.1f} {noise(c.dspd):>6} {rd:8.3f} {paired(c.dm, c.dspd):>17}"
            if c.dm_cpu:
                line += f"   diskmark cpu {med(c.dm_cpu):.1f}"
            print(line)
    ok = [r for r in ratios_fio if r == r and r > 0]
    if ok:
        print(f"geometric mean diskmark ÷ raw fio (faster engine): {statistics.geometric_mean(ok):.3f}")
    ok = [r for r in ratios_dspd if r == r and r > 0]
    if ok:
        print(f"geometric mean diskmark ÷ diskspd: {statistics.geometric_mean(ok):.3f}")
    walls = [o[0] for o in overhead]
    musts = [o[1] for o in overhead]
    ratio = [w / m for w, m, _ in overhead]
    parts = {k: med([o[2][k] for o in overhead]) for k in overhead[0][2]}
    print(f"\nsession overhead: diskmark wall {med(walls):.1f} s vs must-spend {med(musts):.1f} s "
          f"(passes {parts['passes']:.1f}, delays {parts['delays']:.1f}, intervals "
          f"{parts['intervals']:.1f}, layout {parts['layout']:.1f}, flush {parts['flush']:.1f}): "
          f"ratio {med(ratio):.3f} ({min(ratio):.3f}–{max(ratio):.3f}), "
          f"{(med(walls) - med(musts)):.1f} s extra = "
          f"{(med(walls) - med(musts)) / (len(ops) * len(tests) * (a.count + 1)):.2f} s per pass")


if __name__ == "__main__":
    sys.exit(main())
