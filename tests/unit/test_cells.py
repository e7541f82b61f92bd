"""The cell grid every chart and tile draws on: a character of a double-width script takes
two cells, so what follows it stays in its column."""

from diskmark.report.cells import Cells, text_cells


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
