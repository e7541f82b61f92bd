"""Reading fio's JSON: the per-second status objects and the final result.

With ``--output-format=json --status-interval=1`` fio prints one complete, cumulative JSON
object per second on stdout and a last one at the end. :class:`JsonStream` splits them as
bytes arrive. A test's passes run as stonewalled jobs of one fio process, so every object
holds one entry per pass (``jobs[i]``, one reporting group each); :func:`run_result` turns
one entry into diskmark's figures.

fio's output is data from another program: every field read here is checked, and anything
malformed raises :class:`FioOutputError` (a ValueError) naming the field, never a TypeError
from deep inside a sum.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any

from diskmark.locale import _
from diskmark.model.results import RunResult
from diskmark.model.settings import Op

PERCENTILES = {"50": "50.000000", "90": "90.000000", "99": "99.000000",
               "99.9": "99.900000", "99.99": "99.990000"}
#: What fio may print between two status objects (one is a few KiB): more is not fio talking.
BUFFER_MAX = 16 * 1024 * 1024
#: fio pretty-prints its JSON, a key a line: its longest line holds a path or a job option.
LINE_MAX = 1024 * 1024
#: Non-JSON text kept to explain a failure: the last lines, each cut to a readable length.
NOISE_LINES, NOISE_LINE_CHARS = 200, 500


class FioOutputError(ValueError):
    """fio printed JSON diskmark cannot use."""


class JsonStream:
    """Incrementally split concatenated JSON objects (fio's status stream).

    A broken or hostile program in fio's place can print anything at any speed, so what
    is held and what is parsed are bounded: a line longer than :data:`LINE_MAX`, or more
    than :data:`BUFFER_MAX` without a complete object, raises :class:`FioOutputError`; an
    object that is not complete yet is parsed again only when a ``}`` arrives (nothing
    else can complete it), so a flood costs each byte once."""

    def __init__(self) -> None:
        self._buf = ""
        self._decoder = json.JSONDecoder()
        self.noise: list[str] = []  # non-JSON text fio wrote to stdout (warnings)
        self._line = 0  # characters since the last line break
        self._since_object = 0  # characters since the end of the last object
        self._waiting = False  # the buffer starts with an object that is not complete yet
        self._held: list[str] = []  # text after it, joined to it when a "}" comes

    def feed(self, text: str) -> list[dict[str, Any]]:
        self._bound(text)
        if self._waiting and "}" not in text:
            self._held.append(text)
            return []
        self._buf = "".join([self._buf, *self._held, text])
        self._held.clear()
        self._waiting = False
        out: list[dict[str, Any]] = []
        while True:
            start = self._buf.find("{")
            if start < 0:
                self._keep_noise(self._buf)
                self._buf = ""
                return out
            if start:
                self._keep_noise(self._buf[:start])
                self._buf = self._buf[start:]
            try:
                obj, end = self._decoder.raw_decode(self._buf)
            except RecursionError:  # absurdly nested: not fio's; skip to the next object
                cut = self._buf.find("\n{", 1)
                self._keep_noise(self._buf[:cut + 1 if cut > 0 else len(self._buf)][:200])
                self._buf = self._buf[cut + 1:] if cut > 0 else ""
                continue
            except json.JSONDecodeError as e:
                if _incomplete(e, self._buf):
                    self._waiting = True  # wait for more (bounded by _bound)
                    return out
                # a "{" in a warning ("{x}"), not an object: fio's objects start a line
                cut = self._buf.find("\n{", 1)
                self._keep_noise(self._buf[:cut + 1 if cut > 0 else len(self._buf)])
                self._buf = self._buf[cut + 1:] if cut > 0 else ""
                continue
            self._buf = self._buf[end:]
            self._since_object = len(self._buf)
            if isinstance(obj, dict):
                out.append(obj)

    def _bound(self, text: str) -> None:
        """Raise when ``text`` makes a line, or the text since the last object, too long
        to be fio's."""
        if not text:
            return
        lines = text.split("\n")
        longest = max(self._line + len(lines[0]), max(map(len, lines[1:-1]), default=0))
        self._line = len(lines[-1]) if len(lines) > 1 else self._line + len(lines[0])
        if max(longest, self._line) > LINE_MAX:
            raise FioOutputError(_("fio wrote more than {mib} MiB without a line break, which is "
                                   "not fio's output").format(mib=LINE_MAX >> 20))
        self._since_object += len(text)
        if self._since_object > BUFFER_MAX:
            raise FioOutputError(_("fio wrote more than {mib} MiB without a status object, which "
                                   "is not fio's output").format(mib=BUFFER_MAX >> 20))

    def _keep_noise(self, text: str) -> None:
        self.noise.extend(line if len(line) <= NOISE_LINE_CHARS else line[:NOISE_LINE_CHARS] + "…"
                          for line in text.splitlines() if line.strip())
        del self.noise[:-NOISE_LINES]


