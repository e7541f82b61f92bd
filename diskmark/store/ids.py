"""A run's id in the history: when it started (UTC) and a random part, such as
``20260101T045959Z-3fa2c1``; sorting ids sorts runs by when they ran, and the random part
tells apart two runs of the same second."""

from __future__ import annotations

import re
from datetime import datetime, timezone

HISTORY_ID = re.compile(r"[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}")


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def started_stamp(started: str) -> str:
    try:
        when = datetime.fromisoformat(started)
        if when.tzinfo is None:
            when = when.astimezone()
        return when.astimezone(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    except (TypeError, ValueError):
        return _stamp()
