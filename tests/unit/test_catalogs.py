"""Every shipped catalog is complete against the code as it is: extracting the messages
again (as scripts/catalogs.py does) finds none that a catalog lacks, leaves untranslated or
marks fuzzy; every translation keeps its message's placeholders, so formatting it cannot
fail; and each catalog compiles and is what gettext then answers."""

from __future__ import annotations

import gettext
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
catalogs = pytest.importorskip("catalogs", reason="Babel is not installed (the test extras have it)")

from diskmark.locale import LANGUAGES, SOURCE  # noqa: E402

PLACEHOLDER = re.compile(r"\{[^{}]*\}")
SHIPPED = [lang for lang in LANGUAGES if lang != SOURCE]


@pytest.fixture(scope="module")
def fresh():
    return catalogs.template()


def test_the_code_marks_its_messages(fresh):
    assert len(fresh) > 500, f"only {len(fresh)} messages are marked for translation"


@pytest.mark.parametrize("lang", SHIPPED)
def test_a_shipped_catalog_is_complete_against_a_fresh_extraction(lang, fresh):
    path = catalogs.po_path(lang)
    assert path.is_file(), f"{lang} has no catalog at {path}"
    catalog = catalogs.read(path)
    have = {(m.id, m.context) for m in catalog if m.id}
    absent = [m.id for m in fresh if m.id and (m.id, m.context) not in have]
    untranslated, fuzzy = catalogs.missing(catalog)
    assert not absent, f"{lang}: {len(absent)} messages missing, such as {absent[:3]}"
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, such as {untranslated[:3]}"
    assert not fuzzy, f"{lang}: {len(fuzzy)} fuzzy, such as {fuzzy[:3]}"


@pytest.mark.parametrize("lang", SHIPPED)
def test_every_translation_keeps_its_placeholders(lang):
    catalog = catalogs.read(catalogs.po_path(lang))
    wrong = []
    for m in catalog:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        allowed = set().union(*(PLACEHOLDER.findall(i) for i in ids))
        for s in strings:
            used = set(PLACEHOLDER.findall(s))
            # a plural form may leave the number out (Japanese has one form), never add a name
            if not used <= allowed or (not isinstance(m.id, tuple) and used != allowed):
                wrong.append((m.id, s))
    assert not wrong, f"{lang}: {len(wrong)} translations change placeholders, such as {wrong[:2]}"


@pytest.mark.parametrize("lang", SHIPPED)
def test_a_catalog_compiles_and_gettext_answers_from_it(lang, tmp_path):
    po = catalogs.po_path(lang)
    copy = tmp_path / lang / "LC_MESSAGES" / "diskmark.po"
    copy.parent.mkdir(parents=True)
    copy.write_bytes(po.read_bytes())
    assert catalogs.compile_all(tmp_path) == 1
    translation = gettext.translation("diskmark", tmp_path, languages=[lang])
    catalog = catalogs.read(po)
    sample = next(m for m in catalog if m.id and isinstance(m.id, str) and m.string)
    assert translation.gettext(sample.id) == sample.string
