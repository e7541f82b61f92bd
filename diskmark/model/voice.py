"""Which language a text is written in: the user's on screen, English in what is kept.

Some words are both shown and kept: a result's notes ("runs differ by 9%") are saved in its
JSON document, and CrystalDiskMark's text export is English in every language so that tools
can read it; the same notes are shown in the user's language in the window and the Markdown
report. A function that writes such words takes a voice (:data:`LOCAL` by default) and
speaks through it: ``voice._("…")``, ``voice.ngettext(…)``, ``voice.pgettext(…)``, which
Babel extracts like the functions of :mod:`diskmark.locale`.
"""

from __future__ import annotations

from typing import Protocol

from diskmark import locale


class Voice(Protocol):
    """``_``, ``ngettext`` and ``pgettext`` in one language."""

    def _(self, message: str) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int) -> str: ...

    def pgettext(self, context: str, message: str) -> str: ...


class _Local:
    """The language in use (it may change while the app runs)."""

    def _(self, message: str) -> str:
        return locale._(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return locale.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return locale.pgettext(context, message)


class _English:
    """The source text, whatever the language in use: for saved documents and the
    CrystalDiskMark export."""

    def _(self, message: str) -> str:
        return message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return singular if n == 1 else plural

    def pgettext(self, context: str, message: str) -> str:
        return message


LOCAL: Voice = _Local()
ENGLISH: Voice = _English()
