"""The app driven like a user would, with real fio on a temporary directory (tiny runs:
16 MiB, one pass, 1 s measure, no interval)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from conftest import fio_processes as our_fio
from conftest import leftovers, tiny, wait_until
from pictures import hex_rgb, open_png
from textual.widgets import Input

from diskmark.app.app import DiskmarkApp
from diskmark.app.screens.dialogs import ConfirmDialog, ErrorDialog, SaveFileDialog
from diskmark.files.paths import reports_dir
from diskmark.model.results import Status
from diskmark.model.settings import Mode, Op
from diskmark.model.units import Unit
from diskmark.report.formatting import format_figure
from diskmark.store.store import Store

pytestmark = pytest.mark.skipif(shutil.which("fio") is None, reason="fio is not installed")

SIZE = (120, 40)


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Settings, presets and history go to a throwaway directory."""
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture
def target(tmp_path) -> Path:
    path = tmp_path / "target"
    path.mkdir()
    return path




def make_app(target: Path, **kw) -> DiskmarkApp:
    return DiskmarkApp(settings=tiny(target, **kw), persist=False)








def figures(app: DiskmarkApp) -> dict[tuple[int, Op], str]:
    return {(t.row, t.op): t.text for t in app.main.grid.tiles}


async def test_all_fills_every_tile_then_units_switch_without_rerun(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#all")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 180, "All to finish")
        await pilot.pause()
        tiles = app.main.grid.tiles
        assert len(tiles) == 8
        for tile in tiles:
            assert tile.value is not None and tile.value > 0, (tile.spec.label, tile.op)
            assert float(tile.text) > 0
        assert len(app.state.history) == 1 and app.state.history[0].status is Status.COMPLETE
        assert len(app.state.history[0].tests) == 8
        assert "Finished" in app.main.status.message

        mb_s = figures(app)
        await pilot.press("3")  # IOPS
        await pilot.pause()
        iops = figures(app)
        assert len(app.state.history) == 1  # nothing ran again
        for tile in app.main.grid.tiles:
            assert tile.text == format_figure(tile.result.best_iops, Unit.IOPS)
            assert iops[(tile.row, tile.op)] != mb_s[(tile.row, tile.op)]
        assert "Read (IOPS)" in str(app.query_one(".col-read").render())
        await pilot.press("u")  # cycles on to µs
        await pilot.pause()
        assert all(t.text == format_figure(t.result.best_lat_us, Unit.US) for t in app.main.grid.tiles)
    assert not our_fio(target)
    assert not leftovers(target)


async def test_row_button_runs_only_that_row(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#row-2")  # RND4K Q32T1
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 90, "the row to finish")
        await pilot.pause()
        for tile in app.main.grid.tiles:
            if tile.row == 2:
                assert tile.value and tile.value > 0, tile.op
            else:
                assert tile.value is None and tile.result is None, (tile.row, tile.op)
        session = app.state.history[-1]
        assert session.settings.only_test == 2
        assert {(t.index, t.op) for t in session.tests} == {(2, Op.READ), (2, Op.WRITE)}
    assert not leftovers(target)


@pytest.mark.serial
async def test_stop_mid_run_cleans_up_and_keeps_finished_tiles(target):
    app = make_app(target, measure=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        # wait until the first test finished and the second one is measuring
        await wait_until(pilot, lambda: any(t.result is not None and t.result.runs
                                            for t in app.main.grid.tiles), 60, "a finished test")
        await wait_until(pilot, lambda: any(t.live is not None for t in app.main.grid.tiles),
                         30, "the next test to start")
        assert our_fio(target), "fio should be running now"
        assert str(app.query_one("#all").label) == "Stop"
        assert app.query_one("#size").disabled
        stopped_at = time.monotonic()
        await pilot.press("escape")
        await wait_until(pilot, lambda: not app.state.running, 5, "the stop")
        assert time.monotonic() - stopped_at < 2.5
        assert not our_fio(target)
        assert not leftovers(target)
        assert app.state.history[-1].status is Status.CANCELLED
        done = [t for t in app.main.grid.tiles if t.text]
        assert done and all(t.live is None for t in app.main.grid.tiles)
        assert "Stopped" in app.main.status.message
        assert str(app.query_one("#all").label) == "All"
        assert not app.query_one("#size").disabled


async def test_quit_mid_run_stops_fio_and_removes_the_test_file(target):
    app = make_app(target, measure=5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await wait_until(pilot, lambda: bool(our_fio(target)) and bool(leftovers(target)), 30,
                         "fio to run")
        await pilot.press("ctrl+q")
        deadline = time.monotonic() + 10
        while app.is_running and time.monotonic() < deadline:
            await pilot.pause(0.1)
    assert app.return_code == 0
    assert not our_fio(target)
    assert not leftovers(target)


async def test_save_report_asks_before_replacing(target, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    app = make_app(target)
    reports = reports_dir()
    assert reports == tmp_path / "home" / "reports" and not reports.exists()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")  # nothing measured yet: a notice, no dialog
        await pilot.pause()
        assert not isinstance(app.screen, SaveFileDialog)
        await pilot.click("#row-0")
        await wait_until(pilot, lambda: app.state.history, 90, "the row to finish")
        await pilot.pause()

        app.query_one("#comment", Input).value = "pilot test"
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveFileDialog), 5, "the dialog")
        field = app.screen.query_one(Input)
        assert field.value.startswith("diskmark-") and field.value.endswith(".txt")
        # saved where reports belong, never the current directory (the checkout, often)
        await pilot.press("enter")
        await wait_until(pilot, lambda: reports.is_dir() and any(reports.iterdir()), 5,
                         "the report in the reports directory")
        assert not list(tmp_path.glob("diskmark-*.txt"))
        report = tmp_path / "report.txt"
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveFileDialog), 5, "the dialog")
        app.screen.query_one(Input).value = str(report)
        await pilot.press("enter")
        await wait_until(pilot, report.exists, 5, "the report")
        text = report.read_text()
        assert "[Read]" in text and "[Write]" in text and "SEQ" in text
        assert "pilot test" in text
        report = reports / "report.txt"
        report.write_text("stale")

        report.write_text("keep me")
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, SaveFileDialog), 5, "the dialog")
        app.screen.query_one(Input).value = "report.txt"  # relative: the reports directory
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), 5, "the question")
        await pilot.click("#no")
        await pilot.pause()
        assert report.read_text() == "keep me"
        await pilot.click("#save")  # back in the file dialog: try again, and replace
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), 5, "the question")
        await pilot.click("#yes")
        await wait_until(pilot, lambda: "[Read]" in report.read_text(), 5, "the replacement")


