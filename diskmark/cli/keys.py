"""``diskmark keys``: the app's keys as the settings file's keymap makes them, and what is
wrong with that keymap (a key given to two bindings, an id that is not one), checked
without starting the app: Textual is not even loaded."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser

from diskmark.cli.output import EXIT_FAILED, EXIT_OK, notice, out
from diskmark.locale import N_, _

KEYS_HELP = N_("exit status: 0 the keymap is sound (or there is none), 1 the settings file or "
               "its keymap has problems (they are printed on stderr).")


def add_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    sub.add_parser(
        "keys", help=_("list the app's keys and check the keymap of the settings file"),
        description=_("List every key binding of the app with its id, its keys (as the "
                      "\"keymap\" of the settings file remaps them) and what it does, and report "
                      "what is wrong with that keymap: a key bound twice, an unknown id."),
        epilog=_(KEYS_HELP))


def cmd_keys() -> int:
    from diskmark.app.core.keymap import DEFAULT, KEYS, resolve
    from diskmark.store.app_settings import config_path, read_config

    path = config_path()
    cfg, problems = read_config()
    keymap = resolve(cfg.keymap, str(path)) if cfg.keymap else DEFAULT
    from diskmark.report.cells import text_cells

    if cfg.keymap:
        out(_("The app's keys, with the keymap of {path}:").format(path=path) + "\n\n")
    else:
        # TRANSLATORS: {example} is a line of the settings file, kept as it is
        out(_("The app's keys (no keymap in {path}; add {example} there to remap one):").format(
            path=path, example='"keymap": {"run_all": "r"}') + "\n\n")
    none = _("(no key)")
    width = max(len(k.id) for k in KEYS)
    keys_width = max(text_cells(",".join(keymap.keys[k.id]) or none) for k in KEYS)
    for k in KEYS:
        keys = ",".join(keymap.keys[k.id]) or none
        keys += " " * (keys_width - text_cells(keys))  # cells: "(no key)" may be CJK
        line = f"  {k.id:<{width}}  {keys}  {_(k.does)}"
        if k.id in (cfg.keymap or {}) and k.id in keymap.remapped:
            line += "  " + _("(remapped; by default {keys})").format(keys=k.keys)
        elif k.id in keymap.remapped:
            line += "  " + _("(by default {keys}; the keymap took it, see below)").format(
                keys=k.keys)
        out(line.rstrip() + "\n")
    if problems:
        notice(_("the settings file {path} has problems, so the app will set it aside and use "
                 "defaults for them: {problems}.").format(path=path, problems="; ".join(problems)))
    for problem in keymap.problems:
        notice(problem)
    return EXIT_FAILED if problems or keymap.problems else EXIT_OK
