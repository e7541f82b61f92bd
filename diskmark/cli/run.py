"""``diskmark run``: the arguments checked and turned into settings, --output checked, then
the benchmark on this machine (on several targets side by side:
:mod:`diskmark.cli.run_targets`; with --host, on many hosts: :mod:`diskmark.cli.run_fleet`);
the report delivered, the run kept, compared and gated (:mod:`diskmark.cli.saving`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from diskmark.cli import run_fleet, run_targets
from diskmark.cli.output import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_NOT_KEPT,
    EXIT_OK,
    EXIT_USAGE,
    ProgressLine,
    deliver,
    error,
    exit_code_for,
    notice,
    refuse_destination,
    render,
    say,
)
from diskmark.cli.saving import compare_all, gate_all, keep, open_store
from diskmark.cli.stopping import run_stoppable
from diskmark.locale import _
from diskmark.model.results import Status
from diskmark.model.settings import DataPattern, Mode, Settings

if TYPE_CHECKING:
    from diskmark.files.destination import Destination


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(target=args.target, preset=args.preset, profile=args.profile, mix=args.mix,
                    mode=Mode(args.mode), size=args.size, count=args.count, measure=args.measure,
                    interval=args.interval, data=DataPattern(args.data),
                    direct=not args.buffered, nocow=args.nocow, sweep=args.sweep,
                    comment=args.comment, unstable_pct=args.unstable,
                    duration=args.duration, amount=args.amount)


def cmd_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Check everything that can be checked (arguments, --output, the store) before the
    benchmark starts, so that a mistake costs no wait."""
    # --target once: the target; repeated: several, side by side, the first in the settings
    args.targets = args.target if isinstance(args.target, list) else [args.target]
    args.target = args.targets[0]
    if run_targets.wanted(args) and run_fleet.wanted(args):
        parser.error(_("--host measures one --target on every host; give one --target with "
                       "--host, or leave --host out to measure several targets here"))
    settings = _settings(args)
    try:
        settings.validate()
    except ValueError as e:
        parser.error(str(e))  # exits 2
    destination = None
    if args.output and args.output != "-":  # "-": stdout, as in curl and tar
        from diskmark.files.destination import Destination, DestinationError

        try:
            destination = Destination(Path(args.output), replace=args.replace)
        except DestinationError as e:
            refuse_destination(e)
            return EXIT_USAGE
    if args.down and run_fleet.wanted(args):
        parser.error(_("--down measures the layers under a target on this machine; it does not "
                       "go with --host"))  # exits 2
    try:
        run = (run_fleet.cmd_fleet if run_fleet.wanted(args) else
               run_targets.cmd_targets if run_targets.wanted(args) else _run_here)
        return run(args, parser, settings, destination)
    finally:
        if destination is not None:
            destination.close()


def _run_here(args: argparse.Namespace, parser: argparse.ArgumentParser, settings: Settings,
         destination: Destination | None) -> int:
    from diskmark.engine.errors import DiskmarkError
    from diskmark.engine.runner import Engine

    opened = open_store(args, parser, [None])
    if isinstance(opened, int):
        return opened
    store, references = opened
    engine = Engine()
    progress = ProgressLine(enabled=not args.quiet)
    try:
        session, interrupted = run_stoppable(
            lambda: engine.run(settings, progress.on_event, args.destroy_data), engine.stop)
    except DiskmarkError as e:
        progress.clear()
        error(str(e))
        return exit_code_for(e)
    if args.down and not interrupted and session.status is Status.COMPLETE:
        from diskmark.engine.down import measure_below

        session.below, interrupted = run_stoppable(
            lambda: measure_below(engine, session, progress.on_event), engine.stop)
    progress.clear()
    from diskmark.checks.claims import claims_of_run
    from diskmark.cli.arguments import claims

    session.claims, problems = claims_of_run(session.system.model, claims(args.claim))
    for problem in problems:
        error(_("claims not read: {problem}").format(problem=problem))
    kept = keep(store, [(None, session)], args)
    history_id = args.history_ids.get(None)
    comparisons = compare_all([(None, session)], references)
    comparison = comparisons[None][0] if comparisons else None
    if comparison is not None and args.format == "csv" and not args.quiet:
        from diskmark.report.compare import comparison_text

        say(comparison_text(comparison).rstrip("\n"))
    delivered = deliver(render(session, args.format, args.unit, comparison, history_id),
                        destination, args.quiet, args.format == "json")
    if history_id is not None and not args.quiet:  # also when the report could not be given
        notice(_("kept in the history as {id}; share it with `diskmark history share {id} "
                 "--output run.html`.").format(id=history_id))
    if delivered == EXIT_FAILED:
        return EXIT_FAILED
    if session.status is Status.CANCELLED or interrupted:
        error(_("interrupted; fio stopped and the device closed (nothing was laid out on it).")
              if session.system.target_kind else
              _("interrupted; fio stopped and the test file removed."))
        return EXIT_INTERRUPTED
    if session.status is Status.FAILED:
        error(session.error or _("the benchmark failed"))
        return EXIT_FAILED
    if kept not in (EXIT_OK, EXIT_NOT_KEPT):
        return kept
    if comparisons and args.fail_on_regression is not None:
        return gate_all(comparisons, args.fail_on_regression, args.quiet) or kept or delivered
    return kept or delivered


