"""``diskmark run --target A --target B``: several targets on this machine in one session,
each test on every target in turn (:mod:`diskmark.engine.sides`), shown side by side with the
first target the reference; each target's session kept in the history as a run of its own,
and saved as a baseline of its own (``NAME@TARGET``).

Exit codes as a local run: 2 when nothing was started (a target given twice, a target that
cannot be used, bad arguments), 1 when a target failed part-way (the others' results are
kept, reported and saved; the failed targets are named), 3 when a target regressed against
its baseline, 4 when a target's run could not be kept in the history, 130 when stopped.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from diskmark.cli.output import EXIT_USAGE, ProgressLine, error, exit_code_for
from diskmark.cli.saving import conclude, open_store
from diskmark.cli.stopping import run_stoppable
from diskmark.locale import N_, _, ngettext
from diskmark.locale.text_safety import shown

if TYPE_CHECKING:
    from diskmark.cli.saving import Label
    from diskmark.files.destination import Destination
    from diskmark.model.events import Event
    from diskmark.model.settings import Settings
    from diskmark.model.sides import TargetsResult
    from diskmark.report.compare import Comparison

# TRANSLATORS: printed as it is below `diskmark run --help`'s text: keep each line under 92
# characters (CJK: 46); it begins with an empty line.
TARGETS_HELP = N_("""
several targets: --target A --target B [--target C…] measures every target in one
session, each test on every target in turn (test 1 on A, test 1 on B, test 2 on A…), so
the machine's heat, the time of day and other load fall on all alike; each target gets
its own test file, all laid out before the first test. The report shows them side by
side, each against the first (the reference): ▲ better, ▼ worse, = within the noise.
Each target's run goes to the history on its own; --save-baseline NAME saves each as
"NAME@TARGET" (TARGET its absolute path), and --compare NAME compares each with
"NAME@TARGET" when it exists, else with NAME. A target that fails part-way fails alone
(exit status 1, naming it). Not with --host.
""")


def wanted(args: argparse.Namespace) -> bool:
    return len(getattr(args, "targets", ())) > 1


class TargetsProgress(ProgressLine):
    """Progress on stderr, each line naming its target: one target measures at a time."""

    def __init__(self, labels: list[str], enabled: bool = True) -> None:
        super().__init__(enabled)
        self.labels = labels

    def on_side_event(self, index: int, event: Event) -> None:
        from diskmark.model.events import Progress, TestFinished
        from diskmark.report.text import describe_progress

        if self.noticed(event, self.labels[index]) or not self.enabled:
            return
        where = f"{shown(self.labels[index], one_line=True)}: "
        if isinstance(event, Progress) and self.tty:
            self.live(where + describe_progress(event))
        elif isinstance(event, TestFinished):
            self.finished(event.result, where)


def cmd_targets(args: argparse.Namespace, parser: argparse.ArgumentParser, settings: Settings,
                destination: Destination | None) -> int:
    from diskmark.engine.errors import DiskmarkError
    from diskmark.engine.runner import Engine
    from diskmark.engine.sides import distinct_targets, each_target

    try:
        labels = distinct_targets(args.targets)
    except DiskmarkError as e:
        error(str(e))
        return EXIT_USAGE
    opened = open_store(args, parser, labels)
    if isinstance(opened, int):
        return opened
    store, references = opened
    engine = Engine()
    progress = TargetsProgress(labels, enabled=not args.quiet)
    try:
        result, interrupted = run_stoppable(
            lambda: engine.run_targets(each_target(settings, args.targets),
                                       progress.on_side_event, args.destroy_data), engine.stop)
    except DiskmarkError as e:
        progress.clear()
        error(str(e))
        return exit_code_for(e)
    progress.clear()

    def failed(names: list[str]) -> str:
        return ngettext("failed on {failed} of {count} target: {targets}; the other targets' "
                        "results are kept.",
                        "failed on {failed} of {count} targets: {targets}; the other targets' "
                        "results are kept.", len(labels)).format(
                            failed=len(names), count=len(labels), targets=", ".join(names))

    return conclude(store, references, result, args,
                    lambda comparisons: _deliver_report(result, args, comparisons, destination),
                    interrupted, _("interrupted; fio stopped and every target's test file "
                                   "removed."), failed)


def _deliver_report(result: TargetsResult, args: argparse.Namespace,
                    comparisons: dict[Label, tuple[Comparison, str]],
                    destination: Destination | None) -> int:
    from diskmark.cli.sides_report import SidesForms, deliver_sides
    from diskmark.report import side_by_side

    forms = SidesForms(json=side_by_side.targets_json, csv_column="target",
                       markdown=side_by_side.targets_markdown, grid=side_by_side.targets_text)
    return deliver_sides(result, forms, args, comparisons, destination)
