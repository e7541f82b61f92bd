"""The measurement engine: preset + settings → fio runs → results. Knows nothing of Textual.

The names below load when first asked for: the app imports :mod:`diskmark.engine.plan` or
:mod:`~diskmark.engine.errors` at start, which must not pull in the runner (psutil, the
system readers) before the first frame.
"""

from importlib import import_module

_HOME = {"DirectIOUnsupported": "errors", "DiskmarkError": "errors", "FioFailed": "errors",
         "FioMissing": "errors", "TargetError": "errors", "Fio": "fio", "locate": "fio",
         "Plan": "plan", "PlannedTest": "plan", "build_plan": "plan", "Engine": "runner"}

__all__ = sorted(_HOME)


def __getattr__(name: str):
    if name in _HOME:
        return getattr(import_module(f"diskmark.engine.{_HOME[name]}"), name)
    raise AttributeError(f"module 'diskmark.engine' has no attribute {name!r}")
