"""Checks as TOML data, like the presets: is a drive good enough for the class printed on a
card, for what a program needs, for the link it is said to have?

A check names the tests it needs, CrystalDiskMark's (``test = "SEQ1M Q1T1 write"``) or its
own fio job by fio's words (``fio = { rw = "write", bs = 2300, fdatasync = 1, … }``), and
its thresholds: the figure each test yields (MB/s, IOPS, a latency percentile, the link's
speed), the limit it must meet with its unit, and where the limit comes from. Built in:
etcd's write-ahead log, the SD Association's classes, a USB 3 link; a user's own are
``*.toml`` files in the config directory's ``checks/``, listed by ``diskmark checks``.

A user's file is read as a preset is (:mod:`diskmark.files.toml_file`: a regular file, a
bounded amount, nesting that exhausts the parser a reason like any other), and a broken one
is reported with its file, line and reason and skipped, never stopping the others: a syntax
error, a test diskmark cannot run, a limit without a unit, an id a shell would not read as
itself (completion offers the ids). How a run is judged is :mod:`diskmark.checks.judge`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diskmark.files.paths import user_checks_dir
from diskmark.files.toml_file import each_user_file, line_of_key, read_table
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shell_word, shown
from diskmark.model.names import test_key
from diskmark.model.numerals import decimal_number
from diskmark.model.results import JOB_IOENGINES, JOB_RW, FioJob, TestSpec
from diskmark.model.settings import Op
from diskmark.model.units import GIB, MIB, parse_size

BUILTIN_DIR = Path(__file__).parent
CHECK_MAX_BYTES = 64 * 1024  # a check is a few hundred bytes
JOBS_MAX, THRESHOLDS_MAX = 16, 32
#: What a check's own job may move and in what pieces (etcd's are 2,300 bytes).
JOB_SIZE_MAX, JOB_BS_MAX = 16 * GIB, 8 * MIB
JOB_DEPTH_MAX, JOB_THREADS_MAX = 512, 64
#: The percentiles fio reports that a threshold may name (and the slowest, ``max``).
PERCENTILES = ("50", "90", "99", "99.9", "99.99", "max")
#: A limit's units by the kind of figure it bounds: (as written, its factor to the base
#: unit: MB/s, IOPS, µs).
UNITS = {
    "rate": {"mb/s": ("MB/s", 1.0), "gb/s": ("GB/s", 1000.0)},
    "iops": {"iops": ("IOPS", 1.0)},
    "time": {"us": ("us", 1.0), "\u00b5s": ("us", 1.0), "\u03bcs": ("us", 1.0),
             "ms": ("ms", 1000.0), "s": ("s", 1e6)},
}
_LIMIT = re.compile(r"\s*([0-9]+(?:\.[0-9]*)?|\.[0-9]+)\s*(\S*)\s*")


class CheckError(ValueError):
    pass


class _At(CheckError):
    """A problem at a place in the file (a key path), before the file's line is known."""

    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where


@dataclass(frozen=True)
class TestRef:
    """One of CrystalDiskMark's tests a check needs: ``SEQ1M Q1T1 write``."""

    __test__ = False  # not a pytest test class

    spec: TestSpec
    op: Op

    @property
    def key(self) -> str:
        return test_key(self.spec.label, self.op)

    @property
    def title(self) -> str:
        return f"{self.spec.label} {self.op.value}"


Job = TestRef | FioJob


@dataclass(frozen=True)
class Figure:
    """What a threshold bounds: ``kind`` is mb_s, iops, lat_mean, clat, sync or link."""

    kind: str
    percentile: str = ""

    @property
    def text(self) -> str:
        return {"mb_s": "MB/s", "iops": "IOPS", "lat_mean": "lat mean", "link": "link"}.get(
            self.kind) or f"{self.kind} {'max' if self.percentile == 'max' else 'p' + self.percentile}"

    @property
    def units(self) -> str:
        """The kind of unit its limit is written in (a key of :data:`UNITS`)."""
        return {"mb_s": "rate", "link": "rate", "iops": "iops"}.get(self.kind, "time")


@dataclass(frozen=True)
class Threshold:
    job: str  # the check's name for the test that measures it; "" for the link
    figure: Figure
    limit: float  # in ``unit``
    unit: str  # as written: MB/s, GB/s, IOPS, us, ms, s
    below: bool  # True: the figure must stay below the limit; False: reach at least it
    source: str

    @property
    def factor(self) -> float:
        """The limit's unit in the figure's base unit (MB/s, IOPS, µs)."""
        return next(f for u, f in UNITS[self.figure.units].values() if u == self.unit)


