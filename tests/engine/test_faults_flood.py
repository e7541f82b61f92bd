"""Fault injection: a broken or hostile fio (``DISKMARK_FIO``) that floods its output. Bytes
are not reports: a flood without line breaks, or without a status object, fails the step
within seconds and in bounded memory, and a stop signal still ends the run within the two
seconds the README promises, with nothing left behind.

Before these bounds, a flood kept the watchdog from tripping (any byte reset it), a flood of
``{`` made the reader slide through a 16 MiB buffer one character at a time on the event
loop (100 % CPU, SIGTERM ignored for minutes).
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest
from faults import diskmark_cli, leftovers, wait_for

from diskmark.store.store import Store

QUICK = ["--profile", "demo", "--count", "1", "--measure", "1", "--interval", "0",
         "--size", "16MiB"]
#: diskmark's own memory while a flood goes on: an interpreter with the engine loaded is
#: some 60 MiB here; what a flood may add on top is bounded well below this.
RSS_LIMIT = 200 * 1024 * 1024


def fake_fio(tmp_path: Path, body: str) -> Path:
    """A Python program that answers ``--version`` like fio 3.33 and then runs ``body``."""
    path = tmp_path / "fake-fio"
    path.write_text(f"#!{sys.executable}\n" + textwrap.dedent("""\
        import os, signal, subprocess, sys, time
        if sys.argv[1:2] == ["--version"]:
            print("fio-3.33")
            sys.exit(0)
        if sys.argv[1:2] == ["--enghelp"]:
            print("Available IO engines:\\n\\tlibaio")
            sys.exit(0)
        """) + textwrap.dedent(body))
    path.chmod(0o755)
    return path


def theirs(fio: Path) -> list[psutil.Process]:
    """Every process the fake fio started, by its path on their command lines."""
    found = []
    for p in psutil.process_iter():
        try:
            if any(str(fio) in a or "fake-flood" in a for a in p.cmdline()):
                found.append(p)
        except psutil.Error:
            pass
    return found


def watch(proc, fio: Path, timeout: float) -> tuple[int, str, float, int]:
    """Wait for ``diskmark run`` to end: (exit code, stderr, seconds, largest RSS seen)."""
    started, peak = time.monotonic(), 0
    me = psutil.Process(proc.pid)
    while proc.poll() is None and time.monotonic() - started < timeout:
        try:
            peak = max(peak, me.memory_info().rss)
        except psutil.Error:
            pass
        time.sleep(0.05)
    took = time.monotonic() - started
    if proc.poll() is None:
        proc.kill()
        for p in theirs(fio):
            p.kill()
        _, err = proc.communicate()
        pytest.fail(f"diskmark was still running {timeout:.0f} s into the flood; it said: "
                    f"{err[-500:]!r}")
    _, err = proc.communicate()
    return proc.returncode, err, took, peak


#: The flood goes to stdout, with no line break, as fast as a pipe takes it.
NO_NEWLINES = {
    "letters": "while True:\n    os.write(1, b'x' * 65536)\n",
    "braces": "while True:\n    os.write(1, b'{' * 65536)\n",
    # fio's pipe held open by a child too: the whole group must go
    "a child's braces": ("subprocess.Popen([sys.executable, '-c', 'import os\\nwhile True: "
                         "os.write(1, b\"{\" * 65536)', 'fake-flood'])\ntime.sleep(600)\n"),
}


@pytest.mark.parametrize("flood", NO_NEWLINES.values(), ids=NO_NEWLINES.keys())
@pytest.mark.serial
def test_a_flood_without_line_breaks_fails_the_step_at_once(tmp_path, flood):
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, flood)
    proc = diskmark_cli("run", "--target", str(target), *QUICK,
                        env=dict(os.environ, DISKMARK_FIO=str(fio)))
    code, err, took, peak = watch(proc, fio, 30)
    assert code == 1, err
    assert "without a line break" in err and "not fio's output" in err, err
    assert took < 5, f"the flood went on for {took:.1f} s"
    assert peak < RSS_LIMIT, f"diskmark grew to {peak >> 20} MiB"
    assert theirs(fio) == [], "the fake fio (or its child) outlived the run"
    assert leftovers(target) == [] and Store().history() == []


def test_chatter_without_status_objects_is_not_reporting(tmp_path):
    """Lines, but never a status object: the watchdog trips as for a silent fio."""
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, "while True:\n    os.write(1, b'still here\\n')\n"
                             "    time.sleep(0.05)\n")
    proc = diskmark_cli("run", "--target", str(target), *QUICK,
                        env=dict(os.environ, DISKMARK_FIO=str(fio)))
    code, err, took, peak = watch(proc, fio, 60)
    assert code == 1 and "stopped reporting" in err, err
    assert took < 30
    assert theirs(fio) == [] and leftovers(target) == []


def test_lines_of_garbage_without_a_status_object_are_bounded(tmp_path):
    """A flood of short lines: 16 MiB of them without a status object is not fio."""
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, "while True:\n    os.write(1, b'{x\\n' * 20000)\n")
    proc = diskmark_cli("run", "--target", str(target), *QUICK,
                        env=dict(os.environ, DISKMARK_FIO=str(fio)))
    code, err, took, peak = watch(proc, fio, 60)
    assert code == 1, err
    assert "without a status object" in err and "not fio's output" in err, err
    assert took < 15, f"the flood went on for {took:.1f} s"
    assert peak < RSS_LIMIT, f"diskmark grew to {peak >> 20} MiB"
    assert theirs(fio) == [] and leftovers(target) == []


#: Quiet until asked to stop; then it ignores the request and floods, itself and through
#: a child that ignores it too.
FLOOD_ON_STOP = """\
def flood(*_):
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    subprocess.Popen([sys.executable, "-c", "import os, signal; "
                      "signal.signal(signal.SIGINT, signal.SIG_IGN); "
                      "[os.write(1, b'{' * 65536) for _ in iter(int, 1)]", "fake-flood"])
    while True:
        os.write(1, b'{' * 65536)