async def test_missing_target_shows_a_dialog_and_nothing_runs(tmp_path):
    missing = tmp_path / "gone"
    app = make_app(missing)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        # the dialog and its buttons: a loaded machine shows the screen a frame before them
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog)
                         and bool(app.screen.query("#target")), 10, "the dialog")
        dialog = app.screen
        assert dialog.title_text == "The target cannot be used"
        assert "does not exist" in dialog.message
        assert dialog.query_one("#target")  # a way forward
        assert not app.state.running and not app.state.history
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ErrorDialog)
        assert all(t.value is None for t in app.main.grid.tiles)


@pytest.fixture
def ramfs(tmp_path):
    """A filesystem that refuses O_DIRECT (needs root and mount)."""
    mnt = tmp_path / "ramfs"
    mnt.mkdir()
    if os.geteuid() != 0 or subprocess.run(["mount", "-t", "ramfs", "ramfs", str(mnt)],
                                           capture_output=True).returncode != 0:
        pytest.skip("cannot mount a ramfs here (needs root)")
    yield mnt
    subprocess.run(["umount", str(mnt)], capture_output=True)


async def test_direct_io_refused_offers_a_buffered_run(ramfs):
    app = make_app(ramfs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#row-0")
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorDialog), 10, "the dialog")
        assert "O_DIRECT" in app.screen.message
        await wait_until(pilot, lambda: any(b.region.area for b in app.screen.query("#buffered")),
                         5, "the dialog's buttons laid out")  # a click needs where they are
        await pilot.click("#buffered")
        await wait_until(pilot, lambda: app.state.history, 90, "the buffered run")
        assert app.state.settings.direct is False
        assert app.state.history[-1].settings.direct is False
        assert all(t.value for t in app.main.grid.tiles if t.row == 0)
    assert not leftovers(ramfs)


