"""The built-in presets' descriptions, marked for translation: they are data (TOML), which
the extraction of the catalogs does not read, and a person reads them in the settings, the
command palette and ``diskmark presets``. Shown through ``_()``, a user preset's own
description (not in any catalog) stays as its file writes it. The presets' and profiles'
names stay as CrystalDiskMark writes them in every language, like the tests' names."""

from __future__ import annotations

from diskmark.locale import N_

DESCRIPTIONS = (
    N_("CrystalDiskMark 8 default tests (SATA SSDs, HDDs, USB media)"),
    N_("Default tests with a 1 s measure and 30 s interval, kind to USB sticks and SD cards"),
    N_("CrystalDiskMark 8 NVMe SSD tests (SEQ128K Q32T1, RND4K Q32T16)"),
)