@dataclass(frozen=True)
class Check:
    id: str
    name: str
    description: str
    #: where diskmark's measurement differs from the conditions the limits were set under
    differs: str
    #: checks of one family (the SD Association's speed classes) are judged together
    family: str
    jobs: dict[str, Job]
    thresholds: tuple[Threshold, ...]
    source: str = "built-in"

    def tests(self) -> list[TestRef]:
        return [j for j in self.jobs.values() if isinstance(j, TestRef)]

    def fio_jobs(self) -> list[FioJob]:
        return [j for j in self.jobs.values() if isinstance(j, FioJob)]


@dataclass
class CheckCatalog:
    checks: dict[str, Check] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # "file:line: reason" for broken files

    def get(self, check_id: str) -> Check:
        try:
            return self.checks[check_id]
        except KeyError:
            raise KeyError(_("no check {check}; available: {checks}").format(
                check=repr(check_id), checks=", ".join(self.checks))) from None

    def family(self, check: Check) -> list[Check]:
        """The other checks of ``check``'s family, the lowest limit first."""
        if not check.family:
            return []
        others = [c for c in self.checks.values() if c.family == check.family and c is not check]
        return sorted(others, key=lambda c: min((t.limit * t.factor for t in c.thresholds),
                                                default=0.0))


# --- reading one file --------------------------------------------------------------------


def _text(data: dict[str, Any], key: str, where: tuple[str | int, ...], default: str | None = None,
          limit: int = 2000) -> str:
    """Text a person reads in a table or a verdict: of a bounded length, on one line, and
    without a character a terminal would act on or hide (an escape sequence, a
    right-to-left override), which would otherwise be shown escaped in every table."""
    value = data.get(key, default)
    if not isinstance(value, str) or len(value) > limit:
        raise _At((*where, key), _("{key} must be text of at most {count} characters").format(
            key=_dotted((*where, key)), count=limit))
    if shown(value, one_line=True) != value:
        raise _At((*where, key), _("{key} holds a control or format character ({value}): "
                                   "write it as plain text on one line").format(
                                       key=_dotted((*where, key)),
                                       value=shown(value, one_line=True)[:80]))
    return value


def _dotted(where: tuple[str | int, ...]) -> str:
    """A key path as the file writes it: ``thresholds[2].below``, ``jobs.wal.fio``."""
    out = ""
    for part in where:
        out += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def _job(name: str, value: Any) -> Job:
    where: tuple[str | int, ...] = ("jobs", name)
    if not shell_word(name):
        # TRANSLATORS: "_ . + / -" are the characters an id may hold: keep them as they are
        raise _At(where, _("job name {value} cannot be typed in a shell as it is: use letters, "
                           "digits and _ . + / - (starting with a letter, a digit or _)").format(
                               value=repr(name)))
    if not isinstance(value, dict) or len(set(value) & {"test", "fio"}) != 1 or len(value) != 1:
        raise _At(where, _("{key} must hold one of {choices}").format(
            key=_dotted(where), choices='test = "SEQ1M Q1T1 write", fio = { rw = "write", … }'))
    if "test" in value:
        text = value["test"]
        words = text.split() if isinstance(text, str) else []
        op = {"read": Op.READ, "write": Op.WRITE}.get(words[-1].lower()) if words else None
        try:
            if op is None:
                raise ValueError(_("{value} is not a test like {example}").format(
                    value=repr(text), example="'SEQ1M Q1T1 write'"))
            return TestRef(TestSpec.parse(" ".join(words[:-1])), op)
        except ValueError as e:
            raise _At((*where, "test"), f"{_dotted((*where, 'test'))}: {e}") from None
    return _fio_job(name, value["fio"], (*where, "fio"))


_FIO_KEYS = ("rw", "bs", "size", "ioengine", "iodepth", "numjobs", "fdatasync", "direct")


