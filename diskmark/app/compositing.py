"""A character two cells wide stays whole where a widget over others crosses their edges.

Textual's compositor cuts every line of the screen at every widget's left and right edge,
whatever lies on top, and takes each piece from the topmost widget there. A wide character
(Japanese, Chinese, Korean) of a notice, a tooltip or a menu that lies across the edge of a
widget beneath it is cut in two, and Rich draws each half as a space: a notice read
`スク  ーンショット`, its リ lost where a tile's edge ran under it (Textual issue 6357).

Here a widget that is topmost over several pieces in a row gives them as one piece, cut
only where another widget's piece begins; the pieces it covers are kept empty, so nothing
beneath claims them. In an update of part of the screen, pieces are joined only inside one
span being drawn, so what is drawn never reaches past what changed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import textual
from textual._compositor import ChopsUpdate, Compositor
from textual.geometry import Region
from textual.strip import Strip

_EMPTY = Strip([], 0)

#: Where pieces may be joined on a line: the spans being drawn, or None for the whole line.
Spans = Mapping[int, list[tuple[int, int]]] | None


def _joinable(spans: Spans, y: int, start: int, end: int) -> bool:
    if spans is None:
        return True
    return any(x1 <= start and end <= x2 for x1, x2 in spans.get(y, ()))


def render_chops(self: Compositor, crop: Region, is_rendered_line: Callable[[int], bool],
                 spans: Spans = None) -> Sequence[Mapping[int, Strip | None]]:
    """Textual's ``Compositor._render_chops`` (8.2), with a widget's pieces in a row that
    it is topmost over given as one piece."""
    cuts = self.cuts
    chops: list[dict[int, Strip | None]] = [dict.fromkeys(cut_set[:-1]) for cut_set in cuts]
    for region, clip, strips in self._get_renders(crop):
        render_region = region.intersection(clip)
        render_x = render_region.x
        first_cut, last_cut = render_region.column_span
        for y, strip in zip(render_region.line_range, strips):
            if not is_rendered_line(y):
                continue
            line = chops[y]
            final_cuts = [cut for cut in cuts[y] if last_cut >= cut >= first_cut]
            starts = final_cuts[:-1]
            if not starts:
                continue
            ends = final_cuts[1:]
            # the pieces grouped in runs: a run is pieces this widget is topmost over (or
            # not), one after the other, inside one span being drawn
            runs: list[list[int]] = [[0]]
            for i in range(1, len(starts)):
                run = runs[-1]
                free, was_free = line.get(starts[i]) is None, line.get(starts[run[0]]) is None
                if free and was_free and _joinable(spans, y, starts[run[0]], ends[i]):
                    run.append(i)
                else:
                    runs.append([i])
            divide_at = [ends[run[-1]] - render_x for run in runs]
            for run, piece in zip(runs, strip.divide(divide_at)):
                if line.get(starts[run[0]]) is not None:
                    continue  # a widget above has it
                line[starts[run[0]]] = piece
                for i in run[1:]:
                    line[starts[i]] = _EMPTY
    return chops


def render_partial_update(self: Compositor) -> ChopsUpdate | None:
    """Textual's ``Compositor.render_partial_update`` (8.2), pieces joined inside a span
    and each piece's end where its strip ends."""
    screen_region = self.size.region
    update_regions = self._dirty_regions.copy()
    self._dirty_regions.clear()
    if not update_regions:
        return None
    crop = Region.from_union(list(update_regions)).intersection(screen_region)
    spans = list(self._regions_to_spans(update_regions))
    by_line: dict[int, list[tuple[int, int]]] = {}
    for y, x1, x2 in spans:
        by_line.setdefault(y, []).append((x1, x2))
    chops = render_chops(self, crop, by_line.__contains__, by_line)
    chop_ends = [[x + strip.cell_length if strip is not None else end
                  for (x, strip), end in zip(line.items(), cut_set[1:])]
                 for line, cut_set in zip(chops, self.cuts)]
    return ChopsUpdate(chops, spans, chop_ends)


#: The Textual whose compositor these two are copies of: another one is left as it is (its
#: private methods may have changed), and the wide-text test says the fault is back.
TEXTUAL_SERIES = "8.2."


def keep_wide_characters_whole() -> None:
    """Put these in Textual's compositor (once; the app does it as it is imported), where
    Textual is the series they were written against."""
    if not textual.__version__.startswith(TEXTUAL_SERIES):
        return
    Compositor._render_chops = render_chops  # type: ignore[method-assign,assignment]
    Compositor.render_partial_update = render_partial_update  # type: ignore[method-assign]
