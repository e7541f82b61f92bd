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

A catalog that cannot be read (missing, truncated, garbage, a link to ``/dev/zero``) leaves
diskmark in English, and :func:`unreadable_catalog` says why, for the command line to warn
and the app to show.
"""

from __future__ import annotations

import gettext
import io
import os
import re
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

from diskmark.locale.said import Said

DOMAIN = "diskmark"
LOCALE_DIR = Path(__file__).resolve().parent
SOURCE = "en"
#: Every language diskmark speaks, by its catalog's name, named in itself.
LANGUAGES: dict[str, str] = {
    "en": "English", "ja": "日本語", "de": "Deutsch", "zh_CN": "简体中文", "zh_TW": "繁體中文",
    "ko": "한국어", "fr": "Français", "es": "Español", "ru": "Русский", "it": "Italiano",
    "pt_BR": "Português (Brasil)", "pl": "Polski", "cs": "Čeština", "sk": "Slovenčina",
    "nl": "Nederlands", "sv": "Svenska", "fi": "Suomi", "hu": "Magyar", "tr": "Türkçe",
    "uk": "Українська"}
#: A made-up language for tests: every text bracketed and 40% longer, so a text that was not
#: marked, or was glued from pieces, shows up unbracketed in the window.
PSEUDO = "pseudo"

#: The most a catalog may hold: the largest is a quarter of a MiB; more is not a catalog.
CATALOG_LIMIT = 4 * 1024 * 1024

_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE


@dataclass(frozen=True)
class UnreadableCatalog:
    """A shipped language's catalog that could not be read: diskmark speaks English instead.
    Said in English, since the catalog is what failed."""

    language: str
    path: Path
    #: Why, in English: "damaged (Bad magic number)", "not a regular file", "missing".
    reason: str

    @property
    def warning(self) -> str:
        """The warning, a clause to follow "diskmark: ", to be shown escaped on one line (the
        path and the reason come from outside: the escaping rule lives above this layer)."""
        return (f"cannot read the catalog for {self.language} ({self.path}): {self.reason}; "
                "speaking English instead. Reinstalling diskmark restores it.")


_unreadable: UnreadableCatalog | None = None
#: Catalogs read, by path: the command line sets its language twice (the environment's,
#: then --lang's), the app once more.
_read: dict[Path, _Catalog] = {}


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
    script: ``zh_HK`` and ``zh_Hant`` → ``zh_TW``, other ``zh`` → ``zh_CN``; Portuguese
    from anywhere → ``pt_BR``, the one Portuguese shipped, which Portugal reads)."""
    name = re.split(r"[.@]", wanted.strip())[0].replace("-", "_")
    if not name or name in ("C", "POSIX"):
        return None
    if name == PSEUDO or name in LANGUAGES:
        return name
    lang, _sep, region = name.partition("_")
    lang = lang.lower()
    if lang == "zh":
        return "zh_TW" if region in ("TW", "HK", "MO", "Hant") else "zh_CN"
    if lang == "pt":
        return "pt_BR"
    return lang if lang in LANGUAGES else None


def set_language(wanted: str | None) -> str:
    """Speak ``wanted`` (a locale name; None: what the environment asks for) from now on;
    returns the language spoken: English for one not shipped, or whose catalog cannot be
    read (then :func:`unreadable_catalog` says why)."""
    global _translation, _language, _unreadable
    chosen = (match(wanted) if wanted else None) or from_environment()
    _unreadable = None
    if chosen == PSEUDO:
        _translation = _Pseudo()
    elif chosen == SOURCE:
        _translation = gettext.NullTranslations()
    else:
        path = LOCALE_DIR / chosen / "LC_MESSAGES" / f"{DOMAIN}.mo"
        try:
            _translation = _catalog(path)
        except _Unread as e:
            _unreadable = UnreadableCatalog(chosen, path, str(e))
            _translation, chosen = gettext.NullTranslations(), SOURCE
    _language = chosen
    return chosen


def messages() -> tuple[str, ...]:
    """The English of every message the catalog in use translates (no context, no plural):
    what :func:`diskmark.locale.kept.said_kept` looks through for the template of a sentence
    a saved result keeps in English. Empty in English and the pseudo language."""
    catalog = getattr(_translation, "_catalog", None)
    if not isinstance(catalog, dict):
        return ()
    return tuple(k for k in catalog if isinstance(k, str) and k and "\x04" not in k)


def unreadable_catalog() -> UnreadableCatalog | None:
    """Why the language last asked for of :func:`set_language` is not spoken: its catalog
    could not be read (None: it is spoken)."""
    return _unreadable


class _Unread(Exception):
    """A catalog not read; the message is why, in English."""


def _catalog(path: Path) -> _Catalog:
    """The catalog at ``path``, read as diskmark reads any file it does not own
    (diskmark.files.regular_file, which speaks through this module and so cannot serve it):
    a regular file only, a link to one included, opened without blocking and checked again
    once open, at most CATALOG_LIMIT bytes. A link to /dev/zero would be read for ever, a
    FIFO would wait for a writer; a truncated or garbage one made every command in its
    language end in a traceback."""
    if path in _read:
        return _read[path]
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise _Unread("not a regular file")
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise _Unread("not a regular file")
            data = b""
            while chunk := os.read(fd, CATALOG_LIMIT + 1 - len(data)):
                data += chunk
                if len(data) > CATALOG_LIMIT:
                    raise _Unread(f"larger than {CATALOG_LIMIT // (1024 * 1024)} MiB")
        finally:
            os.close(fd)
    except FileNotFoundError:
        raise _Unread("missing") from None
    except OSError as e:
        raise _Unread(e.strerror or str(e)) from None
    try:
        catalog = _Catalog(io.BytesIO(data))
    except (OSError, ValueError, LookupError, IndexError, struct.error) as e:
        # what gettext's parser raises for a bad header, offsets past the end, text that is
        # not its charset, an unknown charset, a plural rule it cannot compile
        detail = (e.strerror if isinstance(e, OSError) else None) or str(e) or type(e).__name__
        raise _Unread(f"damaged ({detail[:120]})") from None
    _read[path] = catalog
    return catalog


class _Catalog(gettext.GNUTranslations):
    """A catalog whose plural rule cannot fail where a number is said: one that divides by
    zero (``plural=n%0``) answers as English does."""

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        try:
            return super().ngettext(msgid1, msgid2, n)
        except ArithmeticError:
            return msgid1 if n == 1 else msgid2


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


def NP_(context: str, message: str) -> str:
    """Mark ``message`` in ``context`` for translation where it is defined, to be translated
    with ``pgettext(context, message)`` where it is shown."""
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
