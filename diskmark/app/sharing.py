"""A result, or a result against another, saved as a page people can open anywhere: one
self-contained HTML file in the reports directory and its picture, a PNG beside it (drawn in
a thread: it takes a fraction of a second, more with many fonts installed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.screen import Screen

from diskmark.locale import _
from diskmark.model.results import SessionResult


def share_page(screen: Screen[Any], session: SessionResult, stem: str, title: str,
               reference: SessionResult | None = None, reference_name: str = "") -> Path | None:
    """Write the page as ``<stem>.html`` (``<stem>-2.html``… when taken); say where on
    ``screen``. Returns the HTML's path, or None when it could not be written."""
    from diskmark.files.atomic import write_atomic
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
    path, n = folder / f"{stem}.html", 1
    while path.exists():
        n += 1
        path = folder / f"{stem}-{n}.html"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_atomic(path, html, exclusive=True)
    except OSError as e:
        # TRANSLATORS: {error} is the system's message (No space left on device)
        screen.notify(_("Could not save {path}: {error}").format(path=path, error=e.strerror or e),
                      severity="error")
        return None
    screen.notify(_("Saved to {path}; drawing the PNG…").format(path=path), title=_("Page saved"))
    dest = path.with_suffix(".png")

    def draw() -> None:
        from diskmark.report.share.picture import render_svg
        from diskmark.report.share.png import PictureError, svg_to_png

        svg = render_svg(session, colours, reference=reference, reference_name=reference_name,
                         title=title)
        try:
            picture, note = svg_to_png(svg)
            write_atomic(dest, picture, exclusive=True)
        except (PictureError, OSError) as e:
            screen.app.call_from_thread(screen.notify, _("No PNG: {error}").format(error=e),
                                        severity="error")
            return
        if note:
            screen.app.call_from_thread(screen.notify, note, severity="warning", timeout=12)
        screen.app.call_from_thread(screen.notify, _("Saved to {path}").format(path=dest),
                                    title=_("PNG saved"))

    screen.run_worker(draw, thread=True, group="share", exit_on_error=False)
    return path
