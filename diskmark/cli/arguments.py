"""The command line read as it was typed: diskmark's argparse parser and its value types.

- A word that is not a command, an action or one of an option's choices, and an option the
  command does not have, are refused by the command they were typed to, with that command's
  usage and the nearest word it knows ("did you mean 'run'?", "did you mean --size?"), exit
  status 2, rather than by the top level's usage, which does not say what went wrong.
- An option that the top level and a command both have (``--target``) counts wherever it is
  typed: ``diskmark --target X run`` tests X. argparse alone would let the command's default
  overwrite it. Typed on both sides with different values, or before a command that has no
  such option, it is refused, naming both: never ignored.
- argparse's messages are printed escaped, as every other output of diskmark.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

from diskmark.cli.output import out
from diskmark.cli.streams import write_err
from diskmark.files.text_safety import shown
from diskmark.model.settings import text_parser
from diskmark.model.units import Unit

#: Options both the top level and a command declare: the top level's is stored under
#: ``<name>_before`` and moved to ``<name>`` by :func:`options_before_command`.
SHARED = ("target",)
#: Where :class:`Typed` notes which options were typed (a default is not a choice).
TYPED = "typed_options"


class Parser(argparse.ArgumentParser):
    """argparse, printing as every other output of diskmark does (escaped, a closed stdout
    reported to ``main`` rather than silently swallowed), and saying what was mistyped."""

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        if not message:
            return
        if file is None or file is sys.stderr:
            write_err(shown(message))
        else:
            out(message)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        if action.choices is None or value in action.choices:
            return
        import difflib  # only for a mistake: the app's start does without it

        choices = [str(c) for c in action.choices]
        near = difflib.get_close_matches(str(value), choices, n=1)
        listed = ", ".join(choices)
        if isinstance(action, argparse._SubParsersAction):  # a command or an action
            kind = str(action.metavar or "command").lower()
            raise argparse.ArgumentError(None, (
                f"unknown {kind} {value!r}; did you mean {near[0]!r}? (the {kind}s: {listed})"
                if near else f"unknown {kind} {value!r} (the {kind}s: {listed})"))
        raise argparse.ArgumentError(action, (
            f"invalid choice: {value!r}; did you mean {near[0]!r}? (choose from {listed})"
            if near else f"invalid choice: {value!r} (choose from {listed})"))

    # typeshed overloads it per namespace type; this one passes any namespace through
    def parse_known_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                         namespace: argparse.Namespace | None = None,
                         ) -> tuple[argparse.Namespace, list[str]]:
        """Parse; words left over are refused here, by the command they were typed to (a
        command's parser runs inside the top level's, so it refuses them first)."""
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(self._unknown(extras))
        return parsed, extras

    def _unknown(self, extras: list[str]) -> str:
        import difflib

        known = [s for action in self._actions for s in action.option_strings]
        for word in extras:
            option = word.split("=", 1)[0]
            if not option.startswith("-") or option == "-":
                continue
            near = difflib.get_close_matches(option, known, n=1)
            if near:
                return f"unknown option {option}; did you mean {near[0]}?"
        words = " ".join(extras)
        return f"unrecognized arguments: {words}"


class Typed(argparse.Action):
    """``store``, noting that the option was typed: :func:`options_before_command` must tell
    a command's default from a value the user gave it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, TYPED, getattr(namespace, TYPED, set()) | {self.dest})


def options_before_command(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Give the command each shared option typed before it (``diskmark --target X run``);
    refuse it (exit 2) when the command has no such option, or was given another value."""
    typed: set[str] = getattr(args, TYPED, set())
    words = [w for w in (args.command, getattr(args, "action", None)) if w]
    command = " ".join(words)
    for name in SHARED:
        before = getattr(args, f"{name}_before", None)
        if hasattr(args, f"{name}_before"):
            delattr(args, f"{name}_before")
        if not words:  # the app
            setattr(args, name, before)
        elif before is None:
            continue
        elif not hasattr(args, name):
            parser.error(f"--{name} {before} was typed before `{command}`, which has no "
                         f"--{name} option; nothing was done.")
        elif name in typed and getattr(args, name) != before:
            after = getattr(args, name)
            parser.error(f"--{name} was typed twice with different values: {before} before "
                         f"`{command}` and {after} after it; give it once.")
        else:
            setattr(args, name, before)


def setting(name: str) -> Callable[[str], Any]:
    """The argparse type of setting ``name``: its parser from the one settings schema, its
    messages as argparse prints them ("argument --measure: must be between …")."""
    parse = text_parser(name)

    def convert(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None
    convert.__name__ = name
    return convert


def unit(text: str) -> Unit:
    try:
        return Unit.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def percent(text: str) -> float:
    try:
        value = float(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a percentage: {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError("the percentage must be 0 or more")
    return value
