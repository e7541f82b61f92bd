"""Pictures of the window (pytest-textual-snapshot). A deterministic fake engine and fake
target facts make them identical on every machine; ``test_app_pilot.py`` drives real fio.

Every ``run_before`` asserts what the picture must show, and each test checks the app did
not crash: a crashed app snapshots as an empty screen, which must never pass.
Regenerate with ``pytest tests/app/test_snapshots.py --snapshot-update`` and look at every SVG.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from fakes import FakeEngine, facts, hot_drive
from textual.widgets import Select

from diskmark.app.app import DiskmarkApp  # noqa: E402
from diskmark.app.screens.details import DetailsScreen  # noqa: E402
from diskmark.app.screens.dialogs import ErrorDialog  # noqa: E402
from diskmark.app.screens.sweep import SweepDialog, SweepScreen  # noqa: E402
from diskmark.app.screens.target_picker import TargetPicker  # noqa: E402
from diskmark.app.widgets.footer import KeysFooter  # noqa: E402
from diskmark.app.widgets.tiles import ResultTile  # noqa: E402
from diskmark.drive import probe as system  # noqa: E402
from diskmark.drive.mounts import MountInfo
from diskmark.engine.errors import DirectIOUnsupported, FioMissing  # noqa: E402
from diskmark.engine.fio import INSTALL_HINT  # noqa: E402
from diskmark.locale import set_language
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.units import GIB, Unit

BIG, SMALL = (120, 40), (80, 24)
#: One snapshot per terminal size: the window as most terminals open it, and a small one.
SIZES = pytest.mark.parametrize("size", [BIG, SMALL], ids=["big", "small"])
TARGET = "/mnt/data"


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)


def make(engine: FakeEngine | None = None, *, theme: str = "diskmark", unit: Unit = Unit.MB_S,
         target: str = TARGET, **kw) -> DiskmarkApp:
    engine = engine or FakeEngine()
    settings = Settings(target=target, size=GIB, count=5, **kw)
    return DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, settings=settings,
                       unit=unit, theme=theme, persist=False)


def footers_drawn(app) -> bool:
    """Whether every footer, on the screen and under it, shows the keys its screen has now: a
    run's end changes them, and the footer recomposes a refresh later (on a loaded machine the
    picture caught `esc Stop` after the sweep had ended, in the window's footer under the
    sweep's screen)."""
    return all(f._shown == f._keys() for screen in app.screen_stack
               for f in screen.query(KeysFooter))


async def settle(pilot, condition, what: str, tries: int = 200) -> None:
    for _ in range(tries):
        if condition() and footers_drawn(pilot.app):
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}")


async def finished(pilot) -> None:
    app = pilot.app
    await pilot.press("a")
    await settle(pilot, lambda: app.state.history and not app.state.running, "the fake run to finish")
    await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
    assert all(t.text for t in app.main.grid.tiles), "every tile holds a figure"


def check(app: DiskmarkApp, matched: bool) -> None:
    assert app.return_code in (None, 0), "the app crashed"
    assert matched


@SIZES
def test_idle(snap_compare, size):
    app = make()

    async def ready(pilot):
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        assert len(app.main.grid.tiles) == 8 and not any(t.text for t in app.main.grid.tiles)
        assert str(app.query_one("#all").label) == "All"
        if size == BIG:
            # the times are labelled, not a bare "5 s / 5 s"
            assert str(app.query_one("#setup").render()).endswith("measure 5 s, interval 5 s")
        else:
            assert app.has_class("-short") and app.has_class("-narrow")

    check(app, snap_compare(app, terminal_size=size, run_before=ready))


@SIZES
def test_running(snap_compare, size):
    app = make(FakeEngine(block_at=2))

    async def running(pilot):
        await pilot.press("a")
        await settle(pilot, lambda: any(t.live and t.live.mb_s for t in app.main.grid.tiles),
                     "a live figure")
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        assert app.state.running and str(app.query_one("#all").label) == "Stop"
        assert "RND4K Q32T1 Read (2/5)" in app.main.status.message

    check(app, snap_compare(app, terminal_size=size, run_before=running))


@SIZES
def test_finished(snap_compare, size):
    app = make()
    check(app, snap_compare(app, terminal_size=size, run_before=finished))


