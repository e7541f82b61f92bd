"""Results worth sharing, checked in a real browser: Debian's Chromium, headless, renders the
HTML page of a real result (and of a comparison); its DOM holds every figure, the page asks
for nothing over the network, and the PNG shows a picture, not a blank page."""

from __future__ import annotations

import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import unicodedata
import zlib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from history_data import THREE_PASSES, clone, real_result, write_reports

from diskmark.model.units import Unit
from diskmark.report.formatting import format_figure
from diskmark.report.share.colours import theme_colours
from diskmark.report.share.page import render_html
from diskmark.report.share.png import command, find_chromium
from diskmark.store.schema import validate_result

CHROMIUM = find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="Chromium is not installed (./test.sh installs it when run as "
                             "root: apt-get install chromium); the share tests need a browser")


def session_of(doc: dict):
    return validate_result(doc)


def dump_dom(html: str, tmp_path: Path) -> str:
    page = tmp_path / "page.html"
    page.write_text(html, encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="diskmark-test-chromium-") as profile:
        done = subprocess.run(command(CHROMIUM, Path(profile), "--dump-dom", page.as_uri()),
                              capture_output=True, text=True, timeout=120,
                              stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def png_pixels(path: Path, top: int = 700) -> tuple[int, int, list[tuple[int, ...]]]:
    """Width, height and the pixels (every fourth of every fourth row) of the top ``top``
    rows of an 8-bit RGB or RGBA PNG (what Chromium writes): the header and the tiles."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert header is not None
    width, height, depth, colour, _c, _f, interlace = header
    assert depth == 8 and colour in (2, 6) and interlace == 0, header
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(min(height, top)):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    pixels = [tuple(row[x:x + 3]) for row in rows[::4] for x in range(0, stride, bpp * 4)]
    return width, height, pixels


def test_the_page_is_self_contained():
    doc = real_result(THREE_PASSES)
    html = render_html(session_of(doc), theme_colours("diskmark"))
    assert "<script" not in html.lower()
    # nothing to fetch: no src or href at all, no url() in the style, a policy that forbids it
    assert not re.search(r"\b(src|href)\s*=", html, re.I) and "url(" not in html
    assert "default-src 'none'" in html
    assert html.count("<svg") == 8  # a bandwidth chart per test
    assert "fio --name" in html or "fio " in html


@needs_chromium
def test_chromium_renders_every_figure(tmp_path):
    doc = real_result(THREE_PASSES)
    session = session_of(doc)
    dom = dump_dom(render_html(session, theme_colours("diskmark")), tmp_path)
    tiles = re.findall(r'<div class="tile" data-test="([^"]+)">.*?<span class="fig">([^<]+)</span>',
                       dom)
    assert len(tiles) == 8
    for test in session.tests:
        assert (test.key, format_figure(test.best_mb_s, Unit.MB_S)) in tiles
    assert dom.count("<svg") == 8 and "<polyline" in dom
    assert "/dev/loop0" in dom and "ext4" in dom and "Where it ran" in dom


@needs_chromium
def test_cli_shares_a_comparison_as_html_and_png(tmp_path):
    home = tmp_path / "home"
    env = {**os.environ, "DISKMARK_HOME": str(home)}
    when = datetime(2026, 2, 1, 10, 0, tzinfo=timezone.utc)
    docs = [clone(real_result(THREE_PASSES), when, 1.0),
            clone(real_result(THREE_PASSES), when.replace(day=8), 0.6)]
    write_reports(tmp_path / "r", docs)

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                              text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)

    assert cli("history", "import", str(tmp_path / "r")).returncode == 0
    new, old = [r["id"] for r in json.loads(cli("history", "list", "--format", "json").stdout)["runs"]]
    html_file, png_file = tmp_path / "cmp.html", tmp_path / "cmp.png"
    for dest in (html_file, png_file):
        done = cli("history", "share", new, "--against", old, "--output", str(dest))
        assert done.returncode == 0, done.stderr
    again = cli("history", "share", new, "--output", str(png_file))
    assert again.returncode == 2 and "exists" in again.stderr  # never replaced silently

    dom = dump_dom(html_file.read_text(), tmp_path)
    assert dom.count('class="delta worse"') == 8 and "▼ -40.0%" in dom
    assert "Against the run of" in dom

    width, height, pixels = png_pixels(png_file)
    assert width == 1100 and height > 1000
    colours = {}
    for p in pixels:
        colours[p] = colours.get(p, 0) + 1
    background = max(colours, key=colours.get)
    assert len(colours) > 50, "the picture has almost no colours: a blank page?"
    assert sum(n for c, n in colours.items() if c != background) > len(pixels) * 0.15
    # the theme's colours are there: the row buttons' green and the worse-colour deltas
    green = tuple(int(theme_colours("diskmark")["row-button-background"][i:i + 2], 16)
                  for i in (1, 3, 5))
    assert colours.get(green, 0) > 500


@needs_chromium
def test_format_characters_in_the_data_are_shown_escaped_on_the_page(tmp_path):
    """U+202E would show "gpj.exe" as "exe.jpg" on the page; a zero-width space and a tab
    hide and shift. The page shows each escaped, as it shows control characters."""
    spoof, spoof_shown = "gpj\u202e.exe\u200b\tz", "gpj\\u202e.exe\\u200b\\tz"
    doc = real_result(THREE_PASSES)
    doc["settings"]["comment"] = spoof
    doc["system"].update(hostname=f"h{spoof}", target=f"/mnt/{spoof}", model=f"m{spoof}")
    write_reports(tmp_path / "r", [doc])
    env = {**os.environ, "DISKMARK_HOME": str(tmp_path / "home")}

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                              text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)

    assert cli("history", "import", str(tmp_path / "r")).returncode == 0
    run = json.loads(cli("history", "list", "--format", "json").stdout)["runs"][0]["id"]
    page = tmp_path / "run.html"
    done = cli("history", "share", run, "--output", str(page))
    assert done.returncode == 0, done.stderr
    html = page.read_text(encoding="utf-8")
    assert [c for c in html if unicodedata.category(c) == "Cf" or c == "\t"] == []
    dom = dump_dom(html, tmp_path)
    assert [c for c in dom if unicodedata.category(c) == "Cf" or c == "\t"] == []
    assert f"<td>{spoof_shown}</td>" in dom  # the comment
    assert f"h{spoof_shown}" in dom and f"/mnt/{spoof_shown}" in dom and f"m{spoof_shown}" in dom
