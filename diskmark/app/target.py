"""The target in the app: what is known about it (device, filesystem, free space), read in a
thread, and the word of advice where its filesystem is known to flatter O_DIRECT figures."""

from __future__ import annotations

import os
import stat

from diskmark.app.keymap import Keymap
from diskmark.locale import _
from diskmark.model.facts import SystemFacts


class NotADirectory(FileNotFoundError):
    """The target is gone or is not a directory; the app says which key chooses another."""


def default_facts(path: str) -> SystemFacts:
    from diskmark.drive.probe import facts_for, facts_for_device

    if os.path.exists(path) and stat.S_ISBLK(os.stat(path).st_mode):
        return facts_for_device(os.path.realpath(path))
    if not os.path.isdir(path):
        raise NotADirectory(path)
    return facts_for(path)


def filesystem_advice(facts: SystemFacts, nocow: bool, keys: Keymap) -> tuple[str, str] | None:
    """Where the filesystem is known to leak the cache into O_DIRECT figures (black_cat's
    filesystem article): a title and what to do about it; on btrfs, the NOCOW test
    directory (unless ``nocow`` is chosen already)."""
    if facts.fstype == "btrfs" and not nocow:
        # TRANSLATORS: {key} opens the settings (o); "Settings → btrfs → NOCOW test
        # directory" names the settings screen's field and choice as it shows them
        return "btrfs", _("This target is btrfs: copy-on-write and compression can let the "
                          "page cache leak into O_DIRECT figures. Settings ({key}) → btrfs → "
                          "NOCOW test directory avoids that.").format(key=keys.key("settings"))
    if facts.fstype == "jfs":
        return "JFS", _("This target is JFS, which is known to let the page cache leak into "
                        "O_DIRECT random writes: treat those figures with care.")
    return None
