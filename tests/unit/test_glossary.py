"""Every catalog held to its glossary (docs/glossary/LANG.md) and to the typography of its
language that a program can check: its own quotation marks and no other language's, and in
Chinese and Japanese no space between two of their characters or after 。、，. A translator
who words a recurring term one way in the glossary and another in the window, or pastes a
sentence with English quotes into a Japanese catalog, fails here."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from diskmark.locale import LANGUAGES, SOURCE

ROOT = Path(__file__).resolve().parents[2]
GLOSSARIES = ROOT / "docs" / "glossary"
CATALOGS = ROOT / "diskmark" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]

#: The double quotation marks each language writes prose in (its typographers' norm, as its
#: glossary says). An ASCII " stays only where the English has one: shell syntax to type.
QUOTES: dict[str, list[str]] = {
    "de": ["„“"], "cs": ["„“"], "sk": ["„“"], "pl": ["„”"], "hu": ["„”"],
    "fr": ["«»"], "es": ["«»"], "it": ["«»"], "ru": ["«»", "„“"], "uk": ["«»", "„“"],
    "nl": ["“”"], "pt_BR": ["“”"], "tr": ["“”"], "ko": ["“”"], "zh_CN": ["“”"],
    "sv": ["””"], "fi": ["””"],
    "ja": ["「」", "『』"], "zh_TW": ["「」", "『』"],
}
MARKS = set("“”„‟«»「」『』")

CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
#: One space between two Chinese or Japanese characters (two or more are a column's gap)
CJK_SPACE = re.compile(f"(?<=[{CJK}]) (?=[{CJK}])")
#: A space after the ideographic full stop or comma, where none belongs
AFTER_STOP = re.compile("[。、，] ")


def translations(lang: str, context: bool = True) -> list[tuple[str, str]]:
    """(the English, its translation) for every translated form of every message (with
    ``context`` False, only those without a context: not a footer's short word)."""
    with open(CATALOGS / lang / "LC_MESSAGES" / "diskmark.po", "rb") as f:
        catalog = read_po(f)
    out = []
    for m in catalog:
        if not m.id or (m.context and not context):
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out += [(ids[min(i, len(ids) - 1)], s) for i, s in enumerate(strings) if s]
    return out


def test_every_language_has_its_quotes_and_a_glossary():
    assert set(QUOTES) >= set(TRANSLATED), "a language without its quotation marks here"
    missing = [lang for lang in TRANSLATED if not (GLOSSARIES / f"{lang}.md").is_file()]
    assert not missing, f"languages without a glossary in docs/glossary: {missing}"


@pytest.mark.parametrize("lang", TRANSLATED)
def test_a_catalog_quotes_as_its_language_does(lang):
    own = set("".join(QUOTES[lang]))
    wrong = []
    for english, text in translations(lang):
        foreign = {c for c in text if c in MARKS} - own
        extra_ascii = text.count('"') > english.count('"')
        unbalanced = any(text.count(o) != text.count(c) if o != c else text.count(o) % 2
                         for o, c in QUOTES[lang])
        if foreign or extra_ascii or unbalanced:
            wrong.append(f"{text!r}: " + ", ".join(
                [f"quotes of another language {''.join(sorted(foreign))}"] * bool(foreign)
                + ['" where the English has none'] * extra_ascii + ["unbalanced"] * unbalanced))
    assert not wrong, f"{lang}: {len(wrong)} messages\n" + "\n".join(wrong[:20])


@pytest.mark.parametrize("lang", [x for x in TRANSLATED if x in ("ja", "zh_CN", "zh_TW")])
def test_no_space_inside_chinese_or_japanese_text(lang):
    wrong = [text for _english, text in translations(lang)
             if CJK_SPACE.search(text) or AFTER_STOP.search(text)]
    assert not wrong, f"{lang}: a space between two characters or after 。、，\n" + "\n".join(
        repr(t) for t in wrong[:20])


def glossary_rows(lang: str) -> list[tuple[list[str], list[str]]]:
    """Each row of the glossary's table: the English terms and the language's, with
    parenthesised notes, emphasis, code marks and quotes taken off."""
    def terms(cell: str) -> list[str]:
        cell = re.sub(r"\([^)]*\)", "", cell)
        return [t.strip(" *`\"'«»“”„「」") for t in re.split(r" / |, |; ", cell) if t.strip()]

    rows = []
    for line in (GLOSSARIES / f"{lang}.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) >= 2 and not set(cells[0]) <= set("-: "):
            rows.append((terms(cells[0]), terms(cells[1])))
    return rows[1:]  # the header's row


def agrees(term: str, text: str) -> bool:
    """``term`` is in ``text``, each of its words by its stem where the language inflects
    it (a Czech adjective's ending follows its noun's gender); Chinese, Japanese and Korean
    words whole."""
    text = text.casefold()
    words = term.casefold().split()
    if not words:
        return False
    if any(unicodedata.east_asian_width(c) in "WF" for c in term):
        return all(w in text for w in words)
    return all((w[:-2] if len(w) > 4 else w) in text for w in words)


@pytest.mark.parametrize("lang", [x for x in TRANSLATED if (GLOSSARIES / f"{x}.md").is_file()])
def test_a_catalog_words_its_glossarys_terms_as_the_glossary_does(lang):
    """Where a glossary's English term is a message of the window (a button, a heading), the
    catalog's translation of it carries the glossary's word (or is the part of it that the
    row's shorter term means: Write in "Sequential Read / Write"): at least 15 such rows, so that
    a glossary and its catalog cannot drift apart unseen."""
    messages = dict(translations(lang, context=False))
    words: dict[str, list[str]] = {}  # a term listed in several rows (its senses): any of them
    for english, local in glossary_rows(lang):
        for term in english:
            words.setdefault(term, []).extend(local)
    checked, wrong = 0, []
    for term, local in words.items():
        if term in messages:
            checked += 1
            said = messages[term]  # a row's word, or the row's shorter use of it
            if not any(agrees(word, said) or agrees(said, word) for word in local):
                wrong.append(f"{term!r} is {said!r}; the glossary says {local}")
    assert checked >= 15, f"{lang}: only {checked} glossary terms are messages of the catalog"
    assert not wrong, f"{lang}:\n" + "\n".join(wrong)
