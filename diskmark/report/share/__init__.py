"""Results worth sharing: a run, or a run against a reference, as one self-contained HTML
file (:mod:`.page`, charts from :mod:`.svg`, colours from :mod:`.colours`) or as a PNG
image of that page rendered by headless Chromium (:mod:`.png`). No Textual here."""
