"""What a user reads names only what a user can find: no internal document numbers.

diskmark's methods come from public articles; they are cited by title and author, never by
the numbers they had in the design notes ("seed 000"). The engine's own files are checked
by their owners; everything else a user reads is here: the READMEs, --help, the presets, the
app's text, docstrings and comments.
"""

from __future__ import annotations

import re
from pathlib import Path

from diskmark.cli.parser import build_parser

ROOT = Path(__file__).parents[2]
INTERNAL = re.compile(r"\bseeds?\b(?:\s+\d{3}|'s|\s+scripts)", re.IGNORECASE)


def user_facing_files() -> list[Path]:
    files = [*ROOT.glob("README*.md"), *ROOT.glob("docs/*.md"), *ROOT.glob("benchmarks/*.py"),
             *ROOT.glob("scripts/*")]
    for path in (ROOT / "diskmark").rglob("*"):
        if path.suffix in (".py", ".toml", ".tcss") and "engine" not in path.parts:
            files.append(path)
    return [f for f in files if f.is_file()]


def test_no_internal_document_numbers_in_what_users_read():
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in user_facing_files()
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if INTERNAL.search(line)]
    assert not found, "\n".join(found)


def test_help_cites_the_article_by_author():
    parser = build_parser()
    run = parser._subparsers._group_actions[0].choices["run"]  # type: ignore[union-attr]
    text = " ".join(run.format_help().split())
    assert "snow_mountain" in text and not INTERNAL.search(text)


def test_the_docs_name_every_article_by_title():
    readme = (ROOT / "docs" / "measuring.md").read_text(encoding="utf-8")
    for title in ("その3【fio編】", "Performancetest von Datenträgern mit Flexible IO messen",
                  "その4【各filesystem測定編】", "diskspdでストレージパフォーマンスを計測する",
                  "RAID6上に構成したext4ファイルシステム"):
        assert title in readme


def test_readme_documents_the_first_five_minutes():
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    for needed in ("~/.local/bin", "--format markdown", "type `theme`", "`p` or `ctrl+s`",
                   "about 8 minutes", "mkfs tools", "~/Documents/diskmark/"):
        assert needed in readme, needed
    start = (ROOT / "start.sh").read_text()
    assert "link_command" in start  # the examples call `diskmark`: start.sh puts it on PATH
