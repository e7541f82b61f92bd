"""Which language diskmark speaks: the environment as gettext reads it, a language not
shipped falling back to English, a catalog that cannot be read too (and why is kept to be
said), and the made-up language the tests look for unmarked text with."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from diskmark import locale
from diskmark.locale import LANGUAGES, from_environment, match, set_language


@pytest.fixture(autouse=True)
def english_after():
    yield
    set_language("en")


@pytest.mark.parametrize("env, chosen", [
    ({"LANG": "ja_JP.UTF-8"}, "ja"),
    ({"LANG": "de_AT.UTF-8"}, "de"),
    ({"LANG": "zh_HK.UTF-8"}, "zh_TW"),
    ({"LANG": "zh_SG.UTF-8"}, "zh_CN"),
    ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
    ({"LANG": "pt_PT.UTF-8"}, "pt_BR"),  # the one Portuguese shipped
    ({"LANG": "el_GR.UTF-8"}, "en"),  # not shipped: English
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANGUAGE": "el:de", "LANG": "ja_JP.UTF-8"}, "de"),  # LANGUAGE's list, in order
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "ja_JP.UTF-8"}, "fr"),  # LC_ALL over LANG
    ({"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "ru_RU.UTF-8"}, "ko"),
    ({"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),  # the first one set decides
])
def test_the_environment_chooses_as_gettext_does(env, chosen):
    assert from_environment(env) == chosen


def test_every_shipped_language_is_named_in_itself_and_matched_by_its_locale_names():
    assert set(LANGUAGES) == {"en", "ja", "de", "zh_CN", "zh_TW", "ko", "fr", "es", "ru", "it",
                              "pt_BR", "pl", "cs", "sk", "nl", "sv", "fi", "hu", "tr", "uk"}
    for code in LANGUAGES:
        assert match(code) == code
        assert match(f"{code}.UTF-8") == code
    assert match("xx") is None


def test_the_pseudo_language_brackets_and_lengthens_but_keeps_placeholders():
    set_language("pseudo")
    assert locale.language() == "pseudo"
    said = locale._("Removed {count} runs from {path}.").format(count=3, path="/mnt/x")
    assert said.startswith("⟦") and said.endswith("⟧")
    assert "3" in said and "/mnt/x" in said
    assert len(said) > len("Removed 3 runs from /mnt/x.") * 1.3
    assert locale.ngettext("{n} run", "{n} runs", 1).format(n=1).startswith("⟦")


def test_english_is_the_text_as_written():
    set_language("en")
    assert locale._("Ready") == "Ready"
    assert locale.ngettext("{n} run", "{n} runs", 2) == "{n} runs"
    assert locale.pgettext("tile header", "Read") == "Read"


def test_a_clause_becomes_a_sentence_as_its_language_ends_one():
    set_language("en")
    assert locale.as_sentence("the name is taken") == "The name is taken."
    assert locale.as_sentence("done.") == "Done."
    set_language("ja")
    assert locale.as_sentence("名前は使用中です") == "名前は使用中です。"
    set_language("ru")
    assert locale.as_sentence("имя занято") == "Имя занято."


def catalog(directory: Path, lang: str, plural: str | None = None) -> Path:
    """A real compiled catalog for ``lang`` under ``directory`` (Babel compiles it as the
    build does), with ``plural`` as its plural rule if given; returns the ``.mo``."""
    babel = pytest.importorskip("babel.messages.catalog",
                                reason="Babel is not installed (the test extras have it)")
    from babel.messages.mofile import write_mo

    made = babel.Catalog(locale=lang)
    made.add("Ready", "Bereit")
    made.add(("{n} run", "{n} runs"), ("{n} Lauf", "{n} Läufe"))
    if plural is not None:
        made._plural_expr = plural
    mo = directory / lang / "LC_MESSAGES" / "diskmark.mo"
    mo.parent.mkdir(parents=True)
    data = io.BytesIO()
    write_mo(data, made)
    mo.write_bytes(data.getvalue())
    return mo


def truncated(mo: Path) -> str:
    mo.write_bytes(mo.read_bytes()[:40])
    return "damaged ("


def garbage(mo: Path) -> str:
    mo.write_bytes(bytes(range(256)) * 40)
    return "damaged (Bad magic number)"


def too_large(mo: Path) -> str:
    with mo.open("r+b") as f:
        f.truncate(5 * 1024 * 1024)
    return "larger than 4 MiB"


def missing(mo: Path) -> str:
    mo.unlink()
    return "missing"


def a_directory(mo: Path) -> str:
    mo.unlink()
    mo.mkdir()
    return "not a regular file"


@pytest.mark.parametrize("damage", [truncated, garbage, too_large, missing, a_directory])
def test_a_catalog_that_cannot_be_read_leaves_english_and_says_why(tmp_path, monkeypatch,
                                                                   damage):
    """(A link to /dev/zero and a FIFO, which hung, are run as the command in
    tests/cli/test_cli_language.py, with a timeout.)"""
    monkeypatch.setattr(locale, "LOCALE_DIR", tmp_path)
    reason = damage(catalog(tmp_path, "de"))
    assert set_language("de") == "en"
    assert locale.language() == "en" and locale._("Ready") == "Ready"
    unreadable = locale.unreadable_catalog()
    assert unreadable is not None and unreadable.language == "de"
    assert unreadable.path == tmp_path / "de" / "LC_MESSAGES" / "diskmark.mo"
    assert unreadable.reason.startswith(reason), unreadable.reason
    assert unreadable.warning == (f"cannot read the catalog for de ({unreadable.path}): "
                                  f"{unreadable.reason}; speaking English instead. "
                                  "Reinstalling diskmark restores it.")
    assert set_language("en") == "en" and locale.unreadable_catalog() is None


def test_a_catalog_read_through_a_link_is_spoken(tmp_path, monkeypatch):
    """The rule for any file diskmark does not own (diskmark.files.regular_file): a link to
    a regular file is read; only what is not a regular file is refused."""
    monkeypatch.setattr(locale, "LOCALE_DIR", tmp_path)
    real = catalog(tmp_path / "real", "de")
    shutil.copytree(real.parents[1], tmp_path / "de")
    linked = tmp_path / "de" / "LC_MESSAGES" / "diskmark.mo"
    linked.unlink()
    linked.symlink_to(real)
    assert set_language("de") == "de" and locale._("Ready") == "Bereit"
    assert locale.unreadable_catalog() is None


def test_a_plural_rule_that_cannot_be_worked_out_answers_as_english_does(tmp_path, monkeypatch):
    """``plural=n%0`` loads, then divided by zero wherever a number was said."""
    monkeypatch.setattr(locale, "LOCALE_DIR", tmp_path)
    catalog(tmp_path, "de", plural="n%0")
    assert set_language("de") == "de" and locale._("Ready") == "Bereit"
    assert locale.ngettext("{n} run", "{n} runs", 1) == "{n} run"
    assert locale.ngettext("{n} run", "{n} runs", 3) == "{n} runs"
