"""CrystalDiskMark's Queues & Threads settings: the rows it lets a user change, the lists each
field is chosen from, and the preset they make, kept as a user preset.

CrystalDiskMark 9.0.1 holds nine rows (DiskMarkDlg.cpp:1147-1150; run by DiskBench.cpp:136-252):
Default's four (0-3), Peak's two (4-5), Real World's two (6-7) and Demo's one (8). Its
dialog (SettingsDlg.cpp) changes seven of them: Real World's have no field and stay at Q1T1,
and Peak's types stay SEQ and RND (SettingsDlg.cpp:696-697). Its three reset buttons,
Default, NVMe SSD and Flash Memory (SettingsDlg.cpp:109-172), are diskmark's built-in presets
of those names, which are data (default.toml, nvme.toml, flash.toml): the editor reads them,
never a copy of their rows.

What the editor makes is an ordinary user preset: a TOML file in the config directory's
``presets/``, which ``diskmark run --preset NAME`` takes and ``diskmark presets`` lists,
read back by the same loader as any other, and written by the rule of every file a person
names (:mod:`diskmark.files.destination`): atomically, and never over a file unasked.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

from diskmark.files.destination import Destination, DestinationUnwritable, make_directory
from diskmark.files.paths import user_presets_dir
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shell_word
from diskmark.model.results import TestSpec
from diskmark.model.settings import ID_MAX, is_id
from diskmark.model.units import KIB, MIB
from diskmark.presets import Preset, PresetCatalog, Profile

#: The types, block sizes, queues and threads CrystalDiskMark offers (SettingsDlg.cpp:240-250,
#: :268, :298, :322; MAX_QUEUES 512 and MAX_THREADS 64 in Library/stdafx.h:189-190).
PATTERNS = ("SEQ", "RND")
BLOCK_SIZES = tuple(k * KIB for k in (4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192))
QUEUES = tuple(2 ** n for n in range(10))
THREADS = tuple(range(1, 65))
#: CrystalDiskMark's reset buttons, left to right: the built-in presets of their names.
RESETS = ("default", "nvme", "flash")
#: The preset whose profiles an edited preset takes its names, layouts and fixed rows from.
BASE = "default"
#: The profiles of an edited preset, in CrystalDiskMark's order; the Sustained Write profile
#: (diskmark's own) comes as the Default preset has it, as Real World's rows do.
PROFILES = ("default", "peak", "real", "demo", "sustained")
EDITED = ("default", "peak", "demo")
#: Where the type cannot change: CrystalDiskMark greys Peak's.
FIXED_PATTERN = frozenset({"peak"})
# TRANSLATORS: the description of a preset saved in the Queues & Threads settings
DESCRIPTION = N_("Saved in the Queues & Threads settings")


@dataclass(frozen=True)
class Rows:
    """The rows of each profile an edited preset holds, and its measure and interval."""

    tests: dict[str, tuple[TestSpec, ...]]
    measure: float
    interval: float


def rows_of(preset: Preset, base: Preset, measure: float | None = None,
            interval: float | None = None) -> Rows:
    """What the editor starts from: ``preset``'s rows where it has the profile with as many
    rows as ``base``'s, else ``base``'s; the fixed profiles always ``base``'s. ``measure``
    and ``interval`` (the settings' own) over the preset's."""
    tests = {}
    for pid in PROFILES:
        fixed = base.profiles[pid].tests
        own = preset.profiles.get(pid)
        usable = pid in EDITED and own is not None and len(own.tests) == len(fixed)
        tests[pid] = tuple(_plain(t) for t in (own.tests if usable and own else fixed))
    return Rows(tests, preset.measure if measure is None else measure,
                preset.interval if interval is None else interval)


def _plain(spec: TestSpec) -> TestSpec:
    """A row as the editor shows it: its start delay and ramp time (the Stable profile's)
    have no field in it."""
    return TestSpec(spec.pattern, spec.block, spec.queues, spec.threads)


def edited_preset(preset_id: str, rows: Rows, base: Preset) -> Preset:
    """The preset ``rows`` make, named ``preset_id``: ``base``'s profiles with these rows."""
    profiles = {pid: replace(base.profiles[pid], tests=rows.tests[pid]) for pid in PROFILES}
    return Preset(id=preset_id, name=preset_id, description=DESCRIPTION, measure=rows.measure,
                  interval=rows.interval, profiles=profiles, source="")


def name_problem(name: str, catalog: PresetCatalog) -> str | None:
    """Why ``name`` cannot name a new preset, a sentence, or None. A user preset of the name
    is no problem: saving replaces it, once asked."""
    if not name:
        return _("Type a name for the preset.")
    if not (shell_word(name) and is_id(name)):
        # TRANSLATORS: "_ . + -" are the characters a name may hold: keep them as they are
        return _("{name} cannot name a preset: it is typed after --preset, and a shell would "
                 "not read it as it is. Use up to {most} letters, digits and _ . + - "
                 "(starting with a letter, a digit or _).").format(name=repr(name), most=ID_MAX)
    taken = catalog.presets.get(name)
    if taken is not None and taken.source == "built-in":
        return _("{name} is the name of a built-in preset; choose another name.").format(
            name=repr(name))
    return None


def preset_path(name: str, catalog: PresetCatalog, folder: Path | None = None) -> Path:
    """Where the preset ``name`` is kept: the file of the user preset of that name, if there
    is one, else ``<name>.toml`` in the user's presets folder."""
    known = catalog.presets.get(name)
    if known is not None and known.source != "built-in":
        return Path(known.source)
    return (folder if folder is not None else user_presets_dir()) / f"{name}.toml"


def save_preset(preset: Preset, path: Path, replace: bool = False) -> Path:
    """Write ``preset`` at ``path`` as the loader reads it. The folder is made when missing
    (in diskmark's own config directory); a file that is there is replaced only with
    ``replace``. Raises DestinationError with the reason (DestinationExists: ask first)."""
    folder = path.parent
    if not folder.is_dir():
        try:
            folder.parent.mkdir(parents=True, exist_ok=True)  # the config directory
        except OSError as e:
            raise DestinationUnwritable(_("cannot write {path}: {error}").format(
                path=folder, error=e.strerror or e)) from None
        make_directory(folder)
    destination = Destination(path, replace)
    try:
        return destination.write(preset_toml(preset))
    finally:
        destination.close()


# --- the file ------------------------------------------------------------------------------


def preset_toml(preset: Preset) -> str:
    """``preset`` as a preset file, in the form of the built-in ones: what
    :func:`diskmark.presets.load_file` reads back as the same preset."""
    lines = ["# A diskmark preset, saved in the Queues & Threads settings.",
             f"# diskmark run --preset {preset.id}",
             "schema = 1",
             f"id = {_string(preset.id)}",
             f"name = {_string(preset.name)}",
             f"description = {_string(preset.description)}",
             f"measure = {preset.measure:g}",
             f"interval = {preset.interval:g}"]
    for profile in preset.profiles.values():
        lines += ["", f"[profiles.{_key(profile.id)}]", *_profile_lines(profile)]
    return "\n".join(lines) + "\n"


def _profile_lines(profile: Profile) -> list[str]:
    lines = [f"name = {_string(profile.name)}", f"layout = {_string(profile.layout)}"]
    if not profile.mix:
        lines.append("mix = false")
    for key, seconds in (("measure", profile.measure), ("interval", profile.interval)):
        if seconds is not None:
            lines.append(f"{key} = {seconds:g}")
    return [*lines, "tests = [", *(f"  {_test(t)}," for t in profile.tests), "]"]


def _test(spec: TestSpec) -> str:
    block = f"{spec.block // MIB}MiB" if spec.block % MIB == 0 else f"{spec.block // KIB}KiB"
    fields = [f'pattern = "{spec.pattern}"', f'block = "{block}"', f"queues = {spec.queues}",
              f"threads = {spec.threads}"]
    for key, delays in (("startdelay", spec.startdelay), ("ramp_time", spec.ramp_time)):
        if delays:
            inner = ", ".join(f"{op} = {seconds:g}" for op, seconds in delays.items())
            fields.append(f"{key} = {{ {inner} }}")
    return "{ " + ", ".join(fields) + " }"


def _string(text: str) -> str:
    """A TOML basic string: JSON's escapes (quote, backslash, ``\\uXXXX``) are TOML's too,
    and DEL, which JSON leaves and TOML refuses, is escaped as well."""
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _key(key: str) -> str:
    """A table's key: bare where TOML allows it, else quoted."""
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _string(key)
