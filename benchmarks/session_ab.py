"""Where does diskmark lose against raw fio: in the session around the job, or in the job?

    .venv/bin/python benchmarks/session_ab.py TARGET --test SEQ1M-Q8T1 --op read [--rounds 12]
        [--count 2] [--measure 3] [--size 1GiB]

One test, one direction, three sides per round in an order rotated every round:

- session: `diskmark run` with a preset of that one test (its own workspace, layout, settle,
  warm-up + COUNT passes as windows of one continuous job, best of COUNT).
- job: the continuous fio job that session runs (the command diskmark records, with the
  warm-up and passes in one runtime, io_uring, `--thread`, `json+` every 100 ms), started by
  hand on the raw side's file; its passes cut from the status stream as diskmark cuts them.
- raw: the same test as stonewalled jobs of one fio process with io_uring, fio's default
  buffers, no `--thread`, plain JSON at the end (warm-up + COUNT passes, best of COUNT).

session ÷ job is what the session around the job costs; job ÷ raw is the job's shape. Both
are paired (same round) and the medians are printed with each side's own noise (R/Avg).
The raw side's file is laid out fresh every round as diskmark lays out its own (with
``--fresh-file``, right before each of the job and raw sides, as the session's test follows
its own layout).
"""

from __future__ import annotations

import argparse
import shutil
import statistics as st
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
import vs_fio  # noqa: E402

from diskmark.engine import parse  # noqa: E402
from diskmark.model.settings import Op  # noqa: E402


def continuous(cmd: list[str], path: Path, count: int, measure: float, op: Op) -> float:
    """diskmark's recorded pass command made continuous, as the engine runs it."""
    keep = [c for c in cmd[1:] if not c.startswith(("--filename=", "--runtime=", "--output-format",
                                                    "--status-interval"))]
    ms = int(measure * 1000)
    args = [vs_fio.FIO, *keep, f"--filename={path}", f"--runtime={(count + 1) * ms}ms",
            "--output-format=json+", "--status-interval=100ms"]
    out = subprocess.run(args, capture_output=True, text=True, check=True, stdin=subprocess.DEVNULL)
    snaps = [parse.snapshot(parse.job(o), op, 1) for o in parse.JsonStream().feed(out.stdout)]
    near = lambda t: min(snaps[1:], key=lambda s: abs(s.t_ms - t))  # noqa: E731
    return max(parse.window(near(ms * n), near(ms * (n + 1)), op).mb_s for n in range(1, count + 1))


def lay_out_as_diskmark(path: Path, size: int) -> None:
    """The raw file laid out by the command diskmark's engine uses for its own."""
    from diskmark.engine.plan import prepare_args
    from diskmark.model.settings import Settings

    path.unlink(missing_ok=True)
    with open(path, "xb") as f:
        f.truncate(size)
    args = prepare_args(vs_fio.FIO, Settings(target=str(path.parent), size=size), "io_uring")
    args = [a if not a.startswith("--filename=") else f"--filename={path}" for a in args]
    subprocess.run(args, capture_output=True, check=True, stdin=subprocess.DEVNULL)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target", type=Path)
    ap.add_argument("--test", type=vs_fio.Test.parse, default=vs_fio.Test.parse("SEQ1M-Q8T1"))
    ap.add_argument("--op", choices=["read", "write"], default="read")
    ap.add_argument("--rounds", type=int, default=12)
    ap.add_argument("--count", type=int, default=2)
    ap.add_argument("--measure", type=float, default=3)
    ap.add_argument("--size", type=vs_fio.parse_size, default=vs_fio.parse_size("1GiB"))
    ap.add_argument("--fresh-file", action="store_true",
                    help="lay the raw file out again right before the job and the raw side, as "
                         "the session lays out its own right before its test")
    ap.add_argument("--layout-as-diskmark", action="store_true",
                    help="with --fresh-file: lay the file out with diskmark's own command "
                         "(io_uring, --thread) instead of libaio processes")
    a = ap.parse_args()
    a.interval, a.mode = 0, a.op
    op = Op(a.op)
    lay = lay_out_as_diskmark if a.layout_as_diskmark else vs_fio.lay_out
    target = a.target.resolve()
    raw = target / ".session-ab-raw.bench"
    home = Path(tempfile.mkdtemp(prefix="session-ab-home-"))
    vs_fio.write_preset(home, [a.test])
    res: dict[str, list[float]] = {"session": [], "job": [], "raw": []}
    cmd: list[str] | None = None
    print(f"{a.test.label} {a.op}, count {a.count}, measure {a.measure:g} s, rounds {a.rounds}, "
          f"target {target}, load {vs_fio.loadavg()}")
    try:
        for rnd in range(a.rounds):
            sides = list(res)
            if cmd is None:  # the first round learns the command from a session
                sides.remove("session")
                sides.insert(0, "session")
            else:
                k = rnd % len(sides)
                sides = sides[k:] + sides[:k]
            vs_fio.lay_out(raw, a.size)
            for side in sides:
                if side == "session":
                    session, _ = vs_fio.diskmark_session(home, target, a, [a.test])
                    t = session["tests"][0]
                    res[side].append(max(float(r["mb_s"]) for r in t["runs"]))
                    cmd = cmd or list(t["fio_command"])
                elif side == "job":
                    if a.fresh_file:
                        lay(raw, a.size)
                    res[side].append(continuous(cmd, raw, a.count, a.measure, op))
                else:
                    if a.fresh_file:
                        lay(raw, a.size)
                    res[side].append(max(vs_fio.fio_test(raw, a.size, a.test, a.op, "io_uring",
                                                         a.count, a.measure)))
            print(f"  round {rnd + 1}: " + "  ".join(f"{k} {v[-1]:.1f}" for k, v in res.items())
                  + f"  (load {vs_fio.loadavg()})", file=sys.stderr, flush=True)
            time.sleep(0.5)
    finally:
        raw.unlink(missing_ok=True)
        shutil.rmtree(home, ignore_errors=True)
    for k, v in res.items():
        print(f"{k:8s} median {st.median(v):9.1f} MB/s  R/Avg {vs_fio.noise(v):>7s}")
    for x, y in [("session", "job"), ("job", "raw"), ("session", "raw")]:
        ratios = [p / q for p, q in zip(res[x], res[y])]
        print(f"{x} ÷ {y}: paired median {st.median(ratios):.3f} "
              f"(quartiles {st.quantiles(ratios, n=4)[0]:.2f}–{st.quantiles(ratios, n=4)[2]:.2f})")
    print(f"load at end {vs_fio.loadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
