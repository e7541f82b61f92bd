"""The lowest releases pyproject.toml allows of Textual, psutil and platformdirs, installed in
a second venv beside the one running the suite, run a few of the app's quick tests and
diskmark's own start: a range is only true if its floor is tested (the suite itself runs on
the newest releases the ranges allow, which .venv installs). The second venv is kept inside
the first (``diskmark-floor``), so a rerun installs nothing; it is made anew when the floors
change. Needs the package index, as ./test.sh does to make .venv."""

from __future__ import annotations

import fcntl
import importlib.metadata
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[2]

#: Quick tests that use what each floor must provide: Textual's themes (their ``ansi``),
#: screens, keys and footer; psutil's mount table (the target picker); shtab's bash script,
#: whose reading of a baseline helper's lines makes names complete safely; no fio.
FLOOR_TESTS = ["tests/app/test_themes.py", "tests/app/test_keymap.py",
               "tests/app/test_status_line.py", "tests/app/test_target_picker.py::"
               "test_mount_table_lists_the_mount_of_tmp_path", "tests/packaging/test_completion.py::"
               "test_bash_completes_commands_options_choices_and_baselines",
               "tests/packaging/test_completion.py::"
               "test_bash_offers_each_name_quoted_as_the_line_needs_it"]

#: The packages pyproject.toml gives a range, each installed at its floor.
RANGED = ("textual", "psutil", "platformdirs", "shtab", "resvg-py")


def floors() -> dict[str, str]:
    """Each ranged dependency's lowest allowed version, read from pyproject.toml."""
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    found = {}
    for dep in deps:
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+),<([0-9.]+)", dep.replace(" ", ""))
        assert m, f"{dep!r} is not a tested range (name>=floor,<next-major)"
        found[m[1].lower()] = m[2]
    assert set(found) == set(RANGED), found
    return found


def floor_venv() -> Path:
    """Inside the venv running the tests, so that it is kept with it; a temporary one when
    the tests run outside a venv."""
    if sys.prefix == sys.base_prefix:
        return Path(os.environ.get("TMPDIR", "/tmp")) / f"diskmark-floor-{os.getuid()}"
    return Path(sys.prefix) / "diskmark-floor"


def ensure_floor_venv(venv: Path, requirements: list[str]) -> None:
    stamp = venv / ".diskmark-floor"
    wanted = "\n".join(requirements) + "\n"
    if stamp.exists() and stamp.read_text() == wanted:
        return
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    stamp.unlink(missing_ok=True)
    pip = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
                          "--disable-pip-version-check", "--only-binary", ":all:", *requirements],
                         capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, f"pip could not install the floors {requirements}:\n{pip.stderr}"
    stamp.write_text(wanted)


def test_the_lowest_allowed_releases_run_the_app_and_the_command(tmp_path):
    pins = [f"{name}=={version}" for name, version in floors().items()]
    # the test tools as the suite has them, so only the floors differ
    tools = [f"{name}=={importlib.metadata.version(name)}" for name in ("pytest", "pytest-asyncio")]
    venv = floor_venv()
    venv.parent.mkdir(parents=True, exist_ok=True)
    with open(venv.parent / ".diskmark-floor.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two suites at once share the venv, made once
        ensure_floor_venv(venv, pins + tools)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "DISKMARK_"))}
    env["PYTHONPATH"] = str(ROOT)

    installed = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(*(f'{n}=={m.version(n)}' "
         f"for n in {RANGED!r}))"], capture_output=True, text=True, env=env, timeout=60)
    assert installed.stdout.split() == pins, installed.stderr

    # the command with no DISKMARK_HOME: platformdirs places the user's presets under HOME
    home = tmp_path / "home"
    home.mkdir()
    start = subprocess.run([python, "-m", "diskmark", "presets"], capture_output=True, text=True,
                           env={**{k: v for k, v in env.items() if not k.startswith("XDG_")},
                                "HOME": str(home)}, timeout=60)
    assert start.returncode == 0, start.stderr
    assert f"User presets: {home}/.config/diskmark/presets/*.toml" in start.stdout

    tests = subprocess.run([python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p",
                            "no:xdist", *FLOOR_TESTS], cwd=ROOT, capture_output=True, text=True,
                           env=env, timeout=300)
    summary = tests.stdout.strip().splitlines()[-1] if tests.stdout.strip() else ""
    print(f"on {' '.join(pins)}: {summary}")
    assert tests.returncode == 0, f"the quick tests fail on {pins}:\n{tests.stdout[-4000:]}"
    assert re.search(r"\d+ passed", summary) and "failed" not in summary, summary
