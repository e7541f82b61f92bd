"""The engine and everything below the views must not import Textual (DESIGN.md §6)."""

import subprocess
import sys

import pytest

CORE = ["diskmark.model.results", "diskmark.engine", "diskmark.presets", "diskmark.report.text",
        "diskmark.drive.probe", "diskmark.themes", "diskmark.store.store",
        "diskmark.report.compare", "diskmark.store.app_settings", "diskmark.cli.main",
        "diskmark.store.database", "diskmark.store.legacy", "diskmark.report.trend",
        "diskmark.report.share", "diskmark.cli.history"]


@pytest.mark.parametrize("module", CORE)
def test_core_module_does_not_import_textual(module):
    code = (f"import importlib.util, sys\n"
            f"if importlib.util.find_spec({module!r}) is None: print('absent'); sys.exit(0)\n"
            f"import {module}\n"
            f"bad = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
            f"print('textual' if bad else 'clean')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    if out.stdout.strip() == "absent":
        pytest.skip(f"{module} does not exist yet")
    assert out.stdout.strip() == "clean", f"{module} pulls in Textual"