def test_finished_iops_with_mix(snap_compare):
    app = make(mix=70)

    async def run(pilot):
        await finished(pilot)
        await pilot.press("3")
        await pilot.pause()
        assert len(app.main.grid.tiles) == 12
        assert "Mix R70/W30 (IOPS)" in str(app.query_one(".col-mix").render())

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_peak_profile(snap_compare):
    app = make(profile="peak")

    async def run(pilot):
        await finished(pilot)
        assert not app.query_one("#unit").display
        assert {t.fixed_unit for t in app.main.grid.tiles} == {Unit.MB_S, Unit.IOPS, Unit.US}

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_demo_profile(snap_compare):
    app = make(profile="demo")

    async def run(pilot):
        await finished(pilot)
        assert len(app.main.grid.tiles) == 2

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


@pytest.mark.parametrize("theme", ["diskmark-dark", "diskmark-contrast", "diskmark-mono"])
def test_theme(snap_compare, theme):
    app = make(theme=theme)

    async def run(pilot):
        await finished(pilot)
        assert app.theme == theme

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_direct_io_error_dialog(snap_compare):
    error = DirectIOUnsupported(
        f"The filesystem (ramfs) at {TARGET} does not support O_DIRECT (direct I/O).",
        "Run buffered instead (--buffered, or Buffered in the settings): figures will then "
        "include the page cache and are labelled so.")
    app = make(FakeEngine(error=error))

    async def run(pilot):
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, ErrorDialog), "the dialog")
        assert app.screen.query_one("#buffered")

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_fio_missing_dialog_small(snap_compare):
    app = make(FakeEngine(error=FioMissing("fio was not found ('fio' on PATH); diskmark "
                                           "measures with fio.", INSTALL_HINT)))

    async def run(pilot):
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, ErrorDialog), "the dialog")

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_failed_run_keeps_finished_tiles(snap_compare):
    app = make(FakeEngine(fail_at=6))

    async def run(pilot):
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, ErrorDialog), "the dialog")
        assert app.screen.title_text == "The benchmark failed"

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


SHAKY = 6  # plan index of RND4K Q32T1 write: its passes disagree, the third one dips
LEAK = ("btrfs (copy-on-write, checksums, compression) can let the page cache leak into "
        "O_DIRECT figures, especially random writes; a NOCOW test directory (--nocow) avoids that.")


async def open_details(pilot, row: int = 2, op: Op = Op.WRITE) -> DetailsScreen:
    app = pilot.app
    await finished(pilot)
    tile = next(t for t in app.main.grid.tiles if t.row == row and t.op is op)
    tile.focus()
    await pilot.press("enter")
    await settle(pilot, lambda: isinstance(app.screen, DetailsScreen), "the details")
    return app.screen


