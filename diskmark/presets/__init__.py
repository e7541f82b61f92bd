"""CrystalDiskMark's presets as TOML data files, plus the user's own from the XDG config dir.

A preset holds profiles (Default, Peak, Real World, Demo, …); a profile holds the rows of
tests. A broken user preset is reported with its file, line and reason and skipped: it must
never stop the built-in presets or the other user presets from loading. That includes files
that are not presets at all: a FIFO, a link to /dev/zero, megabytes of junk, nesting deep
enough to exhaust the parser (see diskmark.files.regular_file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from diskmark.files.paths import user_presets_dir
from diskmark.files.toml_file import each_user_file, line_of, read_table
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shell_word
from diskmark.model.results import BLOCK_MAX, BLOCK_MIN, QUEUES_MAX, THREADS_MAX, TestSpec
from diskmark.model.settings import SWEEP_DEPTHS
from diskmark.model.units import KIB, MIB

BUILTIN_DIR = Path(__file__).parent
#: "sustained": one long sequential write and its knee; "sweep" is built by sweep_profile
LAYOUTS = ("default", "peak", "demo", "sustained")
PRESET_MAX_BYTES = 1024 * 1024  # a preset is a few hundred bytes


@dataclass(frozen=True)
class Profile:
    id: str
    name: str
    layout: str  # "default": a row per test; "peak": SEQ + RND in three units; "demo": one
    # test; "sustained": its first test written for a duration, drawn over time
    tests: tuple[TestSpec, ...]
    mix: bool = True  # whether +Mix is offered
    measure: float | None = None  # overrides the preset's
    interval: float | None = None


@dataclass(frozen=True)
class Preset:
    id: str
    name: str
    description: str
    measure: float
    interval: float
    profiles: dict[str, Profile]
    source: str = "built-in"

    def profile(self, profile_id: str) -> Profile:
        try:
            return self.profiles[profile_id]
        except KeyError:
            raise KeyError(_("preset {preset} has no profile {profile}; it has {profiles}").format(
                preset=repr(self.id), profile=repr(profile_id),
                profiles=", ".join(self.profiles))) from None


@dataclass
class PresetCatalog:
    presets: dict[str, Preset] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # "file:line: reason" for broken files

    def get(self, preset_id: str) -> Preset:
        try:
            return self.presets[preset_id]
        except KeyError:
            raise KeyError(_("no preset {preset}; available: {presets}").format(
                preset=repr(preset_id), presets=", ".join(self.presets))) from None


class PresetError(ValueError):
    pass


_BLOCK_RE = re.compile(r"^\s*([0-9]+)\s*([KkMm])(?:i?B)?\s*$")


def _block(value: Any) -> int:
    if isinstance(value, int):
        nbytes = value
    else:
        m = _BLOCK_RE.match(str(value))
        if not m:
            # TRANSLATORS: the words of a preset file (block, pattern, queues, threads,
            # profiles.…) stay in English and first: the line is found by them
            raise PresetError(_("block {value} is not a size like 4KiB or 1MiB").format(
                value=repr(value)))
        nbytes = int(m.group(1)) * (KIB if m.group(2).lower() == "k" else MIB)
    if not BLOCK_MIN <= nbytes <= BLOCK_MAX or nbytes % (4 * KIB):
        raise PresetError(_("block {value} must be a multiple of 4KiB from 4KiB to 8MiB").format(
            value=repr(value)))
    return nbytes


def _delays(value: Any, what: str) -> dict[str, float]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not set(value) <= {"read", "write", "mix"}:
        # TRANSLATORS: {key} is a word of the preset file (startdelay, ramp_time)
        raise PresetError(_("{key} must be a table like {example}").format(
            key=what, example="{ read = 5, write = 20 }"))
    out = {}
    for k, v in value.items():
        if not isinstance(v, (int, float)) or not 0 <= v <= 600:
            raise PresetError(_("{key} must be 0 to {high} seconds, not {value}").format(
                key=f"{what}.{k}", high=600, value=repr(v)))
        out[k] = float(v)
    return out


def _test(d: Any) -> TestSpec:
    if not isinstance(d, dict):
        raise PresetError(_("a test must be a table like {example}, not {value}").format(
            example='{ pattern = "SEQ", block = "1MiB", queues = 8, threads = 1 }',
            value=repr(d)))
    pattern = str(d.get("pattern", "")).upper()
    if pattern not in ("SEQ", "RND"):
        raise PresetError(_("pattern must be SEQ or RND, not {value}").format(
            value=repr(d.get("pattern"))))
    queues, threads = d.get("queues", 1), d.get("threads", 1)
    if not isinstance(queues, int) or not 1 <= queues <= QUEUES_MAX:
        raise PresetError(_("queues must be 1 to {high}, not {value}").format(
            high=QUEUES_MAX, value=repr(queues)))
    if not isinstance(threads, int) or not 1 <= threads <= THREADS_MAX:
        raise PresetError(_("threads must be 1 to {high}, not {value}").format(
            high=THREADS_MAX, value=repr(threads)))
    return TestSpec(pattern=pattern, block=_block(d.get("block")), queues=queues, threads=threads,
                    startdelay=_delays(d.get("startdelay"), "startdelay"),
                    ramp_time=_delays(d.get("ramp_time"), "ramp_time"))


def _seconds(value: Any, what: str, default: float | None) -> float | None:
    if value is None:
        return default
    if not isinstance(value, (int, float)) or not 0 <= value <= 3600:
        raise PresetError(_("{key} must be 0 to {high} seconds, not {value}").format(
            key=what, high=3600, value=repr(value)))
    return float(value)


def parse_preset(data: dict[str, Any], source: str, fallback_id: str) -> Preset:
    schema = data.get("schema", 1)
    if schema != 1:
        raise PresetError(_("schema {schema} is not supported (this diskmark reads schema "
                            "1)").format(schema=repr(schema)))
    profiles_raw = data.get("profiles")
    if not isinstance(profiles_raw, dict) or not profiles_raw:
        raise PresetError(_("a preset needs at least one [profiles.<id>] table with tests"))
    profiles = {}
    for pid, p in profiles_raw.items():
        if not shell_word(pid):  # typed after --profile and held by completion: see _check_id
            # TRANSLATORS: "_ . + / -" are the characters an id may hold: keep them as they are
            raise PresetError(_("profile id {value} cannot be typed in a shell as it is: use "
                                "letters, digits and _ . + / - (starting with a letter, a digit "
                                "or _)").format(value=repr(pid)))
        if not isinstance(p, dict):
            raise PresetError(_("{key} must be a table").format(key=f"profiles.{pid}"))
        tests = p.get("tests")
        if not isinstance(tests, list) or not tests:
            raise PresetError(_("{key} must be a non-empty list of tests").format(
                key=f"profiles.{pid}.tests"))
        layout = p.get("layout", "default")
        if layout not in LAYOUTS:
            raise PresetError(_("{key} must be one of {choices}").format(
                key=f"profiles.{pid}.layout", choices=", ".join(LAYOUTS)))
        try:
            specs = tuple(_test(t) for t in tests)
        except PresetError as e:
            raise PresetError(f"profiles.{pid}.tests: {e}") from None  # where, then why
        profiles[pid] = Profile(
            id=pid, name=str(p.get("name", pid)), layout=layout, tests=specs,
            mix=bool(p.get("mix", True)),
            measure=_seconds(p.get("measure"), f"profiles.{pid}.measure", None),
            interval=_seconds(p.get("interval"), f"profiles.{pid}.interval", None),
        )
    pid = str(data.get("id", fallback_id))
    _check_id(pid, named="id" in data)
    return Preset(
        id=pid, name=str(data.get("name", pid)), description=str(data.get("description", "")),
        measure=_seconds(data.get("measure"), "measure", 5.0) or 5.0,
        interval=_seconds(data.get("interval"), "interval", 5.0) or 0.0,
        profiles=profiles, source=source,
    )


def _check_id(pid: str, named: bool) -> None:
    """A preset's id is typed after ``--preset`` and offered by the shells' completion
    scripts, which hold it as code: one a shell would read as anything but itself (``$(…)``,
    a quote, a space, a leading ``-``) is refused here, where the file is read."""
    if shell_word(pid):
        return
    # TRANSLATORS: "_ . + / -" are the characters an id may hold: keep them as they are
    raise PresetError((_("id {value} cannot be typed in a shell as it is: use letters, digits "
                         "and _ . + / - (starting with a letter, a digit or _)") if named else
                       # TRANSLATORS: id = "mine" is a line of the file: keep it as it is
                       _("id is not given, and the file's name {value} cannot be typed in a "
                         "shell as it is: add a line such as id = \"mine\"")
                       ).format(value=repr(pid)))


def sweep_profile(pattern: str, threads: int = 1) -> Profile:
    """A queue-depth sweep (after the RAID6 offset/fragmentation article): one pattern such
    as ``RND4K`` or ``SEQ128K`` at each depth of SWEEP_DEPTHS, shown as a curve."""
    m = re.fullmatch(r"\s*(SEQ|RND)\s*([0-9]+\s*[KkMm])\s*", pattern.upper())
    if not m:
        raise PresetError(_("sweep pattern {pattern} should look like RND4K, SEQ1M or "
                            "SEQ128K").format(pattern=repr(pattern)))
    block = _block(m.group(2))
    tests = tuple(TestSpec(m.group(1), block, q, threads) for q in SWEEP_DEPTHS)
    return Profile(id="sweep", name=f"Queue-depth sweep {m.group(1)}{tests[0].block_label}",
                   layout="sweep", tests=tests, mix=False)


def load_file(path: Path, source: str = "built-in") -> Preset:
    """Load one preset file; raises PresetError with ``file:line: reason``."""
    data, text = read_table(path, PRESET_MAX_BYTES, N_("a preset"), PresetError)
    try:
        return parse_preset(data, source, path.stem)
    except PresetError as e:
        raise PresetError(f"{path}:{line_of(text(), str(e), _KEYS)}: {e}") from None
    except RecursionError:
        raise PresetError(_("{path}: not {what}: nested too deeply").format(
            path=path, what=_("a preset"))) from None


_KEYS = r"(?:profiles\.)?([A-Za-z0-9_-]+)"  # what a preset's problem starts with


def load_catalog(user_dir: Path | None = None) -> PresetCatalog:
    """Built-in presets, then user presets (which may add new ids, never replace built-ins)."""
    catalog = PresetCatalog()
    for path in sorted(BUILTIN_DIR.glob("*.toml")):
        preset = load_file(path)  # a broken built-in is a bug: let it raise
        catalog.presets[preset.id] = preset
    # TRANSLATORS: {error} is Python's error, as "TypeError: what went wrong"
    odd = _("{path}: cannot be read as a preset ({error})")
    for path, preset in each_user_file(user_dir if user_dir is not None else user_presets_dir(),
                                       lambda path: load_file(path, source=str(path)),
                                       PresetError, odd, catalog.problems):
        if preset.id in catalog.presets:
            taken = catalog.presets[preset.id].source
            clash = (_("{path}:1: preset id {preset} is taken by the built-in preset; give it "
                       "another id") if taken == "built-in" else
                     # TRANSLATORS: {source} is the path of the preset file that has the id
                     _("{path}:1: preset id {preset} is taken by the {source} preset; give it "
                       "another id"))
            catalog.problems.append(clash.format(path=path, preset=repr(preset.id), source=taken))
            continue
        catalog.presets[preset.id] = preset
    return catalog
