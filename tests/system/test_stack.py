"""The storage stack under real targets, as root on loop devices: btrfs mounted with
compress=zstd (All 0x00 figures marked compressed, random ones not), a FUSE file system
(fuse2fs, its program named, its figures marked), an ext4 image on a loop device whose file
sits on another file system on another loop device (every layer named, the layers below
measured read-only with every device's bytes unchanged), tmpfs, overlay, zram and this
machine's own disk; and a FUSE program that never answers, named after a bounded wait.
``diskmark why`` and ``diskmark run`` run as processes; the reports are made from the JSON
the real run printed. Every mount, loop device and zram device goes, even on failure."""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import TINY_ARGS
from mounts import can_loop_mount, loop_mount, tmpfs_mount

from diskmark.model.results import SessionResult

QUICK = [*TINY_ARGS, "--profile", "demo"]  # one test, its read and its write


def diskmark(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=180)


def why(target: Path) -> list[dict]:
    """``diskmark why --format json``'s layers, and the text it prints (shown on failure)."""
    text = diskmark("why", str(target))
    print(text.stdout)
    assert text.returncode == 0, text.stderr
    out = diskmark("why", "--format", "json", str(target))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)["stack"]


def kinds(layers: list[dict]) -> list[tuple[int, str]]:
    return [(layer["depth"], layer["kind"]) for layer in layers]


def run_json(*args: str) -> SessionResult:
    out = diskmark("run", *QUICK, "--format", "json", *args)
    assert out.returncode == 0, out.stderr
    return SessionResult.from_dict(json.loads(out.stdout))


def need_root(fstype: str = "ext4") -> None:
    ok, why_not = can_loop_mount(fstype)
    if not ok:
        pytest.skip(why_not)


def sh(*args: str) -> str:
    return subprocess.run(list(args), check=True, capture_output=True, text=True).stdout.strip()


@contextlib.contextmanager
def attached(image: Path) -> Iterator[str]:
    """``image`` on a loop device without direct I/O (losetup's default), detached after."""
    device = sh("losetup", "-f", "--show", str(image))
    try:
        yield device
    finally:
        subprocess.run(["losetup", "-d", device], capture_output=True)


@contextlib.contextmanager
def mounted(source: str, where: Path, *options: str) -> Iterator[Path]:
    where.mkdir(parents=True, exist_ok=True)
    sh("mount", *options, source, str(where))
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


def ext4_image(path: Path, mib: int) -> Path:
    """An ext4 image with its inode tables and journal written at once: no lazy
    initialisation writes to it later, behind a test's back."""
    sh("truncate", "-s", f"{mib}M", str(path))
    sh("mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", str(path))
    return path


def sha256(path: str) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


# --- btrfs with compression ------------------------------------------------------------------


@pytest.mark.needs("mkfs.btrfs")
def test_btrfs_compressed_all_0x00_figures_are_marked_and_random_ones_are_not(tmp_path):
    need_root("btrfs")
    with loop_mount(tmp_path, "btrfs", options="compress=zstd", direct_io=True) as mnt:
        layers = why(mnt)
        assert kinds(layers)[:3] == [(0, "filesystem"), (1, "loop"), (2, "file")]
        btrfs, loop = layers[0], layers[1]
        assert btrfs["type"] == "btrfs" and btrfs["facts"]["compression"].startswith("zstd")
        assert [e["effect"] for e in btrfs["effects"]] == ["compressed"]
        assert loop["facts"]["direct_io"] == "1" and loop["effects"] == []
        assert layers[2]["name"] == str(tmp_path / "mnt.btrfs.img")

        zeros = run_json("--target", str(mnt), "--data", "zeros")
        random = run_json("--target", str(mnt), "--mode", "read")
    assert [t.op.value for t in zeros.tests] == ["read", "write"]
    for t in zeros.tests:
        assert [(m.effect.value, m.kind.value, m.name) for m in t.marks] == [
            ("compressed", "filesystem", str(mnt))], t.label
    assert random.tests and all(t.marks == [] for t in random.tests)  # and no other mark

    from diskmark.report.cdm_report import text_report as cdm_text
    from diskmark.report.text import csv_report, grid_report, markdown_report

    grid = grid_report(zeros)
    assert "zip" in grid.splitlines()[1] and f"zip: file system {mnt} compresses" in grid
    assert "zip" not in grid_report(random)
    assert csv_report(zeros).count(f"compressed@{mnt}") == 4  # 2 tests, warm-up and pass each
    assert f"zip: file system {mnt}" in markdown_report(zeros)
    text = cdm_text(zeros)
    assert "zip: compressed (file system" in text and "[Stack]" in text
    cdm_block = text.split("diskmark: what CrystalDiskMark's lines above leave out")[0]
    assert "zip" not in cdm_block and "[Stack]" not in cdm_block  # CrystalDiskMark's stays its own
    from diskmark.model.units import Unit
    from diskmark.report.share.page import grid_html

    page = grid_html(zeros, Unit.MB_S, None)
    assert page.count('<span class="layer" title="zip: file system') == 2 and ">zip</span>" in page
    assert 'class="layer"' not in grid_html(random, Unit.MB_S, None)
    tile_shows(zeros.tests[0], "zip")


