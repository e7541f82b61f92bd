"""Small modal dialogs: errors with what to do next, yes/no questions, where to save a file.

Every engine error ends up in an :class:`ErrorDialog` whose buttons are the next steps
(e.g. "Run buffered" when the filesystem refuses O_DIRECT), so a failure never leaves the
user at a dead end or a half-drawn screen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import Button, Input, Static
from textual.widgets.button import ButtonVariant
from textual.widgets.input import Selection

from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.widgets.plain import PlainStatic, plain
from diskmark.locale import N_, _, as_sentence

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike


@dataclass(frozen=True)
class Choice:
    label: str
    id: str
    variant: ButtonVariant = "default"


class ErrorDialog(Dialog[str]):
    """A problem, its explanation, and buttons for the ways forward. Dismisses with the
    chosen button's id, or None on Escape or a Cancel choice."""

    BINDINGS = [Binding("escape", "cancel", N_("Close"))]

    def __init__(self, title: str, message: str, hint: str = "",
                 choices: list[Choice] | None = None, *, severity: str = "error") -> None:
        super().__init__(title, classes=f"-{severity}")
        self.message = message
        self.hint = hint
        self.choices = choices or [Choice(_("OK"), "ok", "primary")]

    def body(self) -> ComposeResult:
        yield PlainStatic(self.message, classes="dialog-message")
        if self.hint:
            yield PlainStatic(self.hint, classes="dialog-hint")

    def buttons(self) -> ComposeResult:
        for choice in self.choices:
            yield Button(plain(choice.label), id=choice.id, variant=choice.variant)

    def on_mount(self) -> None:
        self.query(Button).last().focus()

    def pressed(self, button: str) -> None:
        self.dismiss(button)


class ConfirmDialog(Dialog[bool]):
    """A yes/no question; the safe answer (No) has the focus, and Escape answers it."""

    cancel_answer = False

    def __init__(self, title: str, question: str, yes: str | None = None,
                 no: str | None = None) -> None:
        """``yes`` and ``no``: the buttons' labels, translated (Yes and No by default)."""
        super().__init__(title)
        self.question, self.yes, self.no = question, yes or _("Yes"), no or _("No")

    def body(self) -> ComposeResult:
        yield PlainStatic(self.question, classes="dialog-message")

    def buttons(self) -> ComposeResult:
        yield Button(plain(self.yes), id="yes", variant="warning")
        yield Button(plain(self.no), id="no", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def pressed(self, button: str) -> None:
        self.dismiss(button == "yes")


class SaveFileDialog(Dialog[tuple[Path, bool]]):
    """Ask where to save; never replaces an existing file without asking. Dismisses with
    ``(path, replace)`` or None."""

    def __init__(self, title: str, default_name: str, directory: Path | None = None) -> None:
        super().__init__(title)
        self.default_name = default_name
        self.directory = directory or Path.cwd()

    def body(self) -> ComposeResult:
        yield PlainStatic(_("Relative names are saved in {directory}")
                          .format(directory=self.directory), classes="dialog-hint")
        # not select_on_focus: that would select the extension too, after on_mount
        yield Input(self.default_name, id="filename", placeholder=_("file name"),
                    select_on_focus=False)
        yield PlainStatic("", id="problem", classes="dialog-problem")

    def buttons(self) -> ComposeResult:
        yield Button(_("Save"), id="save", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        field = self.query_one(Input)
        field.focus()
        stem = Path(self.default_name).stem
        field.selection = Selection(0, len(stem))  # typing replaces the name, keeps the extension

    def _path(self) -> Path | None:
        raw = self.query_one(Input).value.strip()
        if not raw:
            self.query_one("#problem", Static).update(_("Give the file a name."))
            return None
        path = Path(raw).expanduser()
        if not path.is_absolute():
            path = self.directory / path
        if path.is_dir():
            self.query_one("#problem", Static).update(
                _("{path} is a directory; add a file name.").format(path=path))
            return None
        if not path.parent.is_dir() and path.parent == self.directory:
            try:  # the reports directory is made on first use
                self.directory.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                self.query_one("#problem", Static).update(
                    _("Could not create {directory}: {error}").format(
                        directory=self.directory, error=e.strerror or e))
                return None
        return path

    def _save(self) -> None:
        """Ask only where a file would be replaced; a FIFO or character device is written
        into, and anything else the rule of every file diskmark writes refuses is said
        here, in its words (diskmark.files.destination)."""
        from diskmark.files.destination import DestinationError, DestinationExists, check

        path = self._path()
        if path is None:
            return
        try:
            check(path)
        except DestinationExists:
            def answered(replace: bool | None) -> None:
                if replace:
                    self.dismiss((path, True))

            self.app.push_screen(ConfirmDialog(_("Replace the file?"),
                                               _("{path} already exists. Replace it?")
                                               .format(path=path),
                                               yes=_("Replace"), no=_("Keep it")), answered)
            return
        except DestinationError as e:
            self.query_one("#problem", Static).update(as_sentence(str(e)))
            return
        self.dismiss((path, False))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._save()

    def pressed(self, button: str) -> None:
        if button == "save":
            self._save()


def show_error(app: AppLike, error: BaseException | None, retry: Callable[[], None]) -> None:
    """``error`` as a dialog; "Run buffered" runs the same run again with ``retry``, without
    O_DIRECT; "Choose another target" opens the target picker."""

    def answered(choice: str | None) -> None:
        if choice == "buffered":
            app.change_settings(direct=False)
            retry()
        elif choice == "target":
            app.action_pick_target()

    app.push_screen(error_dialog(error), answered)


def error_dialog(error: BaseException | None) -> ErrorDialog:
    """Every engine error as a dialog whose buttons are the next steps: ``"buffered"`` (run
    again without O_DIRECT) and ``"target"`` (choose another target) where they help."""
    import traceback

    from diskmark.engine.errors import DirectIOUnsupported, DiskmarkError, FioMissing, TargetError

    if isinstance(error, DirectIOUnsupported):
        return ErrorDialog(_("Direct I/O is not supported here"), error.message, error.hint,
                           [Choice(_("Run buffered"), "buffered", "warning"),
                            Choice(_("Choose another target"), "target"),
                            Choice(_("Cancel"), "cancel", "primary")])
    if isinstance(error, TargetError):
        return ErrorDialog(_("The target cannot be used"), error.message, error.hint,
                           [Choice(_("Choose another target"), "target"),
                            Choice(_("OK"), "ok", "primary")])
    if isinstance(error, FioMissing):
        return ErrorDialog(_("fio is needed"), error.message, error.hint)
    if isinstance(error, DiskmarkError):
        return ErrorDialog(_("The benchmark failed"), error.message, error.hint)
    detail = "".join(traceback.format_exception_only(type(error), error)).strip() \
        if error is not None else _("unknown error")
    return ErrorDialog(_("Something went wrong"), detail,
                       _("This is a bug in diskmark. fio was stopped and the test file removed; "
                         "please report what you did and this message."))
