"""What the engine says while it runs: progress, a test started, a pass finished, a test
finished, a notice. The CLI prints them, the app draws them; both get the same objects.
Nothing here imports Textual."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.model.results import TestResult


class Phase(StrEnum):
    CHECKING = "checking"
    PREPARING = "preparing"  # writing the test file full of data
    WARMUP = "warm-up"  # CDM's discarded first pass
    MEASURING = "measuring"
    INTERVAL = "interval"  # the pause between tests
    SYNC = "sync"  # waiting for the kernel to flush what a write test left dirty
    SETTLE = "settle"  # waiting for the system's dirty pages to drain before measuring
    CLEANUP = "cleanup"


@dataclass(frozen=True)
class Progress:
    """Emitted about once a second while anything runs."""

    phase: Phase
    message: str = ""  # engine-neutral description, e.g. "SEQ1M Q8T1 Read"
    test_index: int | None = None  # position in the plan
    test_key: str | None = None
    run: int = 0  # 1-based pass number, 0 for the warm-up
    runs: int = 0
    percent: float = 0.0  # of the current step, 0..100
    mb_s: float | None = None  # live bandwidth of the current pass
    eta_s: float | None = None  # remaining seconds of the whole session
    session_percent: float = 0.0  # 0..100
    dirty_bytes: int | None = None  # /proc/meminfo while a write is being flushed
    writeback_bytes: int | None = None


@dataclass(frozen=True)
class TestStarted:
    __test__ = False
    test_index: int
    result: TestResult  # empty runs; filled as passes finish


@dataclass(frozen=True)
class RunFinished:
    test_index: int
    result: TestResult  # with the new pass appended
    warmup: bool


@dataclass(frozen=True)
class TestFinished:
    __test__ = False
    test_index: int
    result: TestResult


@dataclass(frozen=True)
class Notice:
    """Something the user should read (a warning about the target, a fallback taken)."""

    text: str
    severity: str = "warning"


Event = Progress | TestStarted | RunFinished | TestFinished | Notice

