"""Shared fixtures and helpers: an isolated DISKMARK_HOME, the settings of a tiny real run,
waiting for the app, and the checks that no fio process and no test file is left behind."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

import psutil
import pytest
from system_tools import TOOLS, missing_packages

from diskmark.model.settings import Settings
from diskmark.model.units import MIB

# The tests read diskmark's English (a test of another language sets its own): whatever
# language the machine running them speaks, neither they nor the diskmark they start follow it.
for _name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"
# Nor does the app copy to the clipboard of the desktop or the tmux the tests were started in
# (tests/app/test_clipboard.py gives it one of its own).
for _name in ("DISPLAY", "WAYLAND_DISPLAY", "TMUX"):
    os.environ.pop(_name, None)



def _compile_stale_catalogs() -> None:
    """The catalogs compiled as an install compiles them (hatch_build.py), when a .po is
    newer than its .mo: a catalog changed since the last install is what the tests read."""
    locale_dir = Path(__file__).resolve().parent.parent / "diskmark" / "locale"
    stale = [po for po in locale_dir.glob("*/LC_MESSAGES/diskmark.po")
             if not po.with_suffix(".mo").exists()
             or po.with_suffix(".mo").stat().st_mtime < po.stat().st_mtime]
    if not stale:
        return
    try:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po
    except ImportError:  # the test extras have Babel; without it the install's catalogs stay
        return
    for po in stale:
        with po.open("rb") as f:
            catalog = read_po(f)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)


_compile_stale_catalogs()

#: A real run as short as fio allows: the smallest file, one pass of one second, no rest.
TINY = dict(size=16 * MIB, count=1, measure=1.0, interval=0.0)
#: The same on the command line.
TINY_ARGS = ["--size", "16MiB", "--count", "1", "--measure", "1", "--interval", "0"]


def tiny(target: Path, **kw) -> Settings:
    """Settings for a tiny real run in ``target``; ``kw`` changes any of them."""
    return Settings(**{"target": str(target), **TINY, **kw})


async def wait_until(pilot, condition, timeout: float, what: str, step: float = 0.05) -> None:
    """Let the app run until ``condition()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        await pilot.pause(step)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path_factory, monkeypatch):
    """Never touch the user's real settings, history or baselines."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DISKMARK_HOME", str(home))
    return home


def fio_left(directory: Path, within: float = 5.0) -> list[psutil.Process]:
    """The fio processes still working in ``directory`` after up to ``within`` seconds: one
    killed with its parent (PR_SET_PDEATHSIG) ends as the kernel gets to it, which on a
    loaded machine is not at once; an exited one not yet reaped (a zombie) runs no more."""
    deadline = time.monotonic() + within
    while True:
        alive = []
        for p in fio_processes(directory):
            try:
                if p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(p)
            except psutil.Error:
                pass
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.05)


def fio_processes(directory: Path) -> list[psutil.Process]:
    """fio processes working in ``directory``: fio runs inside a private directory there
    (its working directory), in its own session, so match on where it works, not on the
    process tree."""
    found = []
    where = os.path.realpath(directory)
    for p in psutil.process_iter(["name", "cmdline", "cwd"]):
        try:
            cwd = p.info["cwd"] or ""
            if p.info["name"] == "fio" and (
                    cwd == where or cwd.startswith(where + os.sep)
                    or str(directory) in " ".join(p.info["cmdline"] or [])):
                found.append(p)
        except psutil.Error:
            pass
    return found


def leftovers(directory: Path) -> list[Path]:
    return sorted(directory.glob(".diskmark-*"))


@pytest.fixture
def no_leftovers():
    """Register directories; afterwards no fio process may work in them, and no test file
    may remain in them."""
    dirs: list[Path] = []
    yield dirs
    for d in dirs:
        assert fio_processes(d) == [], f"fio processes left behind in {d}"
        assert leftovers(d) == [], f"test files left behind in {d}"


#: The modules whose tests run real fio (seconds to minutes each), a fio that floods, or
#: diskmark as a process test after test: marked ``slow``, as is every test in
#: SLOW_FOLDERS, so that ``./test.sh -m "not slow"`` runs everything else in under a
#: minute. The whole suite, CI's, runs them all.
SLOW_MODULES = frozenset({
    "test_app_baselines", "test_app_markup", "test_app_pilot", "test_cli",
    "test_cli_baselines", "test_cli_odd_text", "test_cli_output", "test_cli_pipes", "test_cpu",
    "test_depth", "test_engine", "test_faults", "test_faults_tui", "test_filesystems",
    "test_store_damaged", "test_faults_flood", "test_migration", "test_user_files",
    "test_dependency_floor", "test_completion", "test_wheel",
})
#: The folders whose tests run programs many times over: diskmark as a process (cli), loop
#: devices, mounts, fio servers and Chromium (system).
SLOW_FOLDERS = frozenset({"cli", "system"})


#: Modules whose tests share one real run made by a module-scoped fixture: under xdist
#: their tests stay on one worker, so the run is made once, not once per worker.
ONE_WORKER_MODULES = frozenset({"test_store_damaged", "test_cli_baselines", "test_wheel",
                                "test_cdm_round_trip"})


def pytest_addoption(parser):
    parser.addoption(
        "--missing-system-packages", metavar="FILE",
        help="write to FILE the system packages the selected tests need that this machine "
             "lacks, one a line (./test.sh installs them; see tests/support/system_tools.py)")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items):
    for item in items:
        for marker in item.iter_markers("needs"):
            unknown = [tool for tool in marker.args if tool not in TOOLS]
            if unknown:
                raise pytest.UsageError(f"{item.nodeid}: needs {unknown}, which "
                                        f"tests/support/system_tools.py does not know")
        module = item.module.__name__ if item.module is not None else ""
        if module in SLOW_MODULES or item.path.parent.name in SLOW_FOLDERS:
            item.add_marker(pytest.mark.slow)
        if item.get_closest_marker("serial") is not None:
            item.add_marker(pytest.mark.xdist_group("serial"))
        elif module in ONE_WORKER_MODULES:
            item.add_marker(pytest.mark.xdist_group(module))
    # the long ones first, so the workers end together instead of one finishing a long test
    # while the others wait; the serial ones last: a serial test waits for every running
    # test to end before it starts, and at the tail those are short ones (first, they were
    # the longest of the suite, a minute and more of the other workers idle). test.sh keeps
    # this order (--no-loadscope-reorder); the order within each kind is kept.
    # Of the slow ones, the modules run on one worker go first: each is a unit of a minute
    # or more (the CrystalDiskMark round trip's real runs, the wheel built and installed),
    # which begun last kept one worker busy for a minute after the others had finished.
    items.sort(key=lambda item: (item.get_closest_marker("serial") is not None,
                                 item.get_closest_marker("slow") is None,
                                 getattr(item.module, "__name__", "") not in ONE_WORKER_MODULES))


def pytest_collection_finish(session):
    """With --missing-system-packages: the packages of what the tests selected (after -m,
    -k and the paths given) need and this machine lacks, for ./test.sh to install."""
    where = session.config.getoption("missing_system_packages")
    if where:
        needed = {tool for item in session.items for marker in item.iter_markers("needs")
                  for tool in marker.args}
        Path(where).write_text("".join(f"{package}\n" for package in missing_packages(needed)))


@contextlib.contextmanager
def machine_share(directory: Path, alone: bool):
    """Run a test beside others (``alone`` False) or with the machine to itself: a
    readers-writer lock of two flock files in the test session's own directory. A test
    marked ``serial`` takes the gate and keeps it, so no other test starts, then waits for
    the ones running to end; any other test passes through the gate and shares the lock."""
    with open(directory / "serial-gate.lock", "a") as gate, \
            open(directory / "serial.lock", "a") as lock:
        fcntl.flock(gate, fcntl.LOCK_EX)
        if alone:
            fcntl.flock(lock, fcntl.LOCK_EX)
        else:
            fcntl.flock(lock, fcntl.LOCK_SH)
            fcntl.flock(gate, fcntl.LOCK_UN)
        yield


#: The machine held by this worker across serial tests that follow one another (empty:
#: not held).
_alone: list[contextlib.ExitStack] = []


def _serial(item) -> bool:
    return item is not None and item.get_closest_marker("serial") is not None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Under pytest-xdist, a test marked ``serial`` runs while no other test does (its set-up
    and teardown too): it measures CPU or time, or changes what the whole machine shares.
    Serial tests that follow one another on their worker keep the machine between them,
    so the others are drained once. The workers of one session share the parent of their
    base temporary directory; a session without workers runs one test at a time anyway."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return (yield)
    directory = item.config._tmp_path_factory.getbasetemp().parent
    if not _serial(item):
        with machine_share(directory, alone=False):
            return (yield)
    if not _alone:
        held = contextlib.ExitStack()
        held.enter_context(machine_share(directory, alone=True))
        _alone.append(held)
    try:
        return (yield)
    finally:
        if not _serial(nextitem):
            _alone.pop().close()
