"""CrystalDiskMark's top row: All, count, size, target and unit, plus the target's facts.

The selectors post ordinary ``Select.Changed`` / ``Button.Pressed`` messages; the app owns the
settings and decides what a change means (and refuses changes while a run is under way).
"""

from __future__ import annotations

import os

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Button, Select, Static

from diskmark.app.keymap import DEFAULT, Keymap
from diskmark.files.text_safety import shown
from diskmark.model.facts import SystemFacts
from diskmark.model.settings import COUNT_MAX, COUNT_MIN
from diskmark.model.units import SIZES, Unit, format_bytes, format_size
from diskmark.report.formatting import disk_kind

UNIT_OPTIONS = [(unit.label, unit) for unit in Unit]


def shorten_path(path: str, width: int) -> str:
    """Fit a path into ``width`` cells keeping its end, which is the part that tells
    directories apart: ``…/mnt/usb/bench``."""
    home = os.path.expanduser("~")
    if home not in ("/", "") and (path == home or path.startswith(home + "/")):
        path = "~" + path[len(home):]
    if len(path) <= width:
        return path
    if width <= 1:
        return "…"[:width]
    return "…" + path[-(width - 1):]


class TargetButton(Button):
    """Shows the target directory; pressing it opens the target picker."""

    def __init__(self, path: str, *, keys: Keymap = DEFAULT, id: str | None = None) -> None:
        super().__init__("", id=id, classes="target-button")
        self.path = path
        self.tooltip = f"Choose the directory to test in ({keys.key('pick_target')})"

    def on_mount(self) -> None:
        self._relabel()

    def on_resize(self) -> None:
        self._relabel()

    def set_path(self, path: str) -> None:
        self.path = path
        self._relabel()

    def _relabel(self) -> None:
        room = max(self.content_size.width - 2, 8) if self.content_size.width else 40
        self.label = Content(f"{shorten_path(shown(self.path, one_line=True), room)} ▼")


class FixedUnits(Static):
    """Stands where the unit selector stands when the profile fixes each row's unit (Peak,
    Real World), so the top row keeps its shape and says why there is no choice."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("units\nper row", id=id)
        self.tooltip = "Peak and Real World show each row in its own unit (MB/s, IOPS, μs)"


class TopBar(Horizontal):
    """All | count | size | target | unit — the order and meaning of CDM's first row."""

    def __init__(self, *, count: int, size: int, target: str, unit: Unit,
                 keys: Keymap = DEFAULT, id: str | None = None) -> None:
        super().__init__(id=id)
        self.count, self.size_bytes, self.target, self.unit = count, size, target, unit
        self.keys = keys  # the tooltips name the user's keys

    def compose(self) -> ComposeResult:
        all_button = Button("All", id="all", classes="all-button")
        all_button.tooltip = f"Run every test of the profile ({self.keys.key('run_all')})"
        yield all_button
        count = Select([(str(n), n) for n in range(COUNT_MIN, COUNT_MAX + 1)],
                       value=self.count, allow_blank=False, id="count")
        count.tooltip = "Measured passes per test; the best one is kept"
        yield count
        size = Select([(format_size(s), s) for s in SIZES], value=self.size_bytes,
                      allow_blank=False, id="size")
        size.tooltip = "Size of the test file"
        yield size
        yield TargetButton(self.target, keys=self.keys, id="target")
        unit = Select(UNIT_OPTIONS, value=self.unit, allow_blank=False, id="unit")
        mb_s, gb_s, iops, us, cycle = (self.keys.key(i) for i in (
            "unit_mb_s", "unit_gb_s", "unit_iops", "unit_us", "cycle_unit"))
        unit.tooltip = (f"Unit of the tiles: {mb_s} MB/s, {gb_s} GB/s, {iops} IOPS, {us} μs; "
                        f"{cycle} cycles through them")
        yield unit
        yield FixedUnits(id="unit-fixed")


def describe_facts(facts: SystemFacts | None, error: str | None = None,
                   compact: bool = False) -> Text:
    """``/dev/nvme0n1 · ext4 · 812.3 GiB free of 931.5 GiB (13% used) · SSD · Samsung SSD
    980``; ``compact`` (narrow terminals) keeps the free space alone, so the device, the
    filesystem and the kind of disk fit."""
    text = Text(no_wrap=True, overflow="ellipsis")
    if error:
        text.append(shown(error), style="italic")
        return text
    if facts is None:
        text.append("Looking at the target…", style="italic")
        return text
    # Most telling first: the line is cut from the right on narrow terminals.
    parts: list[tuple[str, str]] = []
    if facts.device:
        parts.append((facts.device, "bold"))
    if facts.fstype:
        parts.append((facts.fstype, ""))
    if facts.target_kind == "device":  # the device itself: its size, and what runs on it
        parts.append((f"device of {format_bytes(facts.total_bytes)} · read tests only",
                      "bold"))
    elif facts.total_bytes and compact:
        parts.append((f"{format_bytes(facts.free_bytes)} free", ""))
    elif facts.total_bytes:
        used = 100 * (1 - facts.free_bytes / facts.total_bytes)
        parts.append((f"{format_bytes(facts.free_bytes)} free of "
                      f"{format_bytes(facts.total_bytes)} ({used:.0f}% used)", ""))
    elif facts.fstype:
        parts.append(("reports no free space", "italic"))
    kind = disk_kind(facts.rotational, facts.virtual)
    if kind:
        parts.append((kind, ""))
    if facts.model:
        parts.append((facts.model, ""))
    for i, (part, style) in enumerate(parts):
        if i:
            text.append(" · ", style="dim")
        text.append(shown(part, one_line=True), style=style)
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
        self.query_one("#facts", Static).update(describe_facts(facts, error, self.compact))

    def show_setup(self, text: str, compact: str | None = None) -> None:
        self._setup = (text, compact or text)
        self.query_one("#setup", Static).update(shown(self._setup[self.compact], one_line=True))

    def on_resize(self) -> None:
        self.show_facts(*self._facts)
        self.show_setup(*self._setup)
