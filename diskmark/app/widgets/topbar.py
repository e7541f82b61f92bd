"""CrystalDiskMark's top row: All, count, size, target and unit, plus the target's facts.

The selectors post ordinary ``Select.Changed`` / ``Button.Pressed`` messages; the app owns the
settings and decides what a change means (and refuses changes while a run is under way).
"""

from __future__ import annotations

import os

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Button, Select, Static

from diskmark.app.core.keymap import DEFAULT, Keymap
from diskmark.locale import _
from diskmark.locale.text_safety import shown
from diskmark.model.facts import SystemFacts
from diskmark.model.settings import COUNT_MAX, COUNT_MIN
from diskmark.model.units import SIZES, Unit, format_bytes, format_size
from diskmark.presets.words import said_name
from diskmark.report.cells import char_cells, parts_that_fit
from diskmark.report.formatting import disk_kind

UNIT_OPTIONS = [(unit.label, unit) for unit in Unit]


def shorten_path(path: str, width: int) -> str:
    """Fit a path into ``width`` terminal cells keeping its end, which is the part that
    tells directories apart: ``…/mnt/usb/bench``. Measured in cells: a Japanese or Chinese
    name takes two a character, and a path measured in characters overflowed its button,
    which then showed a piece from its middle."""
    home = os.path.expanduser("~")
    if home not in ("/", "") and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home):]
    if cell_len(path) <= width:
        return path
    if width <= 1:
        return "…"[:max(width, 0)]
    tail, room = "", width - 1
    for ch in reversed(path):
        if cell_len(ch + tail) > room:
            break
        tail = ch + tail
    return "…" + tail


class TargetButton(Button):
    """Shows the target directory (and how many more are measured beside it); pressing it
    opens the target picker."""

    def __init__(self, path: str, *, keys: Keymap = DEFAULT, id: str | None = None) -> None:
        super().__init__("", id=id, classes="target-button")
        self.path = path
        self.others: list[str] = []
        # TRANSLATORS: {key} is the key that opens the target picker (t)
        self.tooltip = _("Choose the directory to test in ({key})").format(
            key=keys.key("pick_target"))

    def on_mount(self) -> None:
        self._relabel()

    def on_resize(self) -> None:
        self._relabel()

    def set_path(self, path: str, others: list[str] | None = None) -> None:
        self.path, self.others = path, list(others or [])
        self._relabel()

    def _relabel(self) -> None:
        # the path, then " ▼" (2 cells), inside the button's line padding (1 cell a side):
        # a label one cell too long wrapped, and the button showed its first line alone
        room = max(self.content_size.width - 4, 1) if self.content_size.width else 40
        # TRANSLATORS: after the target's path on its button: how many more targets are
        # measured beside it (a few cells)
        more = " " + _("+{count}").format(count=len(self.others)) if self.others else ""
        path = shorten_path(shown(self.path, one_line=True), max(room - cell_len(more), 1))
        self.label = Content(f"{path}{more} ▼")


def one_line(text: str) -> str:
    """A translation's lines as one: joined by a space, or by nothing between two wide
    characters (Japanese and Chinese are written without spaces)."""
    out = ""
    for line in (line.strip() for line in text.splitlines()):
        if out and line and not (char_cells(out[-1]) == char_cells(line[0]) == 2):
            out += " "
        out += line
    return out


class FixedUnits(Static):
    """Stands where the unit selector stands when the profile fixes each row's unit (Peak,
    Real World), so the top row keeps its shape and says why there is no choice: one line
    on the buttons' line, however the translator broke it."""

    def __init__(self, *, id: str | None = None) -> None:
        # TRANSLATORS: two short lines where the unit selector stands (about 9 cells wide)
        super().__init__(one_line(_("units\nper row")), id=id, markup=False)
        # TRANSLATORS: {peak} and {real_world} are the two profiles' names, as translated
        self.tooltip = _("{peak} and {real_world} show each row in its own unit (MB/s, IOPS, "
                         "µs)").format(peak=said_name("Peak Performance"),
                                       real_world=said_name("Real World Performance"))


