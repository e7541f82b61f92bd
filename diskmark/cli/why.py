"""``diskmark why [TARGET]``: the storage stack under a target and what each layer does to
the figures, printed without running a test, as ``lsblk -s`` would draw it, with sentences;
``--format json`` for scripts (the layers as a result's ``stack`` holds them, each with its
notes in English)."""

from __future__ import annotations

import argparse
import json
import os
import shutil
from typing import TYPE_CHECKING

from diskmark.cli.output import EXIT_OK, out, out_json
from diskmark.locale import N_, _

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser

WHY_HELP = N_("Reads /proc/self/mountinfo, /sys and, where installed, zfs and dmsetup (as "
              "root); writes nothing and starts no test. A layer that does not answer within "
              "a quarter of a second (a dead NFS server, a stopped FUSE program) is named as "
              "such; one diskmark does not know is shown as unknown.")


def add_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    why = sub.add_parser(
        "why", help=_("show the storage stack under a target and what each layer does to the "
                      "figures"),
        description=_("Show the layers under TARGET (default: the current directory), from "
                      "its file system down to the disks and their links, and what each does "
                      "to the figures: compression, caches, FUSE, a loop device, encryption, "
                      "RAID, a slow link, a virtual disk."),
        epilog=_(WHY_HELP))
    why.add_argument("target", nargs="?", default=".", metavar="TARGET",
                     help=_("a directory, a file or a block device (default: the current "
                            "directory)"))
    why.add_argument("--format", choices=["text", "json"], default="text",
                     help=_("json: the layers, outermost first, each with its kind, what "
                            "identifies it, its effects and its notes"))


def cmd_why(args: argparse.Namespace) -> int:
    from diskmark.drive.stack.resolve import stack_of
    from diskmark.report.stack_words import stack_json, why_text

    target = os.path.abspath(os.path.expanduser(args.target))
    layers = stack_of(target)
    if args.format == "json":
        out_json(json.dumps({"target": target, "stack": stack_json(layers)}, indent=2,
                            ensure_ascii=False) + "\n")
        return EXIT_OK
    width = shutil.get_terminal_size((100, 24)).columns
    out(why_text(target, layers, width=width))
    return EXIT_OK
