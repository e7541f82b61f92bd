"""What the baselines and history screens share: a table of saved results read in a thread
(a long history must not freeze the window), a line about the highlighted one, and the
actions that work on any saved result: view it, compare it with this run or with a
baseline, delete it. A damaged file is a row that says why; it never stops the list."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypeVar

from rich.cells import cell_len
from rich.console import JustifyMethod
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Static

from diskmark.app.core.protocol import diskmark_app
from diskmark.app.screens.baseline_dialogs import PickBaselineDialog
from diskmark.app.screens.comparison import ComparisonScreen, describe_session
from diskmark.app.screens.dialogs import ConfirmDialog, ErrorDialog
from diskmark.app.widgets.footer import KeysFooter
from diskmark.app.widgets.plain import PlainLabel, PlainStatic
from diskmark.locale import N_, _
from diskmark.locale.text_safety import shown
from diskmark.model.results import SessionResult
from diskmark.report.cdm_report import text_report
from diskmark.report.cells import clip
from diskmark.report.compare import compare
from diskmark.store.entry import Entry
from diskmark.store.errors import StoreError
from diskmark.store.store import Store

if TYPE_CHECKING:
    from diskmark.store.database import Row

T = TypeVar("T")

#: Called after a baseline was renamed (new entry) or deleted (None), with its old name,
#: so that the app can follow when it is the one the tiles are compared with.
BaselineChanged = Callable[[str, Entry | None], None]


def mb(value: float | None) -> Text:
    return Text(f"{value:.2f}" if value is not None else "—", justify="right")


def quoted(name: str) -> str:
    """A saved result's name as a title, in the language's quotation marks."""
    # TRANSLATORS: a baseline's name, quoted as a title (use your language's quotation marks)
    return _("“{name}”").format(name=name)


def cell_text(cell: str | Text) -> str:
    return cell.plain if isinstance(cell, Text) else cell


def fit_widths(want: list[int], floors: list[int], avail: int, order: list[int],
               drop: list[int] | None = None) -> list[int]:
    """Shrink columns (in ``order``, down to their floors) until they fit ``avail`` cells,
    rather than make the user scroll sideways or cut the last column; if that is not
    enough, leave out whole columns (in ``drop``; width 0) whose content the line under the
    table repeats. Each column takes two cells of padding besides its width."""
    widths = list(want)

    def total() -> int:
        return sum(w + 2 for w in widths if w)

    for col in order:
        while total() > avail and widths[col] > floors[col]:
            widths[col] -= 1
    for col in drop or []:
        if total() <= avail:
            break
        widths[col] = 0
    return widths


class ResultReportScreen(ModalScreen[None]):
    """A saved result as CrystalDiskMark's text report, with its note."""

    BINDINGS = [Binding("escape,q", "dismiss(None)", N_("Close")),
                Binding("c", "copy", N_("Copy"))]

    def __init__(self, title: str, session: SessionResult, note: str = "") -> None:
        super().__init__(classes="details")
        self.title_text, self.session, self.note = title, session, note

    def compose(self) -> ComposeResult:
        with Vertical(classes="details-box"):
            yield PlainLabel(self.title_text, classes="dialog-title")
            yield PlainStatic(describe_session(self.session), classes="dialog-hint")
            if self.note:
                yield PlainStatic(_("Note: {note}").format(note=self.note),
                                  classes="details-verdict")
            with VerticalScroll(classes="details-body"):
                yield PlainStatic(text_report(self.session), id="report")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Copy report"), id="copy")
                yield Button(_("Close"), id="close", variant="primary")

    def action_copy(self) -> None:
        diskmark_app(self).copy(text_report(self.session), _("Text report copied"))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "copy":
            self.action_copy()
        else:
            self.dismiss(None)


