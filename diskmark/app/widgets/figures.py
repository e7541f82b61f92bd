"""Number formatting shared by the tiles, the details screen and the status line.

The figures themselves come from :mod:`diskmark.report` so that the app and the CLI print
exactly the same numbers; this module only adds what a screen needs beyond a report.
"""

from __future__ import annotations

from diskmark.compare import BETTER, SAME, WORSE, Delta
from diskmark.report import describe_progress, format_figure, meter_fraction
from diskmark.system import human_bytes as format_bytes

__all__ = ["describe_progress", "format_bytes", "format_delta", "format_duration",
           "format_figure", "meter_fraction"]

#: The verdict as a glyph, so that a monochrome terminal tells better from worse too.
DELTA_GLYPHS = {BETTER: "▲", WORSE: "▼", SAME: "="}


def format_duration(seconds: float) -> str:
    """``1:05`` or ``1:02:05``: compact enough for a status line."""
    seconds = max(int(round(seconds)), 0)
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def format_delta(delta: Delta, *, glyph: bool = True) -> str:
    """``▲ +4.2%``, ``▼ −7.9%``, ``= +0.8%``: the glyph is the verdict (▲ better, whatever
    the direction: for latency a fall is better), the number the change of the figure."""
    if delta.pct is None:
        change = "from 0"
    elif round(abs(delta.pct), 1) == 0:
        change = "±0.0%"
    else:
        change = f"{'+' if delta.pct > 0 else '−'}{abs(delta.pct):.1f}%"
    return f"{DELTA_GLYPHS[delta.verdict]} {change}" if glyph else change
