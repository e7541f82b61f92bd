"""The cell grid every chart and tile draws on: a character of a double-width script takes
two cells, so what follows it stays in its column."""

import re

from diskmark.report.cells import (
    Cells,
    fit_widths,
    line_starts,
    text_cells,
    whole_parts,
    wrap_cells,
)


def test_a_wide_character_takes_two_cells_and_the_columns_after_it_stay():
    grid = Cells(10, 2)
    grid.put(0, 0, "パス 1", 1)
    grid.put(1, 0, "pass 1", 1)
    assert text_cells("パス 1") == 6
    lines = grid.text().splitlines()
    assert lines == ["パス 1", "pass 1"]
    assert [ch for ch, _ in grid.rows[0][:5]] == ["パ", "", "ス", "", " "]
    assert len(grid.rows[0]) == len(grid.rows[1]) == 10


def test_what_falls_outside_is_left_out_and_a_wide_character_is_never_cut_in_half():
    grid = Cells(5, 1)
    grid.put(0, 3, "日本", 2)  # 日 fits in cells 3-4, 本 would stick out
    grid.put(5, 0, "x", 2)  # no row 5
    grid.put(0, -1, "ab", 2)  # a starts left of the grid
    assert grid.text() == "b  日"
    assert grid.rows[0][3:] == [("日", 2), ("", 2)]


def test_a_combining_mark_takes_no_cell_and_stays_with_its_letter():
    grid = Cells(4, 1)
    grid.put(0, 0, "e\u0301te", 1)
    assert text_cells("e\u0301te") == 3
    assert grid.text() == "e\u0301te"


def test_a_sentence_without_spaces_breaks_between_wide_characters_not_before_a_closing_mark():
    text = "停止: fio は 2 秒以内に終了し、テストファイルは削除されます。"
    for width in range(12, 60):
        lines = wrap_cells(text, width)
        assert all(text_cells(line) <= width for line in lines), (width, lines)
        assert "".join(lines).replace(" ", "") == text.replace(" ", ""), (width, lines)
        assert not any(line[0] in "、。" for line in lines), (width, lines)
    assert wrap_cells("あいう、えお", 6) == ["あい", "う、え", "お"]  # う goes down with its 、


def test_a_no_break_space_keeps_a_key_with_its_particle_and_latin_breaks_at_spaces():
    text = "コメントを入力 (Esc か Enter\u00a0で離れる)"
    for width in range(12, 40):
        assert not any(line.startswith("で") for line in wrap_cells(text, width)), width
    assert wrap_cells("hello world this is the test", 11) == ["hello world", "this is the",
                                                               "test"]
    assert line_starts("hello world", 5) == [6]
    assert wrap_cells("「テスト」を", 6) == ["「テス", "ト」を"]


def test_a_word_of_one_letter_never_ends_a_line():
    """A key goes with what it does, in every language; a Polish, Czech or Slovak
    one-letter word with the word after it, as their typography wants."""
    polish = ("Enter porównuje kafelki z zaznaczoną linią bazową (● oznacza używaną). "
              "c porównuje ją z tym pomiarem, k z inną linią bazową.")
    for width in range(12, 90):
        for line in wrap_cells(polish, width):
            assert not re.search(r"(^|\s)\w$", line), (width, line)
    assert wrap_cells("hello world this is a test", 11) == ["hello world", "this is", "a test"]
    assert wrap_cells("a b", 1) == ["a", "b"]  # a line is never left empty for it


def test_columns_too_wide_give_cells_from_their_words_first_then_between_wide_characters():
    headings = ["回", "MB/s", "実行時間", "fio CPU"]
    rows = [["ウォームアップ (破棄)", "6521.58", "5.0 s", "14%"], ["1", "6802.08", "5.0 s", "14%"]]
    assert fit_widths(headings, rows, 60, wrapping={0}) == [21, 7, 8, 7]  # they fit as they are
    assert fit_widths(headings, rows, 36, wrapping={0}) == [14, 7, 8, 7]  # at the space only
    assert fit_widths(headings, rows, 32, wrapping={0}) == [14, 7, 8, 3]  # fio / CPU next
    assert fit_widths(headings, rows, 31, wrapping={0}) == [13, 7, 8, 3]  # then the widest
    narrow = fit_widths(headings, rows, 20, wrapping={0})
    assert narrow[1] == 7 and sum(narrow) == 20  # figures never wrap; Japanese words do
    assert fit_widths(["a b"], [["12345678"]], 3) == [8]  # a figure wider than the room stays


def test_a_word_wider_than_the_line_is_folded_by_its_cells_and_the_words_after_it_follow():
    path = "/home/me/.local/share/diskmark/reports/a.png"
    assert wrap_cells(f"{path} に保存しました", 12)[0] == path  # unfolded: a line of its own
    starts = line_starts(f"{path} に保存しました", 12, fold=True)
    bounds = [0, *starts, len(path) + 8]
    pieces = [f"{path} に保存しました"[a:b].rstrip() for a, b in zip(bounds, bounds[1:])]
    assert all(text_cells(p) <= 12 for p in pieces), pieces
    assert pieces == ["/home/me/.lo", "cal/share/di", "skmark/repor", "ts/a.png に",
                      "保存しました"], pieces  # the path cut by its cells, its particle kept
    assert line_starts("ab 日本語の文", 4, fold=True) == [3, 5, 7]  # wide words break anyway


def test_no_line_is_wider_than_the_room_unless_one_word_is():
    """Words kept together (a key and its particle or verb, a mark and its word) move down
    together only when they fit a line: never a line wider than the room for it (the
    dialog's hint lost a letter to it in Spanish at 80×24), in every language's messages."""
    from pathlib import Path

    from diskmark.locale import LOCALE_DIR

    for po in sorted(Path(LOCALE_DIR).glob("*/LC_MESSAGES/diskmark.po")):
        texts = re.findall(r'^msgstr "(.{20,})"$', po.read_text(encoding="utf-8"), re.M)
        for text in texts[:300]:
            text = text.replace('\\"', '"')
            for width in range(8, 80, 9):
                for fold in (False, True):
                    bounds = [0, *line_starts(text, width, fold), len(text)]
                    lines = [text[a:b] for a, b in zip(bounds, bounds[1:])]
                    assert "".join(lines) == text
                    for line in lines:
                        words = line.strip()
                        if " " in words and not any(text_cells(w) > width for w in words.split()):
                            assert text_cells(line.rstrip()) <= width, (po.parent.parent.name,
                                                                        width, fold, line)


def test_parts_are_kept_whole_and_the_first_even_when_it_alone_overflows():
    """A status's notes or a model's words: those that fit, then " …"; a first part wider
    than the room is kept (the cells then cut it) rather than leaving " …" alone, which a
    pseudo file system's status in the target picker was."""
    assert whole_parts(["device", "read-only"], 20) == "device · read-only"
    assert whole_parts(["device", "read-only", "mounted at /mnt/usb"], 24) == "device · read-only …"
    assert whole_parts(["notusable:pseudofilesystem"], 10) == "notusable:pseudofilesystem"
    assert whole_parts("Samsung SSD 980 PRO 1TB".split(), 16, sep=" ") == "Samsung SSD …"
    assert whole_parts("Samsung SSD 980 PRO 1TB".split(), 17, sep=" ") == "Samsung SSD 980 …"
    # the first part too wide even alone: its words that fit, never a word cut
    assert whole_parts(["tylko do odczytu"], 15) == "tylko do …"
    assert whole_parts(["tylko do odczytu", "urządzenie"], 17) == "tylko do …"