def _incomplete(e: json.JSONDecodeError, text: str) -> bool:
    """Whether ``text`` may yet become an object: the error lies on its last line, which is
    still being written (a number, ``true`` or a string cut by the pipe), or in a string
    running to its end. fio writes its objects a field a line, so an error with a line
    break after it is text that no more output can mend."""
    return e.msg.startswith("Unterminated string") or "\n" not in text[e.pos:]


def _not_object(where: str) -> FioOutputError:
    """A place in fio's output (``where``) should hold an object and does not."""
    # TRANSLATORS: {where} is a place in fio's JSON output, in English ("a job", "read.lat_ns")
    return FioOutputError(_("fio's output has {where} that is not an object").format(where=where))


def _num(d: Any, key: str, where: str, default: float = 0) -> float:
    if not isinstance(d, dict):
        raise _not_object(where)
    value = d.get(key, default)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise FioOutputError(_("fio's output has {where} = {value}, not a number").format(
            where=f"{where}.{key}", value=repr(value)))
    return value


def _side(job: dict[str, Any], name: str) -> dict[str, Any]:
    side = job.get(name, {})
    if not isinstance(side, dict):
        raise FioOutputError(_("fio's output has a {name} section that is not an object").format(
            name=repr(name)))
    return side


def jobs(obj: dict[str, Any]) -> list[dict[str, Any]]:
    """The job entries of one object: one per pass (stonewall starts a reporting group)."""
    found = obj.get("jobs") if isinstance(obj, dict) else None
    if not isinstance(found, list) or not found or not all(isinstance(j, dict) for j in found):
        raise FioOutputError(_("fio's output has no job entries"))
    return found


def job(obj: dict[str, Any]) -> dict[str, Any]:
    return jobs(obj)[0]  # --group_reporting folds all threads of a pass into one


def _sides(op: Op) -> tuple[str, ...]:
    return {Op.READ: ("read",), Op.WRITE: ("write",), Op.MIX: ("read", "write")}[op]


def io_bytes(entry: dict[str, Any]) -> int:
    """Bytes one job entry moved so far, both directions. Takes a job entry or a whole
    object (its first job)."""
    j = job(entry) if "jobs" in entry else entry
    return int(_num(_side(j, "read"), "io_bytes", "read") + _num(_side(j, "write"), "io_bytes", "write"))


def runtime_ms(entry: dict[str, Any]) -> int:
    """fio's ``job_runtime``: milliseconds summed over the pass's threads."""
    j = job(entry) if "jobs" in entry else entry
    return int(_num(j, "job_runtime", "a job"))


