"""Capture the events of a real run as a fixture for the app tests
(tests/fixtures/events/NAME.json), played back by tests/support/replay.py.

Run: .venv/bin/python scripts/capture_events.py [DIR]
Runs the real engine with real fio on a 16 MiB file in DIR (default: a temporary directory),
one-second passes, and keeps every event it emitted, with the second it came, and the
session it returned. The recording holds every test of the Default preset's profiles (Read,
Write and Mix) with two passes each, so one recording serves a run of any of them, of one
row, or with one pass. The captures are committed; re-run this after a change to the events
or to fio, and look at the app tests that use them.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "support")]

from replay import RECORDINGS, event_to_dict  # noqa: E402

from diskmark.engine.runner import Engine  # noqa: E402
from diskmark.model.settings import Mode, Settings  # noqa: E402
from diskmark.model.units import MIB  # noqa: E402

#: What each recording is a run of.
CAPTURES = {
    "default": dict(preset="default", profile="default", mode=Mode.READ_WRITE, mix=70,
                    count=2),
}
#: The directory the run used is written as this, so a recording names no machine's path.
NEUTRAL = "/tmp/diskmark-capture"


async def capture(name: str, base: Path) -> None:
    target = base / name
    target.mkdir()
    settings = Settings(target=str(target), size=16 * MIB, measure=1.0, interval=0.0,
                        **CAPTURES[name])
    events: list[dict] = []
    start = time.monotonic()

    def keep(event) -> None:
        events.append({"t": round(time.monotonic() - start, 3), **event_to_dict(event)})

    session = await Engine().run(settings, keep)
    data = {"settings": settings.to_dict(), "session": session.to_dict(), "events": events}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace(str(target), NEUTRAL).replace(str(base), NEUTRAL)
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    out = RECORDINGS / f"{name}.json"
    out.write_text(text + "\n")
    print(f"{out.relative_to(ROOT)}: {session.status.value}, {len(session.tests)} tests, "
          f"{len(events)} events, {len(text)} bytes")


def main() -> None:
    base = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    for name in CAPTURES:
        asyncio.run(capture(name, base))
        (base / name).rmdir()


if __name__ == "__main__":
    main()
