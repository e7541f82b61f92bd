"""Results worth sharing: a run, or a run against a reference, as one self-contained HTML
file (:mod:`.page`, charts from :mod:`.svg`, colours from :mod:`.colours`) or as a PNG
image of that page rendered by headless Chromium (:mod:`.png`). No Textual here."""

from diskmark.share.colours import theme_colours
from diskmark.share.page import render_html
from diskmark.share.png import ChromiumMissing, find_chromium, render_png

__all__ = ["ChromiumMissing", "find_chromium", "render_html", "render_png", "theme_colours"]
