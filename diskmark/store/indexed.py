"""What the database copies out of a saved result to index it: the columns listings filter
and sort on, each measured test's best figures and their spread (what a trend reads instead
of every document), and the fingerprint that finds the same run imported twice.

Pure functions of a ``diskmark.result/1`` document (a dict, already validated), so that
what is indexed can be read and tested apart from SQLite (diskmark.store.database stores it).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from diskmark.model.moments import timestamp

HEADLINE_LABEL = "SEQ1M Q8T1"

def canonical(document: dict[str, Any]) -> str:
    """The document as JSON text, as it is stored: exact (any string, even one holding a
    lone surrogate, survives as an escape), no NaN (refused)."""
    return json.dumps(document, allow_nan=False, separators=(",", ":"))


def digest(document: dict[str, Any]) -> str:
    """A fingerprint of the content, whatever the formatting or key order of the file it came
    from: the same run imported twice has the same digest."""
    text = json.dumps(document, allow_nan=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _text(d: dict[str, Any], key: str) -> str:
    value = d.get(key)
    return value if isinstance(value, str) else ""


def _spread(values: list[float]) -> float:
    """R/Avg %: range over mean, the passes' own noise (as model.Spread)."""
    mean = sum(values) / len(values) if values else 0.0
    return (max(values) - min(values)) / mean * 100 if mean else 0.0


def _label(test: dict[str, Any]) -> str:
    """A sustained write is indexed apart: one long average never joins a best-of-N trend."""
    label = test.get("label")
    if not (isinstance(label, str) and label):
        spec = test.get("spec", {})
        block = spec.get("block", 0)
        size = f"{block // 1048576}M" if block >= 1048576 and not block % 1048576 else f"{block // 1024}K"
        label = f"{spec.get('pattern')}{size} Q{spec.get('queues')}T{spec.get('threads')}"
    return f"{label} sustained" if test.get("sustained") else label


def _measured(document: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in document.get("tests", []) if t.get("runs") and t.get("error") is None]


def measured_figures(document: dict[str, Any]) -> list[tuple[Any, ...]]:
    """(label, op, mix_read, best MB/s, best IOPS, lowest µs, passes, R/Avg % in MB/s, IOPS,
    µs) of every measured test: CrystalDiskMark's best pass and lowest mean latency."""
    out = []
    for t in _measured(document):
        runs = t["runs"]
        best = max(runs, key=lambda r: r["mb_s"])
        mb = [r["mb_s"] for r in runs]
        iops = [r["iops"] for r in runs]
        lat = [r["lat_us"] for r in runs]
        out.append((_label(t), t["kind"], t.get("mix_read") if t["kind"] == "mix" else None,
                    float(best["mb_s"]), float(best["iops"]), float(min(lat)), len(runs),
                    _spread(mb), _spread(iops), _spread(lat)))
    return out


def columns_of(document: dict[str, Any]) -> dict[str, Any]:
    """The indexed columns of a (validated) ``diskmark.result/1`` document."""
    settings = document.get("settings") or {}
    system = document.get("system") or {}
    figures = measured_figures(document)
    measured = _measured(document)
    head_label = ""
    if measured:
        labels = {_label(t) for t in measured}
        head_label = HEADLINE_LABEL if HEADLINE_LABEL in labels else \
            _label(min(measured, key=lambda t: t["index"]))
    head = {f[1]: f[3] for f in figures if f[0] == head_label and f[1] != "mix"}
    started = _text(document, "started")
    direct = settings.get("direct", True)
    return {
        "started": started, "started_ts": timestamp(started),
        "host": _text(system, "hostname"),
        "target": _text(system, "target") or _text(settings, "target"),
        "device": _text(system, "device"), "model": _text(system, "model"),
        "fstype": _text(system, "fstype"),
        "preset": _text(document, "preset") or _text(settings, "preset"),
        "profile": _text(document, "profile") or _text(settings, "profile"),
        "mode": _text(settings, "mode"), "io": "buffered" if direct is False else "direct",
        "size": settings.get("size") if isinstance(settings.get("size"), int) else None,
        "count": settings.get("count") if isinstance(settings.get("count"), int) else None,
        "status": _text(document, "status") or "complete",
        "head_label": head_label, "head_read": head.get("read"), "head_write": head.get("write"),
        "tests": len(figures),
    }
