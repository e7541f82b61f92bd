"""The Textual app: CrystalDiskMark's window (``app.py``), its screens and widgets.

Only this package imports Textual; it drives :mod:`diskmark.engine` like the CLI does.
"""
