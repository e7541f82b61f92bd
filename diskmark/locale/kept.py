"""Sentences kept in English, said again in the reader's language.

A saved result keeps its reasons and notes in English, as CrystalDiskMark's text export does,
so that a file reads the same to every tool and every reader's diskmark. Each such sentence
was made from a template marked for translation; a view finds the template again by the
sentence's shape and says it in the language in use, with the same values.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from functools import cache

from diskmark.locale import PSEUDO, SOURCE, _, language, messages

#: The fewest letters a template keeps besides its fields to be looked for: "{path}: {error}"
#: would take any sentence with a colon for its own.
KEPT_LITERAL = 16


@cache
def _pattern_of(template: str) -> re.Pattern[str] | None:
    """What ``template`` filled with any values looks like, each field a named group (a
    field met again must hold the same value); None for a template with a format spec."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, field, spec, conversion in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is None:
            continue
        if spec or conversion or not field.isidentifier():
            return None
        parts.append(f"(?P={field})" if field in seen else f"(?P<{field}>.+?)")
        seen.add(field)
    return re.compile("".join(parts), re.DOTALL)


def said_again(english: str, templates: Iterable[str]) -> str:
    """A sentence kept in English (a saved result keeps its reasons so, as CrystalDiskMark's
    text export does) said in the language in use: the template it was made from is found by
    its shape, translated and filled with the same values. A sentence no template made is
    said as it is."""
    for template in templates:
        pattern = _pattern_of(template)
        found = pattern.fullmatch(english) if pattern is not None else None
        if found is not None:
            return _(template).format(**found.groupdict())
    return english


@cache
def _kept_templates(spoken: str) -> tuple[str, ...]:
    """The catalog's templates with fields and enough words of their own, the most specific
    (the most words besides their fields) first. Cached by the language spoken."""
    def literal(template: str) -> int:
        return sum(len(part[0]) for part in string.Formatter().parse(template))

    found = []
    for message in messages():
        if "{" not in message:
            continue
        try:
            if literal(message) >= KEPT_LITERAL and _pattern_of(message) is not None:
                found.append(message)
        except ValueError:  # a brace that is no field ("{{" in a JSON example)
            continue
    return tuple(sorted(found, key=literal, reverse=True))


def said_kept(english: str) -> str:
    """A note a saved result keeps in English (its warnings: "The test file is fragmented
    (12 pieces)…") said in the language in use: the note itself where it is a message, else
    the template it was filled from, found among every message of the catalog in use by its
    shape. A note that no message made (the system's own words) is said as it is."""
    spoken = language()
    if spoken == SOURCE:
        return english
    if spoken == PSEUDO:
        return _(english)
    said = _(english)
    return said if said != english else said_again(english, _kept_templates(spoken))
