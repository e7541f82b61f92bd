"""Every finished run, newest first, a page at a time: view one, compare it with this run or
with a baseline, promote it to a baseline, delete it, narrow the list to one device or target
(f), and see the trend of a test on the highlighted run's drive (t).

A page is read from the database's indexed columns (no result document is parsed), so the
screen opens as fast with thousands of runs as with ten; a run's document is read only when
it is opened, compared, promoted or deleted. JSON files an earlier diskmark left that could
not be imported (damaged ones) head the first page, with the reason."""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, DataTable, OptionList, Static
from textual.widgets.option_list import Option

from diskmark.app.screens.baseline_dialogs import BaselineNameDialog, NameChoice, suggest_name
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.screens.saved import SavedResultsScreen, mb
from diskmark.app.widgets.plain import PlainStatic
from diskmark.locale import N_, _, ngettext
from diskmark.locale.text_safety import shown
from diskmark.model.results import SessionResult
from diskmark.model.units import format_size
from diskmark.presets.words import said_name
from diskmark.report.formatting import short_date
from diskmark.store.database import Filters, Row
from diskmark.store.entry import HEADLINE_LABEL, Entry
from diskmark.store.errors import StoreError
from diskmark.store.store import Store

#: Runs on one page of the table: enough to scroll through, few enough to open at once.
PAGE_SIZE = 100


@dataclass
class HistoryPage:
    """What one read of the database gives the screen."""

    rows: list[Row]
    total: int  # runs that match the filter, on every page
    kept: list[Entry]  # JSON files that could not be imported (first page only)
    offset: int = 0  # of the first row
    problem: str | None = None


def describe_filter(filters: Filters) -> str:
    """The runs a filter keeps, as a phrase ("device /dev/sda"), or "" for every run."""
    if filters.device and filters.target:
        return _("device {device} and target {target}").format(device=filters.device,
                                                               target=filters.target)
    if filters.device:
        return _("device {device}").format(device=filters.device)
    if filters.target:
        return _("target {target}").format(target=filters.target)
    return ""


