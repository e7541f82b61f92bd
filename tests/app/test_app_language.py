"""The window in other languages: the made-up pseudo language finds any text a person reads
that was not marked for translation (it would show without brackets and accents), the
Language command switches everything at once and is remembered, a language whose catalog
cannot be read is a notice (in English, the window as it was), and Japanese and German are
drawn whole at 80x24."""

from __future__ import annotations

import html
import json
import re
import shutil

import pytest
from fakes import FakeEngine, facts

from diskmark import locale
from diskmark.app.app import DiskmarkApp
from diskmark.locale import set_language
from diskmark.model.settings import Settings
from diskmark.model.units import GIB
from diskmark.store.app_settings import config_path

#: Words on the screen that are data, names or CrystalDiskMark's own terms: no language
#: translates them (the fake drive's facts, test names, units, key names, the target).
DATA_WORDS = {
    "diskmark", "nvme", "nvmeon", "data", "IOPS", "Default", "SEQ", "RND", "Samsung", "PRO",
    "ext", "shift", "English", "Esc", "Enter", "Tab", "ctrl", "palette", "free", "mnt", "tmp", "pytest", "root",
    "popen", "Mix", "Peak", "Demo", "NVMe", "SSD", "Flash", "ext4", "Linux", "fio", "JSON",
}


def screen_text(app: DiskmarkApp) -> str:
    """What the window shows, as text (the SVG screenshot's characters, row by row)."""
    svg = app.export_screenshot()
    rows: dict[float, list[tuple[float, str]]] = {}
    for m in re.finditer(r'<text class="[^"]*" x="([\d.]+)" y="([\d.]+)" textLength="[\d.]+" '
                         r'clip-path="[^"]*">(.*?)</text>', svg, re.S):
        rows.setdefault(float(m.group(2)), []).append((float(m.group(1)),
                                                        html.unescape(m.group(3))))
    text = "\n".join("".join(t for _, t in sorted(row)) for _, row in sorted(rows.items()))
    return text.replace("\xa0", " ")


def unmarked(text: str) -> list[str]:
    """English words in ``text``: four letters or more with a vowel the pseudo language
    would have accented, that are not data."""
    found = []
    text = re.sub(r"\S*[/_]\S*", " ", text)  # paths and ids are data
    text = re.sub(r"([a-z0-9]|[A-Z](?=[A-Z][a-z]))([A-Z][a-z])", r"\1 \2", text)  # cells run together
    for word in re.findall(r"[A-Za-z][A-Za-z0-9]{3,}", text):
        if word in DATA_WORDS or word.lower() in {w.lower() for w in DATA_WORDS}:
            continue
        if re.search(r"[aeiouAEIOU]", word) and not re.search(r"\d", word):
            found.append(word)
    return found


def make(tmp_path) -> DiskmarkApp:
    return DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts, persist=False,
                       settings=Settings(target=str(tmp_path), size=GIB, count=5))


async def settle(pilot, condition, what: str, tries: int = 300) -> None:
    for _ in range(tries):
        if condition():
            await pilot.pause(0.05)
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never happened: {what}")


@pytest.fixture
def pseudo():
    set_language("pseudo")
    yield
    set_language("en")


async def test_the_pseudo_language_finds_no_unmarked_text_in_the_window(tmp_path, pseudo):
    app = make(tmp_path)
    async with app.run_test(size=(200, 50)) as pilot:
        await settle(pilot, lambda: "nvme0n1p2" in screen_text(app), "the facts")
        idle = screen_text(app)
        await pilot.press("a")
        await settle(pilot, lambda: app.state.history and not app.state.running, "the run")
        done = screen_text(app)
        await pilot.press("question_mark")
        await settle(pilot, lambda: type(app.screen).__name__ == "HelpScreen", "the help")
        helped = screen_text(app)
        await pilot.press("escape")
        await pilot.press("o")
        await settle(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "settings")
        settings = screen_text(app)
    for name, text in (("idle", idle), ("after a run", done), ("help", helped),
                       ("settings", settings)):
        assert not unmarked(text), f"{name}: not translated: {sorted(set(unmarked(text)))}\n{text}"