class SavedResultsScreen(ModalScreen[T]):
    """A list of saved results; subclasses say which (``list_entries``) and how a row reads."""

    COMPONENT_CLASSES = {"saved--damaged", "saved--in-use"}

    BINDINGS = [
        Binding("escape", "close", N_("Back")),
        Binding("v", "view", N_("View")),
        # TRANSLATORS: a footer key (short): compare the highlighted result with this run
        Binding("c", "compare_current", N_("vs run"), tooltip=N_("Compare with this run")),
        # TRANSLATORS: a footer key (short): compare it with another baseline
        Binding("k", "compare_baseline", N_("vs other"),
                tooltip=N_("Compare with another baseline")),
        Binding("d,delete", "delete", N_("Delete")),
    ]

    #: The box's title, marked with N_ and translated where shown.
    title_text = ""
    #: What the box says when the list is empty, translated (a subclass's property).
    empty_text = ""

    def __init__(self, store: Store, current: SessionResult | None = None,
                 in_use: str | None = None) -> None:
        super().__init__(classes="saved")
        self.store = store
        self.current = current  # what the main window shows, to compare with
        self.in_use = in_use  # the baseline the tiles are compared with
        self.entries: list[Entry] = []
        self.loaded = False

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-box"):
            yield Static(self.hint_text(), id="saved-hint", markup=False)
            yield DataTable(cursor_type="row", zebra_stripes=True, id="saved")
            yield PlainStatic("", id="saved-detail")
        yield KeysFooter(compact=self.app.size.width < 100)

    def on_mount(self) -> None:
        self.query_one("#saved-box").border_title = _(self.title_text) if self.title_text else ""
        self.query_one(DataTable).focus()
        self.reload()

    def hint_text(self) -> str:
        return ""

    # --- the list -------------------------------------------------------------------------

    def list_entries(self) -> list[Entry]:
        raise NotImplementedError

    def columns(self) -> list[tuple[str, str, int, int]]:
        """(label, key, widest, narrowest) of each column; it is as wide as its content
        within those bounds."""
        raise NotImplementedError

    def shrink_order(self) -> list[int]:
        return list(range(len(self.columns())))

    def drop_order(self) -> list[int]:
        """Columns to leave out on a narrow terminal, first first (the detail line under the
        table says what they would)."""
        return []

    def cells(self, entry: Entry) -> list[str | Text]:
        raise NotImplementedError

    def describe(self, entry: Entry) -> str:
        raise NotImplementedError

    def fill_table(self, items: Sequence[Row | Entry], cells: list[list[str | Text]], damaged: list[bool],
                   keep: str | None) -> None:
        """The table anew: columns as wide as their text allows in the box (others give way,
        see :func:`fit_widths`), one row per item, damaged ones styled so, the cursor on the
        item named ``keep`` (else the first)."""
        table = self.query_one(DataTable)
        table.clear(columns=True)
        cols = self.columns()
        rows = [[cell if isinstance(cell, Text) else shown(cell, one_line=True) for cell in row]
                for row in cells]
        # the cap bounds the content, never the header: a translated header ("Schreiben MB/s")
        # is wider than the English one the caps were chosen for
        want = [max(cell_len(label), min(cap, max([0] + [cell_len(cell_text(r[i])) for r in rows])))
                for i, (label, _key, cap, _floor) in enumerate(cols)]
        # the box's inside: the screen's padding, the border and the box's padding go, and
        # two cells stay free for the vertical scrollbar
        box = min(self.app.size.width - 2, 132) - 4
        avail = max(table.size.width or box, 40) - 2
        # a column gives way down to its floor, never under its header (a cut header says
        # nothing: "Konfig"); one that still does not fit is left out whole
        floors = [min(max(c[3], cell_len(c[0])), w) for c, w in zip(cols, want)]
        widths = fit_widths(want, floors, avail, self.shrink_order(), self.drop_order())
        for (label, key, _cap, _floor), width in zip(cols, widths):
            if not width:
                continue
            justify: JustifyMethod = "right" if key in ("read", "write", "tests") else "left"
            table.add_column(Text(label, justify=justify), key=key, width=width)
        style = self.get_component_rich_style("saved--damaged", partial=True)
        for i, (row_cells, bad) in enumerate(zip(rows, damaged)):
            row = []
            for cell, width, (_label, key, _cap, _floor) in zip(row_cells, widths, cols):
                if not width:
                    continue
                text = cell if isinstance(cell, Text) else Text(clip(cell, width,
                                                                      keep_end=key == "device"))
                if bad:
                    text.stylize(style)
                row.append(text)
            table.add_row(*row, key=str(i))
        if items:
            target = next((i for i, it in enumerate(items) if it.name == keep), 0)
            table.move_cursor(row=target, animate=False)

    @work(thread=True, exclusive=True, group="saved-list", exit_on_error=False)
    def reload(self, select: str | None = None) -> None:
        """Read the list in a thread; ``select`` puts the cursor on the entry of that name."""
        try:
            entries, problem = self.list_entries(), None
        except StoreError as e:
            entries, problem = [], str(e)
        self.app.call_from_thread(self._fill, entries, select, problem)

    def _fill(self, entries: list[Entry], select: str | None, problem: str | None) -> None:
        keep = select
        if keep is None and (entry := self.highlighted) is not None:
            keep = entry.name
        self.entries = entries
        self.fill_table(entries, [self.cells(e) for e in entries],
                        [not e.ok for e in entries], keep)
        detail = self.query_one("#saved-detail", Static)
        if problem:
            detail.update(problem)
        elif not entries:
            detail.update(self.empty_text)
        else:
            self._show_detail()
        self.loaded = True

    @property
    def highlighted(self) -> Entry | None:
        table = self.query_one(DataTable)
        if not self.entries or not (0 <= table.cursor_row < len(self.entries)):
            return None
        return self.entries[table.cursor_row]

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self._show_detail()

    def _show_detail(self) -> None:
        entry = self.highlighted
        if entry is None:
            return
        if entry.ok:
            text = self.describe(entry)
        else:
            text = _("Damaged: {reason}. File: {path}. It is never overwritten without "
                     "asking; d deletes it, or repair it by hand.").format(reason=entry.damaged,
                                                                          path=entry.path)
        self.query_one("#saved-detail", Static).update(text)

    def _usable(self) -> Entry | None:
        """The highlighted entry if it can be read; otherwise say why not."""
        entry = self.highlighted
        if entry is None:
            self.notify(_("Nothing to choose: the list is empty."), severity="warning")
            return None
        if not entry.ok:
            self.notify(_("{file} is damaged ({reason}); it can only be deleted.").format(
                file=entry.path.name, reason=entry.damaged), severity="warning")
            return None
        return entry

    # --- actions --------------------------------------------------------------------------

    def action_close(self) -> None:
        self.dismiss(None)

    def title_of(self, entry: Entry) -> str:
        raise NotImplementedError

    def action_view(self) -> None:
        entry = self.highlighted
        if entry is not None and not entry.ok:
            self.app.push_screen(ErrorDialog(
                _("This file is damaged"), f"{entry.path}: {entry.damaged}.",
                _("diskmark lists it but never overwrites it without asking. Delete it (d), or "
                  "repair it by hand."), severity="warning"))
            return
        entry = self._usable()
        if entry is not None and entry.session is not None:
            self.app.push_screen(ResultReportScreen(self.title_of(entry), entry.session, entry.note))

    def action_compare_current(self) -> None:
        entry = self._usable()
        if entry is None or entry.session is None:
            return
        if self.current is None or not self.current.tests:
            key = diskmark_app(self).state.keys.key("run_all")
            self.notify(_("Nothing measured in this window yet: run first ({key}), then "
                          "compare.").format(key=key), severity="warning")
            return
        self.app.push_screen(ComparisonScreen(compare(self.current, entry.session, entry.name),
                                              _("This run"), self.title_of(entry),
                                              (self.current, entry.session)))

    def action_compare_baseline(self) -> None:
        """This result against a baseline chosen from a list (two saved results, nothing run)."""
        entry = self._usable()
        if entry is None or entry.session is None:
            return
        try:
            others = [e for e in self.store.baselines() if e.ident != entry.ident]
        except StoreError as e:
            self.notify(str(e), severity="error")
            return
        if not others:
            self.notify(_("There is no other baseline to compare with."), severity="warning")
            return
        this = self.title_of(entry)

        def chosen(other: Entry | None) -> None:
            if other is not None and other.session is not None and entry.session is not None:
                self.app.push_screen(ComparisonScreen(
                    compare(entry.session, other.session, other.name), this,
                    quoted(other.name), (entry.session, other.session)))

        # TRANSLATORS: {this} is a baseline's name in quotes, or "The run of 2024/05/01 10:00"
        self.app.push_screen(PickBaselineDialog(_("Compare {this} with…").format(this=this),
                                                others,
                                                _("The baseline you choose is the reference.")),
                             chosen)

    def delete_entry(self, entry: Entry) -> None:
        raise NotImplementedError

    def action_delete(self) -> None:
        entry = self.highlighted
        if entry is None:
            return
        if entry.ok:
            # TRANSLATORS: {what} is a baseline's name in quotes, or "The run of 2024/05/01 …"
            title = _("Delete {what}?").format(what=self.title_of(entry))
            done = _("Deleted {what}.").format(what=self.title_of(entry))
        else:
            title = _("Delete the damaged file {file}?").format(file=entry.path.name)
            done = _("Deleted the damaged file {file}.").format(file=entry.path.name)

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                self.delete_entry(entry)
            except StoreError as e:
                self.notify(str(e), severity="error")
                return
            self.notify(done)
            self.reload()

        gone = (_("The file {path} is moved aside to {file}.damaged-…, where diskmark no longer "
                  "lists it.").format(path=entry.path, file=entry.path.name) if entry.id is None
                else _("It is removed from the database; this cannot be undone."))
        self.app.push_screen(ConfirmDialog(title,
                                           f"{self.describe(entry) if entry.ok else entry.damaged}"
                                           f"\n\n{gone}", yes=_("Delete"), no=_("Keep it")),
                             answered)