def test_details(snap_compare):
    app = make(FakeEngine(shaky_at=SHAKY, warnings=[LEAK]))

    async def run(pilot):
        screen = await open_details(pilot)
        assert "--rw=randwrite" in screen.command
        assert "runs differ by 9%" in str(screen.query_one("#stability").render())

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_details_chart_and_depth(snap_compare):
    """Scrolled to the chart: the dip, the flush with Dirty/Writeback, the test file."""
    app = make(FakeEngine(shaky_at=SHAKY, warnings=[LEAK]))

    async def run(pilot):
        screen = await open_details(pilot)
        screen.query_one("#chart").scroll_visible(top=True, animate=False)
        await pilot.pause(0.1)
        assert "▲" in screen.query_one("#chart").text
        assert "pass 3, second 4" in str(screen.query_one("#dips").render())
        assert "Dirty up to 48.0 MiB" in str(screen.query_one("#cache").render())
        assert "fragmented into 2" in str(screen.query_one("#test-file").render())

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_details_drive_temperature(snap_compare):
    """Scrolled to the drive: the temperature under the bandwidth chart, the dip at its peak
    marked on both, and the line that says it looks like throttling (a made-up drive)."""
    app = make(FakeEngine(shaky_at=SHAKY, drive=hot_drive()))

    async def run(pilot):
        screen = await open_details(pilot)
        screen.query_one("#chart").scroll_visible(top=True, animate=False)
        await pilot.pause(0.1)
        screen.query_one("#throttling").scroll_visible(animate=False)  # the least scroll
        await pilot.pause(0.1)
        assert "▲" in screen.query_one("#temperature").text
        throttling = str(screen.query_one("#throttling").render())
        assert "pass 3, second 4" in throttling and "likely thermal throttling" in throttling
        assert "1 min above its warning temperature" in throttling
        drive = str(screen.query_one("#drive").render())
        assert "45 °C → 52 °C (peak 74 °C), SMART PASSED, 3% used" in drive

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_details_small(snap_compare):
    """80×24: the details scroll rather than being cut off."""
    app = make(FakeEngine(shaky_at=SHAKY))

    async def run(pilot):
        screen = await open_details(pilot)
        screen.query_one("#chart").scroll_visible(top=True, animate=False)
        await pilot.pause(0.1)
        assert screen.query_one(".details-body").max_scroll_y > 0

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_unstable_tile_marked_in_mono(snap_compare):
    """NO_COLOR's theme: the unstable mark must be a glyph, not only a colour."""
    app = make(FakeEngine(shaky_at=SHAKY), theme="diskmark-mono")

    async def run(pilot):
        await finished(pilot)
        tile = next(t for t in app.main.grid.tiles if t.row == 2 and t.op is Op.WRITE)
        assert tile.has_class("-unstable") and "runs differ by 9%" in str(tile.tooltip)
        assert sum(t.has_class("-unstable") for t in app.main.grid.tiles) == 1
        # the mark is explained on screen, where it appears
        assert "~N%: passes differ by N% (over 5%)" in app.main.status.message

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_flushing_shows_dirty_and_writeback(snap_compare):
    app = make(FakeEngine(flush_at=4))

    async def run(pilot):
        await pilot.press("a")
        await settle(pilot, lambda: "Writeback" in app.main.status.message, "the flush")
        assert "Dirty 737.2 MiB · Writeback 41.0 MiB" in app.main.status.message

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_sweep_dialog(snap_compare):
    app = make()

    async def run(pilot):
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, SweepDialog), "the sweep dialog")
        assert "6 tests" in str(app.screen.query_one("#estimate").render())

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_sweep_result(snap_compare):
    app = make()

    async def run(pilot):
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, SweepDialog), "the sweep dialog")
        await pilot.click("#run")
        await settle(pilot, lambda: app.state.sweep_session is not None and not app.state.running, "the sweep")
        screen = app.screen
        assert isinstance(screen, SweepScreen)
        assert screen.query_one("#table-read").row_count == 6
        assert not any(t.text for t in app.main.grid.tiles), "a sweep never touches the tiles"

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_sweep_result_small(snap_compare):
    app = make()

    async def run(pilot):
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, SweepDialog), "the sweep dialog")
        app.screen.query_one("#sweep-mode").value = Mode.READ_WRITE
        await pilot.pause()
        await pilot.click("#run")
        await settle(pilot, lambda: app.state.sweep_session is not None and not app.state.running, "the sweep")
        assert len(app.state.sweep_session.tests) == 12

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_settings_screen(snap_compare):
    app = make()

    async def run(pilot):
        # the line of facts behind the dialog shows, so it must be there (a thread reads it)
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        await pilot.press("o")
        await settle(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "settings")

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


@SIZES
def test_queues_threads(snap_compare, size):
    """CrystalDiskMark's Queues & Threads settings: every field in its box at 80×24 too (the
    compact layout), Real World's rows fixed, Peak's types greyed, a row just changed."""
    app = make()

    async def run(pilot):
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        await pilot.press("o")
        await settle(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "settings")
        await pilot.click("#queues-threads")
        await settle(pilot, lambda: bool(app.screen.query("#name")), "the editor")
        app.screen.query_one("#queues-default-0", Select).value = 64
        app.screen.query_one("#threads-default-0", Select).value = 4
        await settle(pilot, lambda: "Q64T4" in str(app.screen.query_one("#label-default-0")
                                                    .render()), "the row's label")
        box = app.screen.query_one(".dialog-box").region
        assert app.screen.region.contains_region(box), "the editor is cut"
        for widget in app.screen.query(".dialog-box *"):
            if widget.display and widget.region.area:
                assert box.contains_region(widget.region), f"{widget} is drawn outside its box"

    check(app, snap_compare(app, terminal_size=size, run_before=run))


def test_help_screen_small(snap_compare):
    app = make()

    async def run(pilot):
        # the line of facts behind the dialog shows, so it must be there (a thread reads it)
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        await pilot.press("question_mark")
        await settle(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "help")

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


