"""The result the tiles show: which tests fit the grid's layout, the result as one
session (for the report, the clipboard, a baseline), the report and screenshot files, and a
tile's details."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from diskmark.app.state import setup_name
from diskmark.files.atomic import write_atomic
from diskmark.files.text_safety import shown
from diskmark.files.paths import reports_dir

if TYPE_CHECKING:
    from diskmark.app.widgets.tiles import ResultTile


def _stamp() -> str:
    return datetime.now().strftime("%Y%m%d-%H%M%S")


class Results:
    """The DiskmarkApp's result (a mixin: the state it uses is the app's)."""

    async def _relayout(self) -> None:
        """Another preset, profile or +Mix: the grid changes shape. The result keeps its own
        set-up; its tiles come back whenever the layout is the one it ran under, and are
        cleared (with a word why) under any other, so no tile ever sits under a button of a
        test it did not measure."""
        await self.grid.rebuild(self.state.profile, self.state.settings.mix, self.state.unit)
        shown = self._show_result_tiles()
        if self.state.result is not None and self.state.result.tests and not shown:
            self.status.show(f"Tiles cleared: the last run used {setup_name(self.state.result)}; "
                             f"{self.key('save_report')}, {self.key('save_baseline')} and "
                             f"{self.key('show_comparison')} still use it, switching back "
                             f"shows it")
        elif shown and self.state.result is not None:
            self.status.show(f"The last run's tiles ({setup_name(self.state.result)}) are back")
        self._update_comparison()

    def _show_result_tiles(self) -> bool:
        """Fill the tiles from ``result`` when it fits the layout, else leave them empty.
        Returns whether it was shown."""
        self.grid.clear((t.row, t.op) for t in self.grid.tiles)
        if not self.state.result_on_tiles():
            return False
        for test in self.state.on_tiles.values():
            self.grid.show_result(test, final=True)
        return True

    def report_text(self) -> str | None:
        if self.state.running:
            self.notify("A run is under way: its report can be saved once it has finished "
                        "(or been stopped).", severity="warning")
            return None
        session = self.state.current_session()
        if session is None or not session.tests:
            self.notify(f"Nothing measured yet: press {self.key('run_all')} (All) or a row "
                        f"button first.", severity="warning")
            return None
        from diskmark.report.text import text_report  # the reports: not at the app's start

        return shown(text_report(session))  # a path that is not UTF-8 cannot be saved raw

    def action_save_report(self) -> None:
        from diskmark.app.screens.dialogs import SaveFileDialog

        text = self.report_text()
        if text is None:
            return

        def chosen(answer: tuple[Path, bool] | None) -> None:
            if answer is not None:
                self.write_report(answer[0], text, replace_existing=answer[1])

        self.push_screen(SaveFileDialog("Save the text report", f"diskmark-{_stamp()}.txt",
                                        reports_dir()), chosen)

    def write_report(self, path: Path, text: str, *, replace_existing: bool = False) -> bool:
        try:
            write_atomic(path, text, exclusive=not replace_existing)
        except FileExistsError:
            self.notify(f"{path} appeared meanwhile; not replaced.", severity="warning")
            return False
        except OSError as e:
            self.notify(f"Could not save {path}: {e.strerror or e}", severity="error")
            return False
        self.notify(f"Saved to {path}", title="Report saved")
        return True

    def action_copy_report(self) -> None:
        text = self.report_text()
        if text is not None:
            self.copy_with_notice(text, "The text report")

    def copy_with_notice(self, text: str, what: str) -> None:
        """Copy through the terminal (OSC 52), and say so: nothing confirms it arrived."""
        self.copy_to_clipboard(shown(text))
        self.notify(f"{what} is on the clipboard (if the terminal allows OSC 52).",
                    title="Copied")

    def action_save_svg(self) -> None:
        """A picture of the window in the reports directory (the documents directory, see
        :func:`~diskmark.paths.reports_dir`), under a name no file has yet (two screenshots
        in one second, or someone else's file, are never replaced)."""
        svg = self.export_screenshot()
        stem = f"diskmark-{_stamp()}"
        folder = reports_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            self.notify(f"Could not create {folder}: {e.strerror or e}", severity="error")
            return
        for n in range(1, 100):
            path = folder / (f"{stem}.svg" if n == 1 else f"{stem}-{n}.svg")
            try:
                write_atomic(path, svg, exclusive=True)
            except FileExistsError:
                continue
            except OSError as e:
                self.notify(f"Could not save the screenshot: {e.strerror or e}", severity="error")
                return
            self.notify(f"Saved to {path}", title="Screenshot saved")
            return
        self.notify(f"Could not find a free name for {stem}.svg in {folder}.", severity="error")

    def open_details(self, tile: ResultTile) -> None:
        from diskmark.app.screens.details import DetailsScreen

        result = tile.result
        if result is None or not (result.runs or result.error):
            self.notify(f"{tile.spec.label} {tile.op.value} has not run yet.")
            return
        session = self.state.session_of(result)
        buffered = session is not None and not session.settings.direct
        self.push_screen(DetailsScreen(result, buffered=buffered, session=session))
