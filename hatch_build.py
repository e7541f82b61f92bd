"""What the build makes from the source, so that no made file is kept in the repository:

- the compiled catalogs: every ``diskmark/locale/*/LC_MESSAGES/diskmark.po`` compiled to the
  ``.mo`` gettext reads, with Babel (an editable install too), so nothing needs a gettext
  program at run time; the sdist ships the ``.po`` files;
- the man page, ``diskmark.1``, written from the command line's parser
  (``diskmark.cli.manpage``), in the wheel's data as ``share/man/man1/diskmark.1`` (pip and
  pipx put it where ``man`` finds it) and in the sdist.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MAN_PAGE = "share/man/man1/diskmark.1"


class CatalogsHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "catalogs"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        man = self.write_man_page()
        if self.target_name == "sdist":
            build_data["force_include"][str(man)] = MAN_PAGE
            return
        build_data["shared_data"][str(man)] = MAN_PAGE
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root) / "diskmark" / "locale"
        for po in sorted(root.glob("*/LC_MESSAGES/diskmark.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as f:
                write_mo(f, catalog, use_fuzzy=False)
            if version != "editable":
                build_data["force_include"][str(mo)] = str(mo.relative_to(self.root))

    def write_man_page(self) -> Path:
        """The page in English, from this source's parser (its modules need none of
        diskmark's dependencies, which a build environment does not have)."""
        sys.path.insert(0, self.root)
        try:
            from diskmark.cli import build_parser
            from diskmark.cli.manpage import render
            from diskmark.locale import set_language

            set_language("en")
            page = render(build_parser())
        finally:
            sys.path.remove(self.root)
        man = Path(self.root) / "build" / "man" / "diskmark.1"
        man.parent.mkdir(parents=True, exist_ok=True)
        man.write_text(page, encoding="utf-8")
        return man
