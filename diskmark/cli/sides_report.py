"""The report of a run of several sides (a fleet's hosts, or several targets here) in the
format asked for. One way for both kinds, so that a format added or mended for one is there
for the other: they differ only in which report function draws each format."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from diskmark.cli.output import deliver
from diskmark.locale.text_safety import shown
from diskmark.model.sides import Sides

if TYPE_CHECKING:
    from diskmark.cli.saving import Label
    from diskmark.files.destination import Destination
    from diskmark.model.units import Unit
    from diskmark.report.compare import Comparison

S = TypeVar("S", bound=Sides)


@dataclass(frozen=True)
class SidesForms(Generic[S]):
    """How one kind of sides is drawn in each format (report.side_by_side's functions)."""

    json: Callable[[S, dict[str, dict[str, Any]]], str]  # with extra fields per label
    csv_column: str  # the CSV's first column, naming the side: "host" or "target"
    markdown: Callable[[S], str]
    grid: Callable[[S, Unit], str]  # the default text: the sides' grid in one unit


def deliver_sides(result: S, forms: SidesForms[S], args: argparse.Namespace,
                  comparisons: dict[Label, tuple[Comparison, str]],
                  destination: Destination | None) -> int:
    """The report in ``args.format``, each side's comparison with its baseline in it, to
    --output or standard output; the exit status of delivering it."""
    from diskmark.report import side_by_side

    if args.format == "json":
        # the sides' labels are hosts or paths (a single local run's None never comes here)
        extra: dict[str, dict[str, Any]] = {
            str(label): {"comparison": c.to_dict()} for label, (c, _name) in comparisons.items()}
        for label, history_id in args.history_ids.items():
            extra.setdefault(str(label), {})["history_id"] = history_id
        text = forms.json(result, extra)
    elif args.format == "csv":
        text = shown(side_by_side.sides_csv(result, forms.csv_column))
    elif args.format == "markdown":
        text = shown(forms.markdown(result))
    elif args.format == "text":  # each side's CrystalDiskMark text report, in their order
        from diskmark.report.cdm_report import text_report

        text = shown("\n".join(text_report(session) for session in result.sessions))
    else:
        text = forms.grid(result, args.unit)
        if comparisons:
            from diskmark.report.compare import comparison_text

            for label, (c, _name) in comparisons.items():
                text += f"\n{shown(str(label), one_line=True)}:\n{comparison_text(c)}"
        text = shown(text)
    return deliver(text, destination, args.quiet, args.format == "json")
