"""The footer is drawn again when its keys change, and only then (each recompose mounts and
styles every key: drawn anew for nothing, they slowed the first frame by a fifth)."""

from __future__ import annotations

import pytest
from fakes import FakeEngine, facts
from textual.widgets._footer import FooterKey

from diskmark.app.app import DiskmarkApp
from diskmark.app.widgets.footer import KeysFooter
from diskmark.locale import LANGUAGES, set_language
from diskmark.model.settings import Settings
from diskmark.model.units import GIB


def keys_shown(app: DiskmarkApp) -> dict[str, bool]:
    """Each key the main screen's footer shows, and whether it is enabled."""
    footer = app.main.query_one(KeysFooter)
    return {key.action: not key.has_class("-disabled") for key in footer.query(FooterKey)}


async def test_the_footer_follows_its_keys_and_is_drawn_once_at_start(tmp_path, monkeypatch):
    monkeypatch.setenv("DISKMARK_HOME", str(tmp_path / "home"))
    composed = []
    original = KeysFooter.recompose

    async def counted(self):
        composed.append(self)
        await original(self)

    monkeypatch.setattr(KeysFooter, "recompose", counted)
    engine = FakeEngine(block_at=0)
    app = DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts,
                      settings=Settings(target=str(tmp_path), size=GIB, count=5), persist=False)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if keys_shown(app):
                break
        await pilot.pause(0.2)
        idle = keys_shown(app)
        assert idle.get("run_all") is True, idle
        assert len(composed) == 1, f"the footer was composed {len(composed)} times at start"
        await pilot.press("a")  # a run: the keys that would change its settings go
        for _ in range(100):
            await pilot.pause(0.02)
            if "run_all" not in keys_shown(app):
                break
        running = keys_shown(app)
        assert "run_all" not in running and running.get("stop") is True, running
        app.engine.stop()
        for _ in range(200):
            await pilot.pause(0.02)
            if not app.state.running and keys_shown(app).get("run_all"):
                break
        assert keys_shown(app).get("run_all") is True, "the keys came back after the run"


@pytest.mark.parametrize("lang", sorted(LANGUAGES))
async def test_every_key_fits_in_the_footer_at_80_columns_in_every_language(lang, tmp_path):
    """German's long words and Japanese's wide ones are the translators' short footer words,
    never cut and never pushed off or under the palette's key: every key of the main screen
    is there, whole."""
    set_language(lang)
    try:
        app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts,
                          settings=Settings(target=str(tmp_path), size=GIB, count=5),
                          persist=False)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(100):
                await pilot.pause(0.02)
                if keys_shown(app):
                    break
            await pilot.pause(0.1)
            footer = app.main.query_one(KeysFooter)
            keys = list(footer.query(FooterKey))
            palette = [k for k in keys if k.has_class("-command-palette")]
            others = [k for k in keys if not k.has_class("-command-palette")]
            assert len(others) >= 8, [k.key_display for k in keys]
            limit = palette[0].region.x if palette else footer.region.right
            for key in others:
                assert key.region.right <= limit, (lang, key.key_display, key.description,
                                                   key.region, limit)
                assert key.description, (lang, key.key_display, "every key keeps a word")
                assert "…" not in key.description, (lang, key.description, "a word was cut")
            if lang == "en":  # English fits whole, as before
                assert [k.description for k in others] == [
                    "Quit", "All", "Unit", "Save", "Target", "Settings", "Baselines", "Help"]
                assert palette[0].description == "palette"
    finally:
        set_language("en")


def test_every_word_a_footer_shows_has_a_short_form_to_translate():
    """Each key shown in a footer, on any screen, is among the footer's words, so that every
    language can give it a short form (FOOTER_WORDS, context "footer")."""
    import importlib
    import inspect
    import pkgutil

    from textual.binding import Binding
    from textual.dom import DOMNode

    import diskmark.app as package
    from diskmark.app.widgets.footer import FOOTER_WORDS

    shown = {}
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and issubclass(cls, DOMNode) and cls.__module__ == module.__name__:
                for b in cls.__dict__.get("BINDINGS", None) or []:  # its own, not Textual's
                    if isinstance(b, Binding) and b.show and b.description:
                        shown.setdefault(b.description, f"{module.__name__}.{name}")
    missing = {d: where for d, where in shown.items() if d not in FOOTER_WORDS}
    assert not missing, f"footer words without a short form to translate: {missing}"


@pytest.mark.parametrize("width", [80, 60, 40])
def test_keys_that_do_not_fit_are_left_out_whole_and_the_help_stays(width):
    """Fewer keys at narrow widths, never a word cut: the keys furthest right go first, the
    help (which lists them all) stays."""
    from textual.widgets._footer import FooterKey

    from diskmark.app.widgets.footer import _cells, fit

    words = [("ctrl+q", "quit", "Beenden"), ("a", "run_all", "Alle"),
             ("u", "cycle_unit", "Einheit"), ("s", "save_report", "Speichern"),
             ("t", "pick_target", "Ziel"), ("o", "settings", "Einstellungen"),
             ("b", "baselines", "Referenzwerte"), ("question_mark", "help", "Hilfe")]
    keys = [FooterKey(k, k, d, a) for k, a, d in words]
    left_out = fit(keys, width, compact=True)
    kept = [k for k in keys if k not in left_out]
    assert sum(_cells(k, True) for k in kept) <= width + 1
    assert [k.description for k in kept] == [d for _k, _a, d in words if d in
                                              {k.description for k in kept}]
    assert kept[-1].action == "help" and all("…" not in k.description for k in kept)
    if width == 80:
        assert len(left_out) <= 2
