"""The built-in presets' descriptions, marked for translation: they are data (TOML), which
the extraction of the catalogs does not read, and a person reads them in the settings, the
command palette and ``diskmark presets``. Shown through ``_()``, a user preset's own
description (not in any catalog) stays as its file writes it. The built-in presets' and
profiles' names are said as CrystalDiskMark's translations say them ("ピーク性能" for "Peak
Performance"); their ids, which users type and files store, and the names a result keeps
stay English, as CrystalDiskMark's text export writes them."""

from __future__ import annotations

from diskmark.locale import N_, NP_, pgettext

# TRANSLATORS: the built-in presets' and profiles' names, as CrystalDiskMark's (or
# KDiskMark's) translation in your language names them
NAMES = (NP_("preset or profile", "Default"), NP_("preset or profile", "NVMe SSD"),
         NP_("preset or profile", "Flash Memory"), NP_("preset or profile", "Peak Performance"),
         NP_("preset or profile", "Real World Performance"), NP_("preset or profile", "Demo"),
         NP_("preset or profile", "Sustained Write"), NP_("preset or profile", "Stable"))
# TRANSLATORS: a profile's name where a narrow window has room for one short word
SHORT_NAMES = {"Peak Performance": NP_("profile, short", "Peak"),
               "Real World Performance": NP_("profile, short", "Real World")}


def said_name(name: str, *, short: bool = False) -> str:
    """A built-in preset's or profile's name in the language in use (``short``: the word a
    narrow window has room for); a user's own name as its file writes it."""
    if short and name in SHORT_NAMES:
        return pgettext("profile, short", SHORT_NAMES[name])
    return pgettext("preset or profile", name) if name in NAMES else name

DESCRIPTIONS = (
    N_("CrystalDiskMark 8 default tests (SATA SSDs, HDDs, USB media)"),
    N_("Default tests with a 1 s measure and 30 s interval, kind to USB sticks and SD cards"),
    N_("CrystalDiskMark 8 NVMe SSD tests (SEQ128K Q32T1, RND4K Q32T16)"),
)
