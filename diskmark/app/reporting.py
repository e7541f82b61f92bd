"""What leaves the app as text or a picture: the result on the tiles as CrystalDiskMark's
text report (saved to a file or copied), anything copied, and the window as a PNG (or
Textual's SVG). Files go to the reports directory and never replace one the user did not
say may go."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from diskmark.files.paths import reports_dir
from diskmark.locale import N_, _, as_sentence
from diskmark.locale.text_safety import shown
from diskmark.report.share.cells_svg import in_cells

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


def copy_with_notice(app: AppLike, text: str, said: str) -> None:
    """Copy by the desktop's clipboard program, tmux's buffer or OSC 52 (see
    :mod:`~diskmark.app.clipboard`), in a thread (a program gets seconds to answer), and say
    how it went under the title ``said`` (what was copied: :data:`REPORT_COPIED`…)."""
    text = shown(text)
    # OSC 52 always: harmless where a program takes the text too, and Textual's own paste
    # (ctrl+v in a field) reads what it last sent
    app.copy_to_clipboard(text)

    def copy() -> None:
        from diskmark.app.clipboard import copy_text

        copied = copy_text(text)
        app.call_from_thread(app.notify, copied.how, title=said,
                             severity="information" if copied.sure else "warning",
                             timeout=5 if copied.sure else 12)

    app.run_worker(copy, thread=True, group="copy", exit_on_error=False)


#: What the report's copy is titled (translated where shown; the screens title theirs).
REPORT_COPIED = N_("Text report copied")


def report_text(app: AppLike) -> str | None:
    """The text report of the result on the tiles, or None (and why, in a notice) while a
    run is under way or before anything was measured."""
    state = app.state
    if state.running:
        app.notify(_("A run is under way: its report can be saved once it has finished "
                     "(or been stopped)."), severity="warning")
        return None
    session = state.current_session()
    if session is None or not session.tests:
        # TRANSLATORS: {key} is the key that runs every test (a)
        app.notify(_("Nothing measured yet: press {key} (All) or a row button first.")
                   .format(key=state.keys.key("run_all")), severity="warning")
        return None
    from diskmark.report.cdm_report import text_report  # the reports: not at the app's start

    return shown(text_report(session))  # a path that is not UTF-8 cannot be saved raw


def save_report(app: AppLike) -> None:
    """Ask where, then write the report there (replacing a file only when told to)."""
    from diskmark.app.screens.dialogs import SaveFileDialog

    text = report_text(app)
    if text is None:
        return

    def chosen(answer: tuple[Path, bool] | None) -> None:
        if answer is not None:
            write_report(app, answer[0], text, replace_existing=answer[1])

    app.push_screen(SaveFileDialog(_("Save the text report"), f"diskmark-{_stamp()}.txt",
                                   reports_dir()), chosen)


def write_report(app: AppLike, path: Path, text: str, *, replace_existing: bool = False) -> bool:
    """Write the report at ``path`` by the rule of every file diskmark writes
    (diskmark.files.destination): a FIFO or character device is written into, an existing
    file replaced only when the user said so, no directory made on the way."""
    from diskmark.files.destination import Destination, DestinationError, DestinationExists

    try:
        destination = Destination(path, replace=replace_existing)
        try:
            destination.write(text)
        finally:
            destination.close()
    except DestinationError as e:
        app.notify(as_sentence(str(e)),
                   severity="warning" if isinstance(e, DestinationExists) else "error")
        return False
    app.notify(_("Saved to {path}").format(path=path), title=_("Report saved"))
    return True


def copy_report(app: AppLike) -> None:
    text = report_text(app)
    if text is not None:
        copy_with_notice(app, text, _(REPORT_COPIED))


def save_screenshot(app: AppLike, kind: str = "png") -> None:
    """A picture of the window in the reports directory (the documents directory, see
    :func:`~diskmark.files.paths.reports_dir`), under a name no file has yet (two
    screenshots in one second, or someone else's file, are never replaced). ``kind`` png
    (what CrystalDiskMark saves; drawn from the SVG in a thread) or svg (Textual's own, each
    character put in its cells: :mod:`diskmark.report.share.cells_svg`)."""
    svg = in_cells(app.export_screenshot())
    stem = f"diskmark-{_stamp()}"
    folder = reports_dir()
    if kind == "svg":
        _write_free(app, folder, stem, ".svg", svg)
        return

    def draw() -> None:
        from diskmark.report.share.png import PictureError, svg_to_png

        try:
            picture, note = svg_to_png(svg)
        except PictureError as e:
            app.call_from_thread(app.notify, _("No PNG: {error}").format(error=e),
                                 severity="error", timeout=12)
            return
        if note:
            app.call_from_thread(app.notify, note, severity="warning", timeout=12)
        app.call_from_thread(_write_free, app, folder, stem, ".png", picture)

    app.run_worker(draw, thread=True, group="screenshot", exit_on_error=False)


def _write_free(app: AppLike, folder: Path, stem: str, suffix: str, data: str | bytes) -> None:
    """Write ``data`` as ``<stem><suffix>`` in ``folder``, or ``<stem>-2<suffix>``… when that
    is taken, and say where."""
    from diskmark.files.destination import DestinationError, write_new

    try:
        folder.mkdir(parents=True, exist_ok=True)  # the reports directory, made on first use
    except OSError as e:
        app.notify(_("Could not create {folder}: {error}").format(folder=folder,
                                                                  error=e.strerror or e),
                   severity="error")
        return
    try:
        path = write_new(folder, f"{stem}{suffix}", data)
    except DestinationError as e:
        app.notify(as_sentence(str(e)), severity="error")
        return
    app.notify(_("Saved to {path}").format(path=path), title=_("Screenshot saved"))
