"""``diskmark history``: list, show, import, export, delete, prune, trend and share the runs
the store keeps.

Every finished run is kept; a team that gathers runs from many machines (or from CI) imports
their ``diskmark run --format json`` reports here and sees each drive's story with
``history trend``. A listing reads indexed columns only, so it takes the same time for
thirty runs as for thousands. Exit status: 0 done, 1 a file or the database could not be
read or written, 2 bad arguments, an unknown run or a file that cannot be imported (the
others are imported all the same).
"""

from __future__ import annotations

import argparse
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser
    from diskmark.store.database import Filters, Row
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store

from diskmark.locale import N_, _, ngettext

# TRANSLATORS: printed as it is, lines and all: keep each line under 92 characters (CJK: 46),
# and the example commands exactly.
EPILOG = N_("""\
examples:
  diskmark history list --limit 20 --device nvme0n1
  diskmark history show 20260101T045959Z          # an id, a unique beginning of one, or last
  diskmark history import ci-results/ other-host.json
  diskmark history trend "SEQ1M Q8T1" --kind write --unit MB/s
  diskmark history share last --output run.html   # the newest run; or run.png, or - (stdout)
  diskmark history share NEW --against OLD --output cmp.html      # a comparison
  diskmark history prune --keep 500

A trend judges each run against the one before it by the comparison's rule: "same" when
the two figures' range over their mean is within the runs' noise (their R/Avg %, else 3%).
""")

# TRANSLATORS: printed as it is, lines and all: keep each line under 92 characters (CJK: 46).
EXPORT_EPILOG = N_("""\
exit status: 0 every run written; 1 a run left out because it is damaged in the database
(each is named), or a file could not be written; 2 a file that exists was not replaced
(--replace replaces it), or nothing was written: an unknown or damaged ID, or DIR|FILE names
a file that is not a .json one.
""")