async def test_settings_screen_changes_profile_and_layout(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        from textual.widgets import Select

        from diskmark.app.screens.settings import SettingsScreen
        assert isinstance(app.screen, SettingsScreen)
        app.screen.query_one("#profile", Select).value = "peak"
        app.screen.query_one("#mix", Select).value = 70
        app.screen.query_one("#unstable", Select).value = 10.0
        await pilot.click("#apply")
        await pilot.pause()
        assert app.state.settings.profile == "peak" and app.state.settings.mix == 70
        assert app.state.settings.unstable_pct == 10
        tiles = app.main.grid.tiles
        assert len(tiles) == 12  # 4 rows × Read, Write, Mix
        assert {t.fixed_unit for t in tiles} == {Unit.MB_S, Unit.IOPS, Unit.US}
        assert not app.query_one("#unit").display


async def test_target_picker_chooses_a_directory(target, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        from diskmark.app.screens.target_picker import TargetPicker

        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TargetPicker), 5, "the picker")
        app.screen.query_one("#path", Input).value = str(other)
        await pilot.click("#use")
        await wait_until(pilot, lambda: app.state.settings.target == str(other), 5, "the new target")
        assert not isinstance(app.screen, TargetPicker)
        assert app.query_one("#target").path == str(other)
        await wait_until(pilot, lambda: "free" in str(app.query_one("#facts").render()), 5,
                         "the facts of the new target")


async def test_two_targets_chosen_in_the_picker_run_side_by_side(target, tmp_path):
    """A second target added in the picker (its button, then its key): All measures each
    test on both in turn, on the side-by-side screen; each target's run goes to the history;
    nothing is left on either; back to one target."""
    from diskmark.app.screens.sides import SidesScreen
    from diskmark.app.screens.target_picker import TargetPicker

    second, third = tmp_path / "second", tmp_path / "third"
    second.mkdir()
    third.mkdir()
    app = make_app(target, profile="peak")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TargetPicker), 5, "the picker")
        app.screen.query_one("#path", Input).value = str(second)
        await pilot.click("#add")
        await wait_until(pilot, lambda: app.state.other_targets == [str(second)], 5,
                         "the second target")
        assert app.state.settings.target == str(target), "the first stays the reference"
        assert str(app.query_one("#target").label).endswith("+1 ▼")
        assert "2 targets side by side" in str(app.query_one("#setup").render())
        # the same directory again is refused; the key adds as the button does
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TargetPicker), 5, "the picker")
        app.screen.query_one("#path", Input).value = str(third)
        app.screen.query_one("#mounts").focus()
        await pilot.press("a")
        await wait_until(pilot, lambda: len(app.state.other_targets) == 2, 5, "the third")
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, TargetPicker), 5, "the picker")
        app.screen.query_one("#path", Input).value = str(third)
        await pilot.click("#add")
        await wait_until(pilot, lambda: not isinstance(app.screen, TargetPicker), 5, "closed")
        assert app.state.other_targets == [str(second), str(third)]
        await pilot.press("a")
        await wait_until(pilot, lambda: isinstance(app.screen, SidesScreen), 5, "the table")
        await wait_until(pilot, lambda: app.state.running, 5, "the run to start")
        await wait_until(pilot, lambda: not app.state.running, 180, "the run to end")
        await pilot.pause()
        result = app.state.sides.result
        assert result is not None and result.targets == [str(target), str(second), str(third)]
        assert [s.status for s in result.sessions] == [Status.COMPLETE] * 3
        # each test on every target in turn
        starts = sorted((t.started, i) for i, s in enumerate(result.sessions) for t in s.tests)
        assert [i for _when, i in starts] == [0, 1, 2] * 4
        shown = app.screen.figures()
        keys = {t.key for t in result.sessions[0].tests}
        assert [set(f) for f in shown] == [keys] * 3
        assert all(cell[-1] == "%" and cell.split()[1] in "▲▼=" for cell in shown[1].values())
        assert all(t.value is None for t in app.main.grid.tiles), "the tiles are left alone"
        await app.workers.wait_for_complete()
        kept = Store().history()
        assert sorted(e.session.system.target for e in kept) == sorted(result.targets)
        await pilot.press("o")
        await pilot.pause()
        assert app.state.other_targets == [] and not isinstance(app.screen, SidesScreen)
        assert not str(app.query_one("#target").label).endswith("+1 ▼")
    for where in (target, second, third):
        assert not our_fio(where) and not leftovers(where)


async def test_palette_and_keys_change_units_and_settings(target):
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Unit: IOPS")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.state.unit is Unit.IOPS
        assert all(t.unit is Unit.IOPS for t in app.main.grid.tiles)
        await pilot.press("m")  # +Mix on: a third column
        await pilot.pause()
        assert app.state.settings.mix == 70 and len(app.main.grid.tiles) == 12
        await pilot.press("m")
        await pilot.pause()
        assert app.state.settings.mix is None and len(app.main.grid.tiles) == 8


