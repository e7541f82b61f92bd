"""Results worth sharing. The HTML page of a real result (and of a comparison) checked in a
real browser, Debian's Chromium, headless: its DOM holds every figure and the page asks for
nothing over the network. The PNG drawn with no browser on PATH: the SVG's picture."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from datetime import datetime, timezone
from pathlib import Path

import pytest
from chromium import command, find_chromium
from history_data import THREE_PASSES, clone, real_result, write_reports
from pictures import charts, check_bars, check_colours, open_png

from diskmark.model.units import Unit
from diskmark.report.formatting import format_figure
from diskmark.report.share.colours import theme_colours
from diskmark.report.share.page import render_html
from diskmark.report.share.picture import render_svg
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
@pytest.mark.needs("chromium")
def test_chromium_renders_every_figure(tmp_path):
    doc = real_result(THREE_PASSES)
    session = session_of(doc)
    dom = dump_dom(render_html(session, theme_colours("diskmark")), tmp_path)
    tiles = re.findall(r'<div class="tile" data-test="([^"]+)">.*?<span class="fig">([^<]+)</span>',
                       dom)
    assert len(tiles) == 8
    for test in session.tests:
        assert (test.key, format_figure(test.best_mb_s, Unit.MB_S)) in tiles
    # a chart per test, every second drawn (passes of 2 s: a bar a second)
    assert dom.count("<svg") == 8
    assert dom.count('class="second"') == sum(len(r.bw_samples) for t in session.tests
                                              for r in t.runs)
    assert "/dev/loop0" in dom and "ext4" in dom and "Where it ran" in dom


def shared_pair(tmp_path: Path, env: dict[str, str]):
    """Two runs in the history (the newer 40% slower) and the command line, as a user runs it."""
    when = datetime(2026, 2, 1, 10, 0, tzinfo=timezone.utc)
    docs = [clone(real_result(THREE_PASSES), when, 1.0),
            clone(real_result(THREE_PASSES), when.replace(day=8), 0.6)]
    write_reports(tmp_path / "r", docs)

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                              text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)

    assert cli("history", "import", str(tmp_path / "r")).returncode == 0
    new, old = [r["id"] for r in json.loads(cli("history", "list", "--format", "json").stdout)["runs"]]
    return cli, new, old, [validate_result(d) for d in docs]


@needs_chromium
@pytest.mark.needs("chromium")
def test_cli_shares_a_comparison_as_html(tmp_path):
    cli, new, old, _docs = shared_pair(tmp_path, {**os.environ, "DISKMARK_HOME": str(tmp_path / "h")})
    html_file = tmp_path / "cmp.html"
    done = cli("history", "share", new, "--against", old, "--output", str(html_file))
    assert done.returncode == 0, done.stderr
    dom = dump_dom(html_file.read_text(), tmp_path)
    assert dom.count('class="delta worse"') == 8 and "▼ -40.0%" in dom
    assert "Against the run of" in dom


def test_cli_shares_a_comparison_as_png_without_a_browser(tmp_path):
    """No browser on PATH (an empty directory is the whole PATH): the PNG is drawn all the
    same, the picture the SVG describes, in its size and colours."""
    nothing = tmp_path / "empty-path"
    nothing.mkdir()
    assert shutil.which("chromium", path=str(nothing)) is None
    env = {**os.environ, "DISKMARK_HOME": str(tmp_path / "h"), "PATH": str(nothing)}
    env.pop("DISKMARK_CHROMIUM", None)
    cli, new, old, (first, second) = shared_pair(tmp_path, env)
    png_file = tmp_path / "cmp.png"
    done = cli("history", "share", new, "--against", old, "--output", str(png_file))
    assert done.returncode == 0, done.stderr
    again = cli("history", "share", new, "--output", str(png_file))
    assert again.returncode == 2 and "exists" in again.stderr  # never replaced silently
    colours = theme_colours("diskmark")
    svg = render_svg(second, colours, reference=first, reference_name="x", title="y")
    image = open_png(png_file.read_bytes())
    assert image.size == (1100, int(re.search(r'height="(\d+)"', svg).group(1)))
    assert check_colours(image, svg, colours) == 20


@needs_chromium
@pytest.mark.needs("chromium")
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


def test_a_run_of_one_second_passes_is_shared_with_every_second_drawn(tmp_path):
    """A real run of fio (Demo, read only: SEQ1M Q8T1, two passes of one second). fio
    samples once a second, so a pass holds one sample or none: the page and its PNG drew each
    chart as an empty frame with a dot. Now every sample is a bar, the chart says why there
    is no curve, and the PNG has the bars where the picture put them."""
    target = tmp_path / "target"
    target.mkdir()
    env = {**os.environ, "DISKMARK_HOME": str(tmp_path / "home")}

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "diskmark", *args], capture_output=True,
                              text=True, timeout=180, env=env, stdin=subprocess.DEVNULL)

    done = cli("run", "--target", str(target), "--profile", "demo", "--mode", "read", "--size", "16MiB",
               "--count", "2", "--measure", "1", "--interval", "0", "--format", "json",
               "--output", str(tmp_path / "run.json"))
    assert done.returncode == 0, done.stderr
    session = validate_result(json.loads((tmp_path / "run.json").read_text()))
    samples = [len(r.bw_samples) for t in session.tests for r in t.runs]
    assert len(samples) == 2 and max(samples) <= 2 and sum(samples) > 0, samples
    run = json.loads(cli("history", "list", "--format", "json").stdout)["runs"][0]["id"]
    page, picture = tmp_path / "run.html", tmp_path / "run.png"
    assert cli("history", "share", run, "--output", str(page)).returncode == 0
    assert cli("history", "share", run, "--output", str(picture)).returncode == 0

    html = page.read_text(encoding="utf-8")
    charted = [t for t in session.tests if any(r.bw_samples for r in t.runs)]
    assert html.count("<svg") == len(charted) > 0
    assert html.count('class="second"') == sum(samples)
    assert html.count("One sample a second: too few for a curve") == len(charted)
    svg = render_svg(session, theme_colours("diskmark"), title="x")
    assert len(charts(svg)) == len(charted)
    image = open_png(picture.read_bytes())
    assert image.size == (1100, int(re.search(r'height="(\d+)"', svg).group(1)))
    assert check_bars(image, svg, theme_colours("diskmark")["primary"]) == sum(samples)