@pytest.fixture
def fixed_tree(monkeypatch):
    """The picker lists real mounts and browses a real directory: pin both."""
    root = Path(tempfile.gettempdir()) / "diskmark-snapshot-target"
    for name in ("bench", "scratch", "usb-stick"):
        (root / name).mkdir(parents=True, exist_ok=True)
    gib = 1024**3
    mounts = [
        MountInfo("/", "/dev/nvme0n1p2", "ext4", "rw,relatime", 931 * gib, 814 * gib,
                         "Samsung SSD 980 PRO 1TB", False),
        MountInfo("/dev/shm", "tmpfs", "tmpfs", "rw,nosuid,nodev", 16 * gib, 16 * gib),
        MountInfo("/mnt/usb", "/dev/sdb1", "exfat", "rw", 64 * gib, 12 * gib,
                         "SanDisk Ultra", True),
        MountInfo("/snap/core/1", "/dev/loop0", "squashfs", "ro", 64 * 1024**2, 0,
                         readonly=True, usable=False, reason="read-only"),
    ]
    monkeypatch.setattr(system, "list_mounts", lambda include_pseudo=False: list(mounts))
    devices = [
        MountInfo("/dev/nvme0n1", "disk", "", "", 1000 * gib, 0,
                         "Samsung SSD 980 PRO 1TB", False, block_device=True),
        MountInfo("/dev/sdb", "disk", "", "", 64 * gib, 0, "SanDisk Ultra", True,
                         block_device=True),
        MountInfo("/dev/sdb1", "partition", "", "", 64 * gib, 0, "SanDisk Ultra", True,
                         block_device=True, reason="mounted at /mnt/usb"),
    ]
    monkeypatch.setattr(system, "list_block_devices", lambda: list(devices))
    return root


def test_target_picker(snap_compare, fixed_tree):
    app = make(target=str(fixed_tree))

    async def run(pilot):
        await pilot.press("t")
        await settle(pilot, lambda: isinstance(app.screen, TargetPicker) and app.screen.loaded,
                     "the picker")
        await pilot.pause(0.3)  # the directory tree loads in a worker

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


# --- baselines and comparison --------------------------------------------------------------

#: The baseline drive: faster here, slower there, the same elsewhere (the fake's passes spread
#: ±3%, so "same" is within that), measured with a smaller test file.
BASELINE_SCALE = {(0, Op.READ): 0.95, (0, Op.WRITE): 1.0, (1, Op.READ): 1.12,
                  (1, Op.WRITE): 0.99, (2, Op.READ): 0.9, (2, Op.WRITE): 1.05,
                  (3, Op.READ): 1.0, (3, Op.WRITE): 0.8}


