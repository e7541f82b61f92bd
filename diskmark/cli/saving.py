"""What a run keeps and what it is held against, for one machine, several targets or many
hosts alike: the store opened and the baselines found before anything runs (a mistake costs
no wait), each complete session kept in the history (and saved as a baseline when asked)
after it, each compared with its baseline, the regression gate, and the exit status of a
run of several sides.

A local run is a fleet of one host here: its label is None, its baseline is ``NAME``; a
host's label is its address, a target's (of several) its absolute path, and its baseline
``NAME@LABEL`` (``new@db3``, ``new@/mnt/a``) when there is one, else the shared ``NAME``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import TYPE_CHECKING

from diskmark.cli.output import (
    EXIT_FAILED,
    EXIT_INTERRUPTED,
    EXIT_NOT_KEPT,
    EXIT_OK,
    EXIT_REGRESSION,
    error,
    exit_code_for,
    gate,
    notice,
)
from diskmark.locale import _
from diskmark.locale.text_safety import shown
from diskmark.model.results import SessionResult, Status

if TYPE_CHECKING:
    from collections.abc import Callable

    from diskmark.model.sides import Sides
    from diskmark.report.compare import Comparison
    from diskmark.store.entry import Entry
    from diskmark.store.store import Store

Label = str | None  # None: this machine; else a host's label, or one of several targets'


def baseline_for(name: str, label: Label) -> str:
    """The baseline of ``name`` for a host or a target: ``NAME@LABEL`` (this machine's
    single target's: ``NAME``)."""
    return name if label is None else f"{name}@{label}"


def open_store(args: argparse.Namespace, parser: argparse.ArgumentParser,
               labels: Iterable[Label]) -> tuple[Store, dict[Label, tuple[Entry, str]]] | int:
    """Before anything runs: each label's baseline for --compare (a host's own
    ``NAME@HOST``, else the shared NAME) and that the names --save-baseline will take are
    free. Returns (store, {label: (baseline entry, its name)}), or an exit code after the
    message."""
    from diskmark.store.errors import NameTaken, NotFound, StoreError
    from diskmark.store.store import Store

    if args.fail_on_regression is not None and not args.compare:
        parser.error(_("--fail-on-regression needs --compare NAME"))  # exits 2
    if args.note and not args.save_baseline:
        parser.error(_("--note goes with --save-baseline NAME"))
    if args.replace and not args.save_baseline and args.output in (None, "-"):
        parser.error(_("--replace goes with --output FILE or --save-baseline NAME"))
    store = Store()
    references: dict[Label, tuple[Entry, str]] = {}
    try:
        for label in labels:
            if args.compare:
                own = baseline_for(args.compare, label)
                try:
                    references[label] = (store.get_baseline(own), own)
                except NotFound:
                    if own == args.compare:
                        raise
                    references[label] = (store.get_baseline(args.compare), args.compare)
            if args.save_baseline is not None:
                store.check_free(baseline_for(args.save_baseline, label), replace=args.replace)
    except NameTaken as e:
        error(_("{problem}; choose another name, or add --replace to replace it").format(
            problem=e))
        return exit_code_for(e)
    except StoreError as e:
        error(str(e))
        return exit_code_for(e)
    return store, references


def keep(store: Store, sessions: Iterable[tuple[Label, SessionResult]],
         args: argparse.Namespace) -> int:
    """Every complete session in the history (its id in ``args.history_ids``, by label) and,
    with --save-baseline, as a baseline. A history that cannot be written gives
    EXIT_NOT_KEPT, so a script notices (the report is printed all the same); a baseline
    that cannot be saved is an error of its own."""
    from diskmark.store.errors import StoreError

    status = EXIT_OK
    args.history_ids = {}
    for label, session in sessions:
        if session.status is not Status.COMPLETE:
            if label is None and args.save_baseline is not None:
                error(_("not saved as baseline {name}: the run did not complete").format(
                    name=repr(args.save_baseline)))
            continue
        try:
            args.history_ids[label] = store.save_history(session).name
        except StoreError as e:
            if label is None:
                error(_("this run was not kept in the history (exit status {status}): "
                        "{problem}").format(status=EXIT_NOT_KEPT, problem=e))
            else:
                error(_("the run on {host} was not kept in the history (exit status {status}): "
                        "{problem}").format(host=label, status=EXIT_NOT_KEPT, problem=e))
            status = status or EXIT_NOT_KEPT
        if args.save_baseline is None:
            continue
        name = baseline_for(args.save_baseline, label)
        try:
            entry = store.save_baseline(session, name, args.note, replace=args.replace)
        except StoreError as e:
            if label is None:
                error(_("not saved as baseline: {problem}").format(problem=e))
            else:
                error(_("{host} not saved as baseline: {problem}").format(host=label, problem=e))
            status = exit_code_for(e)
            continue
        if not args.quiet:
            if label is None:
                notice(_("saved as baseline {name} ({path})").format(
                    name=repr(entry.name), path=entry.path))
            else:
                notice(_("saved as baseline {name}").format(name=repr(entry.name)))
    return status


def compare_all(sessions: Iterable[tuple[Label, SessionResult]],
                references: dict[Label, tuple[Entry, str]]) -> dict[Label, tuple[Comparison, str]]:
    """Each complete session against its baseline: {label: (comparison, baseline name)}."""
    from diskmark.report.compare import compare

    out = {}
    for label, session in sessions:
        if label in references and session.status is Status.COMPLETE:
            entry, name = references[label]
            assert entry.session is not None
            out[label] = (compare(session, entry.session, name), name)
    return out


def gate_all(comparisons: dict[Label, tuple[Comparison, str]], pct: float, quiet: bool) -> int:
    """The regression gate for each session: EXIT_REGRESSION when any regressed (naming it),
    EXIT_USAGE when one had nothing to compare, else EXIT_OK."""
    worst = EXIT_OK
    for label, (comparison, name) in comparisons.items():
        where = "diskmark: " if label is None else f"diskmark: {shown(label, one_line=True)}: "
        # TRANSLATORS: a noun phrase put in the gate's sentences ("worse than baseline 'x'")
        code = gate(comparison, pct, _("baseline {name}").format(name=repr(name)), quiet, where)
        if code == EXIT_REGRESSION or worst == EXIT_OK:
            worst = code
    return worst


def conclude(store: Store, references: dict[Label, tuple[Entry, str]], sides: Sides,
             args: argparse.Namespace, deliver: Callable[[dict[Label, tuple[Comparison, str]]], int],
             interrupted: bool, stopped: str, failed: Callable[[list[str]], str]) -> int:
    """The end of a run of several sides (hosts, targets): each complete one kept and
    compared, the report delivered (``deliver`` given the comparisons), then the exit
    status: 1 when the report could not be given, 130 when a signal came (``interrupted``)
    or a side was stopped (``stopped`` says what was cleaned up), 1 when a side failed
    (``failed`` names them; the others are kept), the history's or the baseline's, the
    gate's."""
    pairs: list[tuple[Label, SessionResult]] = list(zip(sides.labels, sides.sessions))
    kept = keep(store, pairs, args)
    comparisons = compare_all(pairs, references)
    delivered = deliver(comparisons)
    if not args.quiet:  # also when the report could not be given
        for label, history_id in args.history_ids.items():
            notice(_("{host} kept in the history as {id}.").format(host=label, id=history_id))
    if delivered == EXIT_FAILED:
        return EXIT_FAILED
    if interrupted or any(s.status is Status.CANCELLED for s in sides.sessions):
        error(stopped)
        return EXIT_INTERRUPTED
    gone = [label for label, s in pairs if s.status is Status.FAILED and label is not None]
    if gone:
        error(failed(gone))
        return EXIT_FAILED
    if kept not in (EXIT_OK, EXIT_NOT_KEPT):
        return kept
    if comparisons and args.fail_on_regression is not None:
        return gate_all(comparisons, args.fail_on_regression, args.quiet) or kept or delivered
    return kept or delivered