def run_result(entry: dict[str, Any], op: Op, bw_samples: list[float] | None = None) -> RunResult:
    """diskmark's figures from one finished job entry: MB/s = bw_bytes / 1e6 (decimal, as
    CDM), IOPS as fio reports, latency = mean total latency in µs (IO-weighted across a mix),
    and fio's CPU use, which tells whether the CPU set the figure."""
    j = job(entry) if "jobs" in entry else entry
    names = _sides(op)
    sides = [_side(j, s) for s in names]
    mb = [_num(s, "bw_bytes", n) / 1e6 for s, n in zip(sides, names)]
    ios = [completed(s, n) for s, n in zip(sides, names)]
    lat = [_num(_lat(s, n), "mean", f"{n}.lat_ns") / 1000 for s, n in zip(sides, names)]
    total_ios = sum(ios)
    lat_us = sum(mean * n for mean, n in zip(lat, ios)) / total_ios if total_ios else 0.0
    return RunResult(
        mb_s=sum(mb),
        iops=sum(_num(s, "iops", n) for s, n in zip(sides, names)),
        lat_us=lat_us,
        io_bytes=int(sum(_num(s, "io_bytes", n) for s, n in zip(sides, names))),
        runtime_ms=int(_num(j, "job_runtime", "a job")),
        read_mb_s=_num(_side(j, "read"), "bw_bytes", "read") / 1e6,
        write_mb_s=_num(_side(j, "write"), "bw_bytes", "write") / 1e6,
        lat_percentiles=percentiles(sides),
        bw_samples=list(bw_samples or []),
        usr_cpu=_num(j, "usr_cpu", "a job"),
        sys_cpu=_num(j, "sys_cpu", "a job"),
    )


def completed(side: dict[str, Any], name: str) -> int:
    """How many I/Os of one side have completed: the count fio's latency mean is over
    (``lat_ns.N``). ``total_ios`` counts the I/Os *issued*, up to the queue depth more while
    they are in flight (388 against 380 at Q8 in a captured run), so a mean multiplied by it
    is not the sum of latencies, and a short window's difference of such products can come
    out at zero or below. fio versions without ``N`` give ``total_ios``."""
    lat = _lat(side, name)
    if "N" in lat:
        return int(_num(lat, "N", f"{name}.lat_ns"))
    return int(_num(side, "total_ios", name))


def _lat(side: dict[str, Any], name: str) -> dict[str, Any]:
    lat = side.get("lat_ns", {})
    if not isinstance(lat, dict):
        raise _not_object(f"{name}.lat_ns")
    return lat


def percentiles(sides: list[dict[str, Any]]) -> dict[str, float]:
    """Completion-latency percentiles in µs; across a mix, the slower side's value.

    fio reports a percentile as the upper bound of its histogram bucket, which can lie a
    little above the slowest I/O actually seen; it is capped at that maximum so the table
    stays ordered (p99.99 ≤ max) and never shows a latency that did not happen."""
    out: dict[str, float] = {}
    for side in sides:
        clat = side.get("clat_ns", {})
        if not isinstance(clat, dict) or not clat.get("N"):
            continue
        table = clat.get("percentile", {})
        if not isinstance(table, dict):
            table = {}
        for name, key in PERCENTILES.items():
            if key in table:
                out[name] = max(out.get(name, 0.0), _num(table, key, "clat_ns.percentile") / 1000)
        out["max"] = max(out.get("max", 0.0), _num(clat, "max", "clat_ns") / 1000)
    if out.get("max"):
        out = {name: min(value, out["max"]) for name, value in out.items()}
    return out


def sync_percentiles(entry: dict[str, Any]) -> dict[str, float]:
    """The fdatasync (or fsync) latency percentiles in µs of a job that syncs
    (``--fdatasync=N``): fio's ``sync.lat_ns``, capped at its maximum as the completion
    latencies are; empty for a job that did not sync."""
    j = job(entry) if "jobs" in entry else entry
    sync = j.get("sync", {})
    if not isinstance(sync, dict):
        raise _not_object("sync")
    lat = sync.get("lat_ns", {})
    if not isinstance(lat, dict) or not lat.get("N"):
        return {}
    table = lat.get("percentile", {})
    if not isinstance(table, dict):
        raise _not_object("sync.lat_ns.percentile")
    top = _num(lat, "max", "sync.lat_ns") / 1000
    out = {name: min(_num(table, key, "sync.lat_ns.percentile") / 1000, top)
           for name, key in PERCENTILES.items() if key in table}
    out["max"] = top
    return out


def job_error(obj: dict[str, Any]) -> int:
    """The first non-zero ``error`` (an errno) of any job in the object, else 0."""
    try:
        for j in jobs(obj):
            err = j.get("error", 0)
            if isinstance(err, int) and not isinstance(err, bool) and err:
                return err
    except FioOutputError:
        pass
    return 0


