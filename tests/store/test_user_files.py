"""Files diskmark reads but does not own (user presets and themes, the settings file, saved
results) that are hostile by accident: a FIFO, a link to /dev/zero, nesting 50,000 levels
deep, megabytes of junk. Each is a problem for that one file, reported, and everything else
loads. Real processes with a time limit (a FIFO would block forever) and a memory limit (so
that /dev/zero fails fast instead of taking the machine with it)."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

GOOD_PRESET = ('id = "mine"\nname = "Mine"\n[profiles.default]\n'
               'tests = [{ pattern = "RND", block = "8KiB", queues = 4, threads = 2 }]\n')
MEMORY_LIMIT = 1024**3


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))


def diskmark(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=timeout,
                          preexec_fn=limited)


def python(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, timeout=timeout, preexec_fn=limited)


def make_fifo(path: Path) -> None:
    os.mkfifo(path)


def make_zero_link(path: Path) -> None:
    path.symlink_to("/dev/zero")


def make_deep_toml(path: Path) -> None:
    path.write_text("id = " + "[" * 50_000 + "]" * 50_000 + "\n")


def make_deep_json(path: Path) -> None:
    path.write_text("[" * 50_000 + "]" * 50_000)


def make_huge(path: Path) -> None:
    with open(path, "w") as f:
        f.write("# padding\n" * 300_000)  # 3 MB of comments: valid, but no preset is that big


HOSTILE = {"fifo": make_fifo, "zero": make_zero_link, "deep": make_deep_toml,
           "huge": make_huge}
REASONS = {"fifo": "not a regular file (a FIFO)",
           "zero": "not a regular file (a character device)",
           "deep": "nested too deeply", "huge": "larger than 1 MiB"}


@pytest.fixture
def presets_dir(isolated_home) -> Path:
    path = isolated_home / "config" / "presets"
    path.mkdir(parents=True)
    (path / "mine.toml").write_text(GOOD_PRESET)
    return path


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_hostile_user_preset_is_one_problem_and_the_others_load(presets_dir, kind):
    HOSTILE[kind](presets_dir / f"a-{kind}.toml")
    out = diskmark("presets")
    assert out.returncode == 0, out.stderr[-2000:]
    assert "mine: Mine" in out.stdout and "RND8K Q4T2" in out.stdout
    assert "default: Default" in out.stdout
    (problem,) = [ln for ln in out.stderr.splitlines() if "skipped preset" in ln]
    assert f"a-{kind}.toml" in problem and REASONS[kind] in problem, problem
    # `run` reads the presets too: it must reach its own checks, not die in the loader
    out = diskmark("run", "--preset", "mine", "--target", str(presets_dir / "missing"))
    assert out.returncode == 2 and "does not exist" in out.stderr, out.stderr[-2000:]


@pytest.mark.parametrize("kind", ["fifo", "zero", "deep", "huge"])
def test_a_hostile_settings_file_gives_defaults_and_is_never_replaced(isolated_home, kind):
    config = isolated_home / "config"
    config.mkdir(parents=True)
    settings = config / "settings.json"
    {"deep": make_deep_json}.get(kind, HOSTILE[kind])(settings)
    out = python("from diskmark.app.preferences import load_preferences\n"
                 "from diskmark.store.app_settings import AppConfig, save_config\n"
                 "state, notices = load_preferences()\n"
                 "print(state.settings.size, '|'.join(notices))\n"
                 "try:\n"
                 "    save_config(AppConfig(count=3))\n"
                 "except OSError as e:\n"
                 "    print('not saved:', e)\n")
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith(f"{1024**3} ") and "settings file" in out.stdout
    reason = {"deep": "nested too deeply"}.get(kind, REASONS[kind])
    assert reason in out.stdout, out.stdout
    if kind in ("fifo", "zero"):
        assert "not saved" in out.stdout  # a FIFO or a link to a device is left alone
        assert settings.is_symlink() or settings.is_fifo()


def test_hostile_user_themes_are_skipped(isolated_home):
    themes = isolated_home / "config" / "themes"
    themes.mkdir(parents=True)
    make_fifo(themes / "fifo.toml")
    make_zero_link(themes / "zero.toml")
    make_deep_toml(themes / "deep.toml")
    out = python("from diskmark.app.themes import load_themes\n"
                 "themes, problems = load_themes()\n"
                 "print(len(themes)); print(*problems, sep='\\n')\n")
    assert out.returncode == 0, out.stderr[-2000:]
    count, *problems = out.stdout.splitlines()
    assert int(count) == 4 and len(problems) == 3, out.stdout
    assert any("fifo.toml" in p and "FIFO" in p for p in problems)
    assert any("zero.toml" in p and "character device" in p for p in problems)
    assert any("deep.toml" in p and "nested too deeply" in p for p in problems)


def test_hostile_files_among_saved_baselines_are_listed_as_damaged(isolated_home):
    baselines = isolated_home / "data" / "baselines"
    baselines.mkdir(parents=True)
    make_fifo(baselines / "fifo.json")
    make_zero_link(baselines / "zero.json")
    make_deep_json(baselines / "deep.json")
    out = diskmark("baselines", "list")
    assert out.returncode == 0, out.stderr[-2000:]
    lines = {ln.split()[0]: ln for ln in out.stdout.splitlines()[1:]}
    assert "not a regular file (a FIFO)" in lines["fifo"]
    assert "not a regular file (a character device)" in lines["zero"]
    assert "nested too deeply" in lines["deep"]
    source = isolated_home / "import.json"
    make_fifo(source)
    out = diskmark("baselines", "import", str(source))
    assert out.returncode == 2 and "not a regular file (a FIFO)" in out.stderr
    assert json.loads(json.dumps(sorted(p.name for p in baselines.iterdir()))) == [
        "deep.json", "fifo.json", "zero.json"]