def _fio_job(name: str, value: Any, where: tuple[str | int, ...]) -> FioJob:
    if not isinstance(value, dict):
        raise _At(where, _("{key} must be a table like {example}").format(
            key=_dotted(where), example='{ rw = "write", bs = 2300, size = "22MiB" }'))
    unknown = [k for k in value if k not in _FIO_KEYS]
    if unknown:
        raise _At((*where, unknown[0]), _("{key}: diskmark runs only these fio options: "
                                          "{choices}").format(key=_dotted((*where, unknown[0])),
                                                              choices=", ".join(_FIO_KEYS)))
    rw = value.get("rw")
    if rw not in JOB_RW:
        raise _At((*where, "rw"), _("{key} must be one of {choices}").format(
            key=_dotted((*where, "rw")), choices=", ".join(JOB_RW)))
    engine = value.get("ioengine", "")
    if engine not in ("", *JOB_IOENGINES):
        raise _At((*where, "ioengine"), _("{key} must be one of {choices}").format(
            key=_dotted((*where, "ioengine")), choices=", ".join(JOB_IOENGINES)))

    def whole(key: str, low: int, high: int, default: int) -> int:
        v = value.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int) or not low <= v <= high:
            raise _At((*where, key), _("{key} must be a whole number from {low} to {high}, not "
                                       "{value}").format(key=_dotted((*where, key)), low=low,
                                                         high=high, value=repr(v)))
        return v

    size_text = value.get("size")
    try:
        size = parse_size(str(size_text), MIB, JOB_SIZE_MAX) if size_text is not None else None
    except ValueError as e:
        raise _At((*where, "size"), f"{_dotted((*where, 'size'))}: {e}") from None
    if size is None:
        raise _At(where, _("{key} needs a size, such as {example}").format(
            key=_dotted(where), example='size = "22MiB"'))
    direct = value.get("direct", 0)
    if direct not in (0, 1) or isinstance(direct, float):
        raise _At((*where, "direct"), _("{key} must be 0 or 1").format(
            key=_dotted((*where, "direct"))))
    bs = whole("bs", 1, JOB_BS_MAX, 4096)
    if direct and bs % 512:
        raise _At((*where, "bs"), _("{key}: direct I/O moves whole 512-byte sectors, so bs must "
                                    "be a multiple of 512").format(key=_dotted((*where, "bs"))))
    return FioJob(rw=rw, bs=bs, size=size, ioengine=engine,
                  iodepth=whole("iodepth", 1, JOB_DEPTH_MAX, 1),
                  numjobs=whole("numjobs", 1, JOB_THREADS_MAX, 1),
                  fdatasync=whole("fdatasync", 0, 1_000_000, 0), direct=bool(direct), name=name)


def _figure(value: Any, where: tuple[str | int, ...]) -> Figure:
    words = value.lower().split() if isinstance(value, str) else []
    named = {("mb/s",): Figure("mb_s"), ("iops",): Figure("iops"),
             ("lat", "mean"): Figure("lat_mean"), ("link",): Figure("link")}.get(tuple(words))
    if named is not None:
        return named
    if len(words) == 2 and words[0] in ("clat", "sync"):
        pct = words[1].removeprefix("p")
        if pct in PERCENTILES:
            return Figure(words[0], pct)
    raise _At(where, _("{key}: {value} is not a figure diskmark measures; use {choices}").format(
        key=_dotted(where), value=repr(value),
        choices="MB/s, IOPS, lat mean, clat p99, sync p99 (p50, p90, p99, p99.9, p99.99, max), link"))


def _limit(value: Any, figure: Figure, where: tuple[str | int, ...]) -> tuple[float, str]:
    units = UNITS[figure.units]
    examples = {"rate": "30 MB/s", "iops": "1500 IOPS", "time": "10 ms"}
    m = _LIMIT.fullmatch(value) if isinstance(value, str) else None
    if m is None or not m.group(2):
        raise _At(where, _("{key}: {value} has no unit; write it with one, like {example}").format(
            key=_dotted(where), value=repr(value), example=repr(examples[figure.units])))
    unit = units.get(m.group(2).lower())
    number = decimal_number(m.group(1))
    if unit is None:
        raise _At(where, _("{key}: {figure} is bounded in {units}, not {unit}").format(
            key=_dotted(where), figure=figure.text, unit=repr(m.group(2)),
            units=", ".join(dict.fromkeys(u for u, _f in units.values()))))
    if not math.isfinite(number) or number <= 0:
        raise _At(where, _("{key}: a limit is a number above 0").format(key=_dotted(where)))
    return number, unit[0]


def _threshold(value: Any, n: int, jobs: dict[str, Job]) -> Threshold:
    where: tuple[str | int, ...] = ("thresholds", n)
    if not isinstance(value, dict):
        raise _At(where, _("{key} must be a table").format(key=_dotted(where)))
    known = {"job", "figure", "at_least", "below", "source"}
    unknown = [k for k in value if k not in known]
    if unknown:
        raise _At((*where, unknown[0]), _("{key} is not a key of a threshold; it has {choices}")
                  .format(key=_dotted((*where, unknown[0])), choices=", ".join(sorted(known))))
    figure = _figure(value.get("figure"), (*where, "figure"))
    job = value.get("job", "")
    if figure.kind == "link":
        if job:
            raise _At((*where, "job"), _("{key}: the link is no test's figure; leave job out")
                      .format(key=_dotted((*where, "job"))))
    elif job not in jobs:
        raise _At((*where, "job"), _("{key}: {value} is not one of this check's jobs ({jobs})")
                  .format(key=_dotted((*where, "job")), value=repr(job), jobs=", ".join(jobs)))
    elif figure.kind == "sync":
        measured = jobs[job]
        if not isinstance(measured, FioJob) or not measured.fdatasync:
            raise _At((*where, "figure"), _("{key}: {figure} is measured only by a fio job with "
                                            "fdatasync").format(key=_dotted((*where, "figure")),
                                                                figure=figure.text))
    bounds = [k for k in ("at_least", "below") if k in value]
    if len(bounds) != 1:
        raise _At(where, _("{key} needs one limit: at_least (a floor) or below (a ceiling)")
                  .format(key=_dotted(where)))
    limit, unit = _limit(value[bounds[0]], figure, (*where, bounds[0]))
    source = _text(value, "source", where, limit=500)
    if not source.strip():
        raise _At((*where, "source"), _("{key}: say where the limit comes from").format(
            key=_dotted((*where, "source"))))
    return Threshold(job=str(job), figure=figure, limit=limit, unit=unit,
                     below=bounds[0] == "below", source=source)


