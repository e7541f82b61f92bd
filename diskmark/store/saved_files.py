"""Result files read from disk: a saved file of an earlier version (one run or baseline per
file), and a file offered for import (an export, or a ``diskmark run --format json``
report). Each is checked in depth before anything of it is written to the database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from diskmark.files.regular_file import TooLarge, read_regular_file
from diskmark.locale import _
from diskmark.model.results import RESULT_SCHEMA
from diskmark.store.entry import Entry
from diskmark.store.errors import InvalidFile, NotFound, StoreError, StoreIOError
from diskmark.store.indexed import measured_figures
from diskmark.store.schema import (
    MAX_FILE_BYTES,
    check_name,
    decode_json,
    parse_saved,
    read_json,
    validate_result,
)

BATCH = 200  # files per transaction: one fsync each, and a short hold on the write lock


def load(path: Path, kind: str) -> tuple[Entry, dict[str, Any] | None]:
    """One saved file as (Entry, its result document); never raises: a problem becomes the
    entry's ``damaged`` reason and the document is None."""
    path = Path(path)
    fallback = Entry(name=path.stem, note="", saved="", path=path, kind=kind)
    try:
        data = read_json(path)
        header, session = parse_saved(data)
    except ValueError as e:
        fallback.damaged = str(e)
        return fallback, None
    except OSError as e:
        fallback.damaged = _("cannot read: {error}").format(error=e.strerror or e)
        return fallback, None
    name = header["name"] if kind == "baseline" else path.stem
    if kind == "baseline":
        try:
            name = check_name(name)
        except StoreError as e:
            fallback.damaged = str(e)
            return fallback, None
    document = data["result"]
    return Entry(name=name, note=header["note"], saved=header["saved"], path=path, kind=kind,
                 session=session, diskmark_version=header["diskmark_version"],
                 document=document), document


def read_result_file(src: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """A file offered for import: a ``diskmark.saved/1`` file (an export, a file of an
    earlier version), a plain ``diskmark run --format json`` report, or a CrystalDiskMark
    text result (told by its content: what is not JSON is read as one). Returns (header,
    result document) of each result it holds, checked in depth: one, or for a text file
    several (results pasted one after the other; each header's ``part`` is then its
    number and their count). Raises NotFound, InvalidFile or StoreIOError.

    What does not look like JSON is read no further than a text result can be long
    (MAX_TEXT_BYTES, 1 MiB, where JSON may take MAX_FILE_BYTES): a 10 MB text is refused
    from its first MiB."""
    from diskmark.model.cdm_text import MAX_TEXT_BYTES, too_large

    try:
        raw = read_regular_file(src, MAX_FILE_BYTES, limit_for_head=lambda head: (
            MAX_FILE_BYTES if _looks_like_json(src, head) else MAX_TEXT_BYTES))
    except FileNotFoundError:
        raise NotFound(_("{path}: no such file").format(path=src)) from None
    except TooLarge as e:
        reason = str(e) if e.limit != MAX_TEXT_BYTES else too_large()
        raise InvalidFile(_("{path} cannot be imported: {reason}").format(
            path=src, reason=reason)) from None
    except ValueError as e:
        raise InvalidFile(_("{path} cannot be imported: {reason}").format(path=src,
                                                                           reason=e)) from None
    except OSError as e:
        raise StoreIOError(_("cannot read {path}: {error}").format(
            path=src, error=e.strerror or e)) from None
    try:
        data = decode_json(raw)
    except ValueError as e:
        return _cdm_file(src, raw, e)
    try:
        if isinstance(data, dict) and data.get("schema") == RESULT_SCHEMA:
            # a report; a --compare run adds its comparison, a kept run its id in the
            # history: neither is part of the result (the id is kept where it is free)
            document = {k: v for k, v in data.items() if k not in ("comparison", "history_id")}
            validate_result(document)
            kept_as = data.get("history_id")
            header = {"name": src.stem, "note": "", "kind": None, "saved": None,
                      "diskmark_version": "",
                      "history_id": kept_as if isinstance(kept_as, str) else None}
        else:
            header, _session = parse_saved(data)
            document = data["result"]
    except ValueError as e:
        raise InvalidFile(_("{path} cannot be imported: {reason}").format(path=src,
                                                                           reason=e)) from None
    return [(header, document)]


def refuse_unmeasured(src: Path, document: dict[str, Any],
                      part: tuple[int, int] | None = None) -> None:
    """The one rule for an import that holds no figure: a baseline needs one to be compared
    with, and a text result without one (every line naming no test diskmark knows, or
    zeros) is nothing to keep, in the history either. Raises InvalidFile."""
    if measured_figures(document):
        return
    if part is None:
        raise InvalidFile(_("{path} cannot be imported: it holds no measured test").format(
            path=src))
    raise InvalidFile(_("{path} cannot be imported: its result {number} of {count} holds no "
                        "measured test").format(path=src, number=part[0], count=part[1]))


def _looks_like_json(src: Path, raw: bytes) -> bool:
    return src.suffix.lower() == ".json" or raw.lstrip()[:1] in (b"{", b"[")


def _cdm_file(src: Path, raw: bytes,
              json_problem: ValueError) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """A file that is not JSON, read as CrystalDiskMark text results; when it is not one
    either, the reason given is JSON's for a file that looks like JSON (named .json, or
    starting with a brace), CrystalDiskMark's for any other. Every result is checked
    before any is returned: one that cannot be imported refuses the file."""
    from diskmark.model.cdm_text import CdmTextError, parse
    from diskmark.store.cdm_import import cdm_document

    try:
        results = parse(raw)
    except CdmTextError as e:
        reason = json_problem if _looks_like_json(src, raw) or not raw.strip() else e
        raise InvalidFile(_("{path} cannot be imported: {reason}").format(
            path=src, reason=reason)) from None
    out = []
    for number, cdm in enumerate(results, start=1):
        part = (number, len(results)) if len(results) > 1 else None
        document = cdm_document(cdm)
        try:
            validate_result(document)
        except ValueError as e:
            raise InvalidFile((_("{path} cannot be imported: {reason}") if part is None else
                               _("{path} cannot be imported: its result {number} of {count}: "
                                 "{reason}")).format(path=src, reason=e, number=number,
                                                     count=len(results))) from None
        refuse_unmeasured(src, document, part)
        header = {"name": src.stem, "note": "", "kind": None, "saved": None,
                  "diskmark_version": "", "history_id": None, "part": part,
                  # what the reader left out, for the person importing it (their language)
                  "problems": [p.said() for p in cdm.problems]}
        out.append((header, document))
    return out
