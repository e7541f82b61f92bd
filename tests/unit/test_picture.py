"""A result's picture: the SVG laid out by diskmark, drawn as a PNG by resvg with the
machine's own fonts, no browser. Pillow reads the PNG back: its size is the SVG's, and every
tile, meter and row button has the theme's colour where the SVG put it."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from history_data import THREE_PASSES, clone, real_result
from pictures import check_colours, open_png

from diskmark.locale import set_language
from diskmark.report.share.colours import theme_colours
from diskmark.report.share.picture import WIDTH, render_svg
from diskmark.report.share.png import PictureError, svg_to_png
from diskmark.store.schema import validate_result

#: What these tests use of the system (tests/support/system_tools.py: ./test.sh installs it)
pytestmark = pytest.mark.needs("dejavu", "cjk-font")

WHEN = datetime(2026, 2, 1, 10, 0, tzinfo=timezone.utc)
DEJAVU = [Path("/usr/share/fonts/truetype/dejavu") / name
          for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf",
                       "DejaVuSansMono-Bold.ttf")]
needs_dejavu = pytest.mark.skipif(not all(p.exists() for p in DEJAVU), reason=(
    "DejaVu is not installed (apt-get install fonts-dejavu-core; ./test.sh does as root)"))


@pytest.fixture(scope="module")
def pair():
    old = validate_result(clone(real_result(THREE_PASSES), WHEN, 1.0))
    new = validate_result(clone(real_result(THREE_PASSES), WHEN.replace(day=8), 0.6))
    return new, old


@pytest.mark.parametrize("theme", ["diskmark", "diskmark-dark"])
def test_the_png_is_the_svg_drawn_in_the_themes_colours(pair, theme):
    colours = theme_colours(theme)
    svg = render_svg(pair[0], colours, reference=pair[1], reference_name="the old run")
    height = int(re.search(r'height="(\d+)"', svg).group(1))
    data, note = svg_to_png(svg)
    assert note is None
    image = open_png(data)
    assert image.size == (WIDTH, height) and height > 1000
    assert check_colours(image, svg, colours) == 8 + 8 + 4  # tiles, their meters, row buttons
    # the deltas are there, in the worse colour: eight tiles at -40 %
    assert svg.count("▼ -40.0%") == 8 and svg.count(f'fill="{colours["worse-color"]}"') >= 8


def test_no_font_no_png_and_the_reason(pair):
    svg = render_svg(pair[0], theme_colours("diskmark"))
    with pytest.raises(PictureError, match=r"a PNG needs a font, and none was found "
                                           r"\(Debian/Ubuntu: sudo apt install fonts-dejavu-core\)"):
        svg_to_png(svg, fonts=[])


@needs_dejavu
def test_japanese_without_a_cjk_font_is_said(pair):
    set_language("ja")
    try:
        svg = render_svg(pair[0], theme_colours("diskmark"))
    finally:
        set_language(None)
    data, note = svg_to_png(svg, fonts=[str(p) for p in DEJAVU])
    assert note == ("No font has the Han, Kana characters of this picture, so they are missing "
                    "from it (Debian/Ubuntu: sudo apt install fonts-wqy-microhei).")
    assert open_png(data).size[0] == WIDTH


def test_japanese_is_drawn_with_the_systems_cjk_font(pair):
    from diskmark.report.share.png import _covered

    if not _covered("字", None):
        pytest.skip("no CJK font is installed (apt-get install fonts-wqy-microhei; ./test.sh "
                    "does as root)")
    set_language("ja")
    try:
        svg = render_svg(pair[0], theme_colours("diskmark"))
    finally:
        set_language(None)
    assert "読み込み" in svg
    data, note = svg_to_png(svg)
    assert note is None
    check_colours(open_png(data), svg, theme_colours("diskmark"))
