"""The saved-file format: what a history or baseline file holds and how it is checked.

``{"schema": "diskmark.saved/1", "kind": "history"|"baseline", "name", "note", "saved",
"diskmark_version", "result": SessionResult.to_dict()}``. Every field that
``SessionResult.from_dict``, the reports and the app read is checked with what it must hold,
so a damaged file is listed as damaged instead of crashing whatever shows it later; the
settings are checked by the rules every entry point uses (:mod:`diskmark.model.settings`). The
store (:mod:`diskmark.store.store`) reads and writes the files; this module describes one
(:class:`~diskmark.store.entry.Entry` holds one) and judges its content: problems are
ValueErrors naming the field.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from diskmark.files.regular_file import read_regular_file
from diskmark.locale import _
from diskmark.model.numerals import digits_only
from diskmark.model.results import JOB_IOENGINES, JOB_RW, RESULT_SCHEMA, SessionResult, Status
from diskmark.model.settings import RULES as SETTINGS_RULES
from diskmark.model.settings import Op, Rule, from_json
from diskmark.model.stack import Effect, Kind
from diskmark.model.units import Unit
from diskmark.model.verdicts import Outcome, Why
from diskmark.store.errors import StoreError

SCHEMA = "diskmark.saved/1"
SCHEMA_PREFIX = "diskmark.saved/"
SCHEMA_VERSION = 1
KINDS = ("history", "baseline")
MAX_FILE_BYTES = 64 * 1024 * 1024  # far beyond any real result; guards against reading junk

NAME_MAX = 200

# Every field that SessionResult.from_dict, the reports and the app read, with what it must
# hold. A field a newer diskmark adds is not judged; a known field of the wrong type is, so
# a damaged file is listed as damaged instead of crashing whatever shows it later.

#: A check of one field: raises ValueError naming ``where`` when the value is not what it must be.
Check = Callable[[Any, str], None]

_WHOLE_MAX = 2**63  # beyond anything a disk or a count reaches; JSON allows any integer


def _brief(value: Any) -> str:
    """The offending value for a message, cut short: a damaged file may hold megabytes."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_figure(value: Any, where: str) -> None:
    """A finite, non-negative number (a figure, a size, seconds)."""
    if not _is_number(value):
        # TRANSLATORS: {where} names a place in the file in its own English words and keys,
        # such as "test 3 (SEQ1M Q8T1 read) pass 2 mb_s"; {value} is the value found there
        raise ValueError(_("{where} is not a number ({value})").format(where=where,
                                                                        value=_brief(value)))
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an integer too large for a float
        finite = False
    if not finite:
        raise ValueError(_("{where} is not a finite number ({value})").format(
            where=where, value=_brief(value)))
    if value < 0:
        raise ValueError(_("{where} is negative ({value})").format(where=where,
                                                                   value=_brief(value)))


def _check_whole(value: Any, where: str, low: int = 0, high: int = _WHOLE_MAX) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        if high != _WHOLE_MAX:
            problem = _("{where} must be a whole number from {low} to {high}, not {value}")
        elif low == 1:
            problem = _("{where} must be a positive whole number, not {value}")
        else:
            problem = _("{where} must be a whole number of {low} or more, not {value}")
        raise ValueError(problem.format(where=where, low=low, high=high, value=_brief(value)))


def _check_text(value: Any, where: str) -> None:
    if not isinstance(value, str):
        raise ValueError(_("{where} must be text, not {value}").format(where=where,
                                                                       value=_brief(value)))


def _check_flag(value: Any, where: str) -> None:
    if not isinstance(value, bool):
        raise ValueError(_("{where} must be true or false, not {value}").format(
            where=where, value=_brief(value)))


def _one_of(*allowed: str) -> Check:
    def check(value: Any, where: str) -> None:
        if value not in allowed:
            raise ValueError(_("{where} must be one of {choices}, not {value}").format(
                where=where, choices=", ".join(allowed), value=_brief(value)))
    return check


def _optional(check: Check) -> Check:
    def check_optional(value: Any, where: str) -> None:
        if value is not None:
            check(value, where)
    return check_optional


def _list_of(check: Check, item: str) -> Check:
    def check_list(value: Any, where: str) -> None:
        if not isinstance(value, list):
            raise ValueError(_("{where} is not a list ({value})").format(where=where,
                                                                         value=_brief(value)))
        for i, element in enumerate(value):
            check(element, f"{where} {item} {i}")
    return check_list


