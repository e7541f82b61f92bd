"""What a drive is claimed to do, test by test: a datasheet's "3,500 MB/s read" held against
the run's figure, so each figure can say what share of its claim it reached.

A claim is typed after ``run --claim`` or kept in the claims file under the drive's model,
in one syntax read by :mod:`diskmark.checks.claims`. It is kept with the run, so
a report made later says what the run was held against; how far short a figure may fall
before it is short of its claim is the comparison's noise rule
(:mod:`diskmark.report.claim_marks`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from diskmark.model.names import test_key
from diskmark.model.settings import Op
from diskmark.model.units import Unit


@dataclass(frozen=True)
class Claim:
    """One test's claimed figure, in ``unit`` (GB/s is kept as MB/s)."""

    label: str  # "SEQ1M Q8T1"
    op: Op
    unit: Unit
    value: float
    source: str  # "--claim", or the claims file and the model it was kept under

    @property
    def key(self) -> str:
        return test_key(self.label, self.op)

    def to_dict(self) -> dict[str, Any]:
        return {"test": self.key, "label": self.label, "op": self.op.value,
                "unit": self.unit.value, "value": self.value, "source": self.source}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Claim:
        return cls(label=str(d["label"]), op=Op(d["op"]), unit=Unit(d["unit"]),
                   value=float(d["value"]), source=str(d.get("source", "")))
