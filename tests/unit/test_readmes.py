"""The READMEs in other languages: there, linked from the README, and listing the same keys.

README.ja.md and README.de.md translate the set-up, the first run and the key table. Their
table keeps the binding ids and keys as docs/app.md has them (only what a key does is
translated), so a key added to the app and to docs/app.md's table is missed in a translation
here, not by a reader. That table is held to the app's bindings by tests/app/test_bindings.py;
here it is held to the bindings' declaration (without Textual).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from diskmark.app.core.keymap import KEYS
from diskmark.locale import LANGUAGES

ROOT = Path(__file__).parents[2]
README = ROOT / "README.md"
APP_DOC = ROOT / "docs" / "app.md"
TRANSLATED = ("README.ja.md", "README.de.md")


def key_table(path: Path) -> dict[str, set[str]]:
    """Binding id -> its keys, from the table whose header starts ``| id |``, read as
    tests/app/test_bindings.py reads README.md's: backquoted ids in the first column,
    backquoted keys (comma-separated) in the second, in the same order."""
    text = path.read_text(encoding="utf-8")
    found = re.search(r"^\| id \|.*$", text, re.MULTILINE)
    assert found, f"{path.name} has no table of binding ids"
    table = text[found.start():]
    table = table[:table.index("\n\n")]
    documented: dict[str, set[str]] = {}
    for row in table.splitlines()[2:]:
        ids_cell, keys_cell = row.split("|")[1:3]
        ids = re.findall(r"`([^`]+)`", ids_cell)
        keys = re.findall(r"`([^`]+)`", keys_cell)
        assert len(ids) == len(keys), row
        for binding_id, key in zip(ids, keys):
            documented[binding_id] = set(key.split(","))
    return documented


def test_the_docs_table_is_the_apps_key_table():
    assert key_table(APP_DOC) == {k.id: set(k.keys.split(",")) for k in KEYS}


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_translated_readme_exists_and_is_linked_both_ways(name):
    readme = README.read_text(encoding="utf-8")
    assert f"]({name})" in readme, f"README.md does not link {name}"
    translated = (ROOT / name).read_text(encoding="utf-8")
    assert "](README.md)" in translated and "the full English README" in translated


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_translated_readme_lists_every_key_of_the_readme(name):
    assert key_table(ROOT / name) == key_table(APP_DOC)


@pytest.mark.parametrize("name", TRANSLATED)
def test_a_translated_readme_covers_set_up_language_and_scripts(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    for needed in ("./start.sh", "./test.sh", "--lang", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
                   "LANG=", "diskmark run", "~/Documents/diskmark/", "ctrl+p"):
        assert needed in text, (name, needed)
    for code in LANGUAGES:
        assert f"`{code}`" in text, (name, code)


def test_the_readme_names_every_language_and_where_to_add_one():
    text = README.read_text(encoding="utf-8")
    section = text[text.index("\n## Languages\n"):]
    for code in LANGUAGES:
        assert re.search(rf"`(--lang )?{code}`", section), code
    assert "docs/translating.md" in section
    guide = (ROOT / "docs" / "translating.md").read_text(encoding="utf-8")
    for needed in ("catalogs.py extract", "catalogs.py init", "catalogs.py update",
                   "catalogs.py check", "`LANGUAGES`", "test_catalogs.py"):
        assert needed in guide, needed


def test_the_readme_is_a_first_read_and_links_the_rest():
    """A short README (install, the first run, the window, the commands people use) and the
    rest in docs/, every page of which it links."""
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 200
    for needed in ("SEQ1M Q8T1", "Q8", "T1", "`~9%`", "`cpu`", "▲", "▼"):
        assert needed in text, needed
    for page in sorted((ROOT / "docs").glob("*.md")):
        assert f"](docs/{page.name})" in text, f"README.md does not link docs/{page.name}"