def _table_of(check: Check, key: str) -> Check:
    def check_table(value: Any, where: str) -> None:
        if not isinstance(value, dict):
            raise ValueError(_("{where} is not an object ({value})").format(
                where=where, value=_brief(value)))
        for k, element in value.items():
            check(element, f"{where} {key} {k}")
    return check_table


def _check_positive(value: Any, where: str) -> None:
    _check_whole(value, where, 1)


def _check_percent(value: Any, where: str) -> None:
    _check_whole(value, where, 0, 100)


def _check_maybe_flag(value: Any, where: str) -> None:
    if value is not None and not isinstance(value, bool):
        raise ValueError(_("{where} must be true, false or null, not {value}").format(
            where=where, value=_brief(value)))


def _require(d: Any, keys: tuple[str, ...], where: str) -> None:
    if not isinstance(d, dict):
        raise ValueError(_("{where} is not an object").format(where=where))
    missing = [k for k in keys if k not in d]
    if missing:
        # TRANSLATORS: {keys} are the names of the fields missing from the file
        raise ValueError(_("{where} lacks {keys}").format(where=where, keys=", ".join(missing)))


def _check_fields(d: dict[str, Any], fields: dict[str, Any], where: str) -> None:
    for name, check in fields.items():
        if name in d:
            check(d[name], f"{where}{name}")


_figure = _check_figure
_maybe_figure = _optional(_check_figure)
_texts = _list_of(_check_text, "item")
_delays = _table_of(_check_figure, "for")

_RUN_FIELDS = {
    "mb_s": _figure, "iops": _figure, "lat_us": _figure, "io_bytes": _figure,
    "runtime_ms": _figure, "read_mb_s": _figure, "write_mb_s": _figure,
    "lat_percentiles": _table_of(_check_figure, "latency percentile"),
    "bw_samples": _list_of(_check_figure, "bandwidth sample"),
    "usr_cpu": _maybe_figure, "sys_cpu": _maybe_figure, "machine_busy_pct": _maybe_figure,
}
_RUN_REQUIRED = ("mb_s", "iops", "lat_us", "io_bytes", "runtime_ms")
_SPEC_FIELDS = {
    "pattern": _one_of("SEQ", "RND"), "block": _check_positive, "queues": _check_positive,
    "threads": _check_positive, "startdelay": _delays, "ramp_time": _delays,
}
_KNEE_FIELDS = {"seconds": _figure, "written_bytes": _figure, "before_mb_s": _figure,
                "after_mb_s": _figure}


def _check_sustained(value: Any, where: str) -> None:
    """A sustained write's course (diskmark.model.sustained_write): a bin width above zero, figures."""
    _require(value, ("bin_s",), where)
    _check_figure(value["bin_s"], f"{where} bin_s")
    if not value["bin_s"]:
        raise ValueError(_("{where} is zero").format(where=f"{where} bin_s"))
    _check_fields(value, {"mb_s": _list_of(_check_figure, "bin"), "duration_s": _figure,
                          "amount": _optional(_check_positive), "written_bytes": _figure,
                          "seconds": _figure}, f"{where} ")
    if value.get("knee") is not None:
        _require(value["knee"], tuple(_KNEE_FIELDS), f"{where} knee")
        _check_fields(value["knee"], _KNEE_FIELDS, f"{where} knee ")


def _check_mark(value: Any, where: str) -> None:
    """A layer that explains a figure (diskmark.model.stack.Mark)."""
    _require(value, ("layer", "kind", "effect"), where)
    _check_fields(value, {"layer": _check_whole, "kind": _one_of(*(k.value for k in Kind)),
                          "name": _check_text, "effect": _one_of(*(e.value for e in Effect))},
                  f"{where} ")


def _check_effect(value: Any, where: str) -> None:
    _require(value, ("effect",), where)
    _check_fields(value, {"effect": _one_of(*(e.value for e in Effect)), "mb_s": _maybe_figure,
                          "values": _table_of(lambda v, w: None, "value")}, f"{where} ")


def _check_layer(value: Any, where: str) -> None:
    """One layer of the storage stack (diskmark.model.stack.Layer)."""
    _require(value, ("kind", "name"), where)
    _check_fields(value, {"kind": _one_of(*(k.value for k in Kind)), "name": _check_text,
                          "depth": _check_whole, "type": _check_text, "device": _check_text,
                          "facts": _table_of(_check_text, "fact"),
                          "effects": _list_of(_check_effect, "effect")}, f"{where} ")