def add_parser(sub: argparse._SubParsersAction[Parser], types: dict[str, Any],
               declare: bool = True) -> None:
    """The ``history`` command and its actions; ``types`` holds the CLI's argument types
    (``unit``), so every command reads a unit the same way. ``declare=False``: the command
    alone, named with its help (nothing on the command line uses it)."""
    from diskmark.cli.arguments import RawDescriptionHelpFormatter, Typed, add_replace, number, whole

    hist = sub.add_parser(
        "history", help=_("list, show, import, export, delete, prune, trend and share past runs"),
        description=_("Every finished run, kept in the data directory (DISKMARK_HOME/data when "
                      "set), newest first."),
        formatter_class=RawDescriptionHelpFormatter, epilog=_(EPILOG))
    if not declare:
        return
    hsub = hist.add_subparsers(dest="action", metavar="ACTION", required=True)

    def filters(p: argparse.ArgumentParser) -> None:
        p.add_argument("--device", default="", help=_("only runs on this device (e.g. "
                                                       "/dev/nvme0n1, or part of its name)"))
        p.add_argument("--target", default="", action=Typed,
                       help=_("only runs in this directory (or part of it)"))
        p.add_argument("--host", default="", help=_("only runs measured on this host"))

    ls = hsub.add_parser("list", help=_("runs, newest first: id, date, host, device, headline MB/s"))
    ls.add_argument("--limit", type=whole, default=50, metavar="N",
                    help=_("show the N newest (default 50; 0 shows all)"))
    ls.add_argument("--offset", type=whole, default=0, metavar="N", help=_("skip the N newest first"))
    filters(ls)
    ls.add_argument("--format", choices=["text", "json"], default="text")

    show = hsub.add_parser("show", help=_("a run's report"))
    show.add_argument("id", metavar="ID", help=_("the run's id, a unique beginning of it, or "
                                                 "last (the newest run)"))
    show.add_argument("--format", choices=["text", "json"], default="text",
                      help=_("text: the CrystalDiskMark report; json: the saved result, exactly"))

    imp = hsub.add_parser("import", help=_("add the JSON reports of `diskmark run --format json` "
                                           "and CrystalDiskMark's text results (files, or "
                                           "directories of them); duplicates are skipped"))
    imp.add_argument("sources", nargs="+", metavar="FILE|DIR")

    exp = hsub.add_parser("export", help=_("write runs as JSON reports (what import reads)"),
                          description=_("Write runs as JSON reports, what `history import` reads."),
                          epilog=_(EXPORT_EPILOG))
    exp.add_argument("dest", metavar="DIR|FILE",
                     help=_("a directory (one <id>.json per run; made if its parent exists), a "
                            ".json file, a FIFO or a character device for one run, or - "
                            "(stdout) for one run"))
    exp.add_argument("ids", nargs="*", metavar="ID", help=_("these runs (default: all that match)"))
    filters(exp)
    add_replace(exp, _("replace files that exist"))

    dele = hsub.add_parser("delete", help=_("remove runs from the history (baselines stay)"))
    dele.add_argument("ids", nargs="+", metavar="ID")

    prune = hsub.add_parser("prune", help=_("remove old runs (baselines stay)"))
    how = prune.add_mutually_exclusive_group(required=True)
    how.add_argument("--keep", type=whole, metavar="N", help=_("keep the N newest runs"))
    how.add_argument("--older-than", type=number, metavar="DAYS",
                     help=_("remove runs that started more than DAYS days ago"))
    filters(prune)
    prune.add_argument("--dry-run", action="store_true", help=_("say what would go; remove nothing"))

    tr = hsub.add_parser("trend", help=_("one test's best figure over time, per drive"),
                         description=_("One test's best figure over time for each drive (host, "
                                       "device, model), baselines marked B, and every change "
                                       "beyond the runs' noise marked ▲ (better) or ▼ (worse)."))
    tr.add_argument("test", metavar="TEST", help=_('e.g. "SEQ1M Q8T1" or "RND4K Q32T1"'))
    tr.add_argument("--kind", choices=["read", "write", "mix"], default=None,
                    help=_("which operation (default read)"))
    tr.add_argument("--unit", type=types["unit"], default=None, metavar="UNIT",
                    help=_("MB/s (default), GB/s, IOPS or µs (also us)"))
    filters(tr)
    tr.add_argument("--format", choices=["text", "json"], default="text")
    tr.add_argument("--width", type=whole, default=0, metavar="COLS",
                    help=_("width of the chart (default: the terminal's)"))

    share = hsub.add_parser("share", help=_("a run, or a comparison, as one HTML file or a PNG"),
                            description=_("Write a run (or a run against another run or a "
                                          "baseline) as one self-contained HTML file (no network "
                                          "access needed to view it) or as a PNG image (the grid, "
                                          "the charts and where it ran; no browser needed)."))
    share.add_argument("id", metavar="ID", help=_("the run's id, a unique beginning of it, or "
                                                  "last (the newest run)"))
    against = share.add_mutually_exclusive_group()
    against.add_argument("--against", metavar="ID", help=_("compare with this run (the reference)"))
    against.add_argument("--baseline", metavar="NAME", help=_("compare with this baseline"))
    share.add_argument("--output", required=True, metavar="FILE",
                       help=_("FILE.html or FILE.png (the format follows the extension), or - "
                              "for stdout (HTML unless --format png)"))
    share.add_argument("--format", choices=["html", "png"], default=None,
                       help=_("html or png (default: FILE's extension; html for -)"))
    share.add_argument("--theme", default="diskmark",
                       help=_("colours: diskmark (default), diskmark-dark, diskmark-contrast, "
                              "diskmark-mono or a user theme"))
    add_replace(share, _("replace FILE if it exists"))


def cmd_history(args: argparse.Namespace,
                actions: dict[str, Callable[[Store, argparse.Namespace], int]]) -> int:
    """``actions``: the commands other modules add (trend and share) beside this one's."""
    from diskmark.cli.output import EXIT_USAGE, error, exit_code_for
    from diskmark.store.errors import StoreError
    from diskmark.store.store import Store

    store = Store()
    try:
        action = {"list": _list, "show": _show, "import": _import, "export": _export,
                  "delete": _delete, "prune": _prune, **actions}
        return action[args.action](store, args)
    except StoreError as e:
        error(str(e))
        return exit_code_for(e)
    except ValueError as e:
        error(str(e))
        return EXIT_USAGE


