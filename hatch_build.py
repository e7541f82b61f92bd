"""What the build makes from the source, so that no made file is kept in the repository:

- the compiled catalogs: every ``diskmark/locale/*/LC_MESSAGES/diskmark.po`` compiled to the
  ``.mo`` gettext reads, with Babel (an editable install too), so nothing needs a gettext
  program at run time; the sdist ships the ``.po`` files;
- the man page, ``diskmark.1``, written from the command line's parser
  (``diskmark.cli.manpage``) once per language, in the wheel's data as
  ``share/man/man1/diskmark.1`` (English) and ``share/man/LANG/man1/diskmark.1`` (pip and
  pipx put them where ``man`` finds them, and ``man`` picks the reader's language), and in
  the sdist.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MAN_DIR = "share/man"


class CatalogsHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "catalogs"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        mos = self.compile_catalogs()  # first: the translated man pages read them
        pages = self.write_man_pages()
        if self.target_name == "sdist":
            for page, where in pages:
                build_data["force_include"][str(page)] = where
            return
        for page, where in pages:
            build_data["shared_data"][str(page)] = where
        if version != "editable":
            for mo in mos:
                build_data["force_include"][str(mo)] = str(mo.relative_to(self.root))

    def compile_catalogs(self) -> list[Path]:
        """Each ``.mo`` beside its ``.po``, replaced whole and only when it changes: a diskmark
        running from this tree (the tests, an editable install) may be reading it."""
        import io

        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root) / "diskmark" / "locale"
        mos = []
        for po in sorted(root.glob("*/LC_MESSAGES/diskmark.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            made = io.BytesIO()
            write_mo(made, catalog, use_fuzzy=False)
            mo = po.with_suffix(".mo")
            if not mo.is_file() or mo.read_bytes() != made.getvalue():
                part = mo.with_name(f".{mo.name}.{os.getpid()}.part")
                part.write_bytes(made.getvalue())
                os.replace(part, mo)
            mos.append(mo)
        return mos

    def write_man_pages(self) -> list[tuple[Path, str]]:
        """A page per language, from this source's parser built in that language (its modules
        need none of diskmark's dependencies, which a build environment does not have): each
        made file with where it goes."""
        sys.path.insert(0, self.root)
        try:
            from diskmark.cli.manpage import render
            from diskmark.cli.parser import build_parser
            from diskmark.locale import LANGUAGES, SOURCE, set_language

            pages = []
            for lang in LANGUAGES:
                set_language(lang)
                sub = "man1" if lang == SOURCE else f"{lang}/man1"
                man = Path(self.root) / "build" / "man" / sub / "diskmark.1"
                man.parent.mkdir(parents=True, exist_ok=True)
                man.write_text(render(build_parser()), encoding="utf-8")
                pages.append((man, f"{MAN_DIR}/{sub}/diskmark.1"))
            set_language(SOURCE)
        finally:
            sys.path.remove(self.root)
        return pages
