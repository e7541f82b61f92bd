"""The Japanese catalog says one act, one idea, one way (docs/glossary/ja.md): leaving the
comment field was `Esc で離れる` in one place and `Esc で抜けます` in another; the reference
of a comparison was 基準, the footer's word for the baselines; a buffered run was バッファード,
バッファあり and バッファ経由; a threshold 閾値 and しきい値."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

CATALOG = Path(__file__).parents[2] / "diskmark" / "locale" / "ja" / "LC_MESSAGES" / "diskmark.po"

#: (what the English says, the one Japanese word for it, the words it must not be)
ONE_WAY = [
    (r"\bEsc\b.*\bleave|^Leave$", "抜け", ["離れ"]),
    (r"\breference\b(?! counts)", "比較対象", ["基準"]),
    (r"\b[Bb]uffered\b", "バッファ経由", ["バッファード", "バッファあり"]),
    (r"\bthresholds?\b", "しきい値", ["閾値"]),
]


def messages() -> list[tuple[str, str]]:
    with CATALOG.open("rb") as f:
        catalog = read_po(f)
    out = []
    for m in catalog:
        if not m.id or m.context:  # a footer's short word may be shorter
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        out += [(ids[0], s) for s in strings if s]
    return out


@pytest.mark.parametrize(("english", "word", "not_words"), ONE_WAY)
def test_one_idea_is_worded_one_way(english, word, not_words):
    pattern = re.compile(english)
    said = [(e, s) for e, s in messages() if pattern.search(e)]
    assert said, english
    wrong = [(e, s) for e, s in said if any(w in s for w in not_words)]
    assert not wrong, f"{word}, not {not_words}:\n" + "\n".join(f"{e!r}: {s!r}" for e, s in wrong)
    assert sum(word in s for _e, s in said) >= len(said) // 2, said  # the word is the one used
