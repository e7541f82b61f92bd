"""Damaged saved results, property style: every field of a real result (from a real
`diskmark run --format json`) is replaced in turn with wrong types and impossible values.
Import, listing, show and every rendering must either take the file or call it damaged with
a reason naming the field; nothing may raise anything but the store's own error."""

from __future__ import annotations

import copy
import io
import json
import math
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

import pytest

from diskmark.app.screens import details
from diskmark.app.screens.comparison import describe_session
from diskmark.cli import main as cli
from diskmark.model.results import SessionResult
from diskmark.model.units import Unit
from diskmark.report import text as report
from diskmark.report.cdm_report import text_report
from diskmark.report.compare import compare, comparison_markdown, comparison_text
from diskmark.report.formatting import format_listing
from diskmark.store.errors import StoreError
from diskmark.store.exchange import import_baseline
from diskmark.store.schema import SCHEMA, validate_result
from diskmark.store.store import Store

#: What a damaged or hand-edited file may hold where a figure, text, list or object belongs.
WRONG = {"text": "slow", "list": [], "object": {}, "negative": -1, "NaN": math.nan,
         "infinite": math.inf, "null": None, "true": True, "huge": 10**400, "nested": [[1]]}


@pytest.fixture(scope="module")
def real_result(tmp_path_factory) -> dict[str, Any]:
    """A real result with reads, writes and a mix, passes, a warm-up, percentiles, a flush
    and the test file's layout."""
    home = tmp_path_factory.mktemp("home")
    target = tmp_path_factory.mktemp("target")
    out = subprocess.run([sys.executable, "-m", "diskmark", "run", "--target", str(target),
                          "--size", "16MiB", "--count", "2", "--measure", "1", "--interval",
                          "0", "--profile", "peak", "--mix", "--format", "json", "-q"],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600,
                         env={**os.environ, "DISKMARK_HOME": str(home)})
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert len(data["tests"]) == 6 and data["test_file"] is not None
    return data


def leaves(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every path into ``node``: objects' keys, every item of a short list (the tests, a
    test's passes) and the first item of a long one (the rest holds the same kind)."""
    if path:
        yield path
    if isinstance(node, dict):
        for key, value in node.items():
            yield from leaves(value, path + (key,))
    elif isinstance(node, list):
        for i, value in enumerate(node[:1] if len(node) > 8 else node):
            yield from leaves(value, path + (i,))


def mutated(doc: dict, path: tuple, value: Any = None, delete: bool = False) -> dict:
    doc = copy.deepcopy(doc)
    node = doc
    for step in path[:-1]:
        node = node[step]
    if delete:
        if isinstance(node, dict):
            del node[path[-1]]
        else:
            node.pop(path[-1])
    elif isinstance(node, list) and path[-1] == len(node):
        node.append(value)  # a pass of under a second has no whole second to damage: add one
    else:
        node[path[-1]] = value
    return doc


def cases(result: dict) -> Iterator[tuple[str, dict]]:
    for path in leaves(result):
        where = "/".join(map(str, path))
        yield f"{where} deleted", mutated(result, path, delete=True)
        for kind, value in WRONG.items():
            yield f"{where} = {kind}", mutated(result, path, value)


def show_everything(session: SessionResult, reference: SessionResult) -> None:
    """Every rendering the CLI and the app make of a saved result."""
    for unit in Unit:
        report.grid_report(session, unit)
        report.curve_report(session, unit)
    text_report(session, unit_note=True)
    report.csv_report(session)
    report.markdown_report(session)
    report.json_report(session)
    for a, b in ((session, reference), (reference, session)):
        cmp = compare(a, b, "other")
        comparison_text(cmp)
        comparison_markdown(cmp)
        json.dumps(cmp.to_dict())
    describe_session(session)
    details.layout_text(session.test_file, session.system.rotational)
    for test in session.tests:
        details.test_title(test)
        details.stability_text(test)
        test.to_dict()


def run_cli(*args: str) -> int:
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        return cli.main(list(args))


def test_every_wrongly_typed_field_is_caught_or_harmless(real_result, tmp_path):
    reference = validate_result(real_result)
    accepted = refused = 0
    failures = []
    for case, doc in cases(real_result):
        try:
            session = validate_result(doc)
        except ValueError as e:
            refused += 1
            assert str(e), case
            continue
        except Exception as e:  # noqa: BLE001 - the point of the test
            failures.append(f"{case}: validate_result raised {type(e).__name__}: {e}")
            continue
        accepted += 1
        try:
            show_everything(session, reference)
        except Exception as e:  # noqa: BLE001
            failures.append(f"{case}: accepted, then {type(e).__name__}: {e}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:60])
    assert refused > 100 and accepted > 10, (refused, accepted)


def saved_file(doc: dict, name: str) -> str:
    return json.dumps({"schema": SCHEMA, "kind": "baseline", "name": name, "note": "",
                       "saved": "2026-01-01T00:00:00+00:00", "diskmark_version": "0.1.0",
                       "result": doc})


@pytest.mark.parametrize("field", [
    ("tests", 0, "sync_seconds"), ("tests", 0, "runs", 0, "lat_percentiles"),
    ("tests", 0, "runs", 0, "bw_samples", 0), ("tests", 0, "spec", "startdelay"),
    ("tests", 0, "mix_read"), ("tests", 0, "fio_command"), ("tests", 0, "kind"),
    ("tests", 0, "warmup"), ("tests", 0, "error"), ("settings", "mode"),
    ("settings", "count"), ("settings", "mix"), ("settings", "sweep"),
    ("settings", "comment"), ("system", "interface_mb_s"), ("system", "total_bytes"),
    ("system", "model"), ("test_file",), ("test_file", "extents"), ("warnings",),
    ("status",), ("measure",), ("started",)], ids=lambda field: "/".join(map(str, field)))
@pytest.mark.parametrize("kind", ["text", "list", "object", "negative", "NaN"])
def test_damaged_files_are_listed_as_damaged_and_never_crash_a_command(real_result, field, kind,
                                                                        isolated_home, tmp_path):
    """The file on disk, through the real commands: import refuses it (exit 2, the field
    named) or takes it; list and show never fail with anything but the store's error."""
    doc = mutated(real_result, field, WRONG[kind])
    source = tmp_path / "damaged.json"
    source.write_text(saved_file(doc, "imported"))
    try:
        imported = import_baseline(Store(), source)
    except StoreError as e:
        assert str(field[-1]) in str(e) or field[-1] == 0, e
        imported = None
    baselines = isolated_home / "data" / "baselines"
    baselines.mkdir(parents=True, exist_ok=True)
    (baselines / "by-hand.json").write_text(saved_file(doc, "by hand"))
    entries = Store().baselines()
    listing = format_listing(entries)
    # a readable file is imported into the database; a damaged one stays, listed as such
    by_hand = next(e for e in entries if e.path.name == "by-hand.json" or e.name == "by hand")
    if by_hand.damaged:
        assert "DAMAGED" in listing and str(field[-1]) in by_hand.damaged, by_hand.damaged
    assert run_cli("baselines", "list") == 0
    status = run_cli("baselines", "show", "by hand")
    assert status == (2 if by_hand.damaged else 0)
    assert (imported is None) == bool(by_hand.damaged)
    if imported is not None:
        assert run_cli("baselines", "show", "imported") == 0
        assert run_cli("baselines", "compare", "imported", "by hand") == 0
