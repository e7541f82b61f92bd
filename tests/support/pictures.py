"""Reading diskmark's pictures back: where the SVG put its tiles, row buttons and meters,
and what colour the PNG has there (Pillow decodes it)."""

from __future__ import annotations

import io
import re

from PIL import Image

RECT = re.compile(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" '
                  r'fill="(#[0-9A-Fa-f]{3,6})"[^>]*?(?:data-test="([^"]+)"|class="(\w+)")[^>]*/>')


def hex_rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def boxes(svg: str) -> list[tuple[str, float, float, float, float, str]]:
    """(tile key or class, x, y, width, height, fill) of every tile, meter and row button."""
    return [(m[6] or m[7], float(m[1]), float(m[2]), float(m[3]), float(m[4]), m[5])
            for m in RECT.finditer(svg)]


def open_png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def check_colours(image: Image.Image, svg: str, colours: dict[str, str]) -> int:
    """Every tile, meter and row button of ``svg`` has its colour in ``image`` (a point in its
    empty left part, clear of text and rounded corners; a tile's at its right bottom, where
    the meter does not reach); returns how many were checked."""
    checked = 0
    found = boxes(svg)
    meters = [(x, y, w) for kind, x, y, w, _h, _f in found if kind == "meter"]
    for kind, x, y, w, h, fill in found:
        if kind == "meter" or kind == "rowbtn":
            point = (int(x + 6), int(y + h / 2 - 22))
        else:  # a tile: its background shows right of the meter, under the figure
            point = (int(x + w - 10), int(y + h - 3))
            if any(my == y and mx <= point[0] <= mx + mw for mx, my, mw in meters):
                continue
        assert image.getpixel(point) == hex_rgb(fill), (kind, point, fill)
        checked += 1
    assert image.getpixel((2, 2)) == hex_rgb(colours["background"])
    return checked


#: A chart nested in a picture (placed and scaled into its box), and a bar of one second in it.
NESTED = re.compile(r'<svg x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" '
                    r'xmlns="http://www.w3.org/2000/svg" viewBox="0 0 (\d+) \d+"(.*?)</svg>')
BAR = re.compile(r'<rect class="second" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                 r'height="([\d.]+)"')


def charts(svg: str) -> list[str]:
    """The "every second" charts a picture holds, in its order."""
    return [m[6] for m in NESTED.finditer(svg)]


def check_bars(image: Image.Image, svg: str, colour: str) -> int:
    """Every bar of a second in the picture's charts, moved to the picture's pixels, is drawn
    in ``colour`` at its centre (a bar too short to hit is counted all the same); returns how
    many bars there are."""
    bars = 0
    for m in NESTED.finditer(svg):
        x, y, scale = float(m[1]), float(m[2]), float(m[3]) / float(m[5])
        for bx, by, bw, bh in BAR.findall(m[6]):
            centre = (round(x + (float(bx) + float(bw) / 2) * scale),
                      round(y + (float(by) + float(bh) / 2) * scale))
            if float(bh) * scale >= 4:
                assert image.getpixel(centre) == hex_rgb(colour), centre
            bars += 1
    return bars
