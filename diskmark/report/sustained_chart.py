"""A sustained write's MB/s over time as a plain-text chart, for the text report: columns of
``#`` from the first second to the last (``.``: above zero but below one row), the knee
marked ``^`` under the axis. Plain ASCII,
so it reads the same in a terminal, a saved report and an issue.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

WIDTH, HEIGHT = 60, 8


def _label(mb_s: float) -> str:
    return f"{mb_s:.0f}" if mb_s >= 100 else f"{mb_s:.1f}"


def chart_lines(mb_s: Sequence[float], bin_s: float, knee_s: float | None,
                width: int = WIDTH, height: int = HEIGHT) -> list[str]:
    """The chart, a line each; a column stands for the mean of as many bins as it takes to
    fit ``width`` columns. Empty when there is nothing to draw."""
    if not mb_s or width < 10 or height < 2:
        return []
    per = max(1, math.ceil(len(mb_s) / width))
    cols = [sum(mb_s[i:i + per]) / len(mb_s[i:i + per]) for i in range(0, len(mb_s), per)]
    top = max(cols)
    if top <= 0:
        return []
    levels = [round(v / top * height) for v in cols]
    lab = max(len(_label(top)), 4)
    seconds = len(mb_s) * bin_s
    lines = [f"  MB/s over {seconds:.1f} s (a column is {per * bin_s:g} s"
             + ("; ^ the knee)" if knee_s is not None else ")")]
    for row in range(height, 0, -1):
        name = _label(top) if row == height else ("MB/s" if row == height // 2 else "")
        bars = "".join("#" if level >= row else "." if row == 1 and v > 0 else " "
                       for level, v in zip(levels, cols)).rstrip()
        lines.append(f"  {name:>{lab}} |{bars}")
    lines.append(f"  {'0':>{lab}} +{'-' * len(cols)}")
    if knee_s is not None:
        at = min(len(cols) - 1, int(knee_s / bin_s) // per)
        lines.append(f"  {'':>{lab}}  {' ' * at}^ {knee_s:.1f} s")
    return lines
