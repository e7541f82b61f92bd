"""Every screen, dialog and the palette at 80×24, in every language diskmark ships and in the
pseudo language, read as the terminal draws them: no English word of diskmark's or
Textual's left, no label cut in the middle of a word, nothing drawn outside its box.

One app session per language walks the window (idle, running, after a run), each tile's
details, the settings, the Queues & Threads editor, the help, the baselines and the history
with their dialogs, the comparison, the trend, the target picker, the checks, the storage
stack, the sweep, several targets side by side, the fleet, an error, and the palette (open,
and with a search that matches nothing). For each, every widget on the screen is drawn as
the compositor draws it (``render_lines`` over its whole region, so what a scroll hides is
read too), and:

- the pseudo language brackets every text it translates (``⟦…⟧``): a word left outside the
  brackets, that is not a figure, a unit, a test's name, a key, a path or a value the test
  put in (a model, a baseline's name), was never marked for translation;
- a real language's window holds no English word of the catalog's: the words of the English
  messages that no translation of that language uses (so "Test" is German too, "Read" is not);
- a text widget draws its whole text (what it was given, less its spaces, is what is drawn,
  less its spaces); an ellipsis follows a whole word (``Speich…`` is a cut, unless a
  translation itself ends so); a Rich table's words are whole; a table's columns fit their
  headers and cells, and the table its box; a footer's key shows its whole short word;
- every widget lies inside what holds it (its clip), but where a container scrolls that way,
  and every widget of a dialog inside the dialog's box.
"""

from __future__ import annotations

import asyncio
import gettext
import io
import re
import time
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from fakes import FACTS, USB_FACTS, FakeEngine, facts, hot_drive
from rich.cells import cell_len
from rich.console import Console
from textual.content import Content
from textual.geometry import Region
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, DataTable, Select, Static
from textual.widgets._footer import FooterKey

from diskmark import locale
from diskmark.app.app import DiskmarkApp
from diskmark.drive import probe as system
from diskmark.drive import reasons
from diskmark.drive.mounts import MountInfo
from diskmark.locale import LANGUAGES, set_language
from diskmark.model.drive_record import DriveRecord
from diskmark.model.settings import Op, Settings
from diskmark.model.units import GIB, MIB

SIZE = (80, 24)
LOCALE_DIR = Path(locale.__file__).resolve().parent
STACK = Path(__file__).resolve().parents[1] / "fixtures" / "stack" / "lvm-over-loops"

#: Values the walk puts in, drawn as they are in every language (a model, a baseline's name,
#: a mount): their words are data, not diskmark's.
BASELINES = (("NVMe 980", "fw 4B2QGXA7"), ("SATA 860", ""))


def mounts() -> list[MountInfo]:
    """The mounts the picker lists, as diskmark.drive.probe makes them (its words in the
    language in use)."""
    from diskmark.locale import _

    return [
        MountInfo("/", "/dev/nvme0n1p2", "ext4", "rw,relatime", 931 * GIB, 814 * GIB,
                  "Samsung SSD 980 PRO 1TB", False),
        MountInfo("/dev/shm", "tmpfs", "tmpfs", "rw,nosuid,nodev", 16 * GIB, 16 * GIB),
        MountInfo("/mnt/usb", "/dev/sdb1", "exfat", "rw", 64 * GIB, 12 * GIB, "SanDisk Ultra",
                  True),
        MountInfo("/snap/core/1", "/dev/loop0", "squashfs", "ro", 64 * MIB, 0,
                  readonly=True, usable=False, reason=_("read-only")),
    ]


def devices() -> list[MountInfo]:
    """The block devices the picker lists, as diskmark.drive.probe makes them."""
    from diskmark.locale import _

    return [
        MountInfo("/dev/nvme0n1", "disk", "", "", 1000 * GIB, 0, "Samsung SSD 980 PRO 1TB",
                  False, block_device=True),
        MountInfo("/dev/sdb1", "partition", "", "", 64 * GIB, 0, "SanDisk Ultra", True,
                  block_device=True, reason=_("mounted at {mountpoint}").format(
                      mountpoint="/mnt/usb")),
    ]


