"""Text in other languages in the main window's own widgets: a path of double-width
characters shortened by the cells it takes (keeping its end, as a Latin path does), and the
footer's keys in the language in use, drawn again when the language changes."""

from __future__ import annotations

import pytest
from fakes import FakeEngine, facts
from rich.cells import cell_len
from textual.geometry import Region
from textual.widgets._footer import FooterKey

from diskmark.app.app import DiskmarkApp
from diskmark.app.widgets.footer import KeysFooter
from diskmark.app.widgets.topbar import TargetButton, shorten_path
from diskmark.locale import set_language
from diskmark.model.settings import Settings
from diskmark.model.units import GIB

LONG_JA = "/mnt/ベンチマーク用のとても長い日本語のディレクトリ名/測定対象のフォルダ"


@pytest.fixture
def pseudo():
    set_language("pseudo")
    yield
    set_language("en")


def drawn(widget) -> str:
    """The widget's lines as the terminal shows them."""
    width, height = widget.outer_size
    strips = widget.render_lines(Region(0, 0, width, height))
    return "\n".join("".join(seg.text for seg in strip) for strip in strips)


@pytest.mark.parametrize("width", [8, 15, 20, 31, 40])
def test_a_wide_path_is_shortened_by_its_cells_keeping_its_end(width):
    short = shorten_path(LONG_JA, width)
    assert short.startswith("…") and cell_len(short) <= width, (short, cell_len(short))
    assert LONG_JA.endswith(short[1:])
    assert cell_len(short) >= width - 1  # no room wasted: at most half a wide character


def test_a_latin_path_is_shortened_as_before():
    assert shorten_path("/mnt/usb/bench", 20) == "/mnt/usb/bench"
    assert shorten_path("/srv/storage/pool/bench", 10) == "…ool/bench"


async def test_a_long_japanese_target_at_60_columns_shows_the_end_of_its_path(tmp_path, isolated_home):
    target = tmp_path / "ベンチマーク用のとても長い日本語のディレクトリ名" / "測定対象のフォルダ"
    target.mkdir(parents=True)
    app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts,
                      settings=Settings(target=str(target), size=GIB, count=5), persist=False)
    async with app.run_test(size=(60, 24)) as pilot:
        await pilot.pause()
        button = app.query_one("#target", TargetButton)
        line = drawn(button).splitlines()[1].strip()  # between the button's edges
        assert line.startswith("…") and line.endswith(" ▼"), line
        assert str(target).endswith(line[1:-2]) and len(line) > 4, line  # the end, not the middle
        assert cell_len(str(button.label)) <= button.content_size.width - 2  # its line padding


def footer_words(app: DiskmarkApp) -> dict[str, tuple[str, str]]:
    footer = app.main.query_one(KeysFooter)
    return {key.action: (key.description, str(key.tooltip or "")) for key in footer.query(FooterKey)}


async def settled(pilot, app, check) -> dict[str, tuple[str, str]]:
    for _i in range(100):
        await pilot.pause(0.02)
        words = footer_words(app)
        if words and check(words):
            break
    return footer_words(app)


async def test_the_footer_speaks_the_language_in_use_and_follows_a_change(tmp_path, isolated_home):
    app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts,
                      settings=Settings(target=str(tmp_path), size=GIB, count=5), persist=False)
    try:
        async with app.run_test(size=(200, 40)) as pilot:
            english = await settled(pilot, app, lambda w: "run_all" in w)
            assert english["run_all"] == ("All", "Run every test of the profile"), english
            assert english["quit"][0] == "Quit"
            set_language("pseudo")
            app.refresh_bindings()
            words = await settled(pilot, app, lambda w: w["quit"][0] != "Quit")
            for action, (description, tooltip) in words.items():
                assert description.startswith("⟦") and description.endswith("⟧"), (action, words)
                assert not tooltip or tooltip.startswith("⟦"), (action, tooltip)
            assert words["run_all"][1].startswith("⟦Rûñ évérý tést"), words["run_all"]
            set_language("en")
            app.refresh_bindings()
            back = await settled(pilot, app, lambda w: w["quit"][0] == "Quit")
            assert back == english
    finally:
        set_language("en")
