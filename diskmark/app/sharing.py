"""A result, or a result against another, saved as a page people can open anywhere: one
self-contained HTML file in the reports directory and, when Chromium is there to draw it, a
PNG beside it (drawn in a thread: it takes a few seconds)."""

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
    from diskmark.report.share.png import find_chromium

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
    if find_chromium() is None:
        screen.notify(_("Saved to {path}. (A PNG needs Chromium, which is not installed.)")
                      .format(path=path), title=_("Page saved"))
        return path
    screen.notify(_("Saved to {path}; drawing the PNG…").format(path=path), title=_("Page saved"))
    dest = path.with_suffix(".png")

    def draw() -> None:
        from diskmark.report.share.page import estimated_height
        from diskmark.report.share.png import render_png

        try:
            render_png(html, dest, estimated_height(session, reference is not None))
        except (RuntimeError, OSError) as e:
            screen.app.call_from_thread(screen.notify, _("No PNG: {error}").format(error=e),
                                        severity="error")
            return
        screen.app.call_from_thread(screen.notify, _("Saved to {path}").format(path=dest),
                                    title=_("PNG saved"))

    screen.run_worker(draw, thread=True, group="share", exit_on_error=False)
    return path
