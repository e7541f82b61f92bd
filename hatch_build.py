"""The wheel ships compiled catalogs: every ``diskmark/locale/*/LC_MESSAGES/diskmark.po``
compiled to the ``.mo`` gettext reads, with Babel, when the package is built (an editable
install too), so nothing needs a gettext program at run time and no compiled file is kept
in the repository. The sdist ships the ``.po`` files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CatalogsHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "catalogs"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        root = Path(self.root) / "diskmark" / "locale"
        for po in sorted(root.glob("*/LC_MESSAGES/diskmark.po")):
            with po.open("rb") as f:
                catalog = read_po(f)
            mo = po.with_suffix(".mo")
            with mo.open("wb") as f:
                write_mo(f, catalog, use_fuzzy=False)
            if self.target_name == "wheel" and version != "editable":
                build_data["force_include"][str(mo)] = str(mo.relative_to(self.root))
