"""``diskmark baselines``: list, show, compare, delete, export and import saved baselines."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store

from diskmark.cli.output import (
    EXIT_OK,
    EXIT_USAGE,
    error,
    exit_code_for,
    gate,
    notice,
    out,
    out_json,
    refuse_destination,
    say,
)
from diskmark.locale import _
from diskmark.locale.text_safety import shown


def cmd_baselines(args: argparse.Namespace) -> int:
    from diskmark.store.errors import ExportExists, NameTaken, StoreError
    from diskmark.store.exchange import export_baseline, export_text, import_baseline
    from diskmark.store.store import Store

    store = Store()
    try:
        if args.action == "list":
            if args.names:
                return _baselines_names(store)
            return _baselines_json(store) if args.format == "json" else _baselines_list(store)
        if args.action == "show":
            from diskmark.report.cdm_report import text_report

            entry = store.get_baseline(args.name)
            out(_heading(entry) + "\n" + text_report(entry.result))
            return EXIT_OK
        if args.action == "compare":
            return _baselines_compare(store, args)
        if args.action == "delete":
            entry = store.delete_baseline(args.name)
            notice(_("deleted baseline {name} ({path})").format(
                name=repr(entry.name), path=entry.path))
            return EXIT_OK
        if args.action == "export":
            if args.file == "-":  # stdout, as in curl and tar
                out_json(export_text(store, args.name))
                return EXIT_OK
            try:
                dest = export_baseline(store, args.name, Path(args.file), replace=args.replace)
            except ExportExists as e:
                refuse_destination(e, exists=True)
                return exit_code_for(e)
            notice(_("exported baseline {name} to {path}").format(
                name=repr(args.name), path=dest))
            return EXIT_OK
        if args.action == "import":
            try:
                entry = import_baseline(store, Path(args.file), args.name, replace=args.replace,
                                        on_problem=notice)
            except NameTaken as e:
                error(_("{problem}; import it under another name with --name N, or add "
                        "--replace to replace it").format(problem=e))
                return exit_code_for(e)
            notice(_("imported {file} as baseline {name} ({path})").format(
                file=args.file, name=repr(entry.name), path=entry.path))
            return EXIT_OK
    except StoreError as e:
        error(str(e))
        return exit_code_for(e)
    return EXIT_USAGE


def _heading(entry: Entry) -> str:
    """What ``baselines show`` prints above the report: name, note, date and file, the
    labels right-aligned on their colons (measured in cells: a translation may be wide)."""
    from diskmark.report.cells import text_cells

    rows = [(_("Baseline:"), entry.name)]
    if entry.note:
        rows.append((_("Note:"), entry.note))
    rows += [(_("Saved:"), entry.saved), (_("File:"), str(entry.path))]
    width = max(text_cells(label) for label, _value in rows)
    return "".join(" " * (width - text_cells(label)) + f"{label} {shown(value, one_line=True)}\n"
                   for label, value in rows)


def _baselines_list(store: Store) -> int:
    from diskmark.report.formatting import format_listing

    entries = store.baselines()
    if not entries:
        say(_("No baselines in {path}. Save one with `diskmark run --save-baseline NAME`."
              ).format(path=store.root))
        return EXIT_OK
    out(format_listing(entries))
    return EXIT_OK


def _baselines_names(store: Store) -> int:
    """One name a line, damaged baselines' too (they can be shown and deleted). A saved name
    is printable text (check_name refuses any other as it is saved, imported or renamed), so
    the only names left out are those of damaged files that are not: a line break cannot be
    told from two names, a tab is where fish's completion starts a description, and the
    shells' completion offers these lines (diskmark.cli.completion). ``baselines list``
    still shows those files, with the reason."""
    out("".join(f"{entry.name}\n" for entry in store.baselines() if entry.name.isprintable()))
    return EXIT_OK


def _baselines_json(store: Store) -> int:
    """The baselines as ``history list --format json`` lists runs: the same fields, each
    named by its ``name``, with ``damaged`` (null, or why it cannot be read) and, for a file
    that could not be imported, its ``path``."""
    from diskmark.cli.history import row_dict

    rows = {r.id: r for r in store.page(None, 0, kind="baseline")}
    listed = []
    for entry in store.baselines():
        row = rows.get(entry.id) if entry.id is not None else None
        fields = row_dict(row, baseline=True) if row is not None else \
            {"name": entry.name, "note": entry.note, "saved": entry.saved, "path": str(entry.path)}
        listed.append(fields | {"damaged": entry.damaged})
    out_json(json.dumps({"total": len(listed), "baselines": listed}, indent=2,
                        ensure_ascii=False) + "\n")
    return EXIT_OK


def _baselines_compare(store: Store, args: argparse.Namespace) -> int:
    from diskmark.report.compare import compare, comparison_markdown, comparison_text

    a, b = store.get_baseline(args.a), store.get_baseline(args.b)
    cmp = compare(b.result, a.result, a.name)
    if args.format == "json":
        out_json(json.dumps({"current_name": b.name} | cmp.to_dict(), indent=2,
                            ensure_ascii=False) + "\n")
    elif args.format == "markdown":
        out(comparison_markdown(cmp, _("baseline {name}").format(name=repr(b.name))))
    else:
        out(comparison_text(cmp, _("baseline {name}").format(name=repr(b.name))))
    if args.fail_on_regression is not None:
        return gate(cmp, args.fail_on_regression, _("baseline {name}").format(name=repr(a.name)))
    return EXIT_OK
