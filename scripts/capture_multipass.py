"""Capture fio's status stream for several passes in ONE fio process (stonewalled jobs) as
parser fixtures: tests/fixtures/fio_multipass_*.json, plus fio_multipass.md with the exact
command of each file and what it shows.

Run: .venv/bin/python scripts/capture_multipass.py [DIR]
Uses a 16 MiB file in DIR (default: a temporary directory) and 1-second passes, so the files
stay small. Each file is fio's raw stdout: one JSON object per status interval, then the final
object (split them with json.JSONDecoder.raw_decode). Re-run after a fio upgrade.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def passes(n: int, name: str = "p") -> list[str]:
    """n stonewalled jobs: pass 0 is the warm-up. Options before the first --name are global."""
    out: list[str] = []
    for i in range(n):
        out += [f"--name={name}{i}"] + (["--stonewall"] if i else [])
    return out


def capture(args: list[str], out: str, what: str, notes: list[str],
            interrupt_after: float | None = None) -> None:
    cmd = ["fio", "--output-format=json", "--status-interval=1", *args]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    if interrupt_after:
        time.sleep(interrupt_after)
        os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate()
    (OUT / out).write_bytes(stdout)
    sig = f" (SIGINT to the process group after {interrupt_after:g} s)" if interrupt_after else ""
    notes.append(f"## {out}\n\n{what}\n\nexit status {proc.returncode}, {len(stdout)} bytes{sig}:\n\n"
                 f"```\n{shlex.join(cmd)}\n```\n")
    print(f"{out}: exit {proc.returncode}, {len(stdout)} bytes, stderr {stderr[:120]!r}")


def main() -> None:
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    f = base / "fixture.tmp"
    # fio's own layout would do, but diskmark lays the file out with a sequential write
    subprocess.run(["fio", "--name=prep", f"--filename={f}", "--size=16M", "--rw=write", "--bs=1M",
                    "--iodepth=8", "--ioengine=libaio", "--direct=1", "--output-format=json"],
                   check=True, capture_output=True)
    common = [f"--filename={f}", "--size=16M", "--ioengine=libaio", "--direct=1", "--thread",
              "--group_reporting", "--time_based", "--runtime=1", "--randrepeat=0", "--norandommap"]
    notes = ["# fio multi-pass fixtures (fio 3.33)\n",
             "Made by `scripts/capture_multipass.py`. Each file is fio's stdout: a JSON object per "
             "status interval, then the final one. Every object lists *all* jobs (passes) in "
             "command-line order, started or not; see benchmarks/FINDINGS.md (d) for how to tell "
             "which pass is running. The test file's path in the commands was "
             f"`{f}`.\n"]
    try:
        capture([*common, "--rw=read", "--bs=1M", "--iodepth=8", *passes(3)],
                "fio_multipass_seqread.json",
                "SEQ1M Q8T1 read: a warm-up and 2 passes of 1 s as stonewalled jobs p0, p1, p2, "
                "--thread. Not-yet-started passes appear with zero I/O and a meaningless job_runtime.",
                notes)
        capture([*common, "--rw=randwrite", "--bs=4k", "--iodepth=4", "--numjobs=2", *passes(3)],
                "fio_multipass_randwrite_t2.json",
                "RND4K Q4T2 write, 3 passes, numjobs=2 with --group_reporting: one entry per pass "
                "(stonewall starts a new reporting group); job_runtime is the SUM over the 2 jobs "
                "(about 2000 for a 1 s pass), usr_cpu/sys_cpu the mean per job.", notes)
        capture([*common, "--rw=randread", "--bs=4k", "--iodepth=8", "--startdelay=1",
                 "--ramp_time=1", *passes(2)],
                "fio_multipass_ramp.json",
                "RND4K Q8T1 read, 2 passes with --startdelay=1 --ramp_time=1: startdelay counts from "
                "fio's start, so only p0 waits; ramp_time applies to every pass. A status object "
                "taken during a pass's ramp shows the ramp's I/O; when the ramp ends, that pass's "
                "io_bytes and job_runtime restart from zero, so they can go DOWN between two "
                "objects, and a rate from the difference of two objects that straddle the end of "
                "the ramp is wrong.", notes)
        capture([*common, "--rw=read", "--bs=1M", "--iodepth=8", *passes(3)],
                "fio_multipass_sigint.json",
                "SEQ1M Q8T1 read, 3 passes, SIGINT during p1: the final object still lists p0 "
                "(complete), p1 (partial: job_runtime < runtime) and p2 (never started: no I/O).",
                notes, interrupt_after=1.8)
    finally:
        f.unlink(missing_ok=True)
    (OUT / "fio_multipass.md").write_text("\n".join(notes))


if __name__ == "__main__":
    main()