def current_job(obj: dict[str, Any]) -> int:
    """Which pass of a stonewalled sequence is running: the last entry that has moved any
    data (later passes sit at zero until their turn), 0 before any has."""
    found = 0
    for i, j in enumerate(jobs(obj)):
        if io_bytes(j) > 0:
            found = i
    return found


@dataclass
class LiveRate:
    """Instantaneous MB/s of one pass from two consecutive status objects: Δbytes over
    Δ(job_runtime / threads), fio's own clock for the pass (job_runtime sums the threads)."""

    threads: int = 1
    last_bytes: int = 0
    last_ms: float = 0.0
    samples: list[float] = field(default_factory=list)

    def update(self, entry: dict[str, Any]) -> float | None:
        now_bytes, now_ms = io_bytes(entry), runtime_ms(entry) / max(self.threads, 1)
        if now_ms < self.last_ms or now_bytes < self.last_bytes:
            # fio reset its counters (end of ramp_time): start over from here
            self.last_bytes, self.last_ms = now_bytes, now_ms
            self.samples.clear()
            return None
        dt = now_ms - self.last_ms
        if dt <= 0:
            return None
        rate = (now_bytes - self.last_bytes) / dt / 1000  # bytes/ms -> MB/s
        self.last_bytes, self.last_ms = now_bytes, now_ms
        if dt >= 500:
            self.samples.append(rate)
        return rate


# --- passes as windows of one continuous job ------------------------------------------------


@dataclass(frozen=True)
class Snapshot:
    """A test's cumulative counters at one status object: everything a window of the run
    can be computed from by difference. ``t_ms`` is the job's own clock (job_runtime over
    the threads), ``busy_ms`` the threads' CPU time summed."""

    t_ms: float
    bytes: tuple[int, ...]  # per side (read, write, as the op has them)
    ios: tuple[int, ...]  # completed, as the bytes are (see :func:`completed`)
    lat_ns_sum: tuple[float, ...]  # mean total latency × N
    bins: tuple[dict[int, int], ...]  # completion-latency histogram (ns → count)
    usr_ms: float = 0.0
    sys_ms: float = 0.0
    job_ms: float = 0.0  # job_runtime: ms summed over the threads


ZERO = Snapshot(0.0, (), (), (), ())


def snapshot(entry: dict[str, Any], op: Op, threads: int) -> Snapshot:
    j = job(entry) if "jobs" in entry else entry
    names = _sides(op)
    sides = [_side(j, s) for s in names]
    job_ms = _num(j, "job_runtime", "a job")
    ios = tuple(completed(s, n) for s, n in zip(sides, names))
    lat = tuple(_num(_lat(s, n), "mean", f"{n}.lat_ns") * i for s, n, i in zip(sides, names, ios))
    return Snapshot(
        t_ms=job_ms / max(threads, 1),
        bytes=tuple(int(_num(s, "io_bytes", n)) for s, n in zip(sides, names)),
        ios=ios, lat_ns_sum=lat, bins=tuple(_bins(s, n) for s, n in zip(sides, names)),
        usr_ms=_num(j, "usr_cpu", "a job") * job_ms / 100,
        sys_ms=_num(j, "sys_cpu", "a job") * job_ms / 100, job_ms=job_ms)


def _bins(side: dict[str, Any], name: str) -> dict[int, int]:
    clat = side.get("clat_ns", {})
    raw = clat.get("bins", {}) if isinstance(clat, dict) else {}
    if not isinstance(raw, dict):
        raise _not_object(f"{name}.clat_ns.bins")
    try:
        return {int(k): int(v) for k, v in raw.items()}
    except (TypeError, ValueError):
        raise FioOutputError(_("fio's output has {where} that are not counts").format(
            where=f"{name}.clat_ns.bins")) from None