class HistoryScreen(SavedResultsScreen[None]):
    BINDINGS = [
        Binding("enter", "view", N_("View"), priority=True),
        # p, [ and ] are told in the screen's first lines; the footer keeps room at 80 columns
        Binding("p", "promote", N_("As baseline"), show=False,
                tooltip=N_("Save this run as a baseline")),
        Binding("f", "filter", N_("Filter"), tooltip=N_("Only the runs of one device or target")),
        Binding("t", "trend", N_("Trend"), tooltip=N_("A test's figures over time on this drive")),
        Binding("e", "share", N_("Share"), tooltip=N_("Save the run as an HTML page (and a PNG) "
                                                      "in the reports directory")),
        Binding("right_square_bracket", "page(1)", N_("Older"), show=False,
                tooltip=N_("The next page of runs, older")),
        Binding("left_square_bracket", "page(-1)", N_("Newer"), show=False,
                tooltip=N_("The page of runs before, newer")),
    ]

    title_text = N_("History")

    @property
    def empty_text(self) -> str:  # type: ignore[override]  # the base's plain text, translated here
        return _("No run has finished yet. Every run that completes is kept here.")

    def __init__(self, store: Store, current: SessionResult | None = None,
                 in_use: str | None = None) -> None:
        super().__init__(store, current, in_use)
        self.filters = Filters()
        self.page_start = 0  # of the first row of this page, among the matching runs
        self.total = 0
        self.rows: list[Row] = []  # this page's runs
        self.kept: list[Entry] = []  # damaged JSON files, above the runs on the first page
        self._loaded_entries: dict[int, Entry] = {}  # documents read so far, by row id

    def hint_text(self) -> str:
        return _("Every completed run, newest first. p saves the highlighted one as a baseline; "
                 "c compares it with this run, k with a baseline; t shows a test's trend on its "
                 "drive, f narrows the list to one device or target, e shares it as a page; [ "
                 "and ] turn the page.")

    # --- reading a page -------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="saved-list", exit_on_error=False)
    def reload(self, select: str | None = None) -> None:
        """Read the page at ``self.page_start`` in a thread; ``select`` puts the cursor on the run
        of that id."""
        page = self.read_page(self.page_start)
        self.app.call_from_thread(self._show_page, page, select)

    def read_page(self, offset: int) -> HistoryPage:
        """The page from ``offset``, or the last one when runs were deleted meanwhile."""
        try:
            # first the JSON files of an earlier version, imported now, so the count has them
            kept = self.store.unimported("history") if offset == 0 else []
            total = self.store.count(self.filters)
            if offset >= total:
                offset = max(0, (total - 1) // PAGE_SIZE * PAGE_SIZE)
                kept = kept if offset == 0 else []
            rows = self.store.page(PAGE_SIZE, offset, self.filters)
        except StoreError as e:
            return HistoryPage([], 0, [], 0, str(e))
        return HistoryPage(rows, total, kept, offset)

    def _show_page(self, page: HistoryPage, select: str | None) -> None:
        keep = select
        if keep is None and self.items:
            item = self.items[min(self.query_one(DataTable).cursor_row, len(self.items) - 1)]
            keep = item.name
        self.rows, self.kept, self.total = page.rows, page.kept, page.total
        self.page_start = page.offset
        self._loaded_entries = {}
        self._fill_table(keep)
        self._title()
        detail = self.query_one("#saved-detail", Static)
        if page.problem:
            detail.update(page.problem)
        elif not self.items:
            detail.update(self.empty_text if not describe_filter(self.filters) else
                          # TRANSLATORS: {filter} is "device /dev/sda", "target /mnt/x" or both
                          _("No run of {filter}; f changes the filter.")
                          .format(filter=describe_filter(self.filters)))
        else:
            self._show_detail()
        self.loaded = True

    @property
    def items(self) -> list[Row | Entry]:
        return [*self.kept, *self.rows]

    def _title(self) -> None:
        box = self.query_one("#saved-box")
        what = describe_filter(self.filters)
        box.border_title = _("History: {filter}").format(filter=what) if what else _("History")
        total = f"{self.total:,}"
        if self.total > len(self.rows) or self.page_start:
            first, last = self.page_start + 1, self.page_start + len(self.rows)
            box.border_subtitle = ngettext("runs {first}–{last} of {total}",
                                           "runs {first}–{last} of {total}",
                                           self.total).format(first=first, last=last, total=total)
        else:
            box.border_subtitle = ngettext("{count} run", "{count} runs",
                                           self.total).format(count=total)

    def columns(self) -> list[tuple[str, str, int, int]]:
        # a date is never cut: "2026/11/2…" says nothing
        # the set-up's names are words, never cut: the size, the device and the file
        # system give way first (the line under the table has them)
        return [(_("Run date"), "date", 16, 16), (_("Set-up"), "setup", 24, 24),
                (_("Size"), "size", 9, 6), (_("Device"), "device", 18, 8), (_("FS"), "fs", 6, 4),
                (_("Read MB/s"), "read", 10, 9), (_("Write MB/s"), "write", 10, 10),
                (_("Tests"), "tests", 5, 5)]

    def shrink_order(self) -> list[int]:
        return [1, 3, 2, 4]

    def drop_order(self) -> list[int]:
        return [3, 4, 2]  # device, filesystem, size: the line under the table has them

    def row_cells(self, item: Row | Entry) -> list[str | Text]:
        if isinstance(item, Entry):
            return [item.name, _("damaged"), "", item.damaged or "", "", Text(""), Text(""),
                    Text("")]
        # the names a result keeps are English (as files store them): said in the language
        setup = " · ".join(said_name(x, short=True) for x in (item.preset, item.profile)
                           if x and x != "Default") or said_name("Default")
        size = f"{format_size(item.size)}×{item.count}" if item.size else "—"
        return [short_date(item.started or item.saved), setup, size, item.device or "—",
                item.fstype or "—", mb(item.head_read), mb(item.head_write),
                Text(str(item.tests), justify="right")]

    def _fill_table(self, keep: str | None) -> None:
        items = self.items
        self.fill_table(items, [self.row_cells(it) for it in items],
                        [isinstance(it, Entry) for it in items], keep)

    # --- the highlighted run --------------------------------------------------------------

    @property
    def highlighted_item(self) -> Row | Entry | None:
        table = self.query_one(DataTable)
        items = self.items
        if not items or not (0 <= table.cursor_row < len(items)):
            return None
        return items[table.cursor_row]

    @property
    def highlighted(self) -> Entry | None:
        """The highlighted run with its document read (once), or the damaged file."""
        item = self.highlighted_item
        if item is None or isinstance(item, Entry):
            return item
        return self.entry_of(item)

    def entry_of(self, row: Row) -> Entry:
        if row.id not in self._loaded_entries:
            try:
                self._loaded_entries[row.id] = self.store.entry(row)
            except StoreError as e:
                return Entry(name=row.name, note="", saved=row.saved, path=self.store.database,
                             kind="history", damaged=str(e), id=row.id)
        return self._loaded_entries[row.id]

    def _show_detail(self) -> None:
        item = self.highlighted_item
        if item is None:
            return
        if isinstance(item, Entry):
            text = _("Damaged: {reason}. File: {path}. It is never overwritten without "
                     "asking; d moves it aside, or repair it by hand.").format(
                reason=item.damaged, path=item.path)
        else:
            text = self.describe_row(item)
        self.query_one("#saved-detail", Static).update(text)

    def describe_row(self, row: Row) -> str:
        # TRANSLATORS: {name} is the run's id (20260126T090000Z-ad50d6), {date} when it started
        parts = [_("Run {name} of {date}").format(name=row.name, date=short_date(row.started))]
        if row.size:
            parts.append(f"{format_size(row.size)}×{row.count}")
        where = " ".join(x for x in (row.device, row.fstype) if x)
        if where:
            parts.append(where)
        for text in (row.model, _("target {target}").format(target=row.target) if row.target else "",
                     _("host {host}").format(host=row.host) if row.host else "",
                     row.io if row.io != "direct" else ""):
            if text:
                parts.append(text)
        if row.head_label and row.head_label != HEADLINE_LABEL:
            parts.append(_("figures: {test}").format(test=row.head_label))
        return " · ".join(parts)

    def describe(self, entry: Entry) -> str:
        if entry.id is not None:
            row = next((r for r in self.rows if r.id == entry.id), None)
            if row is not None:
                return self.describe_row(row)
        return _("Run {name} of {date}").format(name=entry.name, date=short_date(entry.started))

    def title_of(self, entry: Entry) -> str:
        return (_("The run of {date}").format(date=short_date(entry.started)) if entry.ok
                else entry.path.name)

    def delete_entry(self, entry: Entry) -> None:
        self.store.delete_history(entry)

    # --- pages and filters ----------------------------------------------------------------

    def action_page(self, step: int) -> None:
        offset = self.page_start + step * PAGE_SIZE
        if offset < 0 or (step > 0 and offset >= self.total):
            self.notify(_("This is the first page.") if step < 0 else _("This is the last page."),
                        severity="information", timeout=2)
            return
        self.page_start = offset
        self.loaded = False
        self.query_one(DataTable).move_cursor(row=0, animate=False)
        self.reload()

    def action_filter(self) -> None:
        try:
            devices = self.store.distinct("device")
            targets = self.store.distinct("target")
        except StoreError as e:
            self.notify(str(e), severity="error")
            return

        def chosen(filters: Filters | None) -> None:
            if filters is not None:
                self.filters, self.page_start = filters, 0
                self.loaded = False
                self.reload()

        self.app.push_screen(HistoryFilterDialog(devices, targets, self.filters), chosen)

    def action_trend(self) -> None:
        item = self.highlighted_item
        if item is None or isinstance(item, Entry):
            self.notify(_("Highlight a run first: the trend is of its drive."),
                        severity="warning")
            return
        from diskmark.app.screens.trend import TrendScreen

        self.app.push_screen(TrendScreen(self.store, item, self.current))

    def action_share(self) -> None:
        """The highlighted run as a page to share (HTML, and its PNG)."""
        from diskmark.app.screens.sharing import share_page

        entry = self._usable()
        if entry is None or entry.session is None:
            return
        share_page(self, entry.session, f"diskmark-run-{entry.name}",
                   _("diskmark: run {name}").format(name=entry.name))

    def action_promote(self) -> None:
        entry = self._usable()
        if entry is None or entry.session is None:
            return
        session = entry.session

        def named(choice: NameChoice | None) -> None:
            if choice is None:
                return
            try:
                saved = self.store.promote(entry, choice.name, choice.note, replace=choice.replace)
            except StoreError as e:
                self.notify(str(e), severity="error")
                return
            self.notify(_("Saved the run of {date} as baseline “{name}”.").format(
                date=short_date(entry.started), name=saved.name), title=_("Baseline saved"))

        done = sum(t.complete for t in session.tests)
        self.app.push_screen(BaselineNameDialog(
            self.store, _("Save this run as a baseline"),
            ngettext("The run of {date}, {count} test. A name that exists already is replaced "
                     "only if you say so.",
                     "The run of {date}, {count} tests. A name that exists already is replaced "
                     "only if you say so.", done).format(date=short_date(entry.started),
                                                         count=done),
            name=suggest_name(session), note=session.settings.comment), named)


class HistoryFilterDialog(Dialog[Filters]):
    """Choose one device or one target directory (with how many runs each), or all runs."""

    def __init__(self, devices: list[tuple[str, int]], targets: list[tuple[str, int]],
                 current: Filters) -> None:
        super().__init__(_("Show the runs of…"), classes="pick-baseline")
        self.choices: list[Filters] = [Filters()]
        self.labels: list[Text] = [Text(_("All runs"), style="bold")]
        # TRANSLATORS: the kinds of filter, in a column before a device's or a directory's name
        device, target = _("device"), _("target")
        width = max(cell_len(device), cell_len(target))
        for value, n in devices:
            if value:
                self.choices.append(Filters(device=value, exact=True))
                self.labels.append(self._label(device, width, value, n))
        for value, n in targets:
            if value:
                self.choices.append(Filters(target=value, exact=True))
                self.labels.append(self._label(target, width, value, n))
        self.current = current

    @staticmethod
    def _label(what: str, width: int, value: str, n: int) -> Text:
        """``what`` padded to ``width`` cells, the device or directory, its number of runs."""
        text = Text(no_wrap=True, overflow="ellipsis")
        text.append(what + " " * (max(width, 7) - cell_len(what)) + " ", style="dim")
        text.append(shown(value, one_line=True), style="bold")
        text.append("  " + ngettext("{count} run", "{count} runs", n).format(count=n), style="dim")
        return text

    def body(self) -> ComposeResult:
        yield PlainStatic(_("One device (every target on it) or one target directory."),
                          classes="dialog-hint")
        yield OptionList(*(Option(label, id=str(i)) for i, label in enumerate(self.labels)),
                         id="filters")

    def buttons(self) -> ComposeResult:
        yield Button(_("Show"), id="choose", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.focus()
        options.highlighted = next((i for i, f in enumerate(self.choices)
                                    if f == self.current), 0)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.choices[int(event.option.id or 0)])

    def pressed(self, button: str) -> None:
        if button == "choose":
            index = self.query_one(OptionList).highlighted
            self.dismiss(self.choices[index] if index is not None else None)