class TopBar(Horizontal):
    """All | count | size | target | unit — the order and meaning of CDM's first row."""

    def __init__(self, *, count: int, size: int, target: str, unit: Unit,
                 keys: Keymap = DEFAULT, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count, self.size_bytes, self.target, self.unit = count, size, target, unit
        self.keys = keys  # the tooltips name the user's keys

    def compose(self) -> ComposeResult:
        # TRANSLATORS: CrystalDiskMark's button that runs every test (a few cells wide)
        all_button = Button(_("All"), id="all", classes="all-button")
        # TRANSLATORS: {key} is the key that runs every test (a)
        all_button.tooltip = _("Run every test of the profile ({key})").format(
            key=self.keys.key("run_all"))
        yield all_button
        count = Select([(str(n), n) for n in range(COUNT_MIN, COUNT_MAX + 1)],
                       value=self.count, allow_blank=False, id="count")
        count.tooltip = _("Measured passes per test; the best one is kept")
        yield count
        size = Select([(format_size(s), s) for s in SIZES], value=self.size_bytes,
                      allow_blank=False, id="size")
        size.tooltip = _("Size of the test file")
        yield size
        yield TargetButton(self.target, keys=self.keys, id="target")
        unit = Select(UNIT_OPTIONS, value=self.unit, allow_blank=False, id="unit")
        mb_s, gb_s, iops, us, cycle = (self.keys.key(i) for i in (
            "unit_mb_s", "unit_gb_s", "unit_iops", "unit_us", "cycle_unit"))
        # TRANSLATORS: {mb_s}, {gb_s}, {iops}, {us} and {cycle} are keys (1, 2, 3, 4, u)
        unit.tooltip = _("Unit of the tiles: {mb_s} MB/s, {gb_s} GB/s, {iops} IOPS, {us} µs; "
                         "{cycle} cycles through them").format(
            mb_s=mb_s, gb_s=gb_s, iops=iops, us=us, cycle=cycle)
        yield unit
        yield FixedUnits(id="unit-fixed")


def describe_facts(facts: SystemFacts | None, error: str | None = None,
                   compact: bool = False, width: int = 0) -> Text:
    """``/dev/nvme0n1 · ext4 · 812.3 GiB free of 931.5 GiB (13% used) · SSD · Samsung SSD
    980``; ``compact`` (narrow terminals) keeps the free space alone, so the device, the
    filesystem and the kind of disk fit; ``width`` (cells, when known): the parts that fit,
    whole, and an ellipsis for those left out, never a part cut in the middle ("· S…" said
    nothing of the model "Samsung SSD 980"), in the compact form where the long one does
    not fit whole."""
    if width > 0 and not compact and cell_len(describe_facts(facts, error).plain) > width:
        return describe_facts(facts, error, True, width)  # the short free space, and more fits
    text = Text(no_wrap=True, overflow="ellipsis")
    if error:
        text.append(shown(error), style="italic")
        return text
    if facts is None:
        text.append(_("Looking at the target…"), style="italic")
        return text
    # Most telling first: the line is cut from the right on narrow terminals.
    parts: list[tuple[str, str]] = []
    if facts.device:
        parts.append((facts.device, "bold"))
    if facts.fstype:
        parts.append((facts.fstype, ""))
    if facts.target_kind == "device":  # the device itself: its size, and what runs on it
        # TRANSLATORS: {size} is the device's size (931.5 GiB)
        parts.append((_("device of {size} · read tests only").format(
            size=format_bytes(facts.total_bytes)), "bold"))
    elif facts.total_bytes and compact:
        # TRANSLATORS: {free} is an amount of free space (812.3 GiB)
        parts.append((_("{free} free").format(free=format_bytes(facts.free_bytes)), ""))
    elif facts.total_bytes:
        used = 100 * (1 - facts.free_bytes / facts.total_bytes)
        # TRANSLATORS: {free} and {total} are amounts (812.3 GiB); {used} a percentage
        parts.append((_("{free} free of {total} ({used}% used)").format(
            free=format_bytes(facts.free_bytes), total=format_bytes(facts.total_bytes),
            used=f"{used:.0f}"), ""))
    elif facts.fstype:
        parts.append((_("reports no free space"), "italic"))
    kind = disk_kind(facts.rotational, facts.virtual)
    if kind:
        parts.append((kind, ""))
    if facts.model:
        parts.append((facts.model, ""))
    shown_parts = [(shown(part, one_line=True), style) for part, style in parts]
    kept = (parts_that_fit([part for part, _style in shown_parts], width) if width > 0
            else len(shown_parts))
    for i, (part, style) in enumerate(shown_parts[:kept]):
        if i:
            text.append(" · ", style="dim")
        text.append(part, style=style)
    if kept < len(shown_parts):
        text.append(" …", style="dim")  # the parts that fit, whole, and "…" for the rest
    return text



class FactsLine(Horizontal):
    """Under the top bar: what the target is (left) and how the run is set up (right),
    each in a shorter form below 100 columns."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._facts: tuple[SystemFacts | None, str | None] = (None, None)
        self._setup = ("", "")

    def compose(self) -> ComposeResult:
        yield Static(describe_facts(None), id="facts")
        yield Static("", id="setup", markup=False)

    @property
    def compact(self) -> bool:
        return (self.size.width or self.app.size.width) < 100

    def show_facts(self, facts: SystemFacts | None, error: str | None = None) -> None:
        self._facts = (facts, error)
        shown_in = self.query_one("#facts", Static)
        shown_in.update(describe_facts(facts, error, self.compact, shown_in.size.width))

    def show_setup(self, text: str, compact: str | None = None) -> None:
        self._setup = (text, compact or text)
        self.query_one("#setup", Static).update(shown(self._setup[self.compact], one_line=True))
        # the facts take the room the set-up leaves: drawn again to it once it is laid out
        self.call_after_refresh(lambda: self.show_facts(*self._facts))

    def on_resize(self) -> None:
        self.show_facts(*self._facts)
        self.show_setup(*self._setup)

    async def on_click(self) -> None:
        """Behind the facts: the storage stack under the target, and what it does."""
        await self.app.run_action("why")
