"""A result, or a result against another, saved as a page people can open anywhere: one
self-contained HTML file in the reports directory and its picture, a PNG beside it (drawn in
a thread: it takes a fraction of a second, more with many fonts installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen

from diskmark.locale import _, as_sentence
from diskmark.model.results import SessionResult


def share_page(screen: Screen[Any], session: SessionResult, stem: str, title: str,
               reference: SessionResult | None = None, reference_name: str = "") -> Path | None:
    """Write the page as ``<stem>.html`` (``<stem>-2.html``… when taken); say where on
    ``screen``. Returns the HTML's path, or None when it could not be written."""
    from diskmark.files.destination import DestinationError, write_new
    from diskmark.files.paths import reports_dir
    from diskmark.report.share.colours import UnknownTheme, theme_colours
    from diskmark.report.share.page import render_html

    try:
        colours = theme_colours(screen.app.theme)
    except UnknownTheme:  # one of Textual's own themes: the page takes diskmark's
        colours = theme_colours("diskmark")
    html = render_html(session, colours, reference=reference, reference_name=reference_name,
                       title=title)
    folder = reports_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)  # the reports directory, made on first use
        path = write_new(folder, f"{stem}.html", html)
    except OSError as e:
        screen.notify(_("Could not create {folder}: {error}").format(folder=folder,
                                                                     error=e.strerror or e),
                      severity="error")
        return None
    except DestinationError as e:
        screen.notify(as_sentence(str(e)), severity="error")
        return None
    screen.notify(_("Saved to {path}; drawing the PNG…").format(path=path), title=_("Page saved"))

    def draw() -> None:
        from diskmark.report.share.picture import render_svg
        from diskmark.report.share.png import PictureError, svg_to_png

        svg = render_svg(session, colours, reference=reference, reference_name=reference_name,
                         title=title)
        try:
            picture, note = svg_to_png(svg)
            dest = write_new(folder, f"{path.stem}.png", picture)  # beside the page
        except (PictureError, DestinationError) as e:
            screen.app.call_from_thread(screen.notify, _("No PNG: {error}").format(error=e),
                                        severity="error")
            return
        if note:
            screen.app.call_from_thread(screen.notify, note, severity="warning", timeout=12)
        screen.app.call_from_thread(screen.notify, _("Saved to {path}").format(path=dest),
                                    title=_("PNG saved"))

    screen.run_worker(draw, thread=True, group="share", exit_on_error=False)
    return path
