"""``diskmark history trend`` and ``history share``: the history as a reader sees it, one
drive's figure over months, or a run (against another) as a page to send.

They read what ``history list`` reads and add the drawing: the trend's chart and the shared
page's HTML (or its picture, a PNG), so they live apart from the commands that only list,
move and delete what is kept.
"""

from __future__ import annotations

import argparse
import json
import shutil
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from diskmark.cli.history import filters, report_unimported, short_date
from diskmark.locale import _

if TYPE_CHECKING:
    from diskmark.store.store import Store


def trend_command(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_OK, out, out_json, say
    from diskmark.model.units import Unit
    from diskmark.report import trend

    label, kind = trend.parse_test(args.test)
    kind = args.kind or kind or "read"
    unit = args.unit or Unit.MB_S
    report_unimported(store)
    store.unimported("baseline")
    with store.existing_db() as conn:
        series = trend.trend(conn, label, kind, unit, filters(args)) if conn is not None else []
    if args.format == "json":
        out_json(json.dumps(trend.to_dict(series, label, kind, unit), indent=2,
                            ensure_ascii=False) + "\n")
        return EXIT_OK
    if not series:
        # TRANSLATORS: {test} is a test and what it does: SEQ1M Q8T1 read
        say((_("No saved run measured {test} that matches.") if filters(args).where()[0] else
             _("No saved run measured {test}.")).format(test=f"{label} {kind}"))
        return EXIT_OK
    width = args.width or min(120, shutil.get_terminal_size((100, 24)).columns)
    out(trend.trend_text(series, label, kind, unit, max(width, 30)))
    return EXIT_OK


#: A shared page's format by its file's extension.
SHARE_FORMATS = {".html": "html", ".htm": "html", ".png": "png"}


def share_command(store: Store, args: argparse.Namespace) -> int:
    from diskmark.cli.output import EXIT_FAILED, EXIT_OK, EXIT_USAGE, notice, refuse_destination
    from diskmark.files.destination import Destination, DestinationError, DestinationUnwritable
    from diskmark.report.share.colours import theme_colours
    from diskmark.report.share.page import render_html
    from diskmark.report.share.picture import render_svg

    kind = _share_format(args.output, args.format)
    if kind is None:
        return EXIT_USAGE
    entry = store.get_history(args.id)
    reference = name = None
    if args.against:
        other = store.get_history(args.against)
        # TRANSLATORS: a noun phrase: the page compares a run with "the run of <date> (<id>)"
        name = _("the run of {date} ({id})").format(date=short_date(other.started), id=other.name)
        reference = other.result
    elif args.baseline:
        other = store.get_baseline(args.baseline)
        # TRANSLATORS: a noun phrase: the page compares a run with "baseline “<name>”"
        reference, name = other.result, _("baseline “{name}”").format(name=other.name)
    page = partial(render_svg if kind == "png" else render_html, entry.result,
                   theme_colours(args.theme), reference=reference, reference_name=name,
                   title=_("diskmark: run {id}").format(id=entry.name))
    if args.output == "-":
        return _share_to_stdout(page(), kind)
    dest = Path(args.output)
    try:  # before the drawing: a mistyped FILE costs no wait
        destination = Destination(dest, replace=args.replace)
    except DestinationError as e:
        refuse_destination(e)
        return EXIT_FAILED if isinstance(e, DestinationUnwritable) else EXIT_USAGE
    try:
        data = page() if kind == "html" else _png(page())
        if data is None:
            return EXIT_FAILED
        destination.write(data)
    except DestinationError as e:
        refuse_destination(e)
        return EXIT_FAILED if isinstance(e, DestinationUnwritable) else EXIT_USAGE
    finally:
        destination.close()
    notice(_("wrote {path}").format(path=dest))
    return EXIT_OK


def _share_format(output: str, chosen: str | None) -> str | None:
    """html or png: --format, else the file's extension, else html for - (stdout). None,
    after saying why, when neither says, when they disagree, or when a PNG would go to a
    terminal, which would show its bytes as garbage."""
    import sys

    from diskmark.cli.output import error

    named = None if output == "-" else SHARE_FORMATS.get(Path(output).suffix.lower())
    kind = chosen or named or ("html" if output == "-" else None)
    if kind is None:
        error(_("{path}: the file name must end in .html or .png (or add --format html or "
                "--format png)").format(path=output))
    elif named is not None and kind != named:
        # TRANSLATORS: {named} is HTML or PNG; {kind} is html or png, as typed after --format
        error(_("{path} is named as {named}, but --format {kind} was given; give one or the "
                "other.").format(path=output, named=named.upper(), kind=kind))
        return None
    elif output == "-" and kind == "png" and sys.stdout.isatty():
        error(_("a PNG is binary and standard output is a terminal, which would show it as "
                "garbage; redirect it to a file or a pipe (> run.png), or give --output "
                "FILE.png."))
        return None
    return kind


def _png(svg: str) -> bytes | None:
    """The picture drawn, and what it lacks said; None after saying why there is none."""
    from diskmark.cli.output import error, notice
    from diskmark.report.share.png import PictureError, svg_to_png

    try:
        picture, note = svg_to_png(svg)
    except PictureError as e:
        error(_("no PNG written: {problem}").format(problem=e))
        return None
    if note:
        notice(note)
    return picture


def _share_to_stdout(page: str, kind: str) -> int:
    """``--output -``: the page, or its picture as a PNG, on stdout."""
    from diskmark.cli.output import EXIT_FAILED, EXIT_OK, out_html
    from diskmark.cli.streams import write_binary

    if kind == "html":
        out_html(page)
        return EXIT_OK
    picture = _png(page)
    if picture is None:
        return EXIT_FAILED
    write_binary(picture)
    return EXIT_OK