def _check_measured(value: Any, where: str) -> None:
    """A layer measured below the target (diskmark.model.stack.Measured)."""
    _require(value, ("layer", "device"), where)
    _check_fields(value, {"layer": _check_whole, "device": _check_text, "skipped": _check_text,
                          "figures": _table_of(_table_of(_check_figure, "unit"), "test")},
                  f"{where} ")


_TEST_FIELDS = {
    "index": _check_whole, "kind": _one_of(*(op.value for op in Op)),
    "label": _check_text, "mix_read": _optional(_check_percent),
    "fio_command": _texts, "sync_seconds": _maybe_figure,
    "sync_dirty_bytes": _maybe_figure, "sync_writeback_bytes": _maybe_figure,
    "error": _optional(_check_text), "unstable_threshold_pct": _figure,
    "cpu_limited": _optional(_check_text), "sustained": _optional(_check_sustained),
    "marks": _list_of(_check_mark, "mark"),
    "started": _check_text, "finished": _check_text,
}
_TEST_REQUIRED = ("index", "spec", "kind", "runs")


def _by_rule(rule: Rule) -> Check:
    def check(value: Any, where: str) -> None:
        from_json(rule, "", value, where)
    return check


# the settings section by the rules every entry point uses (diskmark.model.settings)
_SETTINGS_FIELDS = {name: _by_rule(rule) for name, rule in SETTINGS_RULES.items()}
_SYSTEM_FIELDS = {
    **{name: _check_text for name in ("target", "mountpoint", "device", "fstype",
                                      "mount_options", "model", "scheduler", "interface",
                                      "kernel", "os", "virtual", "hostname", "target_kind")},
    "total_bytes": _figure, "free_bytes": _figure, "rotational": _check_maybe_flag,
    "as_root": _check_maybe_flag,
    "interface_mb_s": _maybe_figure, "cpus": _optional(_check_positive),
}
_LAYOUT_FIELDS = {
    "extents": _check_whole, "fragments": _check_whole, "start_offset": _check_whole,
    "start_fraction": _maybe_figure,
}
_LAYOUT_REQUIRED = ("extents", "fragments", "start_offset")
_RESULT_FIELDS = {
    "diskmark_version": _check_text, "fio_version": _check_text, "started": _check_text,
    "finished": _check_text, "status": _one_of(*(st.value for st in Status)),
    "error": _optional(_check_text), "preset": _check_text, "profile": _check_text,
    "measure": _figure, "interval": _figure, "warnings": _texts, "ioengine": _check_text,
    "origin": _check_text, "stack": _list_of(_check_layer, "layer"),
    "below": _list_of(_check_measured, "measured layer"),
}

_RESULT_REQUIRED = ("settings", "system", "tests")


def _check_run(run: Any, where: str) -> None:
    _require(run, _RUN_REQUIRED, where)
    _check_fields(run, _RUN_FIELDS, f"{where} ")


# A check run's own fio jobs, its verdicts and a run's claims: optional, so a document of
# an earlier version (without them) reads as it did.
_FIO_JOB_FIELDS = {
    "name": _check_text, "rw": _one_of(*JOB_RW), "bs": _check_positive, "size": _check_positive,
    "ioengine": _one_of("", *JOB_IOENGINES), "iodepth": _check_positive,
    "numjobs": _check_positive, "fdatasync": _check_whole, "direct": _check_flag,
}


def _check_job(job: Any, where: str) -> None:
    _require(job, ("job",), where)
    _require(job["job"], ("rw", "bs", "size"), f"{where} job")
    _check_fields(job["job"], _FIO_JOB_FIELDS, f"{where} job ")
    if job.get("run") is not None:
        _check_run(job["run"], f"{where} run")
    _check_fields(job, {"sync_percentiles": _table_of(_check_figure, "sync percentile"),
                        "fio_command": _texts, "cut_short": _check_flag,
                        "error": _optional(_check_text)}, f"{where} ")


