"""``diskmark keys``: the app's keys as the settings file's keymap makes them, and what is
wrong with that keymap (a key given to two bindings, an id that is not one), checked
without starting the app: Textual is not even loaded."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser

from diskmark.cli.output import EXIT_FAILED, EXIT_OK, out, say

KEYS_HELP = ("exit status: 0 the keymap is sound (or there is none), 1 the settings file or "
             "its keymap has problems (they are printed on stderr).")


def add_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    sub.add_parser(
        "keys", help="list the app's keys and check the keymap of the settings file",
        description="List every key binding of the app with its id, its keys (as the "
                    "\"keymap\" of the settings file remaps them) and what it does, and report "
                    "what is wrong with that keymap: a key bound twice, an unknown id.",
        epilog=KEYS_HELP)


def cmd_keys() -> int:
    from diskmark.app.keymap import DEFAULT, KEYS, resolve
    from diskmark.store.app_settings import config_path, read_config

    path = config_path()
    cfg, problems = read_config()
    keymap = resolve(cfg.keymap, str(path)) if cfg.keymap else DEFAULT
    if cfg.keymap:
        out(f"The app's keys, with the keymap of {path}:\n\n")
    else:
        out(f"The app's keys (no keymap in {path}; add \"keymap\": {{\"run_all\": \"r\"}} "
            f"there to remap one):\n\n")
    width = max(len(k.id) for k in KEYS)
    keys_width = max(len(",".join(keymap.keys[k.id]) or "(no key)") for k in KEYS)
    for k in KEYS:
        keys = ",".join(keymap.keys[k.id]) or "(no key)"
        line = f"  {k.id:<{width}}  {keys:<{keys_width}}  {k.does}"
        if k.id in (cfg.keymap or {}) and k.id in keymap.remapped:
            line += f"  (remapped; by default {k.keys})"
        elif k.id in keymap.remapped:
            line += f"  (by default {k.keys}; the keymap took it, see below)"
        out(line.rstrip() + "\n")
    if problems:
        say(f"diskmark: the settings file {path} has problems, so the app will set it aside "
            f"and use defaults for them: {'; '.join(problems)}.")
    for problem in keymap.problems:
        say(f"diskmark: {problem}")
    return EXIT_FAILED if problems or keymap.problems else EXIT_OK
