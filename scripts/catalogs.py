"""diskmark's translation catalogs, with Babel: extract the template, update every language's
catalog from it, compile them, and check that none is missing a message.

    .venv/bin/python scripts/catalogs.py extract    # diskmark/locale/diskmark.pot from the code
    .venv/bin/python scripts/catalogs.py update     # every <lang>/LC_MESSAGES/diskmark.po from it
    .venv/bin/python scripts/catalogs.py compile    # the .mo files gettext reads (not committed)
    .venv/bin/python scripts/catalogs.py check      # untranslated or fuzzy messages, per language
    .venv/bin/python scripts/catalogs.py init LANG   # a new language's catalog

The keywords are the functions of :mod:`diskmark.locale`: ``_``, ``N_``, ``NP_``, ``ngettext`` (the
singular and the plural) and ``pgettext`` (a context, then the message).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "diskmark"
LOCALE = PACKAGE / "locale"
TEMPLATE = LOCALE / "diskmark.pot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
            "NP_": ((1, "c"), 2)}
WIDTH = 100


def template() -> Catalog:
    """Every message the code marks, as a fresh extraction finds it now."""
    catalog = Catalog(project="diskmark", msgid_bugs_address="", charset="utf-8", fuzzy=False)
    found = extract_from_dir(str(PACKAGE), method_map=[("**.py", "python")],
                             keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
                             strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        where = f"diskmark/{filename}"
        catalog.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    return catalog


def languages() -> list[str]:
    return sorted(p.parent.parent.name for p in LOCALE.glob("*/LC_MESSAGES/diskmark.po"))


def po_path(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "diskmark.po"


def read(path: Path) -> Catalog:
    with path.open("rb") as f:
        return read_po(f)


def write(catalog: Catalog, path: Path) -> None:
    buf = io.BytesIO()
    write_po(buf, catalog, width=WIDTH, sort_output=False, omit_header=False,
             include_previous=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(buf.getvalue())


def extract() -> None:
    catalog = template()
    write(catalog, TEMPLATE)
    print(f"{TEMPLATE.relative_to(ROOT)}: {len(catalog)} messages")


def update() -> None:
    fresh = template()
    for lang in languages():
        catalog = read(po_path(lang))
        catalog.update(fresh, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        write(catalog, po_path(lang))
        print(f"{lang}: {len(catalog)} messages")


def compile_all(root: Path = LOCALE) -> int:
    """Every catalog under ``root`` compiled beside it; returns how many."""
    done = 0
    for po in sorted(root.glob("*/LC_MESSAGES/diskmark.po")):
        catalog = read(po)
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        done += 1
    return done


def missing(catalog: Catalog) -> tuple[list[str], list[str]]:
    """The ids of messages not translated, and of those marked fuzzy."""
    untranslated, fuzzy = [], []
    for message in catalog:
        if not message.id:
            continue
        ident = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy:
            fuzzy.append(ident)
        elif not all(strings):
            untranslated.append(ident)
    return untranslated, fuzzy


def check() -> int:
    fresh = template()
    status = 0
    for lang in languages():
        catalog = read(po_path(lang))
        absent = [m.id for m in fresh if m.id and (m.id, m.context) not in
                  {(c.id, c.context) for c in catalog}]
        untranslated, fuzzy = missing(catalog)
        print(f"{lang}: {len(catalog)} messages, {len(absent)} not in the catalog, "
              f"{len(untranslated)} untranslated, {len(fuzzy)} fuzzy")
        status |= bool(absent or untranslated or fuzzy)
    return status


def init(lang: str) -> None:
    catalog = template()
    catalog.locale = lang  # type: ignore[assignment]
    write(catalog, po_path(lang))
    print(f"{po_path(lang).relative_to(ROOT)}: {len(catalog)} messages to translate")


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("extract", "update", "compile", "check", "init"):
        print(__doc__)
        return 2
    if argv[0] == "extract":
        extract()
    elif argv[0] == "update":
        update()
    elif argv[0] == "compile":
        print(f"compiled {compile_all()} catalogs")
    elif argv[0] == "check":
        return check()
    else:
        init(argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