_THRESHOLD_FIELDS = {
    "figure": _check_text, "test": _check_text, "limit": _figure, "unit": _check_text,
    "below": _check_flag, "source": _check_text, "measured": _maybe_figure,
    "outcome": _one_of(*(o.value for o in Outcome)), "why": _one_of(*(w.value for w in Why)),
    "detail": _check_text, "best": _maybe_figure, "passes": _check_whole,
}


def _check_verdict(verdict: Any, where: str) -> None:
    _require(verdict, ("id", "thresholds"), where)
    _check_fields(verdict, {"id": _check_text, "name": _check_text, "asked": _check_flag,
                            "family": _check_text}, f"{where} ")
    if not isinstance(verdict["thresholds"], list):
        raise ValueError(_("{where} is not a list").format(where=f"{where} thresholds"))
    for n, t in enumerate(verdict["thresholds"], 1):
        _require(t, ("figure", "limit", "unit", "below"), f"{where} threshold {n}")
        _check_fields(t, _THRESHOLD_FIELDS, f"{where} threshold {n} ")


def _check_claim(claim: Any, where: str) -> None:
    _require(claim, ("label", "op", "unit", "value"), where)
    _check_fields(claim, {"label": _check_text, "op": _one_of(Op.READ.value, Op.WRITE.value),
                          "unit": _one_of(*(u.value for u in Unit)), "value": _figure,
                          "source": _check_text}, f"{where} ")


def _check_test(t: Any, where: str) -> None:
    _require(t, _TEST_REQUIRED, where)
    if isinstance(t.get("label"), str) and isinstance(t.get("kind"), str):
        where = f"{where} ({t['label']} {t['kind']})"
    _check_fields(t, _TEST_FIELDS, f"{where} ")
    _require(t["spec"], ("pattern", "block", "queues", "threads"), f"{where} spec")
    _check_fields(t["spec"], _SPEC_FIELDS, f"{where} spec ")
    if not isinstance(t["runs"], list):
        raise ValueError(_("{where} is not a list").format(where=f"{where} runs"))
    for n, run in enumerate(t["runs"], 1):
        _check_run(run, f"{where} pass {n}")
    if t.get("warmup") is not None:
        _check_run(t["warmup"], f"{where} warmup")


def validate_result(d: Any) -> SessionResult:
    """Check a ``diskmark.result/1`` dict in depth and parse it. Raises ValueError with the
    first problem found, naming the field: a missing field, text where a number belongs (or
    the reverse), a figure that is not a finite non-negative number, a count that is not a
    positive whole number, a value that is none of the allowed ones."""
    _require(d, ("schema",) + _RESULT_REQUIRED, "the result")
    if d["schema"] != RESULT_SCHEMA:
        raise ValueError(_("the result has schema {schema}, expected {ours}").format(
            schema=_brief(d["schema"]), ours=repr(RESULT_SCHEMA)))
    _check_fields(d, _RESULT_FIELDS, "")
    _require(d["settings"], ("size", "count"), "the settings")
    _check_fields(d["settings"], _SETTINGS_FIELDS, "settings ")
    if not isinstance(d["system"], dict):
        raise ValueError(_("the system facts are not an object"))
    _check_fields(d["system"], _SYSTEM_FIELDS, "system ")
    if d.get("test_file") is not None:
        _require(d["test_file"], _LAYOUT_REQUIRED, "test_file")
        _check_fields(d["test_file"], _LAYOUT_FIELDS, "test_file ")
    if d.get("drive") is not None and not isinstance(d["drive"], dict):  # its readings: best effort
        raise ValueError(_("{where} is not an object ({value})").format(
            where="drive", value=_brief(d["drive"])))
    if not isinstance(d["tests"], list):
        raise ValueError(_("{where} is not a list").format(where="tests"))
    for i, t in enumerate(d["tests"]):
        _check_test(t, f"test {i + 1}")
    _check_fields(d, {"jobs": _optional(_list_of(_check_job, "job")),
                      "checks": _optional(_list_of(_check_verdict, "check")),
                      "claims": _optional(_list_of(_check_claim, "claim"))}, "")
    try:
        return SessionResult.from_dict(d)
    except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as e:
        raise ValueError(_("the result does not parse: {error}").format(
            error=f"{type(e).__name__}: {e}")) from None


