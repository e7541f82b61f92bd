"""Measure fio's own options on a target, interleaved, for the engine's design (FINDINGS.md).

    .venv/bin/python benchmarks/fio_probe.py DIR EXPERIMENT [--rounds 5] [--runtime 5] [--size 1GiB]

Experiments (each prints a table and, with --json FILE, keeps every sample):
  data     write data options: refill_buffers, fio's default, scramble_buffers=0, zero_buffers,
           buffer_compress_percentage=50; MB/s, CPU, and what the written bytes look like
  engines  libaio against io_uring (plain, fixedbufs, registerfiles, sqthread_poll)
  thread   fio's default job processes against --thread
  cpu      what usr_cpu/sys_cpu mean: fio's figures against /proc/<pid>/task/*/stat
  passes   N passes as N fio processes against one fio process with stonewalled jobs
  settle   how long Dirty+Writeback take to drain after laying out a file and after writes
  session  a whole `diskmark run` (--runtime is its --measure) against the time it must spend

Every variant of an experiment runs once per round, in an order rotated every round, on one
file prepared once (a sequential O_DIRECT write over a sparse file, as diskmark does). Runs
are time-based. Figures: MB/s = bw_bytes/1e6; "fio cpu" = usr_cpu+sys_cpu of fio's JSON (with
--group_reporting: the mean over the jobs, in % of one core); "Σ jobs cpu %/GBps" = fio cpu
× numjobs per GB/s;
"proc cores" = CPU seconds of the fio process tree (wait4 rusage) over its wall time; "busy" =
the whole machine's non-idle share from /proc/stat while it ran (other users included).
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import os
import re
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

CLK = os.sysconf("SC_CLK_TCK")
NCPU = os.cpu_count() or 1


# --- small helpers -----------------------------------------------------------------------

def parse_size(text: str) -> int:
    m = re.fullmatch(r"(\d+)\s*([KMGT]?)(i?B)?", text.strip(), re.I)
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {text!r}")
    return int(m.group(1)) * 1024 ** " KMGT".index((m.group(2) or " ").upper())


def json_objects(text: str) -> list[dict]:
    dec, out, i = json.JSONDecoder(), [], 0
    while (j := text.find("{", i)) >= 0:
        try:
            obj, i = dec.raw_decode(text, j)
        except json.JSONDecodeError:
            break
        out.append(obj)
    return out


def proc_stat_busy() -> tuple[float, float]:
    with open("/proc/stat") as f:
        vals = [int(v) for v in f.readline().split()[1:]]
    idle = vals[3] + vals[4]
    return float(sum(vals) - idle), float(sum(vals))


def meminfo() -> dict[str, int]:
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            out[k] = int(v.split()[0]) * 1024
    return out


def loadavg() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def spread(values: list[float]) -> str:
    if not values:
        return "-"
    med = statistics.median(values)
    r = (max(values) - min(values)) / statistics.fmean(values) * 100 if statistics.fmean(values) else 0
    return f"{med:9.1f} ±{r:4.1f}%"


class TaskSampler:
    """Polls /proc/<pid>/task/*/stat for fio and its descendants; keeps each thread's last
    utime+stime (s), its name and when it was first and last seen."""

    def __init__(self, pid: int, every: float = 0.1):
        self.pid, self.every = pid, every
        self.tasks: dict[int, dict] = {}
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)
        self._t.start()

    def _pids(self) -> list[int]:
        seen, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            seen.append(p)
            try:
                for tid in os.listdir(f"/proc/{p}/task"):
                    with open(f"/proc/{p}/task/{tid}/children") as f:
                        todo += [int(c) for c in f.read().split()]
            except OSError:
                pass
        return seen

    def _run(self) -> None:
        while not self._stop.is_set():
            now = time.monotonic()
            for p in self._pids():
                try:
                    tids = os.listdir(f"/proc/{p}/task")
                except OSError:
                    continue
                for tid in tids:
                    try:
                        with open(f"/proc/{p}/task/{tid}/stat") as f:
                            s = f.read()
                    except OSError:
                        continue
                    name = s[s.index("(") + 1:s.rindex(")")]
                    rest = s[s.rindex(")") + 2:].split()
                    cpu = (int(rest[11]) + int(rest[12])) / CLK  # utime, stime
                    t = self.tasks.setdefault(int(tid), {"name": name, "pid": p, "first": now})
                    t.update(cpu=cpu, last=now)
            self._stop.wait(self.every)

    def stop(self) -> dict[int, dict]:
        self._stop.set()
        self._t.join()
        return self.tasks


@dataclass
class Sample:
    variant: str
    round: int
    mb_s: float
    fio_cpu: float  # usr+sys, fio's JSON
    usr: float
    sys: float
    ctx: int
    minf: int
    runtime_ms: int
    wall: float
    proc_cores: float  # rusage of the fio tree / wall
    busy: float  # whole machine, %
    load: str
    extra: dict = field(default_factory=dict)


def run_fio(args: list[str], sample_tasks: bool = False, sigint_after: float | None = None):
    """Run fio to its end: (objects, wall seconds, rusage cpu seconds, busy %, task samples)."""
    b0, t0_all = proc_stat_busy()
    t0 = time.monotonic()
    proc = subprocess.Popen(["fio", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    sampler = TaskSampler(proc.pid) if sample_tasks else None
    out = []
    reader = threading.Thread(target=lambda: out.append(proc.stdout.read()), daemon=True)
    reader.start()
    if sigint_after is not None:
        time.sleep(sigint_after)
        os.killpg(proc.pid, signal.SIGINT)
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    reader.join()
    err = proc.stderr.read().decode(errors="replace")
    proc.returncode = os.waitstatus_to_exitcode(status)
    b1, t1_all = proc_stat_busy()
    tasks = sampler.stop() if sampler else None
    text = out[0].decode(errors="replace") if out else ""
    if proc.returncode not in (0, 128 if sigint_after else 0):
        raise RuntimeError(f"fio failed ({proc.returncode}): {' '.join(args)}\n{err}")
    busy = (b1 - b0) / (t1_all - t0_all) * 100 if t1_all > t0_all else 0.0
    return json_objects(text), wall, ru.ru_utime + ru.ru_stime, busy, tasks, text


def job_sample(variant: str, rnd: int, args: list[str], **kw) -> Sample:
    objs, wall, cpu_s, busy, tasks, _ = run_fio(args, **kw)
    j = objs[-1]["jobs"][0]
    mb = (j["read"]["bw_bytes"] + j["write"]["bw_bytes"]) / 1e6
    s = Sample(variant, rnd, mb, j["usr_cpu"] + j["sys_cpu"], j["usr_cpu"], j["sys_cpu"], j["ctx"],
               j["minf"], j["job_runtime"], wall, cpu_s / wall, busy, loadavg())
    if tasks is not None:
        s.extra["tasks"] = {str(k): v for k, v in tasks.items()}
    return s


# --- the target file ----------------------------------------------------------------------

def prepare(path: Path, size: int) -> None:
    if path.exists() and path.stat().st_size == size:
        return
    path.unlink(missing_ok=True)
    with open(path, "xb") as f:
        f.truncate(size)
    run_fio(["--name=prep", f"--filename={path}", f"--size={size}", "--rw=write", "--bs=1M",
             "--iodepth=8", "--ioengine=libaio", "--direct=1", "--fallocate=none", "--end_fsync=1",
             "--output-format=json"])


def base(path: Path, size: int, runtime: float) -> list[str]:
    return [f"--filename={path}", f"--size={size}", "--direct=1", "--time_based",
            f"--runtime={runtime:g}", "--randrepeat=0", "--norandommap", "--group_reporting",
            "--output-format=json"]


TESTS = {  # CrystalDiskMark's tests as fio options
    "SEQ1M Q8T1 read": ["--rw=read", "--bs=1M", "--iodepth=8", "--numjobs=1"],
    "SEQ1M Q8T1 write": ["--rw=write", "--bs=1M", "--iodepth=8", "--numjobs=1"],
    "SEQ1M Q1T1 write": ["--rw=write", "--bs=1M", "--iodepth=1", "--numjobs=1"],
    "RND4K Q32T1 read": ["--rw=randread", "--bs=4k", "--iodepth=32", "--numjobs=1"],
    "RND4K Q32T1 write": ["--rw=randwrite", "--bs=4k", "--iodepth=32", "--numjobs=1"],
    "RND4K Q1T1 read": ["--rw=randread", "--bs=4k", "--iodepth=1", "--numjobs=1"],
    "RND4K Q1T1 write": ["--rw=randwrite", "--bs=4k", "--iodepth=1", "--numjobs=1"],
    "RND4K Q32T16 read": ["--rw=randread", "--bs=4k", "--iodepth=32", "--numjobs=16"],
    "RND4K Q32T16 write": ["--rw=randwrite", "--bs=4k", "--iodepth=32", "--numjobs=16"],
}


def matrix(a, path: Path, tests: list[str], variants: dict[str, list[str]], fixed: list[str],
           **kw) -> list[Sample]:
    """Every (test, variant) once per round, variants rotated each round."""
    samples: list[Sample] = []
    names = list(variants)
    for test in tests:
        for rnd in range(a.rounds):
            order = names[rnd % len(names):] + names[:rnd % len(names)]
            for v in order:
                args = ["--name=probe", *base(path, a.size, a.runtime), *fixed, *TESTS[test],
                        *variants[v]]
                s = job_sample(f"{test} | {v}", rnd, args, **kw)
                samples.append(s)
                print(f"  r{rnd} {test:20} {v:24} {s.mb_s:9.1f} MB/s  fio cpu {s.fio_cpu:5.1f}%  "
                      f"proc {s.proc_cores:4.2f}  busy {s.busy:3.0f}%  load {s.load}",
                      file=sys.stderr, flush=True)
    return samples


def table(samples: list[Sample], title: str) -> None:
    """Per (test, variant): medians and spread, and the ratio to the test's first variant
    taken round by round (the pair ran within seconds of each other: less noise from a
    shared machine than the ratio of two medians)."""
    print(f"\n## {title}\n")
    print("| test | variant | MB/s median ±R/Avg | ÷ first variant, paired (median, min–max) |"
          " fio cpu % per job (usr+sys) | Σ jobs cpu %/GBps | proc cores | machine busy % | ctx/s |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    groups: dict[str, list[Sample]] = {}
    for s in samples:
        groups.setdefault(s.variant, []).append(s)
    first: dict[str, dict[int, float]] = {}
    for name, ss in groups.items():
        test, v = name.split(" | ")
        ref = first.setdefault(test, {s.round: s.mb_s for s in ss})
        pairs = [s.mb_s / ref[s.round] for s in ss if ref.get(s.round)]
        mb = [s.mb_s for s in ss]
        nj = int(m.group(1)) if (m := re.search(r"T(\d+)\b", test)) else 1
        cpu = statistics.median(s.fio_cpu for s in ss)
        per = statistics.median(s.fio_cpu * nj / (s.mb_s / 1000) for s in ss if s.mb_s)
        ctx = statistics.median(s.ctx / (s.runtime_ms / 1000) for s in ss if s.runtime_ms)
        paired = (f"{statistics.median(pairs):.2f} ({min(pairs):.2f}–{max(pairs):.2f})"
                  if pairs else "-")
        print(f"| {test} | {v} | {spread(mb).strip()} | {paired} | {cpu:.1f} | {per:.1f} | "
              f"{statistics.median(s.proc_cores for s in ss):.2f} | "
              f"{statistics.median(s.busy for s in ss):.0f} | {ctx:.0f} |")
    loads = sorted({s.load for s in samples})
    print(f"\nload averages seen: {loads[0]} … {loads[-1]}")


# --- experiments --------------------------------------------------------------------------

DATA = {
    "refill_buffers": ["--refill_buffers"],
    "default (scramble)": [],
    "scramble_buffers=0": ["--scramble_buffers=0"],
    "zero_buffers": ["--zero_buffers"],
    "compress_pct=50": ["--buffer_compress_percentage=50"],
}


def data_check(path: Path, size: int, variant: list[str], block: str, depth: int) -> dict:
    """Write 64 MiB with these options, then look at what landed in the file."""
    span = 64 * 2**20
    run_fio(["--name=check", f"--filename={path}", f"--size={span}", "--rw=write", f"--bs={block}",
             f"--iodepth={depth}", "--ioengine=libaio", "--direct=1", "--output-format=json", *variant])
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        chunk = os.pread(fd, 8 * 2**20, 16 * 2**20)  # 8 MiB from the middle of the span
    finally:
        os.close(fd)
    def pieces(n: int) -> list[bytes]:
        return [chunk[i:i + n] for i in range(0, len(chunk), n)]

    def gz_each(n: int) -> float:  # each piece compressed on its own, as a drive or fs would
        ps = pieces(n)[:256]
        return sum(len(gzip.compress(p, 6)) for p in ps) / sum(map(len, ps)) * 100

    return {
        "zero_bytes_pct": chunk.count(0) / len(chunk) * 100,
        "gzip_4k_pct": gz_each(4096),  # a drive compressing 4 KiB pages
        "gzip_128k_pct": gz_each(128 * 1024),  # btrfs compresses 128 KiB extents
        "xz_pct": len(lzma.compress(chunk, preset=6)) / len(chunk) * 100,  # 8 MiB window
        "unique_4k": len(set(pieces(4096))),  # of 2048
        "unique_1m": len(set(pieces(2**20))),  # of 8
    }


def exp_data(a, path: Path) -> list[Sample]:
    tests = a.tests or ["SEQ1M Q8T1 write", "RND4K Q1T1 write"]
    samples = matrix(a, path, tests, DATA, [f"--ioengine={a.ioengine}"])
    table(samples, f"write data options ({a.ioengine}, {a.runtime:g} s runs, {a.rounds} rounds)")
    print("\n### what lands in the file (8 MiB from a 64 MiB sequential write)\n")
    print("| variant | bs, QD | zero bytes % | gzip each 4K % | gzip each 128K % | xz 8 MiB % |"
          " distinct 4K blocks (of 2048) | distinct 1M blocks (of 8) |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    check = path.with_name(path.name + ".check")
    try:
        for v, opts in DATA.items():
            for bs, qd in (("1M", 8), ("4k", 1)):
                c = data_check(check, a.size, opts, bs, qd)
                print(f"| {v} | {bs} Q{qd} | {c['zero_bytes_pct']:.2f} | {c['gzip_4k_pct']:.1f} | "
                      f"{c['gzip_128k_pct']:.1f} | "
                      f"{c['xz_pct']:.1f} | {c['unique_4k']} | {c['unique_1m']} |")
    finally:
        check.unlink(missing_ok=True)
    return samples


ENGINES = {
    "libaio": ["--ioengine=libaio"],
    "io_uring": ["--ioengine=io_uring"],
    "io_uring fixedbufs": ["--ioengine=io_uring", "--fixedbufs"],
    "io_uring registerfiles": ["--ioengine=io_uring", "--registerfiles"],
    "io_uring sqthread_poll": ["--ioengine=io_uring", "--sqthread_poll"],
}


def exp_engines(a, path: Path) -> list[Sample]:
    tests = a.tests or ["SEQ1M Q8T1 read", "SEQ1M Q8T1 write", "RND4K Q32T1 read",
                        "RND4K Q1T1 read", "RND4K Q1T1 write"]
    variants = {k: v for k, v in ENGINES.items() if not a.variants or k in a.variants}
    samples = matrix(a, path, tests, variants, [])
    table(samples, f"ioengines (fio default buffers, {a.runtime:g} s runs, {a.rounds} rounds)")
    return samples


def exp_thread(a, path: Path) -> list[Sample]:
    tests = a.tests or ["SEQ1M Q8T1 write", "RND4K Q32T1 read", "RND4K Q1T1 read",
                        "RND4K Q32T16 read", "RND4K Q32T16 write"]
    variants = {"processes": [], "--thread": ["--thread"]}
    samples = matrix(a, path, tests, variants, [f"--ioengine={a.ioengine}"])
    table(samples, f"--thread against processes ({a.ioengine}, {a.runtime:g} s, {a.rounds} rounds)")
    return samples


def exp_cpu(a, path: Path) -> list[Sample]:
    """fio's usr_cpu/sys_cpu against the threads' own counters."""
    tests = a.tests or ["RND4K Q32T16 read", "RND4K Q32T1 read", "SEQ1M Q8T1 write"]
    variants = {"thread": ["--thread"], "processes": [],
                "thread refill": ["--thread", "--refill_buffers"]}
    variants = {k: v for k, v in variants.items() if not a.variants or k in a.variants}
    samples = matrix(a, path, tests, variants, [f"--ioengine={a.ioengine}"], sample_tasks=True)
    print(f"\n## CPU accounting ({a.ioengine}, {a.runtime:g} s, {a.rounds} rounds)\n")
    print("| test | mode | MB/s | fio usr+sys % | jobs | Σ job-thread cpu / runtime (cores) |"
          " mean per job % | max per job % | fio main thread cores | machine busy % |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in samples:
        tasks = s.extra.get("tasks", {})
        pid = min(int(k) for k in tasks) if tasks else 0  # fio's main thread: the first tid
        main = tasks.get(str(pid))
        # job threads/processes: every other task that used a noticeable share of a core
        # (fio's helper thread for status and disk stats uses almost nothing)
        jobs = [t for k, t in tasks.items() if int(k) != pid and t["cpu"] > 0.02 * a.runtime]
        secs = a.runtime
        per = sorted(t["cpu"] / secs * 100 for t in jobs)
        s.extra["per_job_pct"] = per
        print(f"| {s.variant.split(' | ')[0]} | {s.variant.split(' | ')[1]} | {s.mb_s:.0f} | "
              f"{s.fio_cpu:.1f} | {len(jobs)} | {sum(t['cpu'] for t in jobs) / secs:.2f} | "
              f"{statistics.fmean(per) if per else 0:.1f} | {max(per) if per else 0:.1f} | "
              f"{(main['cpu'] / s.wall) if main else 0:.2f} | {s.busy:.0f} |")
    return samples


def exp_passes(a, path: Path) -> list[Sample]:
    """(1 + count) passes of `runtime` each: separate fio processes vs one process with
    stonewalled jobs. Reports wall time beyond the measured time."""
    count = a.count
    rows = []
    for test in a.tests or ["SEQ1M Q8T1 read", "RND4K Q1T1 write", "RND4K Q32T16 read"]:
        for rnd in range(a.rounds):
            for mode in (("separate", "one") if rnd % 2 == 0 else ("one", "separate")):
                for thread in ([], ["--thread"]):
                    common = [*base(path, a.size, a.runtime), f"--ioengine={a.ioengine}",
                              *TESTS[test], *thread, "--status-interval=1"]
                    t0 = time.monotonic()
                    measured = 0
                    if mode == "separate":
                        for n in range(count + 1):
                            objs, *_ = run_fio([f"--name=p{n}", *common])
                            measured += objs[-1]["jobs"][0]["job_runtime"]
                    else:
                        jobs = []
                        for n in range(count + 1):
                            jobs += [f"--name=p{n}"] + (["--stonewall"] if n else [])
                        objs, *_ = run_fio([*common, *jobs])
                        measured = sum(j["job_runtime"] for j in objs[-1]["jobs"])
                    wall = time.monotonic() - t0
                    nj = int(next(o for o in TESTS[test] if o.startswith("--numjobs")).split("=")[1])
                    measured_s = measured / 1000 / nj  # job_runtime sums the jobs of a group
                    label = f"{mode}{' --thread' if thread else ''}"
                    rows.append((test, label, wall, measured_s))
                    print(f"  r{rnd} {test:20} {label:18} wall {wall:6.2f} s, fio measured "
                          f"{measured_s:6.2f} s, overhead/pass {(wall - measured_s) / (count + 1):.3f} s"
                          f"  load {loadavg()}", file=sys.stderr, flush=True)
    print(f"\n## {count + 1} passes (1 warm-up + {count}) of {a.runtime:g} s: wall time beyond "
          f"fio's measured time, per pass ({a.rounds} rounds)\n")
    print("| test | how | wall s (median) | measured s | overhead per pass s (median, min–max) |")
    print("|---|---|---:|---:|---:|")
    keys = sorted({(r[0], r[1]) for r in rows}, key=lambda k: (list(TESTS).index(k[0]), k[1]))
    for test, label in keys:
        rr = [r for r in rows if r[0] == test and r[1] == label]
        ov = [(r[2] - r[3]) / (count + 1) for r in rr]
        print(f"| {test} | {label} | {statistics.median(r[2] for r in rr):.2f} | "
              f"{statistics.median(r[3] for r in rr):.2f} | {statistics.median(ov):.3f} "
              f"({min(ov):.3f}–{max(ov):.3f}) |")
    return []


def drain(threshold: int, cap: float) -> tuple[float, int, int]:
    """Seconds until Dirty+Writeback <= threshold (or cap); first and peak value seen."""
    t0 = time.monotonic()
    m = meminfo()
    first = peak = m["Dirty"] + m["Writeback"]
    while True:
        m = meminfo()
        v = m["Dirty"] + m["Writeback"]
        peak = max(peak, v)
        if v <= threshold or time.monotonic() - t0 > cap:
            return time.monotonic() - t0, first, peak
        time.sleep(0.02)


def exp_settle(a, path: Path) -> list[Sample]:
    """After laying out a file, and after each write test (with diskmark's fsync and without):
    Dirty+Writeback right after, and how long until it is below 1 MiB / 16 MiB."""
    print(f"\n## settle: Dirty+Writeback after writes on {path.parent} ({a.rounds} rounds)\n")
    print("| step | direct | after fsync | Dirty+WB at end, MiB (median, max) | fsync s |"
          " time to ≤16 MiB s (median, max) | time to ≤1 MiB s (median, max) |")
    print("|---|---|---|---:|---:|---:|---:|")
    steps = {
        "lay out file (1M Q8 seq write)": ["--rw=write", "--bs=1M", "--iodepth=8", "--fallocate=none"],
        "SEQ1M Q8T1 write": [*TESTS["SEQ1M Q8T1 write"], "--time_based", f"--runtime={a.runtime:g}"],
        "RND4K Q1T1 write": [*TESTS["RND4K Q1T1 write"], "--time_based", f"--runtime={a.runtime:g}"],
    }
    for name, opts in steps.items():
        for direct in (1, 0):
            for do_fsync in (True, False):
                res = []
                for rnd in range(a.rounds):
                    if name.startswith("lay out"):
                        path.unlink(missing_ok=True)
                    else:
                        prepare(path, a.size)
                    drain(1 << 20, 60)  # start from a clean slate
                    run_fio(["--name=w", f"--filename={path}", f"--size={a.size}",
                             f"--ioengine={a.ioengine}", f"--direct={direct}", "--randrepeat=0",
                             "--norandommap", "--output-format=json", *opts])
                    m = meminfo()
                    at_end = m["Dirty"] + m["Writeback"]
                    t0 = time.monotonic()
                    if do_fsync:
                        fd = os.open(path, os.O_RDONLY)
                        os.fsync(fd)
                        os.close(fd)
                    fs = time.monotonic() - t0
                    t16, _, _ = drain(16 << 20, 120)
                    t1, _, _ = drain(1 << 20, 120)
                    res.append((at_end, fs, fs + t16, fs + t16 + t1))
                    print(f"  r{rnd} {name:32} direct={direct} fsync={do_fsync}: end "
                          f"{at_end / 2**20:7.1f} MiB, fsync {fs:.2f} s, ≤16MiB {fs + t16:.2f} s, "
                          f"≤1MiB {fs + t16 + t1:.2f} s  load {loadavg()}", file=sys.stderr, flush=True)
                end = [r[0] / 2**20 for r in res]
                print(f"| {name} | {direct} | {'yes' if do_fsync else 'no'} | "
                      f"{statistics.median(end):.1f}, {max(end):.1f} | "
                      f"{statistics.median(r[1] for r in res):.2f} | "
                      f"{statistics.median(r[2] for r in res):.2f}, {max(r[2] for r in res):.2f} | "
                      f"{statistics.median(r[3] for r in res):.2f}, {max(r[3] for r in res):.2f} |")
    return []


def exp_session(a, path: Path) -> list[Sample]:
    """A whole `diskmark run` (Default profile, --size/--count/--measure/--interval as given)
    against the time it must spend: fio's measured time of every pass, delays, intervals,
    laying out the file as raw fio does, the flushes."""
    import shutil
    import tempfile

    from vs_fio import ROOT, lay_out, must_spend

    rows = []
    home = Path(tempfile.mkdtemp(prefix="probe-home-"))
    try:
        for rnd in range(a.rounds):
            layout = lay_out(path, a.size)
            path.unlink()
            args = [sys.executable, "-m", "diskmark", "run", "--target", str(path.parent),
                    "--size", str(a.size), "--count", str(a.count), "--measure", f"{a.runtime:g}",
                    "--interval", f"{a.interval:g}", "--format", "json", "--quiet"]
            t0 = time.monotonic()
            out = subprocess.run(args, capture_output=True, text=True, cwd=ROOT,
                                 env={**os.environ, "DISKMARK_HOME": str(home)})
            wall = time.monotonic() - t0
            if out.returncode:
                raise RuntimeError(out.stderr)
            session = json.loads(out.stdout)
            must, parts = must_spend(session, layout)
            npass = sum(len(t["runs"]) + 1 for t in session["tests"])
            rows.append((wall, must, parts, npass))
            print(f"  r{rnd} wall {wall:.2f} s, must {must:.2f} s {parts}, {npass} passes, "
                  f"load {loadavg()}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    print(f"\n## `{' '.join(args[1:])}`: wall against must-spend ({a.rounds} rounds)\n")
    print("| wall s | must-spend s | of which passes / intervals / layout / flush s | ratio |"
          " extra s per pass |")
    print("|---:|---:|---|---:|---:|")
    for wall, must, parts, npass in rows:
        print(f"| {wall:.2f} | {must:.2f} | {parts['passes']:.2f} / {parts['intervals']:.0f} / "
              f"{parts['layout']:.2f} / {parts['flush']:.2f} | {wall / must:.3f} | "
              f"{(wall - must) / npass:.3f} |")
    ratio = [w / m for w, m, *_ in rows]
    extra = [(w - m) / n for w, m, _, n in rows]
    print(f"\nmedian ratio {statistics.median(ratio):.3f} ({min(ratio):.3f}–{max(ratio):.3f}), "
          f"median extra per pass {statistics.median(extra):.3f} s")
    return []


EXPERIMENTS = {"data": exp_data, "engines": exp_engines, "thread": exp_thread, "cpu": exp_cpu,
               "passes": exp_passes, "settle": exp_settle, "session": exp_session}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir", type=Path)
    ap.add_argument("experiment", choices=EXPERIMENTS)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--runtime", type=float, default=5)
    ap.add_argument("--size", type=parse_size, default=parse_size("1GiB"))
    ap.add_argument("--ioengine", default="libaio")
    ap.add_argument("--count", type=int, default=3, help="passes, session: measured passes (+1 warm-up)")
    ap.add_argument("--interval", type=float, default=1, help="session: diskmark's --interval")
    ap.add_argument("--tests", nargs="*", choices=list(TESTS), metavar="TEST")
    ap.add_argument("--variants", nargs="*", metavar="NAME")
    ap.add_argument("--json", type=Path, help="keep every sample here")
    ap.add_argument("--retable", action="store_true",
                    help="only print the table again from the samples kept in --json")
    a = ap.parse_args()
    if a.retable:
        table([Sample(**d) for d in json.loads(a.json.read_text())], f"{a.experiment} (from {a.json})")
        return 0
    path = a.dir / ".fio-probe.bench"
    print(f"# {a.experiment} on {a.dir} ({os.uname().release}, {NCPU} CPUs, "
          f"{subprocess.run(['fio', '--version'], capture_output=True, text=True).stdout.strip()}), "
          f"file {a.size / 2**20:g} MiB, load at start {loadavg()}")
    try:
        if a.experiment not in ("settle", "session"):
            prepare(path, a.size)
        samples = EXPERIMENTS[a.experiment](a, path)
    finally:
        path.unlink(missing_ok=True)
    print(f"\nload at end {loadavg()}")
    if a.json:
        a.json.write_text(json.dumps([s.__dict__ for s in samples], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
