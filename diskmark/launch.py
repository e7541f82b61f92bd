"""The ``diskmark`` command's first lines: the garbage collector stays off while it loads.

Loading diskmark and Textual makes some 65,000 objects and frees almost none, so the
collections the interpreter starts every 700 new objects found nothing to free and cost 10
to 30 ms of every start. The commands turn the collector back on as soon as the command
line is read; the app does once its modules are loaded, with what they made frozen out of
the collector's walks (``diskmark.cli.main.cmd_app``).
"""

from __future__ import annotations

import gc


def main() -> int:
    gc.disable()
    from diskmark.cli.main import main as command

    return command()