def check_names() -> list[str]:
    """The checks' names: the classes' own, as the SD Association publishes them, in every
    language (diskmark/checks/words.py)."""
    from diskmark.checks import load_catalog
    from diskmark.report.verdicts import ordered

    return [c.name for c in ordered(load_catalog())]


DATA = sorted({
    FACTS.model, FACTS.os, FACTS.kernel, USB_FACTS.model, "nvme Composite", "smartctl 7.4",
    "fio-3.33", "KINGSTON SKC1000240G", *(n for pair in BASELINES for n in pair if n),
    *(m.model for m in mounts() if m.model), *(m.fstype for m in mounts()),
    *(m.device for m in mounts()), "squashfs", "virtio", "bench", "scratch",
    "qqqzzz",  # typed in the palette
    *check_names(),
    # the languages' names in themselves, in the settings' list of languages
    *LANGUAGES.values(),
}, key=len, reverse=True)

#: Words diskmark draws as they are in every language, on purpose (docs/translating.md:
#: "What stays English"), with why.
ALLOWED = {
    "mb": "a unit (MB/s)", "gb": "a unit (GB/s)", "iops": "a unit", "gib": "a unit (GiB)",
    "mib": "a unit (MiB)", "kib": "a unit (KiB)",
    "seq": "CrystalDiskMark's test names (SEQ1M Q8T1)", "rnd": "CrystalDiskMark's test names",
    "cpu": "the mark on a tile whose figure the CPU set, which stays as it is (run_words.py)",
    "avg": "R/Avg, the passes' spread as snow_mountain's fio article names it, like a unit",
    "sync": "fio's latency of its syncs, a check's figure (sync p99), as fio names it",
    "clat": "fio's completion latency, a check's figure (clat p99), as fio names it",
    "mix": "+Mix, CrystalDiskMark's name of its mixed tests, which its translations keep",
    "btrfs": "a file system's name, the settings' label of its copy-on-write choice",
    "ssd": "a drive's kind in the facts line (SSD, HDD), as every language writes it",
    "hdd": "a drive's kind in the facts line",
}
#: Keys as the footer, the help and the hints name them.
KEY_NAMES = {"esc", "ctrl", "shift", "tab", "enter", "space", "backspace", "del", "delete",
             "home", "end", "pgup", "pgdn", "pageup", "pagedown", "up", "down", "left", "right",
             "alt", "f1", "f2"}
#: Widgets (by id or class) whose text is English in every language by design.
ENGLISH_BY_DESIGN = {
    "report": "CrystalDiskMark's text export, written in English in every language so that "
              "tools can read it (docs/translating.md)",
    "command": "fio's command line: its options are fio's",
}

LETTERS = re.compile(r"[^\W\d_]+")
PATH = re.compile(r"(?<![\w⟦])(?:[~.]|…\S*)?/[^\s⟦⟧,;()]*|\b[\w.-]+\.(?:txt|json|csv|html|png|svg|tmp)\b")
IDENTIFIER = re.compile(r"[\w-]*\d[\w-]*|\w+_\w+|\w+=\S*")  # and fio's options
BOX = re.compile(r"[\u2500-\u259f\u25a0-\u25ff▔▁▏▕▊▎█▌▐]")


# --- the catalogs ----------------------------------------------------------------------------

def _catalog(lang: str) -> dict[object, str]:
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / "diskmark.mo"
    with mo.open("rb") as f:
        return dict(gettext.GNUTranslations(f)._catalog)  # type: ignore[attr-defined]


def _message_words(text: str) -> set[str]:
    text = re.sub(r"\{[^{}]*\}|%\([^)]*\)[a-z]|\[[^\]]*\]|`[^`]*`|--[\w-]+", " ", text)
    return {w.lower() for w in LETTERS.findall(text)}


