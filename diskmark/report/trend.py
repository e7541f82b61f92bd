"""A drive's story: one test's best figure over time, per drive, with the changes that go
beyond the runs' own noise.

A *series* is every saved result of one test on one drive (same host, device and model),
oldest first. Each point is judged against the one before it by the comparison's rule
(:func:`diskmark.compare.judge` with :func:`diskmark.compare.noise_from`: one rule for every
unit, on the log of the ratio, the band being the passes' R/Avg % where known, else 3 %), so
"▼ 12% worse" in a trend means what it means against a baseline. Baselines are marked: a
baseline holding the same run as a history point marks that point; one measured elsewhere
(imported) is a point of its own.

The figures come from the database's ``figures`` table (a few numbers per run), so a trend
over thousands of runs reads no document. The layout of the chart is a pure function
(:func:`chart_cells`), drawn as text by the CLI and coloured by the app. No Textual here.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from diskmark.locale import _, ngettext, pgettext
from diskmark.model.units import Unit
from diskmark.report.cells import Cell, Cells, as_text
from diskmark.report.compare import judge, noise_from
from diskmark.report.formatting import BETTER, SAME, WORSE, format_figure, verdict_word
from diskmark.store import database

_TEST_RE = re.compile(r"\s*(SEQ|RND)\s*([0-9]+)\s*([KM])(?:I?B)?[\s_-]*Q\s*([0-9]+)\s*T\s*([0-9]+)\s*"
                      r"(?:/\s*(read|write|mix)\s*)?", re.I)
KINDS = ("read", "write", "mix")
# Roles of the chart's cells (the app colours them).
BLANK, BAR, BASELINE, BETTER_MARK, WORSE_MARK, AXIS, LABEL, CURSOR = range(8)
EIGHTHS = " ▁▂▃▄▅▆▇█"
GLYPHS = {BETTER: "▲", WORSE: "▼", SAME: "="}


def parse_test(text: str) -> tuple[str, str | None]:
    """'SEQ1M Q8T1', 'seq1m-q8t1', 'RND4K Q32T16/write' -> ('SEQ1M Q8T1', kind or None).
    Raises ValueError saying what is expected."""
    m = _TEST_RE.fullmatch(text)
    if not m:
        raise ValueError(_('not a test: {text} (e.g. "SEQ1M Q8T1" or "RND4K Q32T1")').format(
            text=repr(text)))
    pattern, size, unit, q, t, kind = m.groups()
    return f"{pattern.upper()}{int(size)}{unit.upper()} Q{int(q)}T{int(t)}", \
        kind.lower() if kind else None


def value_of(point: database.Point, unit: Unit) -> float:
    return {Unit.MB_S: point.mb_s, Unit.GB_S: point.mb_s / 1000, Unit.IOPS: point.iops,
            Unit.US: point.lat_us}[unit]


def spread_of(point: database.Point, unit: Unit) -> float:
    return {Unit.MB_S: point.spread_mb_s, Unit.GB_S: point.spread_mb_s,
            Unit.IOPS: point.spread_iops, Unit.US: point.spread_lat_us}[unit]


@dataclass
class TrendPoint:
    """One run of the test on the drive, judged against the run before it."""

    point: database.Point
    value: float
    baselines: list[str] = field(default_factory=list)  # names of baselines holding this run
    verdict: str | None = None  # better / worse / same against the previous point
    pct: float | None = None  # change of the figure against the previous point, %
    noise_pct: float = 0.0

    @property
    def is_baseline_only(self) -> bool:
        return self.point.kind == "baseline"

    @property
    def changed(self) -> bool:
        return self.verdict in (BETTER, WORSE)

    def to_dict(self) -> dict[str, Any]:
        p = self.point
        return {"id": p.name if p.kind == "history" else None, "kind": p.kind,
                "started": p.started, "value": self.value, "passes": p.passes,
                "baselines": self.baselines, "verdict": self.verdict, "pct": self.pct,
                "noise_pct": self.noise_pct}


@dataclass
class Series:
    """Every saved figure of one test on one drive."""

    host: str
    device: str
    model: str
    points: list[TrendPoint]

    @property
    def title(self) -> str:
        text = self.device or _("unknown device")
        if self.model:
            text += f" ({self.model})"
        if self.host:
            # TRANSLATORS: a drive ("/dev/nvme0n1 (Samsung 980)") on a machine
            text = _("{drive} on {host}").format(drive=text, host=self.host)
        return text

    @property
    def changes(self) -> list[TrendPoint]:
        return [p for p in self.points if p.changed]

    def to_dict(self) -> dict[str, Any]:
        return {"host": self.host, "device": self.device, "model": self.model,
                "points": [p.to_dict() for p in self.points]}


def build(points: list[database.Point], unit: Unit) -> list[Series]:
    """Group ``points`` (oldest first) by drive, mark baselines, judge each point against the
    one before it; the drive with the most runs first."""
    groups: dict[tuple[str, str, str], list[database.Point]] = {}
    for p in points:
        groups.setdefault((p.host, p.device, p.model), []).append(p)
    out = []
    for (host, device, model), members in groups.items():
        runs = {p.digest: TrendPoint(p, value_of(p, unit)) for p in members if p.kind == "history"}
        ordered = [tp for tp in runs.values()]
        for p in members:
            if p.kind != "baseline":
                continue
            if p.digest in runs:
                runs[p.digest].baselines.append(p.name)
            else:
                ordered.append(TrendPoint(p, value_of(p, unit), baselines=[p.name]))
        ordered.sort(key=lambda tp: (tp.point.started_ts is None, tp.point.started_ts or 0,
                                     tp.point.result_id))
        for before, now in zip(ordered, ordered[1:]):
            known = [spread_of(x.point, unit) for x in (before, now) if x.point.passes >= 2]
            now.noise_pct, _from_runs = noise_from(known)
            now.pct, now.verdict = judge(now.value, before.value, unit, now.noise_pct)
        out.append(Series(host, device, model, ordered))
    out.sort(key=lambda s: (-len(s.points), s.device, s.host))
    return out


def trend(conn: sqlite3.Connection, label: str, kind: str, unit: Unit,
          filters: database.Filters | None = None) -> list[Series]:
    return build(database.points(conn, label, kind, filters), unit)


# --- the chart ---------------------------------------------------------------------------


def _short(iso: str) -> str:
    try:
        return datetime.fromisoformat(iso).strftime("%Y/%m/%d")
    except (TypeError, ValueError):
        return "?"


def columns(series: Series, room: int) -> list[list[int]]:
    """Which points each column of the chart stands for: one point per column while they
    fit, else consecutive runs shared out evenly."""
    n = len(series.points)
    if n <= room:
        return [[i] for i in range(n)]
    return [list(range(c * n // room, (c + 1) * n // room)) for c in range(room)]


def chart_cells(series: Series, unit: Unit, width: int, height: int = 8,
                cursor: int | None = None) -> list[list[Cell]]:
    """The series as rows of (character, role): ``height`` rows of bars from 0 to the best
    figure (a column per run, or the lowest of several when they do not fit; lower is
    higher for latency, so up is always better), an axis with ▲/▼ under the runs that
    changed beyond the noise and B under baselines, and the first and last dates."""
    if not series.points or width < 20 or height < 2:
        return []
    values = [p.value for p in series.points]
    top = max(values)
    # latency is drawn as 1/latency (up is better), so its scale's top is the lowest figure
    label_top = format_figure(min(values) if unit.lower_is_better else top, unit)
    lab = max(len(label_top), len(unit.label))
    plot_x = lab + 2
    room = width - plot_x
    cols = columns(series, room)
    per = max(1, min(4, room // max(len(cols), 1)))  # a few runs: wider bars
    grid = Cells(width, height + 2, BLANK)
    put = grid.put
    put(0, lab - len(label_top), label_top, LABEL)
    if not unit.lower_is_better:
        put(height - 1, lab - 1, "0", LABEL)
    if height >= 4:
        put(height // 2, lab - len(unit.label), unit.label, LABEL)
    for y in range(height):
        put(y, lab + 1, "┤" if y == 0 else "│", AXIS)
    put(height, lab + 1, "└", AXIS)
    for c, members in enumerate(cols):
        x = plot_x + c * per
        pts = [series.points[i] for i in members]
        if unit.lower_is_better:  # the worst latency of the column: the highest
            value = max(p.value for p in pts)
            level = (top and min(values) / value) if value else 0.0
        else:
            value = min(p.value for p in pts)
            level = value / top if top else 0.0
        eighths = round(level * height * 8)
        role = BASELINE if any(p.baselines for p in pts) else BAR
        if cursor is not None and cursor in members:
            role = CURSOR
        for y in range(height):
            fill = max(0, min(8, eighths - (height - 1 - y) * 8))
            if fill:
                put(y, x, EIGHTHS[fill] * per, role)
        mark, mark_role = "─", AXIS
        if any(p.verdict == WORSE for p in pts):
            mark, mark_role = GLYPHS[WORSE], WORSE_MARK
        elif any(p.verdict == BETTER for p in pts):
            mark, mark_role = GLYPHS[BETTER], BETTER_MARK
        elif any(p.baselines for p in pts):
            mark, mark_role = "B", BASELINE
        put(height, x, "─" * per, AXIS)
        put(height, x + (per - 1) // 2, mark, mark_role)
    first, last = _short(series.points[0].point.started), _short(series.points[-1].point.started)
    put(height + 1, plot_x, first, LABEL)
    if len(cols) * per > len(first) + len(last) + 2:
        put(height + 1, plot_x + len(cols) * per - len(last), last, LABEL)
    return grid.rows


def chart_text(series: Series, unit: Unit, width: int, height: int = 8) -> str:
    return as_text(chart_cells(series, unit, width, height))


def describe_change(tp: TrendPoint, unit: Unit) -> str:
    """'▼ -12.3% worse (noise ±2.1%)': how the run differs from the one before."""
    change = _("from 0") if tp.pct is None else f"{tp.pct:+.1f}%"
    # TRANSLATORS: {glyph} ▲/▼/=; {change} "+4.2%"; {verdict} better/worse/same
    return _("{glyph} {change} {verdict} (noise ±{noise}%)").format(
        glyph=GLYPHS[tp.verdict or SAME], change=change, verdict=verdict_word(str(tp.verdict)),
        noise=f"{tp.noise_pct:.1f}")


def point_label(tp: TrendPoint) -> str:
    """The run's id, or the baseline's name for a baseline measured elsewhere."""
    p = tp.point
    names = ", ".join(_("“{name}”").format(name=n) for n in tp.baselines)
    if p.kind == "baseline":
        # TRANSLATORS: {names}: the baselines' names in quotes
        return _("baseline {names}").format(names=names)
    if names:
        # TRANSLATORS: a run ({run}, its id) that baselines ({names}) hold
        return _("{run} = baseline {names}").format(run=p.name, names=names)
    return p.name


def trend_text(series_list: list[Series], label: str, kind: str, unit: Unit, width: int = 80,
               height: int = 8, most: int = 20) -> str:
    """Every series as a chart, then its changes beyond the noise, most recent last."""
    if not series_list:
        return ""
    out = []
    operation = {"read": pgettext("tile header", "Read"), "write": pgettext("tile header", "Write"),
                 "mix": pgettext("tile header", "Mix")}.get(kind, kind.capitalize())
    for s in series_list:
        runs = sum(1 for p in s.points if not p.is_baseline_only)
        # TRANSLATORS: a trend's title: "SEQ1M Q8T1 Read in MB/s: /dev/sda (model), 12 runs"
        head = ngettext("{test} {operation} in {unit}: {drive}, {count} run",
                        "{test} {operation} in {unit}: {drive}, {count} runs", runs).format(
            test=label, operation=operation, unit=unit.label, drive=s.title, count=runs)
        others = len(s.points) - runs
        if others > 0:
            # TRANSLATORS: {summary}: the trend's title; then how many baselines were imported
            head = _("{summary}, {baselines}").format(summary=head, baselines=ngettext(
                "{count} baseline from elsewhere", "{count} baselines from elsewhere",
                others).format(count=others))
        out.append(head)
        out.append(chart_text(s, unit, width, height))
        if unit.lower_is_better:
            out.append("  " + _("(bars show 1/latency: taller is faster, the top is the lowest "
                                "latency)"))
        best = max(s.points, key=lambda p: -p.value if unit.lower_is_better else p.value)
        # TRANSLATORS: the best figure of a trend ({run}: which run) and the latest one
        out.append("  " + _("best {figure} {unit} ({date}, {run}); latest {latest} "
                            "({latest_date})").format(
            figure=format_figure(best.value, unit), unit=unit.label, date=_short(best.point.started),
            run=point_label(best), latest=format_figure(s.points[-1].value, unit),
            latest_date=_short(s.points[-1].point.started)))
        marked = [p for p in s.points if p.baselines]
        for p in marked[-most:]:
            out.append(f"  B {_when(p)}  {format_figure(p.value, unit):>10}  {point_label(p)}")
        changes = s.changes
        if changes:
            out.append("  " + ngettext(
                "{count} change beyond the runs' noise (each against the run before):",
                "{count} changes beyond the runs' noise (each against the run before):",
                len(changes)).format(count=len(changes)))
            if len(changes) > most:
                hidden = len(changes) - most
                out.append("  " + ngettext(
                    "… {count} earlier one not shown ({option} lists them all)",
                    "… {count} earlier ones not shown ({option} lists them all)",
                    hidden).format(count=hidden, option="--format json"))
            for p in changes[-most:]:
                out.append(f"  {_when(p)}  {format_figure(p.value, unit):>10}  "
                           f"{describe_change(p, unit)}  {point_label(p)}")
        else:
            out.append("  " + _("no change beyond the runs' noise"))
        out.append("")
    return "\n".join(out)


def _when(tp: TrendPoint) -> str:
    try:
        return datetime.fromisoformat(tp.point.started).strftime("%Y/%m/%d %H:%M")
    except (TypeError, ValueError):
        return "?".ljust(16)


def to_dict(series_list: list[Series], label: str, kind: str, unit: Unit) -> dict[str, Any]:
    return {"test": label, "kind": kind, "unit": unit.value,
            "rule": "each point against the one before; same when the two figures' range over "
                    "their mean is within the noise band (the passes' R/Avg %, else 3%)",
            "series": [s.to_dict() for s in series_list]}

