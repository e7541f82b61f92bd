"""How fast the history is with thousands of runs: the figures to hold against the targets.

    .venv/bin/python benchmarks/history_speed.py [--runs 3000] [--repeat 5] [--keep DIR]

In a new, empty DISKMARK_HOME (a temporary directory, or --keep DIR), the script imports
real results (tests/fixtures/legacy-data: runs of real fio, eight tests each, one or three
passes, about 27–42 KB of JSON) copied with other dates, hosts, devices and figures, as a
team's CI would gather them: first 30, then up to --runs. It then times, as a user sees them
(each a new `diskmark` process, Python's start included; the median of --repeat):

- `diskmark history list` with 30 runs and with all of them (target: under 1 s, and at most
  3 × the time with 30),
- `diskmark history trend "SEQ1M Q8T1"` over all of them (target: under 3 s),
- the app's history screen: from the key `h` to the first page in the table, in a real app
  driven by Textual's pilot (target: under 0.5 s); the time until the pilot notices is
  printed too (it adds the pilot's own waiting),

and, for scale, how long the imports took. It prints figures; it is not a test and fails
nothing. On a machine busy with other work the figures grow: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from history_data import EIGHT_TESTS, THREE_PASSES, clone, real_result  # noqa: E402

DEVICES = [("/dev/nvme0n1", "host-a"), ("/dev/nvme1n1", "host-a"), ("/dev/sda", "host-b"),
           ("/dev/sdb", "host-b"), ("/dev/vda", "ci-runner"), ("/dev/md0", "ci-runner")]


def make_runs(directory: Path, first: int, count: int, seed: int = 13) -> None:
    """Runs ``first`` … ``first + count - 1`` of the benchmark's history as report files:
    one every 90 minutes or so from 2020 on, on six drives of three hosts, the figures
    drifting a little and now and then stepping down or up."""
    rng = random.Random(seed + first)
    docs = [real_result(EIGHT_TESTS), real_result(THREE_PASSES)]
    start = datetime(2020, 1, 1, tzinfo=timezone.utc)
    directory.mkdir(parents=True, exist_ok=True)
    for i in range(first, first + count):
        device, host = DEVICES[i % len(DEVICES)]
        step = 0.8 if (i // 500) % 2 else 1.0
        doc = clone(docs[i % 2], start + timedelta(minutes=90 * i + rng.randint(0, 30)),
                    step * rng.uniform(0.97, 1.03), device=device, hostname=host)
        (directory / f"run-{i:05d}.json").write_text(json.dumps(doc))


def timed(cmd: list[str], env: dict[str, str], repeat: int) -> tuple[float, str]:
    """Median wall time of ``cmd`` over ``repeat`` runs, and its last stdout."""
    times, out = [], ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True, env=env,
                              stdin=subprocess.DEVNULL)
        times.append(time.perf_counter() - t0)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {done.stderr}")
        out = done.stdout
    return statistics.median(times), out


def diskmark(*args: str) -> list[str]:
    return [sys.executable, "-m", "diskmark", *args]


async def open_history_screen(repeat: int) -> tuple[list[float], list[float]]:
    """Seconds from pressing h to the first page of the history screen filled (the moment
    the screen has its rows, taken inside the app), and to the pilot seeing it (which adds
    the test harness's own waiting), ``repeat`` times."""
    from diskmark.app.app import DiskmarkApp
    from diskmark.app.screens.history import HistoryScreen
    from diskmark.model.settings import Settings
    from diskmark.model.units import MIB

    filled_at: list[float] = []
    show_page = HistoryScreen._show_page

    def timed_show_page(self, *args):  # the moment the table holds the page
        show_page(self, *args)
        filled_at.append(time.perf_counter())

    HistoryScreen._show_page = timed_show_page  # type: ignore[method-assign]
    filled, seen = [], []
    target = tempfile.mkdtemp(prefix="diskmark-bench-target-")
    try:
        app = DiskmarkApp(settings=Settings(target=target, size=16 * MIB, count=1),
                          persist=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause(0.5)
            for _ in range(repeat):
                filled_at.clear()
                t0 = time.perf_counter()
                await pilot.press("h")
                while not (isinstance(app.screen, HistoryScreen) and app.screen.loaded):
                    await asyncio.sleep(0.002)
                seen.append(time.perf_counter() - t0)
                filled.append(filled_at[0] - t0)
                rows = len(app.screen.rows)
                await pilot.press("escape")
                await pilot.pause(0.2)
        print(f"  (the screen showed {rows} runs on its first page)")
    finally:
        HistoryScreen._show_page = show_page  # type: ignore[method-assign]
        shutil.rmtree(target, ignore_errors=True)
    return filled, seen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="use (and keep) this DISKMARK_HOME")
    args = parser.parse_args()

    home = args.keep or Path(tempfile.mkdtemp(prefix="diskmark-bench-home-"))
    reports = Path(tempfile.mkdtemp(prefix="diskmark-bench-reports-"))
    env = {**os.environ, "DISKMARK_HOME": str(home)}
    os.environ["DISKMARK_HOME"] = str(home)
    small = 30
    try:
        print(f"diskmark history speed: {args.runs} runs, DISKMARK_HOME={home}")
        make_runs(reports / "first", 0, small)
        make_runs(reports / "rest", small, args.runs - small)
        size = sum(p.stat().st_size for p in reports.rglob("*.json")) / args.runs / 1024
        print(f"  report files: {size:.0f} KB on average")

        t, _ = timed(diskmark("history", "import", str(reports / "first")), env, 1)
        print(f"  import {small} runs: {t:.2f} s")
        list_small, _ = timed(diskmark("history", "list"), env, args.repeat)
        trend_small, _ = timed(diskmark("history", "trend", "SEQ1M Q8T1"), env, args.repeat)

        t, _ = timed(diskmark("history", "import", str(reports / "rest")), env, 1)
        print(f"  import {args.runs - small} more runs: {t:.1f} s "
              f"({t / (args.runs - small) * 1000:.1f} ms a run)")
        db = home / "data" / "diskmark.sqlite3"
        print(f"  database: {db.stat().st_size / 1e6:.0f} MB")
        list_big, out = timed(diskmark("history", "list"), env, args.repeat)
        assert out.count("\n") == 51, out  # the header and the default 50
        list_all, _ = timed(diskmark("history", "list", "--limit", "0"), env, max(1, args.repeat // 2))
        trend_big, out = timed(diskmark("history", "trend", "SEQ1M Q8T1"), env, args.repeat)
        assert out.count("Read in MB/s") == len(DEVICES), out

        screen, seen = asyncio.run(open_history_screen(args.repeat))
        screen_median = statistics.median(screen)

        def verdict(ok: bool) -> str:
            return "ok" if ok else "MISSED"

        print()
        print(f"  history list, {small} runs:       {list_small:6.3f} s")
        print(f"  history list, {args.runs} runs:     {list_big:6.3f} s  (target < 1 s: "
              f"{verdict(list_big < 1)}; {list_big / list_small:.2f} × the time with {small}, "
              f"target ≤ 3 ×: {verdict(list_big <= 3 * list_small)})")
        print(f"  history list --limit 0, {args.runs}: {list_all:6.3f} s  (every row printed)")
        print(f"  history trend, {small} runs:      {trend_small:6.3f} s")
        print(f"  history trend, {args.runs} runs:    {trend_big:6.3f} s  (target < 3 s: "
              f"{verdict(trend_big < 3)})")
        print(f"  app history screen, {args.runs} runs: {screen_median:6.3f} s median from "
              f"the key to the page in the table, {max(screen):.3f} s slowest of {len(screen)} "
              f"(target < 0.5 s: {verdict(screen_median < 0.5)}); "
              f"{statistics.median(seen):.3f} s as the test pilot sees it")
    finally:
        shutil.rmtree(reports, ignore_errors=True)
        if args.keep is None:
            shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
