"""Themes as data: the four built-ins load, carry the app's variables, stay readable, and a
Textual app can switch to each of them (and to Textual's own) without a CSS error."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.theme import BUILTIN_THEMES
from textual.widgets import Static

from diskmark.app import themes
from diskmark.app.themes import (
    CUSTOM_VARIABLES,
    DEFAULT_THEME,
    MONO_THEME,
    contrast_ratio,
    load_themes,
    variable_defaults,
)

OURS = ["diskmark", "diskmark-dark", "diskmark-contrast", "diskmark-mono"]


@pytest.fixture
def builtin():
    loaded, problems = load_themes()
    assert problems == []
    return {t.name: t for t in loaded}


def test_the_four_themes_load_in_order(builtin):
    assert list(builtin) == OURS
    assert DEFAULT_THEME == "diskmark" and MONO_THEME == "diskmark-mono"
    assert builtin["diskmark"].dark is False
    assert all(builtin[n].dark for n in OURS[1:])


def test_the_four_themes_pass_the_checks_a_user_theme_gets():
    """The app loads its own themes unchecked (it is faster): they must pass every check."""
    for name in OURS:
        theme = themes.load_file(themes.BUILTIN_DIR / f"{name}.toml", checked=True)
        assert theme.name == name


def test_user_dir_defaults_to_config_themes(isolated_home):
    d = isolated_home / "config" / "themes"
    d.mkdir(parents=True)
    (d / "mine.toml").write_text('name = "mine"\nprimary = "#336699"\n')
    loaded, problems = load_themes()
    assert problems == [] and [t.name for t in loaded] == OURS + ["mine"]


@pytest.mark.parametrize("name", OURS)
def test_every_theme_defines_every_custom_variable(builtin, name):
    missing = set(CUSTOM_VARIABLES) - set(builtin[name].variables)
    assert not missing


@pytest.mark.parametrize("name", OURS)
def test_figures_and_buttons_are_readable(builtin, name):
    v = builtin[name].variables
    fig = v["tile-foreground"]
    for bg in ("tile-background", "meter-color", "meter-background", "progress-color"):
        assert contrast_ratio(fig, v[bg]) >= 4.5, (name, bg)
    assert contrast_ratio(v["row-button-foreground"], v["row-button-background"]) >= 4.5
    assert contrast_ratio(v["row-button-foreground"], v["row-button-hover-background"]) >= 3
    t = builtin[name]
    assert contrast_ratio(t.foreground, t.background) >= 7


def test_contrast_theme_is_black_white_yellow_with_heavy_borders(builtin):
    t = builtin["diskmark-contrast"]
    assert (t.background, t.foreground) == ("#000000", "#FFFFFF")
    assert t.variables["tile-border-type"] == "heavy"
    assert t.variables["tile-border"] == "#FFFFFF"
    r, g, b = Color.parse(t.primary).rgb
    assert r > 200 and g > 200 and b < 50  # yellow


def test_mono_theme_uses_greys_only(builtin):
    t = builtin["diskmark-mono"]
    values = [getattr(t, f) for f in ("primary", "secondary", "accent", "foreground",
                                      "background", "surface", "panel", "success", "warning",
                                      "error", "boost") if getattr(t, f)]
    values += [v for k, v in t.variables.items() if v.startswith("#")]
    for value in values:
        r, g, b = Color.parse(value).rgb
        assert r == g == b, value


def test_diskmark_theme_is_light_with_green_buttons(builtin):
    v = builtin["diskmark"].variables
    r, g, b = Color.parse(v["row-button-background"]).rgb
    assert g > r and g > b
    assert Color.parse(v["tile-background"]).brightness > 0.9
    assert Color.parse(v["tile-foreground"]).brightness < 0.2


def test_variable_defaults_cover_every_custom_variable():
    assert set(variable_defaults()) == set(CUSTOM_VARIABLES)
    for theme in BUILTIN_THEMES.values():
        d = variable_defaults(theme)
        assert set(d) == set(CUSTOM_VARIABLES)
        for name, value in d.items():
            themes._check_variable(name, value)


def test_derived_meter_keeps_figures_readable_on_textual_themes():
    for theme in BUILTIN_THEMES.values():
        if theme.ansi:
            continue
        g = theme.to_color_system().generate()
        d = variable_defaults(theme)
        tile = Color.parse(g["background"]) + Color.parse(g["surface"])
        fig = tile + Color.parse(g["foreground"])
        target = min(4.5, contrast_ratio(fig, tile) * 5 / 6)
        assert contrast_ratio(fig, d["meter-color"]) >= target, theme.name
        assert contrast_ratio(fig, d["progress-color"]) >= target, theme.name


# --- user themes -------------------------------------------------------------------------


GOOD = '''name = "ocean"
dark = true
primary = "#1E88E5"
background = "#0B1A2A"
[variables]
tile-background = "#000000"
'''

BROKEN = {
    "syntax.toml": ('name = "x"\nprimary = \n', "syntax.toml:2"),
    "badcolor.toml": ('name = "badcolor"\nprimary = "#12345"\n', "not a colour"),
    "notstring.toml": ('name = "notstring"\nprimary = 7\n', "must be a colour"),
    "unknown.toml": ('name = "unknown"\nprimary = "#123456"\nprimery = "#fff"\n',
                     "unknown key 'primery'"),
    "noprimary.toml": ('name = "noprimary"\nbackground = "#000000"\n', "primary is required"),
    "badvar.toml": ('name = "badvar"\nprimary = "#123456"\n[variables]\n'
                    'tile-background = "notacolour"\n', "variables.tile-background"),
    "badref.toml": ('name = "badref"\nprimary = "#123456"\n[variables]\n'
                    'tile-background = "$surface"\n', "is not a CSS value"),
    "badstyle.toml": ('name = "badstyle"\nprimary = "#123456"\n[variables]\n'
                      'block-cursor-text-style = "shiny"\n', "block-cursor-text-style"),
    "badborder.toml": ('name = "badborder"\nprimary = "#123456"\n[variables]\n'
                       'tile-border-type = "zigzag"\n', "tile-border-type"),
    "baddark.toml": ('name = "baddark"\nprimary = "#123456"\ndark = "yes"\n', "dark must be"),
    "badname.toml": ('name = "has space"\nprimary = "#123456"\n', "name 'has space'"),
    "schema.toml": ('schema = 2\nname = "future"\nprimary = "#123456"\n', "schema 2"),
    "clash.toml": ('name = "diskmark"\nprimary = "#123456"\n', "already used by diskmark's"),
    "textual.toml": ('name = "nord"\nprimary = "#123456"\n', "already used by Textual's"),
    "zz-dup.toml": ('name = "ocean"\nprimary = "#123456"\n', "already used by"),
    "binary.toml": (b"\xff\xfe", "cannot read"),
}


def test_broken_user_themes_are_reported_and_skipped(tmp_path):
    (tmp_path / "ocean.toml").write_text(GOOD)
    for fname, (text, _) in BROKEN.items():
        p = tmp_path / fname
        p.write_bytes(text) if isinstance(text, bytes) else p.write_text(text)
    (tmp_path / "not-a-theme.txt").write_text("ignored")
    loaded, problems = load_themes(tmp_path)
    assert [t.name for t in loaded] == OURS + ["ocean"]
    assert len(problems) == len(BROKEN)
    for fname, (_, why) in BROKEN.items():
        hit = [p for p in problems if f"{tmp_path / fname}:" in p]
        assert len(hit) == 1, (fname, problems)
        assert why in hit[0], (fname, hit[0])
    ocean = loaded[-1]
    assert ocean.variables == {"tile-background": "#000000"}


def test_problem_points_at_the_line(tmp_path):
    (tmp_path / "t.toml").write_text('name = "t"\nprimary = "#123456"\n'
                                     'secondary = "nope"\n')
    _, problems = load_themes(tmp_path)
    assert problems == [f"{tmp_path / 't.toml'}:3: secondary: 'nope' is not a colour "
                        f"(try \"#257A33\")"]


def test_missing_user_dir_is_fine(tmp_path):
    loaded, problems = load_themes(tmp_path / "absent")
    assert [t.name for t in loaded] == OURS and problems == []


# --- in a real Textual app ------------------------------------------------------------------


class Tile(Static):
    pass


class ThemedApp(App):
    CSS = """
    Tile {
        background: $tile-background;
        color: $tile-foreground;
        border: $tile-border-type $tile-border;
    }
    Tile .meter { background: $meter-color; }
    Tile.running { background: $progress-color; }
    #row { background: $row-button-background; color: $row-button-foreground; }
    #row:hover { background: $row-button-hover-background; }
    #head { color: $column-header-foreground; }
    #better { color: $better-color; }
    #worse { color: $worse-color; }
    #track { background: $meter-background; }
    """

    def __init__(self, extra=()):
        super().__init__()
        self.extra = list(extra)

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return variable_defaults(self.current_theme)

    def on_mount(self) -> None:
        loaded, _ = load_themes()
        for theme in loaded + self.extra:
            self.register_theme(theme)

    def compose(self) -> ComposeResult:
        yield Tile("123.45", id="tile")
        for name in ("row", "head", "better", "worse", "track"):
            yield Tile(name, id=name)


async def test_app_switches_to_every_theme(tmp_path):
    (tmp_path / "ocean.toml").write_text(GOOD)
    user, problems = load_themes(tmp_path)
    assert problems == []
    app = ThemedApp(extra=[user[-1]])
    async with app.run_test(size=(60, 20)) as pilot:
        for name in OURS + ["ocean", "textual-dark", "textual-light", "nord", "ansi-dark"]:
            app.theme = name
            await pilot.pause()
            assert app.theme == name
            tile = app.query_one("#tile", Tile)
            expected = app.theme_variables["tile-background"]
            if expected.startswith("#"):
                assert tile.styles.background == Color.parse(expected), name
        app.theme = DEFAULT_THEME
        await pilot.pause()
        assert app.query_one("#row").styles.background == Color.parse("#257A33")


async def test_mono_theme_under_no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = ThemedApp()
    async with app.run_test(size=(60, 20)) as pilot:
        app.theme = MONO_THEME
        await pilot.pause()
        assert app.no_color
        assert app.theme == MONO_THEME
