"""diskmark in the user's language: gettext's catalogs (``<lang>/LC_MESSAGES/diskmark.po``
beside this file, compiled to ``.mo`` when the package is built) and the functions every
text a person reads goes through.

Text is marked where it is written: ``_("…")`` for a sentence, ``ngettext`` where a number
decides its form, ``pgettext`` where one English word needs two translations, and ``N_``
for a text defined before a language is chosen (a table of labels) and translated where it
is shown. Placeholders are named (``_("{count} tests").format(count=n)``), never glued
pieces, so a translator can move them.

The language comes from ``--lang``, else the app's saved choice, else the environment as
gettext reads it (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English; it can
change while the app runs (:func:`set_language`). What machines read (JSON and CSV keys,
the CrystalDiskMark text export) never goes through here.
"""

from __future__ import annotations

import gettext
import os
import re
from pathlib import Path

from diskmark.locale.said import Said

DOMAIN = "diskmark"
LOCALE_DIR = Path(__file__).resolve().parent
SOURCE = "en"
#: Every language diskmark speaks, by its catalog's name, named in itself.
LANGUAGES: dict[str, str] = {
    "en": "English", "ja": "日本語", "de": "Deutsch", "zh_CN": "简体中文", "zh_TW": "繁體中文",
    "ko": "한국어", "fr": "Français", "es": "Español", "ru": "Русский"}
#: A made-up language for tests: every text bracketed and 40% longer, so a text that was not
#: marked, or was glued from pieces, shows up unbracketed in the window.
PSEUDO = "pseudo"

_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


def language() -> str:
    """The language in use."""
    return _language


def from_environment(environ: dict[str, str] | None = None) -> str:
    """The shipped language the environment asks for, as gettext reads it: the first of
    ``LANGUAGE`` (a colon-separated list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that
    is set; the first of its languages diskmark speaks, else English."""
    env = os.environ if environ is None else environ
    for name in _ENV:
        value = env.get(name)
        if not value:
            continue
        for wanted in value.split(":") if name == "LANGUAGE" else [value]:
            found = match(wanted)
            if found is not None:
                return found
        if name != "LANGUAGE":  # the first of LC_ALL, LC_MESSAGES, LANG that is set decides
            break
    return SOURCE


def match(wanted: str) -> str | None:
    """The shipped language for a locale name (``de_AT.UTF-8``, ``zh_TW``, ``ja``, ``C``),
    or None: an exact catalog, else the same language (``de_AT`` → ``de``; Chinese by
    script: ``zh_HK`` and ``zh_Hant`` → ``zh_TW``, other ``zh`` → ``zh_CN``)."""
    name = re.split(r"[.@]", wanted.strip())[0].replace("-", "_")
    if not name or name in ("C", "POSIX"):
        return None
    if name == PSEUDO or name in LANGUAGES:
        return name
    lang, _sep, region = name.partition("_")
    lang = lang.lower()
    if lang == "zh":
        return "zh_TW" if region in ("TW", "HK", "MO", "Hant") else "zh_CN"
    return lang if lang in LANGUAGES else None


def set_language(wanted: str | None) -> str:
    """Speak ``wanted`` (a locale name; None: what the environment asks for) from now on;
    returns the language chosen (English for one not shipped)."""
    global _translation, _language
    chosen = (match(wanted) if wanted else None) or from_environment()
    if chosen == PSEUDO:
        _translation = _Pseudo()
    elif chosen == SOURCE:
        _translation = gettext.NullTranslations()
    else:
        _translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[chosen], fallback=True)
    _language = chosen
    return chosen


def _(message: str) -> str:
    """``message`` in the language in use. It is a :class:`Said`: the values it is filled
    with are made one safe line each (typed ``str``, which it is, so that what is built from
    it types as text)."""
    return Said(_translation.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message that ``n`` takes in the language in use (one form in Japanese,
    two in German, three in Russian)."""
    return Said(_translation.ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` as it is meant in ``context`` (a "Read" tile's caption, not the verb)."""
    return Said(_translation.pgettext(context, message))


def as_sentence(clause: str) -> str:
    """A clause (an error's message, written to follow "cannot save:") as a sentence of its
    own, in the language in use: its first letter a capital where the script has capitals,
    and the full stop that language writes ("." or "。") unless it ends in one already."""
    if not clause:
        return clause
    text = clause[0].upper() + clause[1:]
    if text[-1] not in ".!?。！？":
        text += "。" if _language in ("ja", "zh_CN", "zh_TW") else "."
    return Said(text) if isinstance(clause, Said) else text


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined, to be translated with ``_``
    where it is shown (it may be shown in a language chosen later)."""
    return message


_PLACEHOLDER = re.compile(r"(\{[^{}]*\}|%\([^)]*\)[a-z]|\[[^\]]*\]|\x1b\[[0-9;]*m)")


class _Pseudo(gettext.NullTranslations):
    """Every message bracketed, its letters accented and 40% longer; placeholders, markup
    and escapes untouched, so formatting still works."""

    def gettext(self, message: str) -> str:
        return _pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return _pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return _pseudo(message)


_ACCENTED = str.maketrans("aeiouAEIOUcnyCNY", "àéîöûÀÉÎÖÛçñýÇÑÝ")


def _pseudo(message: str) -> str:
    if not message:
        return message
    parts = _PLACEHOLDER.split(message)
    text = "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts))
    letters = sum(c.isalpha() for c in message)
    return f"⟦{text}{'~' * max(1, (letters * 2) // 5)}⟧"
