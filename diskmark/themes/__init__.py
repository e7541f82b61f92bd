"""diskmark's themes, as data: one TOML file per theme (diskmark, dark, contrast, mono).

They are read into Textual themes by :mod:`diskmark.app.themes`, the only place that knows
Textual; this package holds the files and imports nothing.
"""

from pathlib import Path

#: Where the built-in theme files lie.
BUILTIN_DIR = Path(__file__).resolve().parent
