"""When a result started, placed in time: the one rule for a date a file gives (a
CrystalDiskMark Date line, a report's ``started``), which the store sorts and prunes by.

Python's datetime holds years 1 to 9999, but a date near either end cannot be turned into
seconds since the epoch in every time zone: 0001/01/01 00:00 is year 0 in UTC (and Python's
own local-time arithmetic steps over that edge even in UTC), 9999/12/31 is year 10000 west
of Greenwich. Such a date used to escape as a ValueError or OverflowError from deep in the
store, where it was taken for a figure that is not finite. Here a date within a day of
either end is no point in time, whatever the machine's zone, so the same file gives the
same answer everywhere; every other date is one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

#: more than any zone's distance from UTC (at most 14 hours)
_MARGIN = timedelta(days=1)


def placeable(when: datetime) -> bool:
    """Whether ``when`` (naive: local time; or with its offset) can be placed in time in
    every time zone."""
    return datetime.min + _MARGIN <= when.replace(tzinfo=None) <= datetime.max - _MARGIN


def timestamp(iso: str) -> float | None:
    """Seconds since the epoch of an ISO 8601 time (local time when it has no offset), or
    None when it is no date or none that can be placed in time (:func:`placeable`)."""
    try:
        when = datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None
    if not placeable(when):
        return None
    try:
        if when.tzinfo is None:
            when = when.astimezone()
        return when.timestamp()
    except (OverflowError, OSError, ValueError):  # a platform's localtime() narrower still
        return None