@pytest.fixture
def fixed_home(monkeypatch):
    """Baselines in a fixed place with a fixed save date: the baselines screen shows both.
    The place is the same for every checkout on the machine, so two test runs at once
    (two worktrees) take turns: a lock is held while a test uses it."""
    import fcntl
    import shutil

    from diskmark.store import store

    home = Path(tempfile.gettempdir()) / "diskmark-snapshot-home"
    with open(f"{home}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        monkeypatch.setenv("DISKMARK_HOME", str(home))
        monkeypatch.setattr(store, "_now", lambda: "2024-04-01T10:05:00+02:00")
        try:
            yield home
        finally:
            shutil.rmtree(home, ignore_errors=True)


def save_baseline(name: str = "new NVMe", note: str = "firmware 4B2QGXA7", *,
                  size: int = 512 * 1024**2, scale=None, started: str = "2024-04-01T10:00:00+02:00"):
    import asyncio

    from diskmark.store.store import Store

    engine = FakeEngine(scale=BASELINE_SCALE if scale is None else scale, started=started)
    session = asyncio.run(engine.run(Settings(target=TARGET, size=size, count=5)))
    return Store().save_baseline(session, name, note)


async def compared(pilot) -> None:
    """Choose the baseline with x, then run: every tile shows its change."""
    app = pilot.app
    await pilot.press("x")
    await settle(pilot, lambda: type(app.screen).__name__ == "PickBaselineDialog", "the list")
    await pilot.press("enter")
    await settle(pilot, lambda: app.state.baseline is not None, "the baseline chosen")
    await finished(pilot)
    deltas = {(t.row, t.op): t.delta_text for t in app.main.grid.tiles}
    assert all(deltas.values()), deltas
    assert deltas[(0, Op.READ)].startswith("▲ +5.")
    assert deltas[(1, Op.READ)].startswith("▼ −10.")
    assert deltas[(0, Op.WRITE)].startswith("= ")
    summary = app.query_one("#comparison-line").summary
    assert summary.name == "new NVMe" and summary.differences == ["size 1GiB vs 512MiB"]
    assert summary.counts == {"better": 3, "worse": 2, "same": 3}


@SIZES
def test_compared_run(snap_compare, fixed_home, size):
    save_baseline()
    app = make()

    async def run(pilot):
        await compared(pilot)
        if size == SMALL:
            assert not app.query_one("#facts-line").display  # the comparison line took its place

    check(app, snap_compare(app, terminal_size=size, run_before=run))


def test_compared_run_mono(snap_compare, fixed_home):
    """Without colour, the glyphs ▲ ▼ = still tell better, worse and same apart."""
    save_baseline()
    app = make(theme="diskmark-mono")
    check(app, snap_compare(app, terminal_size=BIG, run_before=compared))


def test_comparison_screen(snap_compare, fixed_home):
    save_baseline()
    app = make()

    async def run(pilot):
        await compared(pilot)
        await pilot.press("v")
        await settle(pilot, lambda: type(app.screen).__name__ == "ComparisonScreen", "the screen")
        assert "size 1GiB vs 512MiB" in str(app.screen.query_one("#differences").render())
        assert app.screen.query_one("#comparison").row_count == 8 * 4

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


def test_baselines_screen(snap_compare, fixed_home):
    save_baseline()
    save_baseline("old SATA SSD", "", size=GIB, scale={k: 0.08 for k in BASELINE_SCALE},
                  started="2023-11-12T18:30:00+01:00")
    # a damaged file an earlier diskmark left in its baselines directory: listed, never imported
    (fixed_home / "data" / "baselines").mkdir(parents=True, exist_ok=True)
    (fixed_home / "data" / "baselines" / "broken-0000.json").write_text('{"schema": "diskm')
    app = make()

    async def run(pilot):
        await pilot.press("x")  # compare with the first readable one: the list marks it ●
        await settle(pilot, lambda: type(app.screen).__name__ == "PickBaselineDialog", "the list")
        await pilot.press("enter")
        await settle(pilot, lambda: app.state.baseline is not None, "the baseline chosen")
        await pilot.press("b")
        await settle(pilot, lambda: getattr(app.screen, "loaded", False), "the list")
        names = [e.name for e in app.screen.entries]
        assert names == ["broken-0000", "new NVMe", "old SATA SSD"]
        assert app.screen.entries[0].damaged.startswith("not valid JSON")
        assert app.screen.in_use == "new NVMe"
        await pilot.press("down")
        await pilot.pause()
        assert "firmware 4B2QGXA7" in str(app.screen.query_one("#saved-detail").render())

    check(app, snap_compare(app, terminal_size=BIG, run_before=run))


# --- every size: the issues a new user met at 80×24 ----------------------------------------


def test_peak_profile_small(snap_compare):
    """80×24, Peak: the unit's place says the units are per row; the facts fit."""
    app = make(profile="peak")

    async def run(pilot):
        await finished(pilot)
        assert not app.query_one("#unit").display and app.query_one("#unit-fixed").display
        assert str(app.query_one("#setup").render()) == "Default · Peak · 5 s/pass, 5 s rest"
        assert "814.0 GiB free" in str(app.query_one("#facts").render())
        assert isinstance(app.focused, ResultTile)  # Enter shows details, never reruns

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_size_list_small(snap_compare):
    """80×24: the size list is wide enough for 128MiB on one line."""
    app = make()

    async def run(pilot):
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        app.query_one("#size").focus()
        await pilot.press("enter")
        await settle(pilot, lambda: app.query_one("#size").expanded, "the list")
        assert app.query_one("#size > SelectOverlay").outer_size.width >= 16  # was the 11 of #size

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_running_footer_small(snap_compare):
    """80×24 mid-run: the footer keeps Stop and what still works, nothing cut."""
    app = make(FakeEngine(block_at=2))

    async def run(pilot):
        await pilot.press("a")
        await settle(pilot, lambda: any(t.live and t.live.mb_s for t in app.main.grid.tiles),
                     "a live figure")
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        current = [b for b in app.main.grid.row_buttons if b.has_class("-current")]
        assert [b.row for b in current] == [2] and str(current[0].label) == "▶ Stop"
        assert not app.check_action("pick_target", ())  # hidden, not greyed, while running

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_history_small(snap_compare, fixed_home, monkeypatch):
    """80×24: dates whole, no column cut; the line under the table has what was left out."""
    import secrets

    monkeypatch.setattr(secrets, "token_hex", lambda n=3: "ab" * n)  # a fixed file name
    save_baseline()
    app = make()

    async def run(pilot):
        await finished(pilot)
        await pilot.press("h")
        await settle(pilot, lambda: getattr(app.screen, "loaded", False), "the history")
        table = app.screen.query_one("#saved")
        keys = [str(c.key.value) for c in table.ordered_columns]
        assert "date" in keys and "tests" in keys and "device" not in keys
        date = table.get_cell_at((0, keys.index("date")))
        assert "…" not in str(date) and len(str(date)) == 16
        width = sum(c.get_render_width(table) for c in table.ordered_columns)
        assert width <= table.size.width
        assert "/dev/nvme0n1p2 ext4" in str(app.screen.query_one("#saved-detail").render())

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_baselines_small(snap_compare, fixed_home):
    save_baseline()
    app = make()

    async def run(pilot):
        await pilot.press("b")
        await settle(pilot, lambda: getattr(app.screen, "loaded", False), "the list")
        table = app.screen.query_one("#saved")
        keys = [str(c.key.value) for c in table.ordered_columns]
        date = table.get_cell_at((0, keys.index("date")))
        assert "…" not in str(date)
        width = sum(c.get_render_width(table) for c in table.ordered_columns)
        assert width <= table.size.width

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


def test_dialog_keeps_the_window_behind_in_place(snap_compare):
    """A dialog must not shift the screen behind it one column to the right."""
    app = make()

    async def run(pilot):
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        before = app.query_one("#all").region.x
        await pilot.press("o")
        await settle(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "settings")
        assert app.screen.styles.padding.left == 0
        assert app.screen_stack[0].query_one("#all").region.x == before

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))


