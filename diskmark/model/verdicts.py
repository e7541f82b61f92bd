"""A check's verdict, kept with the run it judged: for each threshold the figure measured,
the limit and where the limit comes from, and pass, fail or why it cannot be told.

The verdict is judged once, when the run ends (:func:`diskmark.checks.judge`), and kept as
it was judged: a check file edited later does not change what an earlier run was told. It
holds numbers and codes; the words for them are :mod:`diskmark.report.verdicts`'.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Outcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    UNKNOWN = "unknown"  # cannot tell: the verdict says why


class Why(StrEnum):
    """Why a threshold cannot be told (or, for LINK_CAPS, why a figure below it is not the
    drive's fault)."""

    NONE = ""
    #: the run did not measure it: stopped or failed first, or a device's writes not allowed
    NOT_MEASURED = "not_measured"
    #: measured, but fio gave no such figure (no fdatasync in the job, no percentile)
    NO_FIGURE = "no_figure"
    #: the link's speed is not known here (virtio, tmpfs, network, a bridge that says none)
    NO_LINK = "no_link"
    #: the figure is short of the limit, but the link it was measured through cannot carry
    #: the limit: a card rated above a USB 2 reader's ceiling cannot be told on that reader
    LINK_CAPS = "link_caps"
    #: the measuring failed (fio's error is the detail)
    FAILED = "failed"


@dataclass
class ThresholdVerdict:
    """One threshold of a check against the run: values in the threshold's own unit."""

    figure: str  # as the check names it: "MB/s", "IOPS", "sync p99", "clat p99", "link"
    test: str  # what measured it: "SEQ1M Q1T1 write", a job's fio words, "" for the link
    limit: float
    unit: str  # as the check wrote the limit: "MB/s", "GB/s", "IOPS", "ms", "us", "s"
    below: bool  # True: the figure must stay below the limit; False: reach at least it
    source: str  # where the limit comes from
    measured: float | None = None
    outcome: Outcome = Outcome.UNKNOWN
    why: Why = Why.NONE
    detail: str = ""  # the link ("USB 480 Mb/s"), fio's error
    #: judged on the worst pass; the best one's figure when there were several
    best: float | None = None
    passes: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"figure": self.figure, "test": self.test, "limit": self.limit,
                "unit": self.unit, "below": self.below, "source": self.source,
                "measured": self.measured, "outcome": self.outcome.value,
                "why": self.why.value, "detail": self.detail, "best": self.best,
                "passes": self.passes}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> ThresholdVerdict:
        return cls(figure=str(d["figure"]), test=str(d.get("test", "")),
                   limit=float(d["limit"]), unit=str(d["unit"]), below=bool(d["below"]),
                   source=str(d.get("source", "")),
                   measured=None if d.get("measured") is None else float(d["measured"]),
                   outcome=Outcome(d.get("outcome", "unknown")), why=Why(d.get("why", "")),
                   detail=str(d.get("detail", "")),
                   best=None if d.get("best") is None else float(d["best"]),
                   passes=int(d.get("passes", 0)))


@dataclass
class CheckVerdict:
    """A check against the run: failed when any threshold failed, else cannot tell when any
    could not be told, else passed."""

    id: str
    name: str
    thresholds: list[ThresholdVerdict] = field(default_factory=list)
    #: asked for by name; False: a check of the same family judged by the same figures
    asked: bool = True
    family: str = ""

    @property
    def outcome(self) -> Outcome:
        outcomes = {t.outcome for t in self.thresholds}
        if Outcome.FAIL in outcomes:
            return Outcome.FAIL
        if Outcome.UNKNOWN in outcomes or not outcomes:
            return Outcome.UNKNOWN
        return Outcome.PASS

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "outcome": self.outcome.value,
                "asked": self.asked, "family": self.family,
                "thresholds": [t.to_dict() for t in self.thresholds]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> CheckVerdict:
        return cls(id=str(d["id"]), name=str(d.get("name", d["id"])),
                   thresholds=[ThresholdVerdict.from_dict(t) for t in d.get("thresholds", [])],
                   asked=bool(d.get("asked", True)), family=str(d.get("family", "")))