def tile_shows(result, mark: str) -> None:
    """The tile of a real result draws the layer's mark, and says why in its tooltip."""
    import asyncio

    from textual.app import App, ComposeResult

    from diskmark.app.widgets.tiles import ResultTile

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield ResultTile(result.index, result.op, result.spec, id="tile")

    async def check() -> None:
        app = One()
        async with app.run_test(size=(40, 8)) as pilot:
            tile = app.query_one(ResultTile)
            tile.result = result
            await pilot.pause()
            drawn = "\n".join(tile.render_line(y).text for y in range(tile.content_size.height))
            assert mark in drawn and tile.has_class("-layer-marked")
            assert str(tile.tooltip).startswith(f"{mark}: ")

    asyncio.run(check())


# --- FUSE ---------------------------------------------------------------------------------------


@contextlib.contextmanager
def fuse2fs(image: Path, where: Path, *extra: str) -> Iterator[Path]:
    where.mkdir()
    sh("fuse2fs", *extra, str(image), str(where))
    try:
        yield where
    finally:
        if subprocess.run(["umount", str(where)], capture_output=True).returncode:
            subprocess.run(["umount", "-l", str(where)], capture_output=True)


@pytest.mark.needs("fuse2fs", "mkfs.ext4")
def test_a_fuse_file_system_names_its_program_and_marks_its_figures(tmp_path):
    need_root()
    if not os.path.exists("/dev/fuse"):
        pytest.skip("no /dev/fuse here")
    image = ext4_image(tmp_path / "fuse.img", 48)
    with fuse2fs(image, tmp_path / "fuse") as mnt:
        layers = why(mnt)
        fuse = layers[0]
        assert (fuse["kind"], fuse["type"], fuse["facts"]["program"]) == ("fuse", "ext4", "fuse2fs")
        assert kinds(layers)[:2] == [(0, "fuse"), (1, "file")] and layers[1]["name"] == str(image)
        assert "page cache" in fuse["notes"][0] and "fuse2fs" in fuse["notes"][0]
        session = run_json("--target", str(mnt))
    for t in session.tests:
        assert [m.effect.value for m in t.marks] == ["fuse"], t.label


