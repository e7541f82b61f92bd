"""The package as the index would get it: ``python -m build`` makes the sdist and, from it,
the wheel; ``twine check`` passes them; the wheel holds the presets, the themes, the compiled
catalogs (not their sources, which the sdist keeps), the man page, the desktop entry and the
licence; installed into a clean venv, its ``diskmark`` runs a real one-test benchmark and its
desktop entry passes desktop-file-validate without a hint. One build for the module (about half a minute,
most of it pip installing into the build's and the clean venv)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest
from conftest import leftovers

from diskmark import __version__
from diskmark.locale import LANGUAGES

ROOT = Path(__file__).parents[2]
LANGS = tuple(code for code in LANGUAGES if code != "en")


def run(*args: str | Path, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in args], capture_output=True, text=True,
                          timeout=600, **kw)
    assert done.returncode == 0, f"{args}: {done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    started = time.monotonic()
    run(sys.executable, "-m", "build", "--outdir", out, ROOT)
    print(f"python -m build: {time.monotonic() - started:.1f} s")
    return out


def test_twine_passes_the_sdist_and_the_wheel(dist):
    files = sorted(dist.iterdir())
    assert [f.name for f in files] == [f"diskmark-{__version__}-py3-none-any.whl",
                                       f"diskmark-{__version__}.tar.gz"]
    done = run(sys.executable, "-m", "twine", "check", "--strict", *files)
    assert done.stdout.count("PASSED") == 2, done.stdout


def test_the_wheel_and_the_sdist_hold_what_a_user_needs(dist):
    wheel = zipfile.ZipFile(dist / f"diskmark-{__version__}-py3-none-any.whl")
    names = set(wheel.namelist())
    data = f"diskmark-{__version__}.data/data/share"
    info = f"diskmark-{__version__}.dist-info"
    wanted = {"diskmark/presets/default.toml", "diskmark/presets/nvme.toml",
              "diskmark/presets/flash.toml", "diskmark/themes/diskmark.toml",
              "diskmark/themes/diskmark-mono.toml", "diskmark/app/app.tcss",
              f"{data}/man/man1/diskmark.1", f"{data}/applications/diskmark.desktop",
              *(f"{data}/man/{lang}/man1/diskmark.1" for lang in LANGS),
              f"{data}/icons/hicolor/scalable/apps/diskmark.svg", f"{info}/licenses/LICENSE",
              *(f"diskmark/locale/{lang}/LC_MESSAGES/diskmark.mo" for lang in LANGS)}
    assert wanted <= names, sorted(wanted - names)
    sources = sorted(n for n in names if n.endswith((".po", ".pot")))
    assert sources == [], f"the wheel ships the catalogs' sources: {sources}"
    page = wheel.read(f"{data}/man/man1/diskmark.1").decode()
    assert page.startswith(".TH DISKMARK 1") and f'"diskmark {__version__}"' in page
    meta = wheel.read(f"{info}/METADATA").decode()
    for line in ("License-Expression: MIT", "License-File: LICENSE",
                 "Project-URL: Changelog, ", "Classifier: Topic :: System :: Benchmark",
                 "Classifier: Operating System :: POSIX :: Linux", "Requires-Dist: textual<9,>=8.2.5"):
        assert line in meta, line
    with tarfile.open(dist / f"diskmark-{__version__}.tar.gz") as sdist:
        members = {m.name.split("/", 1)[1] for m in sdist.getmembers() if "/" in m.name}
    assert {"LICENSE", "CHANGELOG.md", "share/man/man1/diskmark.1", "share/man/ja/man1/diskmark.1",
            "data/diskmark.desktop", "diskmark/locale/diskmark.pot",
            *(f"diskmark/locale/{lang}/LC_MESSAGES/diskmark.po" for lang in LANGS)} <= members
    assert not [m for m in members if m.endswith(".mo")]  # compiled when the sdist is built


@pytest.mark.needs("man", "desktop-file-validate")
def test_the_wheel_installed_in_a_clean_venv_runs_a_benchmark(dist, tmp_path):
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", venv)
    started = time.monotonic()
    run(venv / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check",
        dist / f"diskmark-{__version__}-py3-none-any.whl")
    print(f"pip install of the wheel: {time.monotonic() - started:.1f} s")
    assert (venv / "share" / "man" / "man1" / "diskmark.1").is_file()
    assert (venv / "share" / "man" / "ja" / "man1" / "diskmark.1").is_file()
    entry = venv / "share" / "applications" / "diskmark.desktop"
    assert entry.is_file()
    if shutil.which("desktop-file-validate"):  # its hints too: one main category, one menu
        valid = subprocess.run(["desktop-file-validate", str(entry)], capture_output=True, text=True)
        assert valid.returncode == 0 and valid.stdout + valid.stderr == "", valid.stdout + valid.stderr
    target = tmp_path / "target"
    target.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PYTEST_"))}
    env["DISKMARK_HOME"] = str(tmp_path / "home")
    assert run(venv / "bin" / "diskmark", "--version", env=env).stdout.strip() == \
        f"diskmark {__version__}"
    done = run(venv / "bin" / "diskmark", "run", "--target", target, "--profile", "demo",
               "--mode", "read", "--size", "16MiB", "--count", "1", "--measure", "1",
               "--interval", "0", "--format", "json", "-q", cwd=tmp_path, env=env)
    result = json.loads(done.stdout)
    assert result["status"] == "complete", result["error"]
    assert [(t["label"], t["kind"]) for t in result["tests"]] == [("SEQ1M Q8T1", "read")]
    assert result["tests"][0]["best"]["mb_s"] > 0
    assert leftovers(target) == []
    if shutil.which("man"):
        page = run("man", "-l", venv / "share" / "man" / "man1" / "diskmark.1",
                   env={**env, "MANWIDTH": "100"})
        assert "diskmark completion" in page.stdout