@cache
def english(lang: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The language's words as its catalog has them: the English messages' words no
    translation of it uses (the words a window in it must not show), every word its
    translations use, and the words its translations end with an ellipsis."""
    catalog = _catalog(lang)
    ids, strs, ellipsized = set(), set(), set()
    for key, value in catalog.items():
        msgid = key[0] if isinstance(key, tuple) else key
        if not msgid:
            continue
        ids |= _message_words(msgid.split("\x04")[-1])
        strs |= {w.lower() for w in LETTERS.findall(value)}
        ellipsized |= {m.lower() for m in re.findall(r"([^\W\d_]+)…", value)}
    ids |= {w for text in _textual_words() for w in _message_words(text)}
    return frozenset(ids - strs - set(ALLOWED)), frozenset(strs), frozenset(ellipsized)


@cache
def _textual_words() -> tuple[str, ...]:
    from diskmark.app.palette import TEXTUAL_WORDS
    from diskmark.app.widgets.footer import TEXTUAL_WORDS as FOOTER

    return (*TEXTUAL_WORDS, *FOOTER)


@cache
def source_words() -> tuple[frozenset[str], frozenset[str]]:
    """English as the code writes it: every word of a message, and those it ellipsizes (the
    messages as any catalog holds them)."""
    catalog = _catalog("de")
    words, ellipsized = set(), set()
    for key in catalog:
        msgid = (key[0] if isinstance(key, tuple) else key).split("\x04")[-1]
        words |= {w.lower() for w in LETTERS.findall(msgid)}
        ellipsized |= {m.lower() for m in re.findall(r"([^\W\d_]+)…", msgid)}
    return frozenset(words), frozenset(ellipsized)


@cache
def prefixes(words: frozenset[str]) -> frozenset[str]:
    return frozenset(w[:i] for w in words for i in range(1, len(w)))


# --- what is drawn ---------------------------------------------------------------------------

@dataclass
class Drawn:
    """One widget as the terminal shows it."""

    widget: Widget
    region: Region
    clip: Region
    lines: list[str]  # its whole region, border included
    content: list[str]  # its content region only

    @property
    def name(self) -> str:
        w = self.widget
        return f"{type(w).__name__}#{w.id}" if w.id else (
            f"{type(w).__name__}.{'.'.join(sorted(w.classes))}" if w.classes else type(w).__name__)


def drawn(app: DiskmarkApp) -> list[Drawn]:
    """Every widget of the screen on top, drawn over its whole region as the compositor
    draws it (a widget a scroll has moved out of sight included)."""
    out = []
    for widget, geometry in list(app.screen._compositor.full_map.items()):
        region = geometry.region
        if not region.area or not widget.display or not widget.visible or isinstance(
                widget, Screen):
            continue  # a screen draws nothing of its own: its widgets are read
        strips = widget.render_lines(Region(0, 0, region.width, region.height))
        gutter = widget.styles.gutter
        bars = widget.scrollbar_gutter
        right = region.width - gutter.right - bars.right
        top, bottom = gutter.top, region.height - gutter.bottom - bars.bottom
        out.append(Drawn(widget, region, geometry.clip, [s.text for s in strips],
                         [s.crop(gutter.left, right).text for s in strips[top:bottom]]))
    return out


def full_text(widget: Widget) -> str | None:
    """The text a text widget (a Static, a Label, a Button, a footer's key) was given; None
    for a widget that draws something else (a tile's figure, a chart, a table)."""
    if isinstance(widget, FooterKey):
        return f"{widget.key_display} {widget.description}"
    if not isinstance(widget, (Static, Button)):
        return None
    shown = widget.render()
    if isinstance(shown, Content):
        return shown.plain
    if isinstance(shown, str):
        return shown
    plain = getattr(shown, "plain", None)
    return plain if isinstance(plain, str) else None


def rich_renderable(widget: Widget) -> object | None:
    """The Rich renderable (a table) a Static shows, if that is what it shows."""
    try:
        shown = widget.render()
    except Exception:  # noqa: BLE001
        return None
    inner = getattr(shown, "_renderable", None)  # textual.visual.RichVisual
    return inner if inner is not None and not isinstance(inner, str) else None


def folds(lines: list[str], text: str) -> str | None:
    """A word of ``text`` broken across two of its drawn ``lines`` ("Schließ" / "en", where
    it was longer than its box), if one is: a line may break inside a run of Japanese or
    Chinese characters, never inside a word of letters."""
    words = set(LETTERS.findall(text))
    # the words of letters only: a path or a name with figures may break anywhere
    whole = [w for w in (w.strip(".,;:!?()[]{}«»“”„\"'…") for w in text.split())
             if LETTERS.fullmatch(w)]
    for upper, lower in zip(lines, lines[1:]):
        end = re.search(r"([^\W\d_]+)$", upper.rstrip())
        start = re.match(r"[^\W\d_]+", lower.lstrip())
        if not end or not start or wide(end.group(1)[-1]) or wide(start.group(0)[0]):
            continue
        head, tail = end.group(1), start.group(0)
        if (head not in words or tail not in words) and any(head + tail in w for w in whole):
            return f"{head} / {tail}"
    return None


def widest(text: str) -> int:
    """The cells of ``text``'s widest line (a heading may be set in two)."""
    return max(cell_len(line) for line in text.split("\n"))


def wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


def shortened(shown: list[str], meant: list[str]) -> bool:
    """Whether the words drawn are the text's first words, whole, then an ellipsis: a line
    that ends where a word ends ("814.0 GiB free · …"), never inside one ("· S…")."""
    if not shown or not shown[-1].endswith("…"):
        return False
    last = shown[-1][:-1]
    whole = shown[:-1] + ([last] if last else [])
    return len(whole) < len(meant) and meant[:len(whole)] == whole


def unbracketed(text: str) -> str:
    """Pseudo text without its bracketed parts, innermost first; a bracket a cut or a line's
    end left open is closed at the line's end (a cut is not this check's)."""
    before = None
    while before != text:
        before = text
        text = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
    text = re.sub(r"⟦[^\n]*", " ", text)
    return re.sub(r"[^\n]*⟧", " ", text)


def _seen(value: str) -> list[str]:
    """How ``value`` may be drawn: whole, broken at a space, or its first words then "…"
    (a model in a narrow column: "Samsung SSD …")."""
    words = [re.escape(w) for w in value.split()]
    return [r"\s+".join(words), *(r"\s+".join(words[:n]) + r"\s*…" for n in
                                   range(len(words) - 1, 0, -1))]


#: The values the walk put in, as they may be drawn.
DATA_SEEN = re.compile("|".join(seen for value in DATA for seen in _seen(value)))


def without_data(text: str) -> str:
    """``text`` less the values the walk put in, paths and names with figures in them (a
    run's id, ``nvme0n1p2``, ``SEQ1M``): what is left is words."""
    return IDENTIFIER.sub(" ", PATH.sub(" ", DATA_SEEN.sub(" ", text)))


def ascii_words(text: str) -> list[str]:
    return [w for w in LETTERS.findall(text) if w.isascii()]


# --- the checks ------------------------------------------------------------------------------

@dataclass
class Walk:
    lang: str
    app: DiskmarkApp
    found: list[str] = field(default_factory=list)
    looked: list[str] = field(default_factory=list)

    def fault(self, where: str, what: Drawn | None, message: str) -> None:
        name = what.name if what else ""
        self.found.append(f"[{self.lang}] {where}: {name}: {message}")

    def look(self, where: str) -> None:
        """Check what the screen on top draws now."""
        self.looked.append(where)
        widgets = drawn(self.app)
        for d in widgets:
            if d.widget.id in ENGLISH_BY_DESIGN or d.widget.classes & ENGLISH_BY_DESIGN.keys():
                continue
            text = "\n".join(d.lines)
            extra = []
            if isinstance(d.widget, Select):  # its list, as it draws when opened
                extra = [str(prompt) for prompt, _value in d.widget._options]
            if d.widget.tooltip is not None:  # as it draws under the mouse
                extra.append(str(d.widget.tooltip))
            if self.lang == locale.PSEUDO:
                self.bracketed(where, d, [text, *extra])
            elif self.lang != locale.SOURCE:
                self.translated(where, d, [text, *extra])
            if self.lang != locale.PSEUDO:  # its words are made 40% longer than any
                self.whole(where, d)
                self.inside(where, d)
        if self.lang != locale.PSEUDO:
            self.in_the_dialog(where, widgets)

    def bracketed(self, where: str, d: Drawn, texts: Iterable[str]) -> None:
        for text in texts:
            rest = without_data(unbracketed(text))
            left = [w for w in ascii_words(rest) if len(w) > 1 and w.lower() not in ALLOWED
                    and w.lower() not in KEY_NAMES]
            if left:
                self.fault(where, d, f"not translated: {left} in {text.strip()[:160]!r}")

    def translated(self, where: str, d: Drawn, texts: Iterable[str]) -> None:
        foreign, _words, _ellipsized = english(self.lang)
        for text in texts:
            rest = without_data(text)
            left = [w for w in ascii_words(rest) if len(w) > 1 and w.lower() in foreign
                    and w.lower() not in KEY_NAMES]
            if left:
                self.fault(where, d, f"English: {left} in {text.strip()[:160]!r}")

    def whole(self, where: str, d: Drawn) -> None:
        """Nothing cut: an ellipsis after a whole word; a text widget's whole text drawn; a
        Rich table in its width; a table's columns as wide as their words."""
        if self.lang == locale.SOURCE:
            words, ellipsized = source_words()
        else:
            _foreign, words, ellipsized = english(self.lang)
        cut_words = prefixes(words)
        for line in d.lines:
            for m in re.finditer(r"([^\W\d_]+)…", line):
                word = m.group(1).lower()
                if word in cut_words and word not in words and word not in ellipsized:
                    self.fault(where, d, f"a word cut: {m.group(0)!r} in {line.strip()!r}")
        widget = d.widget
        text = full_text(widget)
        if text is not None:
            shown = BOX.sub("", " ".join(d.content)).split()
            meant = BOX.sub("", text).split()
            if "".join(shown) != "".join(meant) and not shortened(shown, meant):
                self.fault(where, d, f"cut: {text.strip()!r} is drawn {' '.join(shown)!r}")
            elif folded := folds(d.content, text):
                self.fault(where, d, f"a word broken across lines: {folded!r}")
        table = rich_renderable(widget)
        if table is not None:  # a Rich table's words, whole (Rich ellipsizes or folds them)
            console = Console(width=400, file=io.StringIO(), record=True)
            console.print(table)
            whole = set(LETTERS.findall(console.export_text()))
            cut = [t for line in d.content for t in LETTERS.findall(line)
                   if t not in whole and not any(wide(c) for c in t)]
            if cut:
                self.fault(where, d, f"a table's words cut: {cut}")
        if isinstance(widget, DataTable):
            self.columns(where, d, widget)

    def columns(self, where: str, d: Drawn, table: DataTable) -> None:
        total = 0
        for column in table.ordered_columns:
            width = column.get_render_width(table) - 2 * table.cell_padding
            total += column.get_render_width(table)
            if widest(column.label.plain) > width:
                self.fault(where, d, f"header {column.label.plain!r} in {width} cells")
            for row in range(min(table.row_count, 20)):
                cell = table.get_cell_at((row, table.get_column_index(column.key)))
                plain = cell.plain if hasattr(cell, "plain") else str(cell)
                if widest(plain) > width:
                    self.fault(where, d, f"cell {plain!r} in {width} cells")
        if total > table.scrollable_content_region.width:
            self.fault(where, d, f"columns {total} cells wide in {table.scrollable_content_region.width}")

    def inside(self, where: str, d: Drawn) -> None:
        """The widget inside what holds it, but where that scrolls."""
        region, clip = d.region, d.clip
        if region.x >= clip.x and region.right <= clip.right and region.y >= clip.y \
                and region.bottom <= clip.bottom:
            return
        across = region.x < clip.x or region.right > clip.right
        down = region.y < clip.y or region.bottom > clip.bottom
        scrolls_x = scrolls_y = False
        for node in d.widget.ancestors_with_self[1:]:
            if isinstance(node, Widget):
                scrolls_x |= node.styles.overflow_x in ("auto", "scroll")
                scrolls_y |= node.styles.overflow_y in ("auto", "scroll")
        if (across and not scrolls_x) or (down and not scrolls_y):
            self.fault(where, d, f"drawn outside its box: {region} in {clip}: "
                                 f"{' / '.join(x.strip() for x in d.lines if x.strip())[:120]!r}")

    def in_the_dialog(self, where: str, widgets: list[Drawn]) -> None:
        screen = self.app.screen
        boxes = list(screen.query(".dialog-box")) + list(screen.query(".details-box"))
        if not boxes:
            return
        box = boxes[0]
        if not screen.region.contains_region(box.region):
            self.fault(where, None, f"the dialog's box {box.region} is cut by the screen")
        for d in widgets:
            if box in d.widget.ancestors and d.region.area and not box.region.contains_region(
                    d.region.intersection(d.clip)):
                self.fault(where, d, f"outside the dialog's box {box.region}: {d.region}")


# --- the walk --------------------------------------------------------------------------------

def footers_drawn(app: DiskmarkApp) -> bool:
    from diskmark.app.widgets.footer import KeysFooter

    return all(f._shown == f._keys() for screen in app.screen_stack
               for f in screen.query(KeysFooter))


async def until(pilot, condition: Callable[[], object], what: str, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not (condition() and footers_drawn(pilot.app)):
        assert time.monotonic() < deadline, f"never happened: {what}"
        await pilot.pause(0.02)
    await pilot.pause()


async def opened(pilot, kind: str, also: Callable[[], object] = lambda: True) -> None:
    app = pilot.app
    await until(pilot, lambda: type(app.screen).__name__ == kind and also(), kind)


async def closed(pilot, kind: str) -> None:
    await pilot.press("escape")
    await until(pilot, lambda: type(pilot.app.screen).__name__ != kind, f"{kind} closed")


async def walk(w: Walk, pilot, engine: FakeEngine) -> None:
    from textual.command import CommandInput, CommandList

    from diskmark.engine.workspace import _no_direct

    app = w.app
    main = app.main
    await until(pilot, lambda: "nvme0n1p2" in str(app.query_one("#facts").render()), "facts")
    w.look("the window")

    await pilot.press("ctrl+p")
    await until(pilot, lambda: bool(app.screen.query(CommandInput)), "the palette")
    await until(pilot, lambda: app.screen.query_one(CommandList).option_count > 0, "its entries")
    w.look("the palette")
    await pilot.press(*"qqqzzz")
    await until(pilot, lambda: app.screen.query_one(CommandList).option_count == 1
                and app.screen.query_one(CommandList).get_option_at_index(0).id == "--no-matches",
                "no match said")
    w.look("the palette, no match")
    await closed(pilot, "Palette")

    engine.error = _no_direct(Path(app.state.settings.target), "ramfs")
    await pilot.press("a")
    await opened(pilot, "ErrorDialog")
    w.look("an error")
    await closed(pilot, "ErrorDialog")
    engine.error = None

    engine.block_at = 2
    await pilot.press("a")
    await until(pilot, lambda: any(t.live and t.live.mb_s for t in main.grid.tiles), "a figure")
    w.look("the window, running")
    engine.stop()
    await until(pilot, lambda: not app.state.running, "the run stopped")
    engine.block_at = None

    async def run() -> None:
        runs = len(app.state.history)
        await pilot.press("a")
        await until(pilot, lambda: len(app.state.history) > runs and not app.state.running,
                    "the run")

    async def details(row: int, op: Op) -> None:
        tile = next(t for t in main.grid.tiles if t.row == row and t.op is op)
        tile.focus()
        await pilot.press("enter")
        await opened(pilot, "DetailsScreen")
        w.look(f"the details of {tile.row}/{op.value}")
        await closed(pilot, "DetailsScreen")

    engine.drive = DriveRecord(device="/dev/vda", temperature_reason=reasons.VIRTUAL.format(
        kind="virtio"))
    await run()
    await details(0, Op.READ)
    engine.drive, engine.shaky_at = hot_drive(), 6
    await run()
    w.look("the window, after a run")
    for tile in list(main.grid.tiles):
        await details(tile.row, tile.op)

    await pilot.press("o")
    await opened(pilot, "SettingsScreen")
    w.look("the settings")
    await pilot.click("#queues-threads")
    await opened(pilot, "QueuesThreadsScreen")
    w.look("Queues & Threads")
    await closed(pilot, "QueuesThreadsScreen")
    await closed(pilot, "SettingsScreen")

    await pilot.press("question_mark")
    await opened(pilot, "HelpScreen")
    w.look("the help")
    await closed(pilot, "HelpScreen")

    await pilot.press("h")
    await opened(pilot, "HistoryScreen", lambda: app.screen.loaded)
    w.look("the history")
    for key, kind in (("f", "HistoryFilterDialog"), ("t", "TrendScreen"),
                      ("enter", "ResultReportScreen"), ("p", "BaselineNameDialog")):
        await pilot.press(key)
        await opened(pilot, kind)
        w.look(f"the history: {kind}")
        await closed(pilot, kind)
    await closed(pilot, "HistoryScreen")

    await pilot.press("x")
    await opened(pilot, "PickBaselineDialog")
    w.look("compare with")
    await pilot.press("enter")
    await until(pilot, lambda: app.state.baseline is not None, "the baseline chosen")
    w.look("the window, compared")
    await pilot.press("v")
    await opened(pilot, "ComparisonScreen")
    w.look("the comparison")
    await closed(pilot, "ComparisonScreen")

    await pilot.press("b")
    await opened(pilot, "BaselinesScreen", lambda: app.screen.loaded)
    w.look("the baselines")
    for key, kind in (("v", "ResultReportScreen"), ("r", "BaselineNameDialog"),
                      ("e", "SaveFileDialog"), ("i", "ImportFileDialog"),
                      ("d", "ConfirmDialog")):
        await pilot.press(key)
        await opened(pilot, kind)
        w.look(f"the baselines: {kind}")
        await closed(pilot, kind)
    await closed(pilot, "BaselinesScreen")

    for key, kind in (("B", "BaselineNameDialog"), ("s", "SaveFileDialog")):
        await pilot.press(key)
        await opened(pilot, kind)
        w.look(kind)
        await closed(pilot, kind)

    await pilot.press("t")
    await opened(pilot, "TargetPicker", lambda: app.screen.loaded)
    await pilot.pause(0.2)  # the tree reads its directory in a worker
    w.look("the target picker")
    await closed(pilot, "TargetPicker")

    app.action_checks()
    await opened(pilot, "ChecksScreen")
    w.look("the checks")
    await closed(pilot, "ChecksScreen")
    # the verdicts of every check, judged as a check run judges them, on the run's figures
    # (the fake engine runs no check's own fio job: etcd's cannot be told)
    from dataclasses import replace

    from diskmark.checks.judge import judge_all

    catalog = app.check_catalog()
    checked = replace(app.state.result, tests=list(app.state.result.tests))
    checked.checks = judge_all(list(catalog.checks.values()), catalog, checked)
    app.state.checks_session = checked
    app.action_checks()
    await opened(pilot, "ChecksScreen")
    w.look("the checks' verdicts")
    await closed(pilot, "ChecksScreen")

    app.action_why()
    await opened(pilot, "WhyScreen",
                 lambda: any("KINGSTON" in str(s.render()) for s in app.screen.query("#stack")))
    await pilot.press("d")
    await pilot.pause()
    w.look("the storage stack")
    await closed(pilot, "WhyScreen")

    await pilot.press("w")
    await opened(pilot, "SweepDialog")
    w.look("the sweep")
    await pilot.click("#run")
    await opened(pilot, "SweepScreen", lambda: app.state.sweep_session is not None
                 and not app.state.running)
    w.look("the sweep's curve")
    await closed(pilot, "SweepScreen")

    app.action_fleet()
    await opened(pilot, "FleetScreen")
    w.look("the fleet")
    await closed(pilot, "FleetScreen")

    app.change_settings(profile="peak")  # each row its own unit, the profile's name
    await run()
    w.look("the window, Peak")
    app.change_settings(profile="default")

    app.add_target("/mnt/usb")
    await pilot.press("a")
    await opened(pilot, "SidesScreen", lambda: not app.state.running
                 and app.state.sides is not None and app.state.sides.result is not None)
    w.look("the targets side by side")
    await closed(pilot, "SidesScreen")


@pytest.fixture
def machine(monkeypatch, tmp_path):
    """The mounts and devices the picker lists, the stack the why screen reads (a captured
    machine's, tests/fixtures/stack), two saved baselines, and the target's directory."""
    from diskmark.drive.mounts import parse_mountinfo
    from diskmark.drive.stack import resolve
    from diskmark.store.store import Store

    monkeypatch.setattr(system, "list_mounts", lambda include_pseudo=False: mounts())
    monkeypatch.setattr(system, "list_block_devices", devices)
    captured = resolve.System(sys_root=STACK / "sys", live=False, mounts=parse_mountinfo(
        (STACK / "proc" / "self" / "mountinfo").read_text()))
    real = resolve.stack_of
    monkeypatch.setattr(resolve, "stack_of",
                        lambda target, system=None: real("/home/test/bench", captured))
    # a path as long as a user's can be: what is said of it keeps its words
    target = tmp_path / "vol-2f9c1a7e-0b44-4c1e-9a63-51d2e8f0c3b7-spare2" / "bench"
    (target / "scratch").mkdir(parents=True)
    store = Store()
    for i, (name, note) in enumerate(BASELINES):
        session = asyncio.run(FakeEngine(started=f"2024-0{i + 3}-01T10:00:00+02:00").run(
            Settings(target="/mnt/data", size=512 * MIB, count=5)))
        store.save_baseline(session, name, note)
    return target


@pytest.mark.parametrize("lang", [locale.PSEUDO, *LANGUAGES])
async def test_every_screen_at_80x24_speaks_the_language_whole_and_in_its_box(lang, machine):
    await walk_all(lang, machine, SIZE)


#: The languages whose words run longest (German, Finnish, Hungarian), the pseudo-language
#: that lengthens every message, and the two-cell scripts, at the other size the README
#: shows: a layout that fits 80×24 can still cut or spill where there is more room.
LARGE = (120, 40)


@pytest.mark.parametrize("lang", [locale.PSEUDO, "de", "fi", "hu", "ja", "zh_CN"])
async def test_every_screen_at_120x40_speaks_the_language_whole_and_in_its_box(lang, machine):
    await walk_all(lang, machine, LARGE)


async def walk_all(lang: str, machine: Path, size: tuple[int, int]) -> None:
    start = time.monotonic()
    set_language(lang)
    try:
        engine = FakeEngine()
        app = DiskmarkApp(engine_factory=lambda: engine, facts_provider=facts, persist=False,
                          settings=Settings(target=str(machine), size=GIB, count=5))
        w = Walk(lang, app)
        async with app.run_test(size=size) as pilot:
            await walk(w, pilot, engine)
    finally:
        set_language("en")
    print(f"{lang} at {size[0]}×{size[1]}: {len(w.looked)} screens in "
          f"{time.monotonic() - start:.1f} s")
    assert len(w.looked) >= 35, w.looked
    assert not w.found, "\n".join(w.found)


async def test_the_walk_sees_english_a_cut_word_and_a_widget_outside_its_box():
    """What each check finds, on a window made to hold one fault of each kind: the walk
    above passing means something only because these are seen."""
    from rich.table import Table
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal
    from textual.widgets import Label

    class Faulty(App[None]):
        CSS = """
        #narrow { width: 12; height: 1; }
        #wide { width: 24; }
        #cut { width: 9; min-width: 9; }
        #lost { width: 12; height: 1; }
        #table { width: 20; }
        """

        def compose(self) -> ComposeResult:
            with Horizontal(id="narrow"):
                yield Label("Settings saved", id="wide")
            yield Button("Schließen", id="cut")
            yield Static("Ziel · Speich…", id="ellipsized")
            yield Label("Tiempo de medición", id="lost")
            table = Table("Durchgang", "Laufzeit", "fio-CPU", "alle CPUs")
            table.add_row("Durchgang 1", "5 s", "12 %", "40 %")
            yield Static(table, id="table")

    app = Faulty()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        german, pseudo = Walk("de", app), Walk(locale.PSEUDO, app)
        german.look("a made-up window")
        pseudo.look("a made-up window")
    found = "\n".join(german.found)
    assert "Label#wide: English: ['Settings', 'saved']" in found, found
    assert "Label#wide: drawn outside its box" in found, found
    assert "Button#cut: a word broken across lines: 'Schließ / en'" in found, found
    assert "Label#lost: cut: 'Tiempo de medición' is drawn 'Tiempo de'" in found, found
    assert "Static#table: a table's words cut: " in found, found
    assert "Static#ellipsized: a word cut: 'Speich…'" in found, found
    assert any("Label#wide: not translated: ['Settings', 'saved']" in f for f in pseudo.found), \
        pseudo.found