def window(a: Snapshot, b: Snapshot, op: Op, bw_samples: list[float] | None = None) -> RunResult:
    """One pass's figures: what happened between snapshots ``a`` and ``b`` of the same
    continuous job. fio's counters are cumulative, so the means are exact; percentiles come
    from the difference of the histograms, to fio's own bucket precision."""
    n = len(b.bytes)
    zero = (0,) * n
    a_bytes, a_ios, a_lat = (a.bytes or zero), (a.ios or zero), (a.lat_ns_sum or (0.0,) * n)
    a_bins = a.bins or ({},) * n
    dt = b.t_ms - a.t_ms
    if dt <= 0:
        raise FioOutputError(_("a pass of no length in fio's status stream"))
    moved = [y - x for x, y in zip(a_bytes, b.bytes)]
    ios = [y - x for x, y in zip(a_ios, b.ios)]
    lat_sum = [y - x for x, y in zip(a_lat, b.lat_ns_sum)]
    total_ios = sum(ios)
    names = _sides(op)
    by_side = dict(zip(names, moved))
    job_dt = b.job_ms - a.job_ms
    hists = [{k: v - old.get(k, 0) for k, v in new.items() if v - old.get(k, 0) > 0}
             for old, new in zip(a_bins, b.bins)]
    return RunResult(
        mb_s=sum(moved) / dt / 1000,
        iops=total_ios / dt * 1000,
        lat_us=sum(lat_sum) / total_ios / 1000 if total_ios else 0.0,
        io_bytes=sum(moved),
        runtime_ms=int(round(dt)),
        read_mb_s=by_side.get("read", 0) / dt / 1000,
        write_mb_s=by_side.get("write", 0) / dt / 1000,
        lat_percentiles=histogram_percentiles(hists),
        bw_samples=list(bw_samples or []),
        # fio rounds its CPU percentages: a difference can come out a hair below zero
        usr_cpu=max(0.0, (b.usr_ms - a.usr_ms) / job_dt * 100) if job_dt > 0 else None,
        sys_cpu=max(0.0, (b.sys_ms - a.sys_ms) / job_dt * 100) if job_dt > 0 else None,
    )


def histogram_percentiles(hists: list[dict[int, int]]) -> dict[str, float]:
    """p50 … p99.99 and the slowest bucket of completion-latency histograms, in µs; across
    a mix, the slower side's value (as :func:`percentiles`)."""
    out: dict[str, float] = {}
    for hist in hists:
        total = sum(hist.values())
        if not total:
            continue
        keys = sorted(hist)
        for name in PERCENTILES:
            need, seen = float(name) / 100 * total, 0
            for k in keys:
                seen += hist[k]
                if seen >= need:
                    out[name] = max(out.get(name, 0.0), k / 1000)
                    break
        out["max"] = max(out.get("max", 0.0), keys[-1] / 1000)
    return {name: out[name] for name in [*PERCENTILES, "max"] if name in out}


@dataclass
class SecondRate:
    """Per-second MB/s samples of a continuous job from status objects that come more
    often than once a second (a dip in the bandwidth chart is a second's figure)."""

    last: Snapshot = ZERO
    samples: list[tuple[float, float]] = field(default_factory=list)  # (end t_ms, MB/s)

    def update(self, snap: Snapshot) -> float | None:
        dt = snap.t_ms - self.last.t_ms
        if dt < 1000:
            return None
        rate = (sum(snap.bytes) - sum(self.last.bytes or (0,))) / dt / 1000
        self.samples.append((snap.t_ms, rate))
        self.last = snap
        return rate

    def between(self, start_ms: float, end_ms: float) -> list[float]:
        return [rate for t, rate in self.samples if start_ms < t <= end_ms + 1]


def pass_bounds(times: list[float], count: int, measure_ms: float) -> list[int] | None:
    """Which status objects end the warm-up and the first ``count`` - 1 passes: for each
    boundary k × measure, the object nearest it, each later than the one before and
    before the last object (which ends the last pass). None when the objects are too few
    to tell the passes apart."""
    bounds: list[int] = []
    low = 0
    for k in range(1, count + 1):
        target = k * measure_ms
        candidates = range(low, len(times) - 1)
        if not candidates:
            return None
        best = min(candidates, key=lambda i: abs(times[i] - target))
        if times[best] <= (times[bounds[-1]] if bounds else 0.0):
            return None
        bounds.append(best)
        low = best + 1
    return bounds
