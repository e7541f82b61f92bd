"""Capture real fio JSON output as parser fixtures (tests/fixtures/*.json).

Run: .venv/bin/python scripts/capture_fixtures.py [DIR]
Uses a 16 MiB file in DIR (default: a temporary directory) and 2-second runs, so the files
stay small. The captures are committed; re-run this after a fio upgrade to check the parser.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures"


def fio(args: list[str], out: str, interrupt_after: float | None = None) -> None:
    if not any(a.startswith("--output-format") for a in args):
        args = [*args, "--output-format=json", "--status-interval=1"]
    proc = subprocess.Popen(["fio", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            start_new_session=True)
    if interrupt_after:
        time.sleep(interrupt_after)
        os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate()
    (OUT / out).write_bytes(stdout)
    print(f"{out}: exit {proc.returncode}, {len(stdout)} bytes, stderr {stderr[:120]!r}")


def main() -> None:
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    f = str(base / "fixture.tmp")
    common = [f"--filename={f}", "--size=16M", "--ioengine=libaio", "--direct=1", "--refill_buffers"]
    try:
        fio(["--name=prep", *common, "--rw=write", "--bs=1M", "--iodepth=8"], "fio_prepare.json")
        timed = ["--time_based", "--runtime=2", "--randrepeat=0", "--norandommap", "--group_reporting"]
        fio(["--name=seqread", *common, "--rw=read", "--bs=1M", "--iodepth=8", *timed], "fio_seqread.json")
        fio(["--name=randwrite", *common, "--rw=randwrite", "--bs=4k", "--iodepth=32", "--numjobs=2",
             *timed], "fio_randwrite_t2.json")
        fio(["--name=mix", *common, "--rw=randrw", "--rwmixread=70", "--bs=4k", "--iodepth=1",
             *timed], "fio_randrw70.json")
        # a test as diskmark runs it: one continuous job, its passes cut from the stream
        for name, extra in (("fio_continuous_seqread.json", ["--rw=read", "--bs=1M", "--iodepth=8"]),
                            ("fio_continuous_randrw70_t2.json",
                             ["--rw=randrw", "--rwmixread=70", "--bs=4k", "--iodepth=4",
                              "--numjobs=2"])):
            fio(["--name=continuous", *common, *extra, "--thread", *timed,
                 "--output-format=json+", "--status-interval=500ms"], name)
        fio(["--name=stopped", *common, "--rw=read", "--bs=1M", "--iodepth=8", "--time_based",
             "--runtime=30"], "fio_sigint.json", interrupt_after=1.5)
    finally:
        if os.path.exists(f):
            os.unlink(f)


if __name__ == "__main__":
    main()
