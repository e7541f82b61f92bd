#!/usr/bin/env python3
"""Regenerate screenshots/*.svg from the real app and a real (tiny) fio run.

    .venv/bin/python scripts/screenshots.py [--target DIR] [--size 16MiB] [--count 1]

Runs All once on a scratch directory (default: a fresh directory under /var/tmp, removed
afterwards), capturing the window idle, mid-run and finished, then the same results in IOPS,
at 80×24, in each of diskmark's themes, the details of one tile and the target picker; then
saves the result as a baseline, runs All again and captures the tiles compared with it and
the comparison screen.
Settings go to a throwaway DISKMARK_HOME: your own are never touched. Figures are those of
the machine it runs on.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUT = ROOT / "screenshots"
BIG, SMALL = (120, 40), (80, 24)
THEMES = ("diskmark-dark", "diskmark-contrast", "diskmark-mono")


async def wait_until(pilot, condition, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise SystemExit(f"screenshots: timed out waiting for {what}")
        await pilot.pause(0.05)


async def capture(target: Path, size: int, count: int, measure: float) -> list[Path]:
    from diskmark.app.app import DiskmarkApp
    from diskmark.app.screens.comparison import ComparisonScreen
    from diskmark.app.screens.details import DetailsScreen
    from diskmark.model.results import Status
    from diskmark.model.settings import Op, Settings

    settings = Settings(target=str(target), size=size, count=count, measure=measure, interval=0)
    app = DiskmarkApp(settings=settings, theme="diskmark", persist=False)
    saved: list[Path] = []

    def shot(name: str) -> None:
        saved.append(Path(app.save_screenshot(f"{name}.svg", str(OUT))))
        print(f"  {name}.svg", file=sys.stderr)

    async with app.run_test(size=BIG) as pilot:
        await wait_until(pilot, lambda: "·" in str(app.query_one("#facts").render()), 10,
                         "the target's facts")
        await pilot.pause()
        shot("idle")

        await pilot.press("a")
        await wait_until(pilot, lambda: any(t.live and t.live.mb_s for t in app.main.grid.tiles)
                         and any(t.result and t.result.runs for t in app.main.grid.tiles),
                         120, "a test to be measured live")
        await pilot.pause()
        shot("running")
        await wait_until(pilot, lambda: not app.state.running, 600, "the run to finish")
        await pilot.pause()
        session = app.state.history[-1]
        if session.status is not Status.COMPLETE:
            raise SystemExit(f"screenshots: the run ended {session.status}: {session.error}")
        app.query_one("#all").focus()
        await pilot.pause()
        shot("finished")

        await pilot.press("3")
        await pilot.pause()
        shot("finished-iops")
        await pilot.press("1")

        for theme in THEMES:
            app.theme = theme
            await pilot.pause(0.2)
            shot(f"theme-{theme}")
        app.theme = "diskmark"
        await pilot.pause(0.2)

        await pilot.resize_terminal(*SMALL)
        await pilot.pause(0.3)
        shot("finished-80x24")
        await pilot.resize_terminal(*BIG)
        await pilot.pause(0.3)

        tile = next(t for t in app.main.grid.tiles if t.row == 2 and t.op is Op.READ)
        app.main.open_details(tile)
        await wait_until(pilot, lambda: isinstance(app.screen, DetailsScreen), 5, "details")
        await pilot.pause()
        shot("details")
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("t")
        await wait_until(pilot, lambda: getattr(app.screen, "loaded", False), 10, "the picker")
        await pilot.pause(0.5)
        shot("target-picker")
        await pilot.press("escape")
        await pilot.pause()

        app.set_baseline(app.store.save_baseline(app.state.current_session(), "first run",
                                                 "the screenshot script's first All"))
        runs = len(app.state.history)
        await pilot.press("a")
        await wait_until(pilot, lambda: len(app.state.history) > runs and not app.state.running, 600,
                         "the second run to finish")
        await pilot.pause(0.3)
        app.query_one("#all").focus()
        await pilot.pause()
        shot("compared")
        await pilot.press("v")
        await wait_until(pilot, lambda: isinstance(app.screen, ComparisonScreen), 5,
                         "the comparison")
        await pilot.pause()
        shot("comparison")
        await pilot.press("escape")
    return saved


def main() -> int:
    from diskmark.model.units import parse_size

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", help="directory to measure in (default: a scratch directory)")
    parser.add_argument("--size", default="16MiB", help="test file size (default 16MiB)")
    parser.add_argument("--count", type=int, default=1, help="passes per test (default 1)")
    parser.add_argument("--measure", type=float, default=1.0, help="seconds per pass (default 1)")
    args = parser.parse_args()

    OUT.mkdir(exist_ok=True)
    home = tempfile.mkdtemp(prefix="diskmark-shots-home-")
    os.environ["DISKMARK_HOME"] = home
    os.environ.pop("NO_COLOR", None)
    scratch = None
    if args.target:
        target = Path(args.target).resolve()
    else:
        base = Path("/var/tmp") if Path("/var/tmp").is_dir() else None
        scratch = target = Path(tempfile.mkdtemp(prefix="diskmark-", dir=base))
    print(f"screenshots: measuring in {target} with fio, writing {OUT}", file=sys.stderr)
    try:
        saved = asyncio.run(capture(target, parse_size(args.size), args.count, args.measure))
    finally:
        shutil.rmtree(home, ignore_errors=True)
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)
    print(f"screenshots: {len(saved)} files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
