"""``diskmark check NAME…``: the checks run on a target and judged, a verdict per check and
per threshold; ``diskmark checks``: the checks there are, and with ``--verbose`` where each
limit comes from.

A check run is a run like any other (the target checked, a test file laid out and removed,
a stop signal stopping it cleanly) and is kept in the history with its verdicts. Exit
status: 0 every check passed, 3 one failed (as ``run --fail-on-regression`` does), 5 none
failed but one cannot be told, 1 the run failed, 2 bad arguments or an unusable target
(nothing was started), 4 the run was not kept in the history, 130 interrupted.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from diskmark.locale import N_, _

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser

#: None failed, but at least one check could not be told (the link unknown, a test not run).
EXIT_UNDECIDED = 5
#: A check run's test file: the tests need little, and a card is slow to lay out.
CHECK_SIZE = 64 * 1024 * 1024
CHECK_COUNT = 3

# TRANSLATORS: printed as it is, lines and all: keep each line under 92 characters (CJK: 46),
# and the example commands exactly.
EPILOG = N_("""\
examples:
  diskmark check etcd --target /var/lib/etcd
  diskmark check sd-v30 sd-a1 --target /media/card     # the class printed on a card
  diskmark check usb3 sd-v30 --target /media/card --format json

Each threshold is judged by the worst pass (the slowest MB/s, the highest latency). A card
that fails its class is also judged against the rest of its class's family by the same
figures. `diskmark checks --verbose` lists every check with where its limits come from.

