"""``diskmark completion SHELL``: the shell's completion script, made from the command line's
own parser by shtab, so a new option completes the day it is declared.

shtab writes a static script: completing costs no start of diskmark, and diskmark's start
costs nothing for completion. argcomplete, the other way, runs the whole program at every
Tab (about 120 ms here) and adds its import to every start. Only the saved baselines'
names change between Tabs: the script asks ``diskmark baselines list --names`` for them.
The preset and profile names are the ones known when the script is made (a user preset
added later completes after the script is made again).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser

from diskmark.cli.output import EXIT_OK, out
from diskmark.locale import LANGUAGES, N_, _

SHELLS = ("bash", "zsh", "fish")

#: Where each shell finds a user's completion script by itself, with no line in its rc file
#: (zsh: once the directory is on $fpath).
INSTALL_PATHS = {
    "bash": "~/.local/share/bash-completion/completions/diskmark",
    "zsh": "~/.local/share/zsh/site-functions/_diskmark",
    "fish": "~/.config/fish/completions/diskmark.fish",
}

# TRANSLATORS: printed as it is, lines and all: keep each line under 92 characters (CJK: 46),
# and the commands and paths exactly.
EPILOG = N_("""\
Install it where the shell looks for it:
  diskmark completion bash > ~/.local/share/bash-completion/completions/diskmark
  diskmark completion zsh > ~/.local/share/zsh/site-functions/_diskmark
      (and in ~/.zshrc, before compinit: fpath+=~/.local/share/zsh/site-functions)
  diskmark completion fish > ~/.config/fish/completions/diskmark.fish
A new shell then completes commands, options, presets, profiles, units and the names of
saved baselines. Make it again after adding a user preset.
""")

#: The names of the saved baselines, asked of diskmark at each Tab: one a line, so a name
#: with spaces is one choice.
_BASELINES_BASH = """
_diskmark_baselines() {
  local IFS=$'\\n'
  compgen -W "$(command diskmark baselines list --names 2>/dev/null)" -- "$1"
}"""
_BASELINES_ZSH = """
_diskmark_baselines() {
  local -a names
  names=(${(f)"$(command diskmark baselines list --names 2>/dev/null)"})
  compadd -a names
}"""
BASELINES: dict[str, Any] = {
    "bash": "_diskmark_baselines", "zsh": "_diskmark_baselines",
    "fish": "(command diskmark baselines list --names 2>/dev/null)",
    "preamble": {"bash": _BASELINES_BASH, "zsh": _BASELINES_ZSH},
}


def add_parser(sub: argparse._SubParsersAction[Parser]) -> None:
    from diskmark.cli.arguments import RawDescriptionHelpFormatter

    comp = sub.add_parser(
        "completion", help=_("print the completion script of bash, zsh or fish"),
        description=_("Print the script that lets SHELL complete diskmark's commands, options "
                      "and their values, and the names of saved baselines."),
        formatter_class=RawDescriptionHelpFormatter, epilog=_(EPILOG))
    comp.add_argument("shell", choices=SHELLS, metavar="SHELL", help=_("bash, zsh or fish"))


def cmd_completion(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """``parser`` is the whole command line, every command's options declared, in the
    language in use: zsh and fish show each option's help beside it."""
    import shtab

    annotate(parser)
    out(shtab.complete(parser, args.shell))
    return EXIT_OK


def annotate(parser: argparse.ArgumentParser) -> None:
    """Tell shtab what each value is: a directory, a file, a baseline's name, or one of a
    list that argparse does not check itself (it reads presets, profiles and units on its
    own terms). ``parser`` is one built for this script alone: its choices change nothing
    that parses."""
    import shtab

    from diskmark.model.units import Unit
    from diskmark.presets import load_catalog

    catalog = load_catalog()
    presets = list(catalog.presets)
    profiles = list(dict.fromkeys(p for preset in catalog.presets.values() for p in preset.profiles))
    units = [u.value for u in Unit] + ["us"]
    for action, command in _actions(parser, ()):
        name = action.dest
        if name in ("target", "target_before"):
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
        elif name in ("output", "file") or action.metavar in ("FILE", "DIR|FILE", "FILE|DIR"):
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif name == "compare" or (command[:1] == ("baselines",) and command != ("baselines", "import")
                                   and name in ("name", "a", "b")):
            action.complete = BASELINES  # type: ignore[attr-defined]
        elif name == "preset":
            action.choices = presets
        elif name == "profile":
            action.choices = profiles
        elif name == "unit":
            action.choices = list(dict.fromkeys(units))
        elif name == "lang":
            action.choices = list(LANGUAGES)


def _actions(parser: argparse.ArgumentParser, command: tuple[str, ...]
             ) -> list[tuple[argparse.Action, tuple[str, ...]]]:
    """Every action of ``parser`` and of its commands, each with the words of its command."""
    found: list[tuple[argparse.Action, tuple[str, ...]]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                found += _actions(sub, (*command, word))
        else:
            found.append((action, command))
    return found
