"""Themes read into Textual: diskmark's TOML files (in the ``diskmark.themes`` package) and
the user's own from ``paths.user_themes_dir()``.

Each ``*.toml`` maps onto :class:`textual.theme.Theme`: ``name``, ``primary``, ``secondary``,
``accent``, ``foreground``, ``background``, ``surface``, ``panel``, ``success``, ``warning``,
``error``, ``boost``, ``dark``, ``luminosity_spread``, ``text_alpha``, ``ansi`` and a
``[variables]`` table. Besides Textual's own variables, the app's CSS uses the variables in
:data:`CUSTOM_VARIABLES`; :func:`variable_defaults` supplies them for themes that do not
define them (Textual's built-in themes, sparse user themes), derived from the theme's colours.

A broken user theme is reported (``file: reason``) and skipped; it never stops the others.
Every value is checked with Textual's own CSS parser, so a theme that loads cannot make the
stylesheet fail when the user switches to it.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.css.stylesheet import Stylesheet, StylesheetParseError
from textual.theme import BUILTIN_THEMES, Theme

from diskmark.files.paths import user_themes_dir
from diskmark.files.regular_file import read_regular_file
from diskmark.files.toml_file import each_user_file, line_of, read_table
from diskmark.locale import N_, _
from diskmark.themes import BUILTIN_DIR  # the TOML files

DEFAULT_THEME = "diskmark"
DARK_THEME = "diskmark-dark"
CONTRAST_THEME = "diskmark-contrast"
MONO_THEME = "diskmark-mono"
BUILTIN_NAMES = (DEFAULT_THEME, DARK_THEME, CONTRAST_THEME, MONO_THEME)
THEME_MAX_BYTES = 1024 * 1024  # a theme is a few hundred bytes

#: The app's own theme variables, with what each is for. Colours unless noted.
CUSTOM_VARIABLES: dict[str, str] = {
    "tile-background": "background of a result tile",
    "tile-foreground": "the figure on a tile (must read on tile-background and meter-color)",
    "tile-border": "border colour of a tile",
    "tile-border-type": "border type of a tile (round, heavy, solid, tall, ascii …)",
    "meter-color": "the filled part of CDM's log-scale meter, drawn behind the figure",
    "meter-background": "the empty part of the meter",
    "progress-color": "the bar of a tile whose test is running",
    "row-button-background": "the row buttons (SEQ1M Q8T1) and All: CDM's green",
    "row-button-foreground": "the label on a row button",
    "row-button-hover-background": "a row button under the mouse",
    "column-header-foreground": "the Read (MB/s) / Write (MB/s) / Mix headers",
    "better-color": "a delta that is better than the baseline",
    "worse-color": "a delta that is worse than the baseline",
    "same-color": "a delta within the noise of the runs (neither better nor worse)",
}

_FIELDS_COLOR = ("primary", "secondary", "accent", "foreground", "background", "surface",
                 "panel", "success", "warning", "error", "boost")
_FIELDS_OTHER = ("schema", "name", "dark", "luminosity_spread", "text_alpha", "ansi",
                 "variables")
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_VAR_RE = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")

# Static defaults for the custom variables when no theme is at hand: the diskmark theme's.
_STATIC_DEFAULTS: dict[str, str] = {
    "tile-background": "#FBFCFA",
    "tile-foreground": "#111111",
    "tile-border": "#98B394",
    "tile-border-type": "round",
    "meter-color": "#B5DFA6",
    "meter-background": "#FBFCFA",
    "progress-color": "#A9CDEE",
    "row-button-background": "#257A33",
    "row-button-foreground": "#FFFFFF",
    "row-button-hover-background": "#2E8F3E",
    "column-header-foreground": "#1D5E27",
    "better-color": "#1E7B34",
    "worse-color": "#B42318",
    "same-color": "#596159",
}
assert set(_STATIC_DEFAULTS) == set(CUSTOM_VARIABLES)

# For any other theme: each custom variable taken from one of Textual's generated variables.
_DERIVED: dict[str, str] = {
    "tile-background": "surface",
    "tile-foreground": "foreground",
    "tile-border": "border-blurred",  # replaced by a panel shade for non-ANSI themes
    "meter-color": "primary-muted",  # replaced by a readable blend for non-ANSI themes
    "meter-background": "surface",
    "progress-color": "secondary-muted",
    "row-button-background": "primary",
    "row-button-foreground": "button-color-foreground",
    "row-button-hover-background": "primary-lighten-1",
    "column-header-foreground": "text-primary",
    "better-color": "text-success",
    "worse-color": "text-error",
    "same-color": "foreground-muted",
}


class ThemeError(ValueError):
    """What is wrong with a theme, in a sentence (translated), and ``where``: the key and
    any value at fault as the file writes them, for finding the line (empty: line 1)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.where = where