def filters(args: argparse.Namespace) -> Filters:
    from diskmark.store.database import Filters

    return Filters(device=args.device, target=args.target, host=args.host)


def report_unimported(store: Store) -> None:
    from diskmark.cli.output import error

    for entry in store.unimported("history"):
        error(_("not imported, kept in place: {path}: {problem}").format(
            path=entry.path, problem=entry.damaged))


def short_date(iso: str) -> str:
    from diskmark.report.formatting import format_date

    return format_date(iso, seconds=False, missing="-")


def _list(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_OK, EXIT_USAGE, error, out, out_json, say
    from diskmark.model.units import format_size

    if args.limit < 0 or args.offset < 0:
        error(_("--limit and --offset must be 0 or more"))
        return EXIT_USAGE
    report_unimported(store)
    chosen = filters(args)
    rows = store.page(args.limit or None, args.offset, chosen)
    total = store.count(chosen)
    if args.format == "json":
        out_json(json.dumps({"total": total, "offset": args.offset,
                             "runs": [row_dict(r) for r in rows]}, indent=2, ensure_ascii=False)
                 + "\n")
        return EXIT_OK
    if not rows:
        say(_("No runs in the history match. Every run that completes is kept (`diskmark "
              "run`, or the app).") if chosen.where()[0] else
            _("No runs in the history. Every run that completes is kept (`diskmark run`, or "
              "the app)."))
        return EXIT_OK
    # TRANSLATORS: the columns of `history list`; short, in capitals where the script has them
    table = [(_("ID"), _("RUN DATE"), _("HOST"), _("DEVICE"), _("FS"), _("SET-UP"),
              _("READ MB/s"), _("WRITE MB/s"))]
    for r in rows:
        setup = " ".join(x for x in (r.profile if r.profile not in ("", "Default") else "",
                                     f"{format_size(r.size)}×{r.count}" if r.size else "") if x)
        table.append((r.name, short_date(r.started or r.saved), r.host or "-", r.device or "-",
                      r.fstype or "-", setup or "-", _mb(r.head_read), _mb(r.head_write)))
    # escaped before the columns are measured: an escape is wider than what it stands for
    from diskmark.locale.text_safety import shown
    from diskmark.report.cells import text_cells

    cells_shown = [[shown(cell, one_line=True) for cell in row] for row in table]
    widths = [max(text_cells(row[i]) for row in cells_shown) for i in range(len(cells_shown[0]))]
    for row in cells_shown:  # padded by terminal cells: a CJK header takes two a character
        cells = [" " * (w - text_cells(c)) + c if i >= 6 else c + " " * (w - text_cells(c))
                 for i, (c, w) in enumerate(zip(row, widths))]
        out("  ".join(cells).rstrip() + "\n")
    listed = f"{args.offset + 1}–{args.offset + len(rows)}" if args.offset else f"{len(rows)}"
    if len(rows) < total:
        # TRANSLATORS: {listed} is a count (5) or a range (11–15) of the runs shown
        say(ngettext("{listed} of {total} run, newest first; --limit N or --offset N shows "
                     "others.",
                     "{listed} of {total} runs, newest first; --limit N or --offset N shows "
                     "others.", total).format(listed=listed, total=total))
    return EXIT_OK


def _mb(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def row_dict(row: Row, baseline: bool = False) -> dict[str, Any]:
    """A listed row as JSON: a run is named by its ``id``, a baseline by its ``name`` (and
    keeps its ``note``); the database's own row number and digest are nobody's business."""
    d = dict(row.__dict__)
    if baseline:
        del d["id"]
    else:
        d["id"] = d.pop("name")
    for k in ("kind", "digest", "started_ts") + (() if baseline else ("note",)):
        d.pop(k, None)
    return d


def _show(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_OK, out, out_json
    from diskmark.report.cdm_report import text_report

    entry = store.get_history(args.id)
    if args.format == "json":
        out_json(json.dumps(entry.document, indent=2, ensure_ascii=False) + "\n")
        return EXIT_OK
    held = [e.name for e in store.baselines() if e.ok and e.document == entry.document]
    lines = [_("Run: {id}").format(id=entry.name), _("Saved: {date}").format(date=entry.saved)]
    if entry.result.system.hostname:
        lines.append(_("Host: {host}").format(host=entry.result.system.hostname))
    if held:
        # TRANSLATORS: {names} lists the baselines that hold this run: 'a', 'b'
        lines.append(_("Baseline: {names}").format(names=", ".join(repr(n) for n in held)))
    out("\n".join(lines) + "\n\n" + text_report(entry.result))
    return EXIT_OK


def _sources(paths: list[str]) -> tuple[list[Path], list[str]]:
    """Files named, and every .json and .txt (CrystalDiskMark's text results) under
    directories named; what does not exist."""
    files, missing = [], []
    for name in paths:
        p = Path(name)
        if p.is_dir():
            files += sorted(q for q in p.rglob("*") if q.suffix.lower() in (".json", ".txt")
                            and q.is_file())
        elif p.exists():
            files.append(p)
        else:
            missing.append(name)
    return files, missing


def _import(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_OK, EXIT_USAGE, error, notice

    files, missing = _sources(args.sources)
    for name in missing:
        error(_("{path}: no such file or directory").format(path=name))
    from diskmark.store.exchange import import_history

    results = import_history(store, files) if files else []
    counts = {"imported": 0, "duplicate": 0, "invalid": 0, "problem": 0}
    for src, outcome, detail, part in results:
        counts[outcome] += 1
        number, count = part or (1, 1)
        if outcome == "problem":
            notice(detail)
        elif outcome == "imported" and part is None:
            notice(_("imported {file} as {id}").format(file=src, id=detail))
        elif outcome == "imported":
            # TRANSLATORS: a file holding several CrystalDiskMark results: each is a run
            notice(_("imported result {number} of {count} of {file} as {id}").format(
                number=number, count=count, file=src, id=detail))
        elif outcome == "duplicate" and part is None:
            notice(_("{file} is already in the history as {id}; skipped").format(
                file=src, id=detail))
        elif outcome == "duplicate":
            notice(_("result {number} of {count} of {file} is already in the history as "
                     "{id}; skipped").format(number=number, count=count, file=src, id=detail))
        else:
            error(detail)
    refused = counts["invalid"] + len(missing)
    # TRANSLATORS: the summary of `history import`: each part is one of the three messages below
    notice(_("{imported}, {duplicates}, {refused}").format(
        imported=ngettext("{count} imported", "{count} imported", counts["imported"]).format(
            count=counts["imported"]),
        duplicates=ngettext("{count} duplicate skipped", "{count} duplicates skipped",
                            counts["duplicate"]).format(count=counts["duplicate"]),
        refused=ngettext("{count} refused", "{count} refused", refused).format(count=refused)))
    return EXIT_USAGE if counts["invalid"] or missing or not files else EXIT_OK


def _export(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import (
        EXIT_FAILED,
        EXIT_OK,
        EXIT_USAGE,
        error,
        notice,
        refuse_destination,
    )
    from diskmark.files.destination import (
        DestinationError,
        DestinationUnwritable,
        make_directory,
        writes_into,
    )
    from diskmark.locale.text_safety import json_utf8
    from diskmark.store.errors import ExportExists, StoreIOError
    from diskmark.store.exchange import export

    if args.ids:
        entries = [store.get_history(i) for i in args.ids]
    else:
        entries = [store.entry(r) for r in store.page(None, 0, filters(args))]
    if args.dest == "-":
        return _export_to_stdout(entries)
    dest = Path(args.dest)
    # one run to a file: a .json one, or a FIFO or character device, written into
    single = not dest.is_dir() and (dest.suffix == ".json" or writes_into(dest))
    if single and len(entries) != 1:
        error(ngettext("{path} is one file, but {count} run matches; name a directory",
                       "{path} is one file, but {count} runs match; name a directory",
                       len(entries)).format(path=dest, count=len(entries)))
        return EXIT_USAGE
    if not single:
        if os.path.lexists(dest) and not dest.is_dir():
            error(_("{path} exists and is not a directory; name a directory (one <id>.json "
                    "per run) or a .json file for one run. Nothing was exported.").format(
                        path=dest))
            return EXIT_USAGE
        try:
            make_directory(dest)
        except DestinationUnwritable as e:
            raise StoreIOError(str(e)) from None
        except DestinationError as e:
            refuse_destination(e)
            return EXIT_USAGE
    written = damaged = 0
    for entry in entries:
        if entry.damaged:  # never written as "null": named, and the exit status says so
            error(_("not exported: run {id} is damaged: {problem}").format(
                id=entry.name, problem=entry.damaged))
            damaged += 1
            continue
        text = json_utf8(json.dumps(entry.document, indent=2, ensure_ascii=False)) + "\n"
        try:
            export(entry, dest, text, replace=args.replace)
        except ExportExists as e:
            refuse_destination(e, exists=True)
            continue
        written += 1
    if written == len(entries):
        notice(ngettext("exported {count} run to {path}", "exported {count} runs to {path}",
                        written).format(count=written, path=dest))
        return EXIT_OK
    notice(ngettext("exported {written} of {count} run to {path}; the others were left out "
                    "(see above)",
                    "exported {written} of {count} runs to {path}; the others were left out "
                    "(see above)", len(entries)).format(
                        written=written, count=len(entries), path=dest))
    return EXIT_FAILED if damaged else EXIT_USAGE


def _export_to_stdout(entries: list[Entry]) -> int:
    """``history export -``: one run's JSON on stdout, exactly what its file would hold."""
    from diskmark.cli.output import EXIT_OK, EXIT_USAGE, error, out_json

    if len(entries) != 1:
        error(ngettext("- is standard output, which takes one run, but {count} run matches; "
                       "name one by its ID, or export to a directory.",
                       "- is standard output, which takes one run, but {count} runs match; "
                       "name one by its ID, or export to a directory.", len(entries)).format(
                           count=len(entries)))
        return EXIT_USAGE
    out_json(json.dumps(entries[0].document, indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def _delete(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_OK, notice

    # every id checked before any goes; a damaged run can be deleted like any other
    entries = [store.get_history(i, allow_damaged=True) for i in args.ids]
    for entry in entries:
        store.delete_history(entry)
        if entry.damaged:
            notice(_("deleted run {id}, which was damaged ({problem})").format(
                id=entry.name, problem=entry.damaged))
        else:
            notice(_("deleted run {id} ({date})").format(
                id=entry.name, date=short_date(entry.started)))
    return EXIT_OK


def _prune(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_OK, EXIT_USAGE, error, notice

    if (args.keep is not None and args.keep < 0) or (args.older_than is not None
                                                     and not args.older_than >= 0):
        error(_("--keep and --older-than take 0 or more"))
        return EXIT_USAGE
    gone = store.prune(args.keep, args.older_than, filters(args), dry_run=args.dry_run)
    n = len(gone)
    if not gone:
        notice(_("would remove no runs; baselines are never pruned") if args.dry_run else
               _("removed no runs; baselines are never pruned"))
        return EXIT_OK
    span = {"count": n, "first": short_date(gone[-1].started), "last": short_date(gone[0].started)}
    if args.dry_run:
        notice(ngettext("would remove {count} run ({first} … {last}); baselines are never pruned",
                        "would remove {count} runs ({first} … {last}); baselines are never "
                        "pruned", n).format(**span))
    else:
        notice(ngettext("removed {count} run ({first} … {last}); baselines are never pruned",
                        "removed {count} runs ({first} … {last}); baselines are never pruned",
                        n).format(**span))
    return EXIT_OK