signal.signal(signal.SIGINT, flood)
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    time.sleep(600)
"""


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
@pytest.mark.serial
def test_a_stop_signal_ends_a_flooding_run_within_two_seconds(tmp_path, sig):
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, FLOOD_ON_STOP)
    proc = diskmark_cli("run", "--target", str(target), *QUICK,
                        env=dict(os.environ, DISKMARK_FIO=str(fio)))
    wait_for(lambda: proc.poll() is not None or any(
        "--version" not in p.cmdline() for p in theirs(fio)), 30, "the fake fio")
    assert proc.poll() is None, proc.communicate()[1]
    time.sleep(0.3)  # its signal handlers are in place
    proc.send_signal(sig)
    code, err, took, _ = watch(proc, fio, 30)
    assert code == 130, err
    assert "interrupted" in err
    assert took < 2.5, f"stopping took {took:.1f} s"
    assert theirs(fio) == [], "the fake fio (or its child) outlived the run"
    assert leftovers(target) == []


# --- fio's probes: its answers to --version and --enghelp --------------------------------

#: What the fake fio floods a probe's answer with (no line break), before it hangs: read
#: whole, it is this much of diskmark's memory; diskmark reads 64 KiB of it at most.
PROBE_FLOOD_MIB = 320


def probing_fio(tmp_path: Path, flooded: str) -> Path:
    """A directory holding a ``fio`` that answers ``flooded`` (``--version`` or
    ``--enghelp``) with a flood and then hangs; anything else it hands to the real fio."""
    real = shutil.which("fio")
    if real is None:
        pytest.skip("fio is not installed")
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fio = bindir / "fio"
    fio.write_text(f"#!{sys.executable}\n" + textwrap.dedent(f"""\
        import os, sys, time
        if sys.argv[1:2] == [{flooded!r}]:
            for _ in range({PROBE_FLOOD_MIB * 16}):
                os.write(1, b"x" * 65536)
            time.sleep(600)
        os.execv({real!r}, [{real!r}, *sys.argv[1:]])
        """))
    fio.chmod(0o755)
    return bindir


def on_path(bindir: Path) -> dict[str, str]:
    env = dict(os.environ, PATH=f"{bindir}{os.pathsep}{os.environ['PATH']}")
    env.pop("DISKMARK_FIO", None)
    return env


def peak_rss(pid: int) -> int:
    """The most memory ``pid`` has held so far (VmHWM, the kernel's high-water mark), 0 when
    it is gone: polled, it misses no peak."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as f:
            return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration, ValueError):
        return 0


def watch_peak(proc, bindir: Path, timeout: float) -> tuple[int, str, float, int]:
    """Wait for ``diskmark run`` to end: (exit code, stderr, seconds, its peak memory)."""
    started, peak = time.monotonic(), 0
    while proc.poll() is None and time.monotonic() - started < timeout:
        peak = max(peak, peak_rss(proc.pid))
        time.sleep(0.02)
    took = time.monotonic() - started
    if proc.poll() is None:
        proc.kill()
        for p in theirs(bindir):
            p.kill()
        pytest.fail(f"diskmark was still running {timeout:.0f} s into the flood "
                    f"(holding {peak >> 20} MiB)")
    _, err = proc.communicate()
    return proc.returncode, err, took, peak


