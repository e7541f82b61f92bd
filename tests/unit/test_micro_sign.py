"""One micro sign wherever a person reads a latency. µs is written with U+00B5 MICRO SIGN,
once, in :attr:`Unit.label`; U+03BC GREEK SMALL LETTER MU looks the same but is another
character to a search, a sort, a diff or a Latin-1 terminal, and 0.2.0 printed both (µ in
``keys``, the README and the PNG; μ in the markdown table, the comparison, ``history trend``
and the app). Both are still read as input (tests/unit/test_model.py)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from history_data import THREE_PASSES, clone, real_result

from diskmark.locale import LANGUAGES, set_language
from diskmark.model.units import Unit
from diskmark.report.compare import compare, comparison_markdown, comparison_text
from diskmark.report.share.colours import theme_colours
from diskmark.report.share.page import render_html
from diskmark.report.share.picture import render_svg
from diskmark.report.text import grid_report, markdown_report
from diskmark.store.schema import validate_result

ROOT = Path(__file__).resolve().parents[2]
MICRO, MU = "\u00b5", "\u03bc"
#: What a person reads that is kept as text in the repository: the package's code and data
#: (its words, its catalogs, its themes and presets), the READMEs and docs, the desktop file
#: and the screenshots the README shows.
READ_BY_PEOPLE = ("diskmark/**/*.py", "diskmark/**/*.po", "diskmark/**/*.pot",
                  "diskmark/**/*.toml", "diskmark/**/*.tcss", "README*.md", "docs/**/*.md",
                  "data/*", "screenshots/*.svg", "scripts/*.py")


def test_the_label_is_the_micro_sign():
    assert Unit.US.label == MICRO + "s"


def test_no_other_micro_sign_in_the_code_the_catalogs_or_the_docs():
    """The Greek mu may be named in code as ``"\\u03bc"`` (to read it, or to stand in for it
    on an ASCII terminal), never written: written, it is a sign someone reads."""
    files = sorted({p for pattern in READ_BY_PEOPLE for p in ROOT.glob(pattern) if p.is_file()})
    assert len([p for p in files if p.suffix == ".po"]) >= len(LANGUAGES) - 1  # all but English
    found = [f"{p.relative_to(ROOT)}:{n}: {line.strip()[:90]}"
             for p in files
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if MU in line]
    assert found == [], "U+03BC where µs (U+00B5) belongs:\n" + "\n".join(found)


@pytest.fixture(scope="module")
def pair():
    when = datetime(2026, 2, 1, 10, 0, tzinfo=timezone.utc)
    old = validate_result(clone(real_result(THREE_PASSES), when, 1.0))
    new = validate_result(clone(real_result(THREE_PASSES), when.replace(day=8), 0.6))
    return new, old


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_report_shows_the_one_sign(pair, lang):
    """The markdown table, the grid in µs, the comparison as text and markdown, the shared
    page and its picture, in every language: each shows latency in µs, with U+00B5 only."""
    new, old = pair
    set_language(lang)
    try:
        cmp = compare(new, old, "old")
        colours = theme_colours("diskmark")
        texts = {"markdown": markdown_report(new), "grid": grid_report(new, Unit.US),
                 "comparison": comparison_text(cmp), "comparison markdown": comparison_markdown(cmp),
                 "page": render_html(new, colours, Unit.US, reference=old),
                 "picture": render_svg(new, colours, Unit.US, reference=old)}
    finally:
        set_language(None)
    for name, text in texts.items():
        assert MICRO + "s" in text, name
        assert MU not in text, name