def parse_check(data: dict[str, Any], source: str, fallback_id: str) -> Check:
    schema = data.get("schema", 1)
    if schema != 1:
        raise _At(("schema",), _("schema {schema} is not supported (this diskmark reads schema "
                                 "1)").format(schema=repr(schema)))
    check_id = data.get("id", fallback_id)
    if not isinstance(check_id, str) or not shell_word(check_id):
        # TRANSLATORS: "_ . + / -" are the characters an id may hold: keep them as they are
        raise _At(("id",), (_("id {value} cannot be typed in a shell as it is: use letters, "
                              "digits and _ . + / - (starting with a letter, a digit or _)")
                            if "id" in data else
                            # TRANSLATORS: id = "mine" is a line of the file: keep it as it is
                            _("id is not given, and the file's name {value} cannot be typed in "
                              "a shell as it is: add a line such as id = \"mine\"")).format(
                                  value=repr(check_id)))
    raw_jobs = data.get("jobs", {})
    if not isinstance(raw_jobs, dict) or len(raw_jobs) > JOBS_MAX:
        raise _At(("jobs",), _("{key} must be a table of at most {count} jobs").format(
            key="jobs", count=JOBS_MAX))
    jobs = {name: _job(name, value) for name, value in raw_jobs.items()}
    raw = data.get("thresholds")
    if not isinstance(raw, list) or not raw or len(raw) > THRESHOLDS_MAX:
        raise _At(("thresholds",), _("a check needs from 1 to {count} [[thresholds]] tables")
                  .format(count=THRESHOLDS_MAX))
    thresholds = tuple(_threshold(value, n, jobs) for n, value in enumerate(raw))
    unused = [name for name in jobs if all(t.job != name for t in thresholds)]
    if unused:
        raise _At(("jobs", unused[0]), _("job {value} is measured but no threshold uses it")
                  .format(value=repr(unused[0])))
    return Check(id=check_id, name=_text(data, "name", (), check_id, 200),
                 description=_text(data, "description", (), ""),
                 differs=_text(data, "differs", (), ""),
                 family=_text(data, "family", (), "", 100), jobs=jobs,
                 thresholds=thresholds, source=source)


def load_file(path: Path, source: str = "built-in") -> Check:
    """One check file; raises CheckError with ``file:line: reason``."""
    data, text = read_table(path, CHECK_MAX_BYTES, N_("a check"), CheckError)
    try:
        return parse_check(data, source, path.stem)
    except _At as e:
        raise CheckError(f"{path}:{line_of_key(text(), e.where)}: {e}") from None
    except RecursionError:
        raise CheckError(_("{path}: not {what}: nested too deeply").format(
            path=path, what=_("a check"))) from None


def load_catalog(user_dir: Path | None = None) -> CheckCatalog:
    """Built-in checks, then the user's (which may add new ids, never replace built-ins)."""
    catalog = CheckCatalog()
    for path in sorted(BUILTIN_DIR.glob("*.toml")):
        check = load_file(path)  # a broken built-in is a bug: let it raise
        catalog.checks[check.id] = check
    # TRANSLATORS: {error} is Python's error, as "TypeError: what went wrong"
    odd = _("{path}: cannot be read as a check ({error})")
    for path, check in each_user_file(user_dir if user_dir is not None else user_checks_dir(),
                                      lambda path: load_file(path, source=str(path)),
                                      CheckError, odd, catalog.problems):
        if check.id in catalog.checks:
            taken = catalog.checks[check.id].source
            clash = (_("{path}:1: check id {check} is taken by the built-in check; give it "
                       "another id") if taken == "built-in" else
                     # TRANSLATORS: {source} is the path of the check file that has the id
                     _("{path}:1: check id {check} is taken by the {source} check; give it "
                       "another id"))
            catalog.problems.append(clash.format(path=path, check=repr(check.id), source=taken))
            continue
        catalog.checks[check.id] = check
    return catalog