@pytest.mark.serial
def test_a_flood_in_answer_to_version_is_cut_short(tmp_path):
    """fio --version answered with an endless line: before, read whole for the probe's 10 s
    (2.5 GB on the machine it was found on; this fake stops at 320 MiB)."""
    target = tmp_path / "target"
    target.mkdir()
    bindir = probing_fio(tmp_path, "--version")
    proc = diskmark_cli("run", "--target", str(target), *QUICK, env=on_path(bindir))
    code, err, took, peak = watch_peak(proc, bindir, 60)
    assert peak < RSS_LIMIT, f"diskmark grew to {peak >> 20} MiB"
    assert took < 5, f"the flood went on for {took:.1f} s"
    assert code == 2, err
    assert (f"diskmark: {bindir}/fio does not look like fio: its answer to --version was "
            f"longer than 64 KiB, which no fio says.") in err, err
    assert theirs(bindir) == [], "the fake fio outlived the probe"
    assert leftovers(target) == [] and Store().history() == []


@pytest.mark.serial
def test_a_flood_in_answer_to_enghelp_is_cut_short_and_the_run_goes_on(tmp_path):
    """fio --enghelp answered with an endless line: before, read whole for 3 s; now the list
    is not read, the run says why it uses libaio, and measures with it."""
    from diskmark.engine.ioengine import kernel_allows_io_uring

    allowed, why = kernel_allows_io_uring()
    if not allowed:
        pytest.skip(f"fio --enghelp is asked only where io_uring is allowed, and here {why}")
    target = tmp_path / "target"
    target.mkdir()
    bindir = probing_fio(tmp_path, "--enghelp")
    proc = diskmark_cli("run", "--target", str(target), *QUICK, env=on_path(bindir))
    code, err, took, peak = watch_peak(proc, bindir, 120)
    assert peak < RSS_LIMIT, f"diskmark grew to {peak >> 20} MiB"
    assert code == 0, err
    assert ("fio uses libaio: fio's answer to --enghelp was longer than 256 KiB, which no fio "
            "says: it was not read.") in err, err
    assert theirs(bindir) == [], "the fake fio outlived the probe"
    assert leftovers(target) == []
    [entry] = Store().history()
    assert entry.session.ioengine == "libaio" and entry.session.tests


#: fio's output, well formed, that cannot be read as a test: a status object with no job in
#: it, as fio runs; and a last object alone, whose passes cannot be told apart, once it has
#: ended. The test file is laid out by the fake as by fio (its final object of a real one).
UNREADABLE = {
    "while fio runs": "print(json.dumps({'jobs': []}), flush=True)\ntime.sleep(1)\n",
    "in its last object": "print(SEQREAD, flush=True)\n",
}


@pytest.mark.parametrize("body", UNREADABLE.values(), ids=UNREADABLE.keys())
def test_output_that_is_not_fios_is_one_sentence_wherever_it_is_read(tmp_path, body):
    """The same failure, fio's output that cannot be read, is said in one sentence, whether
    a status object fails as fio runs or its last one once it has ended (it was worded two
    ways: "while SEQ1M Q8T1 read" and "while running SEQ1M Q8T1 read")."""
    fixtures = Path(__file__).parents[1] / "fixtures"
    target = tmp_path / "target"
    target.mkdir()
    fio = fake_fio(tmp_path, textwrap.dedent(f"""\
        import json
        PREPARED = {(fixtures / "fio_prepare.json").read_text()!r}
        SEQREAD = {(fixtures / "fio_seqread.json").read_text()!r}
        if "--name=diskmark-prepare" in sys.argv:
            print(PREPARED, flush=True)
            sys.exit(0)
        """) + body)
    proc = diskmark_cli("run", "--target", str(target), *QUICK,
                        env=dict(os.environ, DISKMARK_FIO=str(fio)))
    code, err, took, _ = watch(proc, fio, 60)
    assert code == 1, err
    failure = [line for line in err.splitlines() if "could not be read" in line]
    assert failure and failure[0].startswith(
        "diskmark: fio's output could not be read while SEQ1M Q8T1 read: fio's "), err
    assert leftovers(target) == []
