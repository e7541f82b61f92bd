"""The shared page's and picture's "every second" charts when the passes are short. fio
samples once a second, so a pass of a second or two has one or two samples: drawn as a line,
that was an empty frame with a dot. THREE_PASSES is a real run (ext4 on a loop device,
passes of 2 seconds) whose passes hold two, two and one samples: every one of them is drawn
as a bar with its figure, the chart says why there is no curve, and the PNG resvg draws from
the picture has the bars where the SVG put them. tests/system/test_share.py does the same
with a run of fio made there."""

from __future__ import annotations

import re

import pytest
from history_data import THREE_PASSES, real_result
from pictures import BAR, charts, check_bars, open_png

from diskmark.locale import _, set_language
from diskmark.model.results import RunResult
from diskmark.report.share.colours import theme_colours
from diskmark.report.share.picture import render_svg
from diskmark.report.share.png import svg_to_png
from diskmark.report.share.svg import CURVE_MIN, bandwidth_svg
from diskmark.store.schema import validate_result

COLOURS = theme_colours("diskmark")
WHY = "One sample a second: too few for a curve"


def run(samples: list[float]) -> RunResult:
    mb_s = max(samples, default=100.0)
    return RunResult(mb_s, mb_s * 244, 100, int(mb_s * 1e6), 1000, bw_samples=samples)


def texts(svg: str) -> list[str]:
    return re.findall(r"<text [^>]*>([^<]*)</text>", svg)


@pytest.fixture(scope="module")
def session():
    return validate_result(real_result(THREE_PASSES))


def test_a_real_run_of_one_second_passes_draws_every_sample(session):
    counts = {len(r.bw_samples) for t in session.tests for r in t.runs}
    assert counts and max(counts) < CURVE_MIN  # the run this test is about
    for test in session.tests:
        svg = bandwidth_svg(test.runs, COLOURS, test.label)
        samples = [v for r in test.runs for v in r.bw_samples]
        assert len(BAR.findall(svg)) == len(samples) > 0, test.key
        assert "<polyline" not in svg and "<circle" not in svg
        shown = texts(svg)
        assert WHY in shown
        # each bar's figure above it, and every pass named under its bars
        assert [s for s in shown if re.fullmatch(r"[\d.]+", s)][2:] == \
            [f"{v:.0f}" if v >= 100 else f"{v:.1f}" for v in samples]
        assert [s for s in shown if s.startswith("pass ")] == ["pass 1", "pass 2", "pass 3"]


def test_the_png_has_the_bars_where_the_picture_put_them(session):
    """The picture nests each chart as an <svg> scaled into its box: every bar, moved to the
    picture's pixels, is drawn in the theme's line colour by resvg."""
    picture = render_svg(session, COLOURS)
    image = open_png(svg_to_png(picture)[0])
    assert len(charts(picture)) == len(session.tests) == 8
    assert all(WHY in texts(chart) for chart in charts(picture))
    assert check_bars(image, picture, COLOURS["primary"]) == \
        sum(len(r.bw_samples) for t in session.tests for r in t.runs) == 40


def test_a_pass_without_a_sample_keeps_its_place_and_its_number():
    """The second pass of a 1-second write often has no sample at all (fio ended before its
    first status): the passes after it are not renumbered, and its place is marked."""
    svg = bandwidth_svg([run([500.0]), run([]), run([480.0])], COLOURS, "x")
    assert len(BAR.findall(svg)) == 2
    assert [s for s in texts(svg) if s.startswith("pass ")] == ["pass 1", "pass 2", "pass 3"]
    assert "-" in texts(svg)
    assert bandwidth_svg([run([]), run([])], COLOURS, "x") == ""  # nothing at all: no chart


def test_passes_of_a_few_seconds_are_still_curves():
    runs = [run([500.0, 510, 490, 200, 505]), run([480.0, 500, 495, 505, 499])]
    svg = bandwidth_svg(runs, COLOURS, "x")
    assert svg.count("<polyline") == 2 and not BAR.findall(svg) and WHY not in texts(svg)
    assert svg.count("<circle") == 1  # the dip at second 4 of pass 1
    mixed = bandwidth_svg([run([500.0, 510, 490]), run([480.0])], COLOURS, "x")
    assert mixed.count("<polyline") == 1 and len(BAR.findall(mixed)) == 1 and WHY in texts(mixed)


@pytest.mark.parametrize("lang", ["ja", "de", "ru"])
def test_the_reason_is_said_in_the_language_in_use(lang):
    set_language(lang)
    try:
        why = _(WHY)
        svg = bandwidth_svg([run([500.0])], COLOURS, "x")
    finally:
        set_language(None)
    assert why != WHY and why in texts(svg)