async def test_copy_report_and_ctrl_c_stops(target):
    app = make_app(target, measure=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#row-3")
        await wait_until(pilot, lambda: app.state.history, 60, "the row to finish")
        await pilot.press("c")
        assert "[Read]" in app.clipboard and "RND" in app.clipboard
        await pilot.press("a")
        await wait_until(pilot, lambda: bool(our_fio(target)), 30, "fio to run")
        await pilot.press("ctrl+c")
        await wait_until(pilot, lambda: not app.state.running, 5, "the stop")
        assert app.state.history[-1].status is Status.CANCELLED
        assert all(t.live is None for t in app.main.grid.tiles)
    assert not our_fio(target)
    assert not leftovers(target)


async def test_palette_has_one_keys_and_one_screenshot_command(target):
    from diskmark.app.commands import commands

    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        system = [c.title for c in app.get_system_commands(app.screen)]
        ours = [title for title, *_ in commands(app)]
        assert "Theme" in system and "Quit" in system
        titles = system + ours
        assert titles.count("Keys") == 1
        assert [t for t in titles if "creenshot" in t] == ["Save PNG screenshot",
                                                           "Save SVG screenshot"]


async def test_screenshots_are_png_or_svg_and_never_replace_a_file(target, tmp_path, monkeypatch):
    """p saves a PNG, drawn from Textual's SVG without a browser (none on PATH); the palette
    saves the SVG itself. Someone else's files of those names stay."""
    shots = reports_dir()  # under DISKMARK_HOME here; the documents directory otherwise
    shots.mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs"))
    monkeypatch.setattr("diskmark.app.reporting._stamp", lambda: "20260101-000000")
    theirs = [shots / f"diskmark-20260101-000000.{kind}" for kind in ("svg", "png")]
    for path in theirs:
        path.write_text("someone else's file")
    app = make_app(target)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        await pilot.press(*"Save SVG screenshot")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        await pilot.pause(0.3)
        await pilot.press("p")
        svg = app.export_screenshot()  # what p drew, still on the screen
        png = shots / "diskmark-20260101-000000-2.png"
        await wait_until(pilot, png.exists, 20, "the PNG")
        await pilot.pause(0.2)
    assert all(path.read_text() == "someone else's file" for path in theirs)
    made = sorted(p.name for p in shots.iterdir() if p not in theirs)
    assert made == ["diskmark-20260101-000000-2.png", "diskmark-20260101-000000-2.svg"]
    assert "<svg" in (shots / made[1]).read_text()
    assert not [p for p in shots.iterdir() if p.name.startswith(".")]  # no temporary left
    image = open_png(png.read_bytes())
    box = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg)
    assert image.size == (round(float(box[1])), round(float(box[2])))
    # the window's cells have their colours where the SVG puts them (inside its translate)
    dx, dy = (float(n) for n in re.search(r'translate\(([\d.]+), ([\d.]+)\)" clip-path', svg).groups())
    cells = [(float(x), float(y), float(w), float(h), fill) for fill, x, y, w, h in re.findall(
        r'<rect fill="(#[0-9a-f]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
        r'height="([\d.]+)"', svg) if float(w) >= 100]
    assert len(cells) > 20
    for x, y, w, h, fill in cells:  # the colour most of each is (letters cover some of it)
        seen = Counter(image.getpixel((int(dx + x + i), int(dy + y + h * f)))
                       for i in range(2, int(w) - 2, 3) for f in (0.1, 0.3, 0.5, 0.7, 0.9))
        assert seen.most_common(1)[0][0] == hex_rgb(fill), (x, y, w, fill, seen.most_common(2))