exit status: 0 every check passed, 3 one failed, 5 none failed but one cannot be told,
1 the run failed, 2 bad arguments or an unusable target, 4 the run was not kept in the
history, 130 interrupted.
""")


def add_parsers(sub: argparse._SubParsersAction[Parser], declare: tuple[bool, bool]) -> None:
    """``check`` and ``checks``; ``declare``: whether each declares its options (the app's
    start declares none)."""
    from diskmark.cli.arguments import RawDescriptionHelpFormatter, Typed, setting

    check = sub.add_parser(
        "check", help=_("run checks (etcd, an SD card's class, a USB link) and print verdicts"),
        description=_("Run the checks NAME… in DIR (or on a block device) and judge them: per "
                      "check and per threshold pass, fail by how much, or cannot tell and why, "
                      "the measured figure beside its limit."),
        formatter_class=RawDescriptionHelpFormatter, epilog=_(EPILOG))
    if declare[0]:
        check.add_argument("names", nargs="+", metavar="NAME",
                           help=_("a check's id, as `diskmark checks` lists them"))
        check.add_argument("--target", metavar="DIR|DEVICE", default=".", action=Typed,
                           help=_("directory to test in (default: current directory), or a "
                                  "block device, measured itself"))
        check.add_argument("--destroy-data", metavar="DEVICE",
                           help=_("allow writing to the block device --target names; DEVICE "
                                  "must be that same device. Everything on it is destroyed"))
        check.add_argument("--size", type=setting("size"), default=CHECK_SIZE, metavar="SIZE",
                           help=_("test file size, 16MiB … 64GiB (default 64MiB; at least "
                                  "what a check's own job writes)"))
        check.add_argument("--count", type=setting("count"), default=CHECK_COUNT, metavar="N",
                           help=_("measured passes per test (default 3); a threshold is judged "
                                  "by the worst"))
        check.add_argument("--measure", type=setting("measure"), metavar="SEC",
                           help=_("seconds each pass measures (default 5); a check's own fio "
                                  "job runs at most (1 + N) × SEC"))
        check.add_argument("--interval", type=setting("interval"), metavar="SEC",
                           help=_("seconds of rest between tests (default 5)"))
        check.add_argument("--buffered", action="store_true",
                           help=_("go through the page cache instead of O_DIRECT"))
        check.add_argument("--format", choices=["text", "json"], default="text",
                           help=_("text: the verdicts (default); json: the run with its "
                                  "verdicts, schema diskmark.result/1"))
        check.add_argument("--verbose", action="store_true",
                           help=_("say where each limit comes from"))
        check.add_argument("-q", "--quiet", action="store_true",
                           help=_("no progress on stderr; warnings and errors are still printed"))
        check.set_defaults(save_baseline=None, note="", replace=False)
    checks = sub.add_parser(
        "checks", help=_("list the checks, their thresholds and where each comes from"),
        description=_("List the built-in checks and the user's (TOML files in the config "
                      "directory's checks/), with their thresholds."))
    if declare[1]:
        checks.add_argument("--verbose", action="store_true",
                            help=_("with each check's description, each threshold's source, "
                                   "and how diskmark's measurement differs from its source's"))


def cmd_checks(args: argparse.Namespace) -> int:
    from diskmark.checks import load_catalog
    from diskmark.cli.output import EXIT_OK, error, out
    from diskmark.files.paths import user_checks_dir
    from diskmark.report.verdicts import listing

    catalog = load_catalog()
    out(listing(catalog, args.verbose))
    out("\n" + _("User checks: {files}").format(files=f"{user_checks_dir()}/*.toml") + "\n")
    for problem in catalog.problems:
        error(_("skipped check {problem}").format(problem=problem))
    return EXIT_OK


def cmd_check(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Check the arguments and the checks' files before anything runs; run; judge; say."""
    from diskmark.checks import load_catalog
    from diskmark.checks.judge import judge_all, needs
    from diskmark.cli.output import (
        EXIT_FAILED,
        EXIT_INTERRUPTED,
        EXIT_REGRESSION,
        ProgressLine,
        error,
        exit_code_for,
        notice,
        out,
        out_json,
    )
    from diskmark.cli.saving import keep
    from diskmark.cli.stopping import run_stoppable
    from diskmark.engine.errors import DiskmarkError
    from diskmark.engine.runner import Engine
    from diskmark.model.results import Status
    from diskmark.model.settings import Settings
    from diskmark.model.verdicts import Outcome
    from diskmark.report.text import json_report
    from diskmark.report.verdicts import verdicts_text
    from diskmark.store.store import Store

    catalog = load_catalog()
    for problem in catalog.problems:
        error(_("skipped check {problem}").format(problem=problem))
    try:
        asked = [catalog.get(name) for name in dict.fromkeys(args.names)]
    except KeyError as e:
        parser.error(str(e).strip("'\""))  # exits 2
    settings = Settings(target=args.target, size=args.size, count=args.count,
                        measure=args.measure, interval=args.interval, direct=not args.buffered)
    tests, jobs = needs(asked)
    engine = Engine()
    try:
        plan = engine.check_plan(settings, [(t.spec, t.op) for t in tests], jobs)
    except DiskmarkError as e:
        parser.error(str(e))
    store = Store()
    progress = ProgressLine(enabled=not args.quiet)
    try:
        session, interrupted = run_stoppable(
            lambda: engine.run(settings, progress.on_event, args.destroy_data, plan=plan),
            engine.stop)
    except DiskmarkError as e:
        progress.clear()
        error(str(e))
        return exit_code_for(e)
    progress.clear()
    session.checks = judge_all(asked, catalog, session)
    kept = keep(store, [(None, session)], args)
    history_id = args.history_ids.get(None)
    if args.format == "json":
        extra = {"history_id": history_id} if history_id is not None else {}
        out_json(json_report(session, extra=extra))
    else:
        out(verdicts_text(session, args.verbose))
    if history_id is not None and not args.quiet:
        notice(_("kept in the history as {id}").format(id=history_id))
    if session.status is Status.CANCELLED or interrupted:
        error(_("interrupted; fio stopped and the test file removed."))
        return EXIT_INTERRUPTED
    if session.status is Status.FAILED:
        error(session.error or _("the benchmark failed"))
        return EXIT_FAILED
    outcomes = {v.outcome for v in session.checks if v.asked}
    if Outcome.FAIL in outcomes:
        return EXIT_REGRESSION
    if Outcome.UNKNOWN in outcomes:
        return EXIT_UNDECIDED
    return kept
