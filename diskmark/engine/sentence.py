"""A sentence the engine says twice: in English into the saved result (its warnings, which
CrystalDiskMark's text export prints as they are, in English in every language) and in the
user's language on the screen (a notice while the run goes on, a refusal).

Its message is marked where it is written (``Sentence(N_("… {path} …"), path=p)``); a value
may be a sentence itself (said in the same language as the one that holds it) or a list of
them, joined with "; ".
"""

from __future__ import annotations

from diskmark.locale import _
from diskmark.locale.said import Said


class Sentence:
    """A message with its values, said in English (:meth:`english`) or in the language in
    use (:meth:`said`)."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, /, **values: object) -> None:
        self.message = message
        self.values = values

    def english(self) -> str:
        return Said(self.message).format_map(self._values(english=True))

    def said(self) -> str:
        return _(self.message).format_map(self._values(english=False))

    @classmethod
    def verbatim(cls, message: str, /, **values: object) -> Sentence:
        """A message no language words differently (``"{path}: {error}"``, the system's
        own words): never looked up, its values said as any others."""
        return _Verbatim(message, **values)

    def _values(self, english: bool) -> dict[str, object]:
        return {k: _say(v, english) for k, v in self.values.items()}

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Sentence) and self.message == other.message
                and self.values == other.values)

    def __hash__(self) -> int:
        return hash(self.message)

    def __repr__(self) -> str:
        return f"Sentence({self.english()!r})"


class _Verbatim(Sentence):
    __slots__ = ()

    def said(self) -> str:
        return Said(self.message).format_map(self._values(english=False))


def _say(value: object, english: bool) -> object:
    if isinstance(value, Sentence):
        return value.english() if english else value.said()
    if isinstance(value, list | tuple) and all(isinstance(v, Sentence) for v in value):
        # TRANSLATORS: what separates sentences given in a row (the uses of a device, say)
        joint = "; " if english else _("; ")
        return Said(joint.join(v.english() if english else v.said() for v in value))
    return value


def said_together(sentences: list[Sentence]) -> str:
    """Sentences given in a row, in the language in use."""
    text = _say(sentences, english=False)
    return text if isinstance(text, str) else ""