async def test_no_color_picks_the_mono_theme_unless_one_was_saved(target, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = DiskmarkApp(target=str(target))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "diskmark-mono"
        app.theme = "diskmark-dark"  # saved: wins over NO_COLOR next time
        await pilot.pause()
    app = DiskmarkApp(target=str(target))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.theme == "diskmark-dark"


async def test_details_after_a_real_run_show_chart_percentiles_flush_and_file(target):
    from diskmark.app.screens.details import DetailsScreen
    from diskmark.app.widgets.chart import BandwidthChart

    app = make_app(target, count=2, measure=3.0, mode=Mode.WRITE)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.click("#row-0")  # SEQ1M Q8T1 write
        await wait_until(pilot, lambda: app.state.history, 90, "the row to finish")
        await pilot.pause()
        tile = next(t for t in app.main.grid.tiles if t.row == 0 and t.op is Op.WRITE)
        tile.focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DetailsScreen), 5, "the details")
        screen = app.screen
        result = screen.result
        assert len(result.runs) == 2
        chart = screen.query_one("#chart", BandwidthChart)
        assert [len(r.bw_samples) for r in chart.runs] == [len(r.bw_samples) for r in result.runs]
        assert all(2 <= len(r.bw_samples) <= 4 for r in result.runs)  # one a second of 3 s
        assert "pass 1 · " in chart.text and "pass 2 · " in chart.text and "MB/s" in chart.text
        table = screen.query_one("#percentiles")
        assert table.row_count == 2
        for r in result.runs:
            values = [r.lat_percentiles[k] for k in ("50", "90", "99", "99.9", "99.99", "max")]
            assert values == sorted(values) and values[0] > 0
        assert "Flushing to disk after this test took" in str(screen.query_one("#cache").render())
        assert "Extents (as filefrag counts them): " in str(screen.query_one("#test-file").render())
        assert str(screen.query_one("#stability").render())  # stable, unstable or one pass
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, DetailsScreen)
    assert not leftovers(target)


async def test_sweep_from_the_app_gives_one_point_per_depth(target):
    from diskmark.app.screens.sweep import SweepDialog, SweepScreen
    from diskmark.model.settings import SWEEP_DEPTHS

    app = make_app(target, mode=Mode.READ)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, SweepDialog), 5, "the dialog")
        app.screen.query_one("#pattern").value = "RND4K"
        app.screen.query_one("#sweep-mode").value = Mode.READ
        await pilot.pause()
        await pilot.click("#run")
        await wait_until(pilot, lambda: isinstance(app.screen, SweepScreen), 5, "the sweep")
        await wait_until(pilot, lambda: app.state.running, 5, "the sweep to start")
        await wait_until(pilot, lambda: not app.state.running, 180, "the sweep to finish")
        await pilot.pause()
        screen = app.screen
        session = app.state.sweep_session
        assert session is not None and session.status is Status.COMPLETE, session.error
        assert [t.spec.queues for t in session.tests] == list(SWEEP_DEPTHS)
        assert all(t.op is Op.READ and t.best_iops > 0 for t in session.tests)
        assert screen.query_one("#table-read").row_count == len(SWEEP_DEPTHS)
        curve = screen.query_one("#curve-read").text.splitlines()
        assert [line.split()[0] for line in curve] == [f"Q{q}" for q in SWEEP_DEPTHS]
        assert all(any(ch in line for ch in "█▏▎▍▌▋▊▉") for line in curve)
        assert all(t.value is None for t in app.main.grid.tiles), "a sweep leaves the tiles alone"
        await pilot.press("c")
        assert "Q32" in app.clipboard
        assert app.state.history == []
        await app.workers.wait_for_complete()
        kept = Store().history()
        assert [e.session.settings.sweep for e in kept] == ["RND4K"], "kept like the CLI's"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, SweepScreen)
    assert not our_fio(target)
    assert not leftovers(target)


@pytest.fixture
def btrfs(tmp_path):
    from mounts import can_loop_mount, loop_mount

    ok, reason = can_loop_mount("btrfs")
    if not ok:
        pytest.skip(reason)
    with loop_mount(tmp_path, "btrfs", 160) as mnt:
        yield mnt


@pytest.mark.needs("mkfs.btrfs")
async def test_btrfs_target_offers_nocow_and_a_nocow_run_skips_the_leak(btrfs):
    from textual.widgets import Select

    from diskmark.app.screens.settings import SettingsScreen

    app = make_app(btrfs, mode=Mode.WRITE)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: any("NOCOW" in n.message for n in app._notifications),
                         10, "the NOCOW advice")
        await pilot.press("o")
        await wait_until(pilot, lambda: isinstance(app.screen, SettingsScreen), 5, "settings")
        app.screen.query_one("#nocow", Select).value = True
        await pilot.click("#apply")
        await pilot.pause()
        assert app.state.settings.nocow
        assert "NOCOW" in str(app.query_one("#setup").render())
        await pilot.click("#row-3")  # RND4K Q1T1 write
        await wait_until(pilot, lambda: app.state.history, 90, "the row to finish")
        session = app.state.history[-1]
        assert session.status is Status.COMPLETE, session.error
        assert session.settings.nocow and session.system.fstype == "btrfs"
        assert not any("leak" in w for w in session.warnings)
    assert not leftovers(btrfs) and not list(btrfs.iterdir())  # the NOCOW directory went too
