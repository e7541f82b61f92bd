"""The details' bandwidth chart, the sweep's curve and the tile's unstable mark, from
constructed results (the same figures the engine produces; real runs are in
test_app_pilot.py)."""

from __future__ import annotations

from textual.app import App, ComposeResult

from diskmark.app.screens.details import layout_text, stability_text
from diskmark.app.screens.sweep import curve_cells
from diskmark.app.widgets.chart import DIP_MARK, chart_cells, chart_text, dip_notes
from diskmark.app.widgets.tiles import ResultTile, unstable_mark
from diskmark.model.file_layout import FileLayout
from diskmark.model.results import RunResult, TestResult, TestSpec
from diskmark.model.settings import Op
from diskmark.model.units import KIB, Unit

SPEC = TestSpec("RND", 4 * KIB, 32, 1)


def run(mb_s: float, samples: list[float]) -> RunResult:
    return RunResult(mb_s, mb_s * 244, 100, int(mb_s * 5e6), 5000, bw_samples=samples)


def test_chart_has_a_column_per_second_and_marks_the_dip():
    runs = [run(500, [500, 510, 490, 200, 505]), run(500, [480, 500, 495, 505, 499])]
    text = chart_text(runs, 70)
    lines = text.splitlines()
    assert len(lines) == 8  # six rows of bars, the axis, the pass labels
    assert lines[0].lstrip().startswith("510")  # the top of the y-axis is the fastest second
    assert lines[6].lstrip().startswith("0")
    assert "pass 1 · 5 s" in lines[7] and "pass 2 · 5 s" in lines[7]
    assert lines[6].count(DIP_MARK) == 1
    # the mark sits under the fourth second of pass 1, the only dip
    cells = chart_cells(runs, 70)
    dip_x = next(x for x, (ch, _) in enumerate(cells[6]) if ch == DIP_MARK)
    first_bar = next(x for x, (ch, _) in enumerate(cells[5]) if ch == "█")
    per_second = 6  # 10 seconds and a gap in 64 columns: six columns each
    assert (dip_x - first_bar) // per_second == 3
    assert dip_notes(runs) == ["pass 1, second 4: 200.0 MB/s, 60% below its median of 500.0 MB/s"]


def test_a_long_run_is_squeezed_without_losing_its_dip():
    samples = [300.0] * 600
    samples[417] = 20.0  # one bad second in ten minutes
    text = chart_text([run(300, samples)], 80)
    assert max(len(line) for line in text.splitlines()) <= 80
    assert text.count(DIP_MARK) == 1
    assert "pass 1 · 600 s" in text


def test_one_second_passes_are_bars_and_keep_their_numbers():
    """A real 1-second run: pass 1 of a write had no sample (fio ended before its first
    status), passes 2 and 3 one each. Each sample is a bar of its own, and the passes are
    named by their number in the test, not by their place among those with samples."""
    text = chart_text([run(500, []), run(500, [500]), run(480, [480])], 70)
    lines = text.splitlines()
    assert lines[0].lstrip().startswith("500")
    assert lines[5].split() == ["│" + "█" * 8, "█" * 8]  # two bars, a second each
    assert lines[7].split() == ["pass", "2", "pass", "3"]
    assert "pass 1" not in text


def test_no_samples_no_chart():
    assert chart_cells([run(100, [])], 80) == []
    assert dip_notes([run(100, [100, 100, 100])]) == []


def test_stability_words():
    steady = TestResult(0, SPEC, Op.READ, runs=[run(100, []), run(103, [])])
    shaky = TestResult(0, SPEC, Op.READ, runs=[run(100, []), run(91, [])])
    single = TestResult(0, SPEC, Op.READ, runs=[run(100, [])])
    assert stability_text(steady) == ("Stable: the passes agree within 3.0% (R/Avg, at most 5%).",
                                      False)
    text, warn = stability_text(shaky)
    assert warn and text.startswith("~ Unstable: runs differ by 9%")
    assert not stability_text(single)[1]
    assert unstable_mark(shaky) == "~9%" and unstable_mark(steady) is None


def test_layout_words():
    assert "no FIEMAP" in layout_text(None, None)[0]
    words = " ".join(layout_text(FileLayout(5, 3, 0, 0.5), True))
    assert "filefrag counts them): 5," in words and "fragmented into 3" in words and "50%" in words
    assert "spinning disk" in words
    assert "contiguous" in " ".join(layout_text(FileLayout(2, 1, 0, 0.1), False))


def test_sweep_curve_scales_to_the_deepest_queue():
    points = [(1, 10.0), (2, 20.0), (4, 40.0), (8, None), (16, None), (32, None)]
    cells = curve_cells(points, Unit.MB_S, 60, current=8)
    assert [label for label, *_ in cells] == ["Q1", "Q2", "Q4", "Q8", "Q16", "Q32"]
    assert cells[2][1] == "█" * (60 - 5 - 12 - 2)  # the highest point fills the room
    assert cells[0][1] == "█" * 10 + "▎"  # a quarter of it, to an eighth of a cell
    assert cells[3][2] == "…" and cells[3][3] and cells[4][2] == ""


class TileApp(App):
    def compose(self) -> ComposeResult:
        yield ResultTile(2, Op.WRITE, SPEC, id="tile")


async def test_tile_shows_the_unstable_mark_only_when_runs_disagree():
    shaky = TestResult(2, SPEC, Op.WRITE, runs=[run(654.21, []), run(595.33, [])])
    steady = TestResult(2, SPEC, Op.WRITE, runs=[run(654.21, []), run(650.0, [])])
    for size in ((40, 8), (14, 3)):
        app = TileApp()
        async with app.run_test(size=size) as pilot:
            tile = app.query_one(ResultTile)

            def shown(tile: ResultTile = tile) -> str:
                return "\n".join(tile.render_line(y).text for y in range(tile.content_size.height))

            tile.result = shaky
            await pilot.pause()
            assert "~" in shown() and tile.has_class("-unstable")
            assert "runs differ by 9%" in str(tile.tooltip)
            if size[0] >= 40:
                assert "~9%" in shown()
            tile.result = steady
            await pilot.pause()
            assert "~" not in shown() and not tile.has_class("-unstable") and tile.tooltip is None
