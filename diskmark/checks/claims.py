"""What a drive is claimed to do, read: typed after ``run --claim``, or kept in the claims
file under the drive's model, so a datasheet saved once applies whenever that model is
measured.

One syntax for both, a test and its claimed figures: ``SEQ1M Q8T1 read=3500,write=3000``
(MB/s unless a unit follows: ``3.5GB/s``, ``1000000IOPS``, ``80us``). The claims file
(``claims.toml`` in the config directory) holds one ``[[drive]]`` table per model::

    [[drive]]
    model = "Samsung SSD 980 PRO 1TB"      # as diskmark's report names it (Device: …)
    source = "Samsung's datasheet, 2020"   # optional: where the figures come from
    claims = ["SEQ1M Q8T1 read=7000,write=5000", "RND4K Q32T16 read=1000000IOPS"]

It is read as a check is (:mod:`diskmark.files.toml_file`), and a problem in it is said with
its file and line, never stopping a run.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from diskmark.files.paths import claims_file
from diskmark.files.toml_file import line_of_key, read_table
from diskmark.locale import N_, _
from diskmark.model.claims import Claim
from diskmark.model.numerals import decimal_number, other_digits
from diskmark.model.results import TestSpec
from diskmark.model.settings import Op
from diskmark.model.units import Unit

#: What one claim's text may hold, at most (a datasheet's line, not a file).
CLAIM_MAX_CHARS = 400
CLAIMS_MAX_BYTES = 256 * 1024
#: Where a claim typed on the command line is said to come from.
TYPED = "--claim"
_VALUE = re.compile(r"\s*([^A-Za-z\u00b5\u03bc/]*)(.*)")
_OPS = {"read": Op.READ, "write": Op.WRITE}
EXAMPLE = "'SEQ1M Q8T1 read=3500,write=3000'"


class ClaimsError(ValueError):
    pass


def parse_claims(text: str, source: str = TYPED) -> list[Claim]:
    """``SEQ1M Q8T1 read=3500,write=3000`` as claims; ValueError saying what is wrong."""
    if not isinstance(text, str) or len(text) > CLAIM_MAX_CHARS:
        raise ValueError(_("a claim is one line such as {example}").format(example=EXAMPLE))
    words = text.split()
    test = [w for w in words if "=" not in w]
    if not test or len(test) == len(words) or words[:len(test)] != test:
        raise ValueError(_("{value} is not a claim like {example}").format(
            value=repr(text), example=EXAMPLE))
    spec = TestSpec.parse(" ".join(test))
    claims: dict[Op, Claim] = {}
    for item in ",".join(words[len(test):]).split(","):
        if not item:
            continue
        op_word, _sep, value = item.partition("=")
        op = _OPS.get(op_word.strip().lower())
        if op is None:
            raise ValueError(_("{value}: a claim names read or write, as in {example}").format(
                value=repr(item), example="'read=3500'"))
        unit, number = _figure(value)
        claims[op] = Claim(spec.label, op, unit, number, source)
    return list(claims.values())


def _figure(text: str) -> tuple[Unit, float]:
    """``3500`` (MB/s), ``3.5GB/s`` (kept as 3500 MB/s), ``1000000IOPS``, ``80us``."""
    m = _VALUE.fullmatch(text)
    number_text, unit_text = (m.group(1), m.group(2)) if m else (text, "")
    try:
        number = decimal_number(number_text)
        unit = Unit.parse(unit_text) if unit_text.strip() else Unit.MB_S
    except ValueError as e:
        raise ValueError(str(e) or _("{value} is not a figure like {example}").format(
            value=repr(text), example="'3500', '3.5GB/s' or '1000000IOPS'")) from None
    if not math.isfinite(number) or number <= 0:
        raise ValueError(other_digits(text) or _("{value}: a claimed figure is a number above "
                                                 "0").format(value=repr(text)))
    if unit is Unit.GB_S:
        return Unit.MB_S, number * 1000
    return unit, number


def same_model(a: str, b: str) -> bool:
    """Two spellings of a drive's model as one: case and runs of spaces aside (sysfs pads
    a SCSI model with spaces; a user copies it from a report)."""
    return " ".join(a.split()).casefold() == " ".join(b.split()).casefold()


def claims_for(model: str, path: Path | None = None) -> tuple[list[Claim], list[str]]:
    """The claims the file keeps for ``model``, and its problems (``file:line: reason``);
    none for a drive of no known model, or when there is no file."""
    path = path if path is not None else claims_file()
    if not model.strip() or not path.exists():
        return [], []
    try:
        data, text = read_table(path, CLAIMS_MAX_BYTES, N_("a claims file"), ClaimsError)
    except ClaimsError as e:
        return [], [str(e)]
    drives = data.get("drive", [])
    if not isinstance(drives, list):
        return [], [f"{path}:{line_of_key(text(), ('drive',))}: " + _(
            "write each drive as a [[drive]] table")]
    found: list[Claim] = []
    problems: list[str] = []
    for n, drive in enumerate(drives):
        try:
            claims = _drive(drive, n, path, model)
        except _At as e:
            problems.append(f"{path}:{line_of_key(text(), e.where)}: {e}")
            continue
        found += claims
    return found, problems


class _At(ClaimsError):
    def __init__(self, where: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.where = where


def _drive(drive: Any, n: int, path: Path, model: str) -> list[Claim]:
    where: tuple[str | int, ...] = ("drive", n)
    if not isinstance(drive, dict) or not isinstance(drive.get("model"), str):
        raise _At(where, _("a [[drive]] table needs model = \"…\", the model as diskmark's "
                           "report names it"))
    if not same_model(drive["model"], model):
        return []
    source = drive.get("source", "")
    if not isinstance(source, str):
        raise _At((*where, "source"), _("source must be text"))
    said = f"{path} [{' '.join(drive['model'].split())}]" + (f": {source}" if source else "")
    lines = drive.get("claims")
    if not isinstance(lines, list) or not lines:
        raise _At((*where, "claims"), _("claims must be a list such as {example}").format(
            example=f"[{EXAMPLE.strip(chr(39))!r}]".replace("'", '"')))
    found: list[Claim] = []
    for line in lines:
        try:
            found += parse_claims(line, said)
        except ValueError as e:
            raise _At((*where, "claims"), str(e)) from None
    return found


def claims_of_run(model: str, typed: list[Claim],
                  path: Path | None = None) -> tuple[list[Claim], list[str]]:
    """What a run of a drive of ``model`` is held against: the claims file's for that model,
    then those typed (``--claim``), which win for the same test; and the file's problems.
    The one rule the command line and the app apply when a run ends."""
    kept, problems = claims_for(model, path)
    typed_keys = {c.key for c in typed}
    return [c for c in kept if c.key not in typed_keys] + list(typed), problems
