"""Number formatting shared by the tiles, the details screen and the status line.

The figures themselves come from :mod:`diskmark.report` so that the app and the CLI print
exactly the same numbers; this module only adds what a screen needs beyond a report.
"""

from __future__ import annotations

from diskmark.report import describe_progress, format_figure, meter_fraction
from diskmark.system import human_bytes as format_bytes

__all__ = ["describe_progress", "format_bytes", "format_duration", "format_figure",
           "meter_fraction"]


def format_duration(seconds: float) -> str:
    """``1:05`` or ``1:02:05``: compact enough for a status line."""
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