async def test_the_language_command_switches_the_window_at_once_and_is_remembered(tmp_path):
    app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts,
                      settings=Settings(target=str(tmp_path), size=GIB, count=5))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, lambda: "nvme0n1p2" in screen_text(app), "the facts")
            await pilot.press("a")
            await settle(pilot, lambda: app.state.history and not app.state.running, "the run")
            figures = [t.text for t in app.main.grid.tiles]
            assert "Read (MB/s)" in screen_text(app)
            app.change_language("de")
            await settle(pilot, lambda: "Lesen (MB/s)" in screen_text(app)
                         and "Hilfe" in screen_text(app), "German tiles and footer")
            text = screen_text(app)
            assert "Hilfe" in text and "Bereit" in text and "Read (MB/s)" not in text, text
            assert [t.text for t in app.main.grid.tiles] == figures, "the figures stay"
            assert "nvme0n1p2" in text, "the facts stay"
        assert json.loads(config_path().read_text())["language"] == "de"
        again = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts)
        async with again.run_test(size=(120, 40)) as pilot:
            await settle(pilot, lambda: "Hilfe" in screen_text(again), "German at the next start")
    finally:
        set_language("en")


async def test_the_settings_choose_the_language_too(tmp_path):
    from textual.widgets import Select

    app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts,
                      settings=Settings(target=str(tmp_path), size=GIB, count=5))
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, lambda: "nvme0n1p2" in screen_text(app), "the facts")
            await pilot.press("o")
            await settle(pilot, lambda: type(app.screen).__name__ == "SettingsScreen", "settings")
            assert app.screen.query_one("#language", Select).value == "en"
            app.screen.query_one("#language", Select).value = "ja"
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle(pilot, lambda: "準備完了" in screen_text(app), "the window in Japanese")
            assert "ヘルプ" in screen_text(app)
        assert json.loads(config_path().read_text())["language"] == "ja"
    finally:
        set_language("en")


async def test_a_catalog_that_cannot_be_read_is_a_notice_and_the_window_stays_readable(
        tmp_path, monkeypatch):
    """The installed catalogs copied, Japanese's truncated: asked for at the start, the window
    is in English with a notice saying why; chosen later, the window stays in the language
    it was in, and the choice is not kept."""
    catalogs = tmp_path / "locale"
    shutil.copytree(locale.LOCALE_DIR, catalogs,
                    ignore=shutil.ignore_patterns("*.po", "*.pot", "*.py", "__pycache__"))
    ja = catalogs / "ja" / "LC_MESSAGES" / "diskmark.mo"
    ja.write_bytes(ja.read_bytes()[:100])
    monkeypatch.setattr(locale, "LOCALE_DIR", catalogs)
    app = DiskmarkApp(engine_factory=FakeEngine, facts_provider=facts, language="ja",
                      settings=Settings(target=str(tmp_path), size=GIB, count=5))
    notices = lambda: [n.message for n in app._notifications]  # noqa: E731
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, lambda: notices(), "the notice")
            said = f"Cannot read the catalog for ja ({ja}): damaged ("
            assert [n for n in notices() if n.startswith(said)] == notices(), notices()
            assert notices()[0].endswith("; speaking English instead. Reinstalling diskmark "
                                         "restores it.")
            assert "Read (MB/s)" in screen_text(app)
            app.change_language("de")
            await settle(pilot, lambda: "Lesen (MB/s)" in screen_text(app), "German")
            app.clear_notifications()
            app.change_language("ja")
            await settle(pilot, lambda: notices(), "the notice again")
            assert notices()[0].startswith(said)
            await pilot.pause(0.2)
            assert "Lesen (MB/s)" in screen_text(app) and locale.language() == "de"
        assert json.loads(config_path().read_text())["language"] == "de"
    finally:
        set_language("en")


@pytest.mark.parametrize("ticks", range(6))
async def test_facts_read_while_the_window_is_composed_anew_are_shown_and_break_nothing(
        tmp_path, ticks):
    """The target's facts arrive from their thread whenever they are read; a language chosen
    meanwhile composes the window anew. Facts arriving while it is half built (the facts line
    mounted, its text not yet) made the app stop with NoMatches (seen once in CI); they are
    shown once the line is there, in the new language."""
    app = make(tmp_path)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot, lambda: "Samsung" in screen_text(app), "the facts")
            read = app.state.facts
            app.change_language("de")
            for _ in range(ticks):
                await pilot.pause(0)
            app.signals.facts.publish(read)
            await settle(pilot, lambda: "Lesen (MB/s)" in screen_text(app), "German")
            await pilot.pause(0.1)
            assert app.return_code is None and app._exception is None
            assert "Samsung" in screen_text(app)
    finally:
        set_language("en")
