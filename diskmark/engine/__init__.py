"""The measurement engine: preset + settings → fio runs → results. Knows nothing of Textual."""

from diskmark.engine.errors import (DirectIOUnsupported, DiskmarkError, FioFailed, FioMissing,
                                    TargetError)
from diskmark.engine.fio import Fio, locate
from diskmark.engine.plan import Plan, PlannedTest, build_plan
from diskmark.engine.runner import Engine

__all__ = ["DirectIOUnsupported", "DiskmarkError", "Engine", "Fio", "FioFailed", "FioMissing",
           "Plan", "PlannedTest", "TargetError", "build_plan", "locate"]
