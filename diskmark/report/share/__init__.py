"""Results worth sharing: a run, or a run against a reference, as one self-contained HTML
file (:mod:`.page`, charts from :mod:`.svg`, colours from :mod:`.colours`) or as a
picture: an SVG of its first screen (:mod:`.picture`) drawn as a PNG without a browser
(:mod:`.png`). No Textual here."""