def variable_defaults(theme: Theme | None = None) -> dict[str, str]:
    """Values for the custom variables, for ``App.get_theme_variable_defaults()``.

    With a theme (pass ``self.current_theme``), they are derived from its colours so that
    Textual's built-in themes and sparse user themes look coherent; a theme's own
    ``[variables]`` still win over these. Without one, the diskmark theme's values."""
    if theme is None:
        return dict(_STATIC_DEFAULTS)
    try:
        generated = theme.to_color_system().generate()
    except Exception:  # a theme Textual cannot even generate: stay usable
        return dict(_STATIC_DEFAULTS)
    out = dict(_STATIC_DEFAULTS)
    for name, source in _DERIVED.items():
        value = generated.get(source)
        if value:
            out[name] = value
    if not theme.ansi:
        try:
            out.update(_readable_blends(theme, generated))
        except Exception:  # keep the plain derivations
            pass
    return out


def _luminance(color: Color) -> float:
    def channel(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = color.rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast_ratio(a: str | Color, b: str | Color) -> float:
    """WCAG contrast ratio of two opaque colours (1 … 21)."""
    ca = a if isinstance(a, Color) else Color.parse(a)
    cb = b if isinstance(b, Color) else Color.parse(b)
    la, lb = sorted((_luminance(ca), _luminance(cb)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _readable_blends(theme: Theme, generated: dict[str, str]) -> dict[str, str]:
    """Meter and progress colours that keep the figure readable (4.5:1) on top of them, and
    a tile border that is visible against the tile."""
    background = Color.parse(generated["background"])
    tile = background + Color.parse(generated["surface"])  # surface may be translucent
    figure = tile + Color.parse(generated["foreground"])
    # A theme whose text is already faint on its surface cannot reach 4.5:1; then lose no
    # more than a sixth of the contrast it has.
    target = min(4.5, contrast_ratio(figure, tile) * 5 / 6)
    out = {}
    for name, source in (("meter-color", "primary"), ("progress-color", "secondary")):
        base = Color.parse(generated[source])
        for factor in (0.5, 0.4, 0.3, 0.25, 0.2, 0.15, 0.1, 0.05):
            blend = tile.blend(base, factor)
            if contrast_ratio(figure, blend) >= target:
                out[name] = blend.hex
                break
    out["tile-border"] = generated["panel-lighten-2" if theme.dark else "panel-darken-2"]
    return out


# --- validation -------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _css_accepts(declaration: str) -> bool:
    sheet = Stylesheet()
    sheet.add_source(f"Widget {{ {declaration} }}", read_from=("diskmark-theme-check", ""))
    try:
        sheet.parse()
    except StylesheetParseError:
        return False
    except Exception:
        return False
    return True


def _check_variable(name: str, value: Any) -> None:
    if not _VAR_RE.match(name):
        # TRANSLATORS: in a theme's problems, {value} is a value as the file has it, quoted;
        # the file's keys (variables, primary, dark, [variables]) and colours stay as they are
        raise ThemeError(_("variables: {value} is not a variable name (like tile-background)")
                         .format(value=repr(name)), f"variables: {name!r}")
    where = f"variables.{name}: {value!r}"
    if not isinstance(value, str) or not value.strip() or any(c in value for c in ";{}$\n"):
        raise ThemeError(_("variables.{name}: {value} is not a CSS value")
                         .format(name=name, value=repr(value)), where)
    # TRANSLATORS: "variables.{name}" is a key of the theme file: keep "variables."
    if name.endswith("text-style") or name.startswith("link-style"):
        ok = _css_accepts(f"text-style: {value};")
        problem = _("variables.{name}: {value} is not a text style (bold, reverse, none …)")
    elif name.endswith("border-type"):
        ok = _css_accepts(f"border: {value} red;")
        problem = _("variables.{name}: {value} is not a border type (round, heavy, solid …)")
    elif name.endswith("background") or name in ("boost", "surface", "panel"):
        ok = _css_accepts(f"background: {value};")
        problem = _("variables.{name}: {value} is not a background colour (\"#1E88E5\")")
    else:
        ok = _css_accepts(f"color: {value};")
        problem = _("variables.{name}: {value} is not a colour (\"#1E88E5\", \"auto 90%\")")
    if not ok:
        raise ThemeError(problem.format(name=name, value=repr(value)), where)


def _color(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise ThemeError(_("{key} must be a colour string like \"#257A33\", not {value}")
                         .format(key=key, value=repr(value)), f"{key} {value!r}")
    try:
        Color.parse(value)
    except (ColorParseError, ValueError):
        raise ThemeError(_("{key}: {value} is not a colour (try \"#257A33\")")
                         .format(key=key, value=repr(value)), f"{key}: {value!r}") from None
    return value


def parse_theme(data: dict[str, Any], fallback_name: str, checked: bool = True) -> Theme:
    """A Theme from decoded TOML; raises ThemeError naming the key at fault. ``checked=False``
    (diskmark's own themes, which the tests check): the values are not run through Textual's
    CSS parser and colour system, which cost every start of the app 5 ms."""
    unknown = sorted(set(data) - set(_FIELDS_COLOR) - set(_FIELDS_OTHER))
    if unknown:
        allowed = ", ".join(_FIELDS_OTHER[1:2] + _FIELDS_COLOR + _FIELDS_OTHER[2:])
        # TRANSLATORS: {allowed} lists the keys a theme file may have
        raise ThemeError(_("unknown key {key} (a theme has {allowed})")
                         .format(key=repr(unknown[0]), allowed=allowed), repr(unknown[0]))
    schema = data.get("schema", 1)
    if schema != 1:
        raise ThemeError(_("schema {value} is not supported (this diskmark reads schema 1)")
                         .format(value=repr(schema)), f"schema {schema!r}")
    name = data.get("name", fallback_name)
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ThemeError(_("name {value} must be letters, digits, '-', '_' or '.'")
                         .format(value=repr(name)), f"name {name!r}")
    if "primary" not in data:
        raise ThemeError(_("primary is required (the main colour, e.g. primary = \"#257A33\")"),
                         "primary")
    kw: dict[str, Any] = {"name": name}
    for key in _FIELDS_COLOR:
        if key in data:
            kw[key] = _color(key, data[key])
    for key in ("dark", "ansi"):
        if key in data:
            if not isinstance(data[key], bool):
                raise ThemeError(_("{key} must be true or false, not {value}")
                                 .format(key=key, value=repr(data[key])), f"{key} {data[key]!r}")
            kw[key] = data[key]
    for key in ("luminosity_spread", "text_alpha"):
        if key in data:
            v = data[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
                raise ThemeError(_("{key} must be a number from 0 to 1, not {value}")
                                 .format(key=key, value=repr(v)), f"{key} {v!r}")
            kw[key] = float(v)
    variables = data.get("variables", {})
    if not isinstance(variables, dict):
        raise ThemeError(_("variables must be a table: [variables]"), "variables")
    for vname, value in variables.items():
        if checked:
            _check_variable(vname, value)
    kw["variables"] = dict(variables)
    theme = Theme(**kw)
    if not checked:
        return theme
    try:
        theme.to_color_system().generate()
    except Exception as e:  # e.g. colours Textual cannot blend
        # TRANSLATORS: {error} is Textual's own message
        raise ThemeError(_("Textual cannot build colours from it: {error}").format(error=e)) from None
    return theme


def load_file(path: Path, checked: bool = True) -> Theme:
    """Load one theme file; raises ThemeError with ``file:line: reason``."""
    data, text = read_table(path, THEME_MAX_BYTES, N_("a theme"), ThemeError)
    try:
        return parse_theme(data, path.stem, checked)
    except ThemeError as e:
        line = line_of(text(), e.where, _KEYS) if e.where else 1
        raise ThemeError(f"{path}:{line}: {e}") from None


def _text(path: Path) -> str:
    return read_regular_file(path, THEME_MAX_BYTES).decode("utf-8", "replace")


_KEYS = r"(?:variables[.:] ?'?)?([A-Za-z0-9_-]+)"  # what a theme's problem starts with


def load_themes(user_dir: Path | None = None) -> tuple[list[Theme], list[str]]:
    """diskmark's four themes, then the user's (``user_dir`` or ``user_themes_dir()``).

    Returns the themes and the problems (``file:line: reason``) of user themes that were
    skipped. A user theme may not take the name of one of ours or of a Textual built-in."""
    themes = [load_file(BUILTIN_DIR / f"{name}.toml", checked=False) for name in BUILTIN_NAMES]
    problems: list[str] = []
    taken = {t.name: _("diskmark's built-in theme") for t in themes}
    taken.update({name: _("Textual's built-in theme") for name in BUILTIN_THEMES})
    # TRANSLATORS: {error} is Python's error, as "TypeError: what went wrong"
    odd = _("{path}: cannot be read as a theme ({error})")
    for path, theme in each_user_file(user_dir if user_dir is not None else user_themes_dir(),
                                      load_file, ThemeError, odd, problems):
        if theme.name in taken:
            # TRANSLATORS: {owner} is "diskmark's built-in theme", "Textual's built-in
            # theme" or the path of the file that has the name
            problems.append(_("{where}: the name {name} is already used by {owner}; give this "
                              "theme another name").format(
                where=f"{path}:{line_of(_text(path), 'name', _KEYS)}",
                name=repr(theme.name), owner=taken[theme.name]))
            continue
        taken[theme.name] = str(path)
        themes.append(theme)
    return themes, problems
