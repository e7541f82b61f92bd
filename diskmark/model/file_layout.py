"""Where the test file lies on the filesystem: what filefrag would say of it.

The RAID6 offset/fragmentation article found that position (outer or inner tracks) and
fragmentation change a spinning array's figures; :mod:`diskmark.engine.fileinfo` measures
it, the reports and the details say it. Re-exported by :mod:`diskmark.model.results`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any


@dataclass
class FileLayout:
    """Where the test file lies (the RAID6 offset/fragmentation article): its extents as filefrag counts them, how many
    physically separate pieces they form, and where on the filesystem it starts."""

    extents: int
    fragments: int
    start_offset: int  # physical byte offset of the first extent
    start_fraction: float | None = None  # start_offset / filesystem size, 0 = outer tracks

    @property
    def fragmented(self) -> bool:
        return self.fragments > 1

    def to_dict(self) -> dict[str, Any]:
        return asdict(self) | {"fragmented": self.fragmented}  # derived; from_dict ignores it

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FileLayout:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in d.items() if k in known})
