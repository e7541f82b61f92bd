"""One rule for every value from outside: a translated text escapes whatever fills it.

Every message of every shipped catalog, in every language, is filled with a value holding a
newline, a tab, an escape sequence and a right-to-left override: the message keeps exactly
the lines its translator wrote, and no control or format character reaches the text. A rule
kept by the type holds for a message written tomorrow as for the ones the fault injection
found (an IPv6 scope id, ``--lang``, an imported file's path, a written file's path)."""

from __future__ import annotations

import string
import sys
from pathlib import Path

import pytest

from diskmark.engine.sentence import Sentence
from diskmark.locale import LANGUAGES, _, ngettext, pgettext, set_language
from diskmark.locale.said import Said, joined, lines_said
from diskmark.locale.text_safety import shown

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
catalogs = pytest.importorskip("catalogs", reason="Babel is not installed (the test extras have it)")

HOSTILE = "a\nFAKE: imported 999 runs\t\x1b[2J\u202e\x9b"
HOSTILE_SHOWN = "a\\nFAKE: imported 999 runs\\t\\x1b[2J\\u202e\\x9b"


def raw_controls(text: str) -> set[str]:
    """Control and format characters but newline: none may be in a message once filled."""
    return {c for c in text if c != "\n" and (not c.isprintable())}


def fill(template: str) -> str | None:
    """``template`` filled as the code fills it, every plain field with the hostile text;
    None for a template this test cannot fill (a field's attribute or index)."""
    values: dict[str, object] = {}
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for _literal, field, spec, _conversion in fields:
        if field is None:
            continue
        if not field or not field.isidentifier():
            return None
        values[field] = HOSTILE if not spec else 12
    return template.format(**values)  # the translation's own format, as the code calls it


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def test_a_value_with_a_newline_fills_a_message_as_one_line():
    set_language("en")
    text = _("imported {file} as {id}").format(file=HOSTILE, id="x")
    assert text == f"imported {HOSTILE_SHOWN} as x"
    assert "\n" not in text and isinstance(text, Said)


@pytest.mark.parametrize("value", [Path("/tmp/a\nb"), OSError(2, "No such file", "/tmp/a\nb"),
                                   ValueError("bad\nline")])
def test_paths_and_errors_fill_a_message_as_one_line(value):
    text = _("cannot read {path}").format(path=value)
    assert "\n" not in text and "\\n" in text


def test_diskmarks_own_sentences_keep_their_lines():
    inner = _("first line\nsecond line of {what}").format(what="x")
    assert _("{host}: failed.\n{said}").format(host="h", said=inner).count("\n") == 2
    assert joined("\n", [inner, HOSTILE]).count("\n") == 2  # the hostile part is one line
    error = RuntimeError(inner)
    assert _("failed: {error}").format(error=error).count("\n") == 1


def test_a_programs_words_keep_their_lines_each_escaped():
    said = lines_said("ssh: bad host [::1%a\nFAKE LINE]\x1b[2J\nsecond")
    assert said.splitlines() == ["ssh: bad host [::1%a", "FAKE LINE]\\x1b[2J", "second"]


def test_numbers_keep_their_formats_and_percent_templates_escape_too():
    assert _("{mbps:.2f} MB/s").format(mbps=1234.5) == "1234.50 MB/s"
    assert Said("%(prog)s: %(message)s") % {"prog": "d", "message": HOSTILE} == \
        f"d: {HOSTILE_SHOWN}"
    assert Said("%s and %s") % (HOSTILE, 3) == f"{HOSTILE_SHOWN} and 3"


def test_glued_text_is_not_said():
    """Gluing a value to a message by hand makes plain text: it is escaped where it fills
    another message, never trusted."""
    glued = _("Target:") + " " + HOSTILE
    assert not isinstance(glued, Said)
    assert "\n" not in _("{line}").format(line=glued)


def test_every_kind_of_translated_text_is_said():
    assert isinstance(_("x"), Said)
    assert isinstance(ngettext("{n} run", "{n} runs", 2), Said)
    assert isinstance(pgettext("table header", "Test"), Said)
    sentence = Sentence("{path} is gone", path=HOSTILE)
    assert "\n" not in sentence.english() and "\n" not in sentence.said()


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_message_of_every_language_keeps_its_own_lines_whatever_fills_it(lang):
    """Each message, translated, filled with the hostile text: as many lines as its
    translation has, no control character, the value shown escaped."""
    set_language(lang)
    template = catalogs.template()
    checked, wrong = 0, []
    for message in template:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for n, msgid in enumerate(ids):
            if message.context:
                translated = pgettext(message.context, msgid)
            elif isinstance(message.id, tuple):
                translated = ngettext(ids[0], ids[1], 1 if n == 0 else 5)
            else:
                translated = _(msgid)
            if "{" not in translated:
                continue
            filled = fill(translated)
            if filled is None:
                continue
            checked += 1
            own_lines = "".join(p[0] for p in string.Formatter().parse(translated)).count("\n")
            if filled.count("\n") != own_lines or raw_controls(filled) - raw_controls(translated):
                wrong.append(msgid)
    assert checked > 400, f"only {checked} messages with placeholders were checked"
    assert not wrong, f"{lang}: {len(wrong)} messages let a value add a line, such as {wrong[:3]}"


def test_unicodes_line_and_paragraph_separators_never_start_a_line():
    """U+2028 and U+2029 are no control characters, yet str.splitlines (which reads
    CrystalDiskMark's text results back), editors and JavaScript break lines at them: a mount
    point holding one (mountinfo leaves it unescaped) forged a line of its own."""
    set_language("en")
    said = _("cannot read {path}").format(path="/mnt/a\u2028FAKE: imported 999 runs\u2029b")
    assert said.splitlines() == [said] and "\\u2028FAKE" in said and "\\u2029b" in said
    assert shown("a\u2028b") == "a\\u2028b"
