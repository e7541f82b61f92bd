"""A terminal's SVG with each character at its own cell (diskmark.report.share.cells_svg)."""

import re

from rich.console import Console

from diskmark.report.share.cells_svg import in_cells


def test_each_character_is_placed_at_its_cells_and_the_fonts_draw_japanese():
    console = Console(record=True, width=20, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print("測定対象 e\u0301 All", highlight=False)
    svg = console.export_svg()
    placed = in_cells(svg)
    (xs,) = [m.group(1) for m in re.finditer(r'<text class="[^"]*-r\d+" x="([^"]*)"[^>]*>測', placed)]
    cell = 20 * 0.61
    assert [float(x) for x in xs.split()] == [round(c * cell, 4) for c in
                                              (0, 2, 4, 6, 8, 9, 9, 10, 11, 12, 13)]
    assert "textLength" not in placed and "textLength" in svg
    assert "'WenQuanYi Micro Hei Mono'" in placed and "Fira Code" in placed
