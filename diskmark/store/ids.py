"""A run's id in the history: when it started (UTC) and a random part, such as
``20260101T045959Z-3fa2c1``; sorting ids sorts runs by when they ran, and the random part
tells apart two runs of the same second."""

from __future__ import annotations

import re
from datetime import datetime, timezone

from diskmark.model.moments import timestamp

HISTORY_ID = re.compile(r"[0-9]{8}T[0-9]{6}Z-[0-9a-f]{6}")


def _stamp() -> str:
    return datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")


def started_stamp(started: str) -> str:
    """The id's first part for a run that started at ``started``; now for one whose start
    is no date or none that can be placed in time (diskmark.model.moments)."""
    seconds = timestamp(started)
    if seconds is None:
        return _stamp()
    return datetime.fromtimestamp(seconds, timezone.utc).strftime("%Y%m%dT%H%M%SZ")