def _schema_problem(schema: Any) -> str | None:
    """None if ``schema`` is ours and readable, else the reason why not."""
    if schema == SCHEMA:
        return None
    if isinstance(schema, str) and schema.startswith(SCHEMA_PREFIX):
        version = schema[len(SCHEMA_PREFIX):]
        if digits_only(version) and int(version) > SCHEMA_VERSION:
            return _("written by a newer diskmark (schema {schema}); this version reads "
                     "{ours}").format(schema=schema, ours=SCHEMA)
        return _("unknown schema version {schema}").format(schema=_brief(schema))
    if schema is None:
        return _("not a diskmark file (no schema field)")
    return _("not a diskmark file (schema {schema})").format(schema=_brief(schema))


def parse_saved(data: Any) -> tuple[dict[str, Any], SessionResult]:
    """Validate the decoded JSON of a saved file; return (header fields, session).
    Raises ValueError with the reason."""
    if not isinstance(data, dict):
        raise ValueError(_("not a diskmark file (a JSON {type}, not an object)").format(
            type=type(data).__name__))
    problem = _schema_problem(data.get("schema"))
    if problem:
        raise ValueError(problem)
    _require(data, ("kind", "name", "saved", "result"), "the file")
    if data["kind"] not in KINDS:
        raise ValueError(_("unknown kind {kind}").format(kind=_brief(data["kind"])))
    for name in ("name", "saved"):
        if not isinstance(data[name], str):
            raise ValueError(_("{where} must be text, not {value}").format(
                where=name, value=_brief(data[name])))
    note = data.get("note", "")
    if not isinstance(note, str):
        raise ValueError(_("{where} must be text, not {value}").format(where="note",
                                                                       value=_brief(note)))
    session = validate_result(data["result"])
    header = {"kind": data["kind"], "name": data["name"], "note": note, "saved": data["saved"],
              "diskmark_version": str(data.get("diskmark_version", ""))}
    return header, session


def read_json(path: Path) -> Any:
    """Read and decode a JSON file. Raises ValueError (bad content, or not a regular file:
    a FIFO or a link to a device among the saved files is damaged, never read) or OSError."""
    return decode_json(read_regular_file(path, MAX_FILE_BYTES))


def decode_json(raw: bytes) -> Any:
    """The JSON a file's bytes hold. Raises ValueError saying why they hold none."""
    if not raw:
        raise ValueError(_("empty file"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(_("not UTF-8 text")) from None
    if not text.strip():
        raise ValueError(_("empty file (only whitespace)"))
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        ends_early = e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string")
        # TRANSLATORS: {problem} is Python's JSON reader's own words, in English
        bad = (_("not valid JSON (truncated?): {problem} (line {line}, column {column})")
               if ends_early else _("not valid JSON: {problem} (line {line}, column {column})"))
        raise ValueError(bad.format(problem=e.msg, line=e.lineno, column=e.colno)) from None
    except RecursionError:
        raise ValueError(_("not valid JSON: nested too deeply")) from None


def session_problem(session: SessionResult) -> str | None:
    """Why a session cannot be saved (e.g. non-finite figures), or None."""
    try:
        validate_result(json.loads(json.dumps(session.to_dict())))
    except ValueError as e:
        return str(e)
    return None


# --- names -------------------------------------------------------------------------------


def normalize_name(name: str) -> str:
    """The canonical form of a baseline name: NFC, surrounding whitespace removed."""
    return unicodedata.normalize("NFC", str(name)).strip()


def check_name(name: str) -> str:
    """Return the canonical name, or raise StoreError saying what is wrong with it."""
    if not isinstance(name, str):
        raise StoreError(_("a baseline name must be text"))
    norm = normalize_name(name)
    if not norm:
        raise StoreError(_("a baseline name cannot be empty"))
    if len(norm) > NAME_MAX:
        raise StoreError(_("a baseline name can have at most {limit} characters, not "
                           "{count}").format(limit=NAME_MAX, count=len(norm)))
    if not norm.isprintable():
        raise StoreError(_("a baseline name must be printable text (no newlines, tabs or "
                           "control characters): {name}").format(name=repr(norm)))
    return norm


def slug(name: str) -> str:
    """A file-system-safe, distinct stem for a name: ``nvme-ext4-1a2b3c4d``."""
    norm = normalize_name(name)
    ascii_ = unicodedata.normalize("NFKD", norm).encode("ascii", "ignore").decode().lower()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_).strip("-")[:40].strip("-") or "baseline"
    digest = hashlib.sha256(norm.encode("utf-8")).hexdigest()[:8]
    return f"{base}-{digest}"
