"""Which language diskmark speaks: the environment as gettext reads it, a language not
shipped falling back to English, and the made-up language the tests look for unmarked text
with."""

from __future__ import annotations

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
    ({"LANG": "pt_BR.UTF-8"}, "en"),  # not shipped: English
    ({"LANG": "C.UTF-8"}, "en"),
    ({}, "en"),
    ({"LANGUAGE": "pt:de", "LANG": "ja_JP.UTF-8"}, "de"),  # LANGUAGE's list, in order
    ({"LC_ALL": "fr_FR.UTF-8", "LANG": "ja_JP.UTF-8"}, "fr"),  # LC_ALL over LANG
    ({"LC_MESSAGES": "ko_KR.UTF-8", "LANG": "ru_RU.UTF-8"}, "ko"),
    ({"LC_ALL": "C", "LANG": "ja_JP.UTF-8"}, "en"),  # the first one set decides
])
def test_the_environment_chooses_as_gettext_does(env, chosen):
    assert from_environment(env) == chosen


def test_every_shipped_language_is_named_in_itself_and_matched_by_its_locale_names():
    assert set(LANGUAGES) == {"en", "ja", "de", "zh_CN", "zh_TW", "ko", "fr", "es", "ru"}
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
