"""Which step of a diskmark session, before its first test, slows a Q1 test that follows it?

    .venv/bin/python benchmarks/steps_ab.py TARGET [--rounds 8] [--op write]

Runs the Default preset's RND4K Q1T1 (``only_test``) through diskmark's own ``Engine.run``, in
this process, with one step left out per variant: the settle (waiting for Dirty and
Writeback), the io_uring probe, the test file's extent map (FIEMAP), the O_DIRECT probe, and
(during the test) the identity checks on every status object.
Each round runs every variant once, the order rotated; a variant's figure is the best of
COUNT passes. Printed: medians, R/Avg and the paired ratio to the full session, and every
round's figures (the full session was seen to be bimodal).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics as st
import sys
from contextlib import ExitStack
from pathlib import Path
from unittest import mock

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from diskmark.engine import fileinfo, ioengine, workspace
from diskmark.engine.runner import Engine
from diskmark.engine.session_run import SessionRun
from diskmark.model.settings import Mode, Settings
from diskmark.model.units import GIB


async def _no_settle(self, *args, **kwargs) -> None:
    return None


VARIANTS = {
    "full session": [],
    "no settle": [(SessionRun, "_settle", _no_settle)],
    "no io_uring probe": [(ioengine, "choose", lambda fio: ("io_uring", ""))],
    "no extent map": [(fileinfo, "layout_of", lambda open_file, total: None)],
    "no O_DIRECT probe": [(workspace.Workspace, "probe_direct", lambda self, fstype: None)],
    "no identity checks": [(workspace.Workspace, "lost", lambda self: None)],
}


def session(target: str, op: Mode, patches) -> float:
    settings = Settings(target=target, size=GIB, count=2, measure=3, interval=0, mode=op,
                        only_test=3)
    with ExitStack() as stack:
        for owner, name, value in patches:
            stack.enter_context(mock.patch.object(owner, name, value))
        result = asyncio.run(Engine().run(settings))
    return max(r.mb_s for r in result.tests[0].runs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("target")
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--op", choices=["read", "write"], default="write")
    ap.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS),
                    help="the first is the reference of the paired ratios")
    a = ap.parse_args()
    op = Mode.READ if a.op == "read" else Mode.WRITE
    names = a.variants
    res: dict[str, list[float]] = {k: [] for k in names}
    for r in range(a.rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            res[k].append(session(a.target, op, VARIANTS[k]))
        print(f"  round {r + 1}: " + "  ".join(f"{k} {v[-1]:.0f}" for k, v in res.items()),
              file=sys.stderr, flush=True)
    base = res[names[0]]
    for k, v in res.items():
        paired = st.median([x / y for x, y in zip(v, base)])
        print(f"RND4K Q1T1 {a.op}  {k:20s} median {st.median(v):7.1f} MB/s  "
              f"R/Avg {100 * (max(v) - min(v)) / st.mean(v):5.1f}%  paired ÷ {names[0]} {paired:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