@SIZES
def test_targets_side_by_side(snap_compare, size):
    """A second target added, All run: the targets side by side, the second against the
    first (▲ quicker random reads, ▼ slower sequential, = random writes within noise)."""
    from diskmark.app.screens.sides import SidesScreen

    app = make()

    async def run(pilot):
        app.add_target("/mnt/usb")
        await pilot.press("a")
        await settle(pilot, lambda: isinstance(app.screen, SidesScreen) and not app.state.running
                     and app.state.sides.result is not None, "the targets side by side")
        await settle(pilot, lambda: str(app.screen.query_one("#close").label) == "Close",
                     "the run's end drawn")
        shown = app.screen.figures()
        assert len(shown) == 2 and len(shown[0]) == 8
        glyphs = {cell.split()[1] for cell in shown[1].values()}
        assert glyphs == {"▲", "▼", "="}, shown[1]

    check(app, snap_compare(app, terminal_size=size, run_before=run))


@SIZES
def test_fleet_screen_empty(snap_compare, size):
    app = make()

    async def run(pilot):
        app.action_fleet()
        await settle(pilot, lambda: type(app.screen).__name__ == "FleetScreen", "the fleet screen")
        assert "Type the hosts" in str(app.screen.query_one("#fleet-status").render())

    check(app, snap_compare(app, terminal_size=size, run_before=run))


@pytest.fixture
def speaking(request):
    """The window in another language for one test (the catalogs are the shipped ones)."""
    set_language(request.param)
    yield request.param
    set_language("en")


LANGS = pytest.mark.parametrize("speaking", ["ja", "de"], indirect=True)


@LANGS
def test_idle_translated_small(snap_compare, speaking):
    app = make()

    async def ready(pilot):
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        assert str(app.query_one("#all").label) == {"ja": "All", "de": "Alle"}[speaking]

    check(app, snap_compare(app, terminal_size=SMALL, run_before=ready))


@LANGS
def test_finished_translated_small(snap_compare, speaking):
    app = make()
    check(app, snap_compare(app, terminal_size=SMALL, run_before=finished))


@LANGS
def test_help_translated_small(snap_compare, speaking):
    app = make()

    async def run(pilot):
        await settle(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
        await pilot.press("question_mark")
        await settle(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "help")

    check(app, snap_compare(app, terminal_size=SMALL, run_before=run))