@pytest.mark.needs("fuse2fs", "mkfs.ext4")
def test_a_fuse_program_that_never_answers_is_named_after_a_bounded_wait(tmp_path):
    """fuse2fs stopped (SIGSTOP) in a mount namespace of its own, so nothing else on the
    machine meets the hung mount: the stack is read within a few of its quarter-second waits
    (a loaded machine's scheduling beside them) and says so."""
    need_root()
    if not shutil.which("unshare") or not os.path.exists("/dev/fuse"):
        pytest.skip("unshare or /dev/fuse missing")
    image = ext4_image(tmp_path / "hung.img", 16)
    where = tmp_path / "hung"
    where.mkdir()
    script = textwrap.dedent(f"""
        import json, os, signal, subprocess, sys, time
        from diskmark.drive.stack.resolve import stack_of
        daemon = subprocess.Popen(["fuse2fs", "-f", {str(image)!r}, {str(where)!r}],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            for _ in range(100):
                if {str(where)!r} in open("/proc/self/mountinfo").read():
                    break
                time.sleep(0.05)
            os.kill(daemon.pid, signal.SIGSTOP)
            for _ in range(200):  # every thread stopped, not only told to stop
                tasks = os.listdir(f"/proc/{{daemon.pid}}/task")
                if all(open(f"/proc/{{daemon.pid}}/task/{{t}}/stat").read().rsplit(")", 1)[1]
                       .split()[0] == "T" for t in tasks):
                    break
                time.sleep(0.01)
            started = time.monotonic()
            layers = stack_of({str(where / "sub")!r})
            took = time.monotonic() - started
            print(json.dumps({{"took": took, "stack": [l.to_dict() for l in layers]}}))
        finally:
            os.kill(daemon.pid, signal.SIGCONT)
            subprocess.run(["umount", "-l", {str(where)!r}])
            daemon.terminate()
            daemon.wait(10)
        """)
    out = subprocess.run(["unshare", "--mount", "--propagation", "private", sys.executable,
                          "-c", script], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    # fuse2fs says what it thinks of the journal as it ends: the line diskmark printed
    found = json.loads(next(x for x in out.stdout.splitlines() if x.startswith("{")))
    fuse = found["stack"][0]
    assert fuse["kind"] == "fuse" and fuse["name"] == str(where)
    assert "no-answer" in [e["effect"] for e in fuse["effects"]]
    assert found["took"] < 3.0, found["took"]


# --- an ext4 image on a loop device on a file of another file system, measured below ---------


@pytest.mark.needs("mkfs.ext4")
def test_ext4_on_a_loop_device_on_a_file_of_another_loop_device_and_the_layers_below(tmp_path):
    need_root()
    outer_image = ext4_image(tmp_path / "outer.img", 80)
    with attached(outer_image) as outer_dev, mounted(outer_dev, tmp_path / "outer") as outer:
        inner_image = ext4_image(outer / "inner.img", 48)
        with attached(inner_image) as inner_dev, mounted(inner_dev, tmp_path / "inner") as inner:
            layers = why(inner)
            assert [(x["depth"], x["kind"], x["name"]) for x in layers[:6]] == [
                (0, "filesystem", str(inner)), (1, "loop", inner_dev),
                (2, "file", str(inner_image)), (3, "filesystem", str(outer)),
                (4, "loop", outer_dev), (5, "file", str(outer_image))]
            assert layers[1]["effects"] == [{"effect": "loop-cache"}]

            out = diskmark("run", *QUICK, "--mode", "read", "--target", str(inner), "--down",
                           "--format", "json")
            assert out.returncode == 0, out.stderr
            session = SessionResult.from_dict(json.loads(out.stdout))
            for t in session.tests:  # the loop device's file's page cache, and nothing else
                assert [(m.effect.value, m.name) for m in t.marks] == [
                    ("loop-cache", inner_dev)], t.label
            measured = {m.device: m for m in session.below}
            assert list(measured)[:2] == [inner_dev, outer_dev]
            for device in (inner_dev, outer_dev):
                assert set(measured[device].figures) == {"SEQ1M Q8T1/read"}, measured[device]
            for m in session.below[2:]:  # this machine's disk: measured, or passed over saying why
                assert m.figures or m.skipped
            from diskmark.model.stack import cost_pct
            from diskmark.report.cdm_report import text_report as cdm_text
            from diskmark.report.stack_words import NOISE_PCT, cost_sentences

            costs = " ".join(cost_sentences(session))
            above = next(t.best_mb_s for t in session.tests if t.key == "SEQ1M Q8T1/read")
            on_inner = measured[inner_dev].figures["SEQ1M Q8T1/read"]["mb_s"]
            pct = cost_pct(above, on_inner)
            # the file system above the first device is named when it costs more than the noise
            assert (f"file system {inner}" in costs and inner_dev in costs) \
                == (pct is not None and abs(pct) >= NOISE_PCT), (pct, costs)
            assert "[Below]" in cdm_text(session)

            # the layers below are read and never written: every device's bytes as they were
            import asyncio

            from diskmark.engine.down import measure_below
            from diskmark.engine.runner import Engine

            subprocess.run(["sync"], check=True)
            before = {d: sha256(d) for d in (inner_dev, outer_dev)}
            down_to_the_outer_loop = dataclasses.replace(session, stack=session.stack[:5])
            again = asyncio.run(measure_below(Engine(), down_to_the_outer_loop))
            subprocess.run(["sync"], check=True)
            assert {d: sha256(d) for d in (inner_dev, outer_dev)} == before
            assert [(m.device, list(m.figures)) for m in again] == [
                (inner_dev, ["SEQ1M Q8T1/read"]), (outer_dev, ["SEQ1M Q8T1/read"])]


# --- memory, overlay, zram, this machine's disk: named, no run needed -------------------------


def test_tmpfs_is_memory(tmp_path):
    need_root("tmpfs")
    with tmpfs_mount(tmp_path) as mnt:
        layers = why(mnt)
    assert [(x["kind"], x["type"]) for x in layers] == [("memory", "tmpfs")]
    assert layers[0]["notes"][0].startswith("Memory, not a drive")


def test_overlay_names_its_upper_layer_and_what_that_sits_on(tmp_path):
    need_root("tmpfs")
    lower = tmp_path / "lower"
    lower.mkdir()
    with tmpfs_mount(tmp_path, name="rw") as rw:
        (rw / "upper").mkdir()
        (rw / "work").mkdir()
        options = f"lowerdir={lower},upperdir={rw / 'upper'},workdir={rw / 'work'}"
        with mounted("overlay", tmp_path / "merged", "-t", "overlay", "-o", options) as merged:
            layers = why(merged)
    assert [(x["depth"], x["kind"]) for x in layers] == [(0, "overlay"), (1, "memory")]
    assert layers[0]["facts"]["upperdir"] == str(rw / "upper")
    assert layers[1]["name"] == str(rw)


@pytest.mark.needs("mkfs.ext4")
def remove_zram(control: Path, number: str) -> None:
    """Reset and remove a zram device, waiting out a lazy unmount's hold on it (a reset
    refused as busy left /dev/zramN behind, a once-only failure, until retried)."""
    block = Path("/sys/block") / f"zram{number}"
    for _ in range(300):  # a loaded machine's lazy unmount has held it past 5 s
        with contextlib.suppress(OSError):
            (block / "reset").write_text("1")
            (control / "hot_remove").write_text(number)
        if not block.exists():
            return
        time.sleep(0.1)
    print(f"/dev/zram{number} could not be removed: it is still held")


def test_ext4_on_zram_is_compressed_memory(tmp_path):
    need_root()
    control = Path("/sys/class/zram-control")
    if not control.is_dir():
        pytest.skip("no zram here (/sys/class/zram-control: the zram module is not loaded)")
    number = (control / "hot_add").read_text().strip()
    block = Path("/sys/block") / f"zram{number}"
    try:
        (block / "disksize").write_text("32M")
        sh("mkfs.ext4", "-q", "-F", f"/dev/zram{number}")
        with mounted(f"/dev/zram{number}", tmp_path / "zram") as mnt:
            layers = why(mnt)
    finally:
        remove_zram(control, number)
    assert [(x["kind"], x["name"]) for x in layers] == [("filesystem", str(tmp_path / "zram")),
                                                         ("zram", f"/dev/zram{number}")]
    assert [e["effect"] for e in layers[1]["effects"]] == ["memory", "compressed"]


def test_this_machines_own_disk():
    layers = why(Path("/"))
    disk = layers[-1]
    if disk["kind"] != "disk" or disk["facts"].get("virtual") != "virtio":
        pytest.skip(f"this machine's / is not on a virtio disk: {layers}")
    assert layers[0]["kind"] == "filesystem" and layers[0]["name"] == "/"
    assert "virtual" in [e["effect"] for e in disk["effects"]]
    assert disk["notes"][0].startswith("A virtual machine's disk (virtio)")

