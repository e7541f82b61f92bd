"""``diskmark completion SHELL``: the shell's completion script, made from the command line's
own parser by shtab, so a new option completes the day it is declared.

shtab writes a static script: completing costs no start of diskmark, and diskmark's start
costs nothing for completion. argcomplete, the other way, runs the whole program at every
Tab (about 120 ms here) and adds its import to every start. Only the saved baselines'
names change between Tabs: the script asks ``diskmark baselines list --names`` for them.
The preset and profile names are the ones known when the script is made (a user preset
added later completes after the script is made again).

What a completion offers came from files (a baseline's name from an import, a preset's id
from a user's TOML file), and the scripts hold or handle it as shell code: every word must
reach the command line as itself, whatever it holds. Two rules make it so. A word the script
holds (presets, profiles, units, languages) is a :func:`~diskmark.locale.text_safety.shell_word`,
read as itself by every shell even unquoted: the presets refuse any other id where they are
read, and :func:`annotate` offers no other. A baseline's name is free text (``new NVMe``,
``$(…)``, quotes): zsh's ``compadd`` and fish's ``complete -a`` take each line of
``--names`` as a literal and quote it themselves; bash's ``compgen -W`` would expand it as
code, so bash's helper matches the names itself and quotes them for the line (see
``_BASELINES_BASH``). A name that is not one printable line is not listed (see
``diskmark.cli.baselines``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from diskmark.cli.arguments import Parser

from diskmark.cli.output import EXIT_OK, error, out
from diskmark.locale import LANGUAGES, N_, _
from diskmark.locale.text_safety import shell_word

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
Install it where the shell looks for it, making the directory first:
  mkdir -p ~/.local/share/bash-completion/completions
  diskmark completion bash > ~/.local/share/bash-completion/completions/diskmark
  mkdir -p ~/.local/share/zsh/site-functions
  diskmark completion zsh > ~/.local/share/zsh/site-functions/_diskmark
      (and in ~/.zshrc, before compinit: fpath+=~/.local/share/zsh/site-functions)
  mkdir -p ~/.config/fish/completions
  diskmark completion fish > ~/.config/fish/completions/diskmark.fish
A new shell then completes commands, options, presets, profiles, units and the names of
saved baselines. Make it again after adding a user preset.
""")

#: The names of the saved baselines, asked of diskmark at each Tab: one a line, so a name
#: with spaces is one choice. Never ``compgen -W``, which expands every word it is given
#: (``$(…)`` in a name would run). The word typed is read as bash will read it, quotes and
#: backslashes removed, without eval; each name it begins is printed as the line needs it:
#: every character but letters, digits and ``_ . / + , -`` backslashed (``\ `` for a space,
#: and ``\:``, ``\=``, ``\@`` so that COMP_WORDBREAKS does not split it at the next Tab), or,
#: in a quote left open, what follows it written for that quote (readline then closes it).
_BASELINES_BASH = r"""
_diskmark_baselines() {
  local word=${COMP_WORDS[COMP_CWORD]} typed= before= quote= name rest out c i
  for ((i = 0; i < ${#word}; i++)); do
    c=${word:i:1}
    if [[ $quote == "'" ]]; then
      if [[ $c == "'" ]]; then quote=; else typed+=$c; fi
    elif [[ $quote == '"' ]]; then
      if [[ $c == '"' ]]; then quote=
      elif [[ $c == '\' && ${word:i+1:1} == [\$\`\"\\] ]]; then typed+=${word:i+1:1}; ((++i))
      else typed+=$c; fi
    elif [[ $c == '\' ]]; then typed+=${word:i+1:1}; ((++i))
    elif [[ $c == [\'\"] ]]; then quote=$c before=$typed
    else typed+=$c; fi
  done
  while IFS= read -r name; do
    [[ $name == "$typed"* ]] || continue
    rest=$name out=
    if [[ -n $quote ]]; then rest=${name:${#before}}; fi
    for ((i = 0; i < ${#rest}; i++)); do
      c=${rest:i:1}
      if [[ $quote == "'" ]]; then
        if [[ $c == "'" ]]; then c="'\''"; fi
      elif [[ $quote == '"' ]]; then
        if [[ $c == [\$\`\"\\] ]]; then c="\\$c"; elif [[ $c == '!' ]]; then c="\"'!'\""; fi
      elif [[ $c != [[:alnum:]_./+,-] ]]; then c="\\$c"; fi
      out+=$c
    done
    printf '%s\n' "$out"
  done < <(command diskmark baselines list --names 2>/dev/null)
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

    for problem in annotate(parser):
        error(problem)
    out(shtab.complete(parser, args.shell))
    return EXIT_OK


def annotate(parser: argparse.ArgumentParser) -> list[str]:
    """Tell shtab what each value is: a directory, a file, a baseline's name, or one of a
    list that argparse does not check itself (it reads presets, profiles, checks and units on
    its own terms). ``parser`` is one built for this script alone: its choices change
    nothing that parses. Returns the user presets and checks that were skipped and why, as
    ``diskmark presets`` and ``diskmark checks`` say it: one missing from the script is
    named as it is made."""
    import shtab

    from diskmark.checks import load_catalog as load_checks
    from diskmark.model.units import Unit
    from diskmark.presets import load_catalog

    catalog = load_catalog()
    checks = load_checks()
    presets = list(catalog.presets)
    profiles = list(dict.fromkeys(p for preset in catalog.presets.values() for p in preset.profiles))
    units = [u.value for u in Unit] + ["us"]
    for action, command in _actions(parser, ()):
        name = action.dest
        if name in ("target", "target_before"):
            action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
        elif name in ("output", "file") or action.metavar in ("FILE", "DIR|FILE", "FILE|DIR"):
            action.complete = shtab.FILE  # type: ignore[attr-defined]
        elif (name == "compare" or (command == ("history", "share") and name == "baseline")
              or (command[:1] == ("baselines",) and command != ("baselines", "import")
                  and name in ("name", "a", "b"))):
            action.complete = BASELINES  # type: ignore[attr-defined]
        elif command == ("check",) and name == "names":
            action.choices = list(checks.checks)
        elif name == "preset":
            action.choices = presets
        elif name == "profile":
            action.choices = profiles
        elif name == "unit":
            action.choices = list(dict.fromkeys(units))
        elif name == "lang":
            action.choices = list(LANGUAGES)
        if action.choices is not None:
            # the script holds these as code: only words every shell reads as themselves
            action.choices = [c for c in action.choices if shell_word(str(c))]
    return ([_("skipped preset {problem}").format(problem=p) for p in catalog.problems]
            + [_("skipped check {problem}").format(problem=p) for p in checks.problems])


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
