"""One saved result as the store hands it out: a run of the history or a named baseline,
its document parsed, or the reason it could not be."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diskmark import __version__
from diskmark.locale import _
from diskmark.model.results import SessionResult
from diskmark.model.settings import Op
from diskmark.store.errors import Damaged
from diskmark.store.schema import SCHEMA, slug

#: The test whose read and write MB/s summarise a result in listings (CDM's first row).
HEADLINE_LABEL = "SEQ1M Q8T1"


@dataclass
class Entry:
    """One saved result. ``session`` is None exactly when ``damaged`` holds the reason.

    A result in the database has its row ``id`` and ``path`` is the database file; a JSON
    file that could not be imported (damaged, or a clash) has ``id`` None and ``path`` is
    that file, which diskmark keeps where it is."""

    name: str  # baselines: the display name; history: the run's id; damaged: the file stem
    note: str
    saved: str  # ISO 8601, when it was written
    path: Path
    kind: str  # "history" or "baseline"
    session: SessionResult | None = None
    damaged: str | None = None
    diskmark_version: str = ""
    id: int | None = None  # the database row
    #: the diskmark.result/1 document as saved (unknown fields of a newer diskmark included)
    document: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @property
    def result(self) -> SessionResult:
        """The session of an entry that can be read: what the store's getters hand out
        (they raise :class:`Damaged` for one that cannot)."""
        if self.session is None:
            raise Damaged(_("{name} is damaged: {reason}").format(name=self.name,
                                                                  reason=self.damaged))
        return self.session

    @property
    def ok(self) -> bool:
        return self.damaged is None and self.session is not None

    @property
    def ident(self) -> tuple[str, int | str]:
        """What tells two entries apart (their row, or their file)."""
        return ("row", self.id) if self.id is not None else ("file", str(self.path))

    @property
    def file_name(self) -> str:
        """The name its JSON export takes: ``<slug>.json`` for a baseline, ``<id>.json``
        for a run, the file's own name for a file that was not imported."""
        if self.id is None:
            return self.path.name
        return f"{slug(self.name)}.json" if self.kind == "baseline" else f"{self.name}.json"

    @property
    def started(self) -> str:
        """When the measured session started (ISO 8601), or '' if unknown."""
        return self.session.started if self.session else ""

    @property
    def device(self) -> str:
        return self.session.system.device if self.session else ""

    @property
    def fstype(self) -> str:
        return self.session.system.fstype if self.session else ""

    @property
    def model(self) -> str:
        return self.session.system.model if self.session else ""

    def headline(self) -> tuple[str, float | None, float | None]:
        """``(label, read MB/s, write MB/s)`` of the headline test (SEQ1M Q8T1, or else the
        profile's first row); None where that figure was not measured."""
        if not self.session:
            return HEADLINE_LABEL, None, None
        tests = [t for t in self.session.tests if t.complete]
        if not tests:
            return HEADLINE_LABEL, None, None
        labels = {t.label for t in tests}
        label = HEADLINE_LABEL if HEADLINE_LABEL in labels else min(tests, key=lambda t: t.index).label
        figures = {t.op: t.best_mb_s for t in tests if t.label == label and t.op is not Op.MIX}
        return label, figures.get(Op.READ), figures.get(Op.WRITE)

    def to_file_dict(self) -> dict[str, Any]:
        if self.session is None:
            raise Damaged(_("{name} is damaged: {reason}").format(name=self.path.name,
                                                                  reason=self.damaged))
        return {"schema": SCHEMA, "kind": self.kind, "name": self.name, "note": self.note,
                "saved": self.saved, "diskmark_version": self.diskmark_version or __version__,
                "result": self.document if self.document is not None else self.session.to_dict()}
