"""The command line read as it was typed: diskmark's argparse parser and its value types.

- A word that is not a command, an action or one of an option's choices, and an option the
  command does not have, are refused by the command they were typed to, with that command's
  usage and the nearest word it knows ("did you mean 'run'?", "did you mean --size?"), exit
  status 2, rather than by the top level's usage, which does not say what went wrong.
- An option that the top level and a command both have (``--target``) counts wherever it is
  typed: ``diskmark --target X run`` tests X. argparse alone would let the command's default
  overwrite it. Typed on both sides with different values, or before a command that has no
  such option, it is refused, naming both: never ignored.
- argparse's messages are printed escaped, as every other output of diskmark, and in the
  user's language: its own words ("usage: ", "options", "expected one argument") go through
  diskmark.locale (:mod:`diskmark.cli.argparse_words` marks them for the catalogs).
- ``--lang LANG`` is read before the parser is built (:func:`typed_language`), so --help is
  in that language too; every command and action accepts it, before or after its name.
- Help in Japanese or Chinese is wrapped by terminal cells and between characters
  (:class:`HelpFormatter`): argparse counts characters and breaks only at spaces, so such
  help ran past the terminal's edge.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

    from diskmark.model.claims import Claim

from diskmark.cli.output import out
from diskmark.cli.streams import write_err
from diskmark.locale import LANGUAGES, _, ngettext
from diskmark.locale.text_safety import shown
from diskmark.model.numerals import decimal_number, other_digits, whole_number
from diskmark.model.settings import text_parser
from diskmark.model.units import Unit
from diskmark.report.cells import char_cells, wrap_cells

#: Options both the top level and a command declare: the top level's is stored under
#: ``<name>_before`` and moved to ``<name>`` by :func:`options_before_command`.
SHARED = ("target", "claim")
#: Where :class:`Typed` notes which options were typed (a default is not a choice).
TYPED = "typed_options"
#: The option that chooses the language, on every command.
LANG_OPTION = "--lang"


def typed_language(words: Sequence[str]) -> str | None:
    """The value of the last ``--lang LANG`` or ``--lang=LANG`` typed anywhere before ``--``
    (before or after a command), read ahead of argparse so that --help is already in that
    language; None when there is none (a ``--lang`` without a value is argparse's to refuse)."""
    found = None
    for i, word in enumerate(words):
        if word == "--":
            break
        if word == LANG_OPTION and i + 1 < len(words):
            found = words[i + 1]
        elif word.startswith(LANG_OPTION + "="):
            found = word.split("=", 1)[1]
    return found


def speak_argparse() -> None:
    """argparse's own words ("usage: ", "the following arguments are required: %s") in the
    language in use: argparse looks up ``_`` and ``ngettext`` in its module when it prints."""
    setattr(argparse, "_", _)  # noqa: B010 (typeshed does not declare argparse's _)
    setattr(argparse, "ngettext", ngettext)  # noqa: B010


def _wide(text: str) -> bool:
    return any(char_cells(ch) == 2 for ch in text)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's, but a text with wide characters is wrapped by :func:`wrap_cells`; any
    other exactly as argparse wraps it."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not _wide(text):
            return super()._split_lines(text, width)
        return wrap_cells(" ".join(text.split()), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not _wide(text):
            return super()._fill_text(text, width, indent)
        return "\n".join(indent + line
                         for line in wrap_cells(" ".join(text.split()), width - len(indent)))


class RawDescriptionHelpFormatter(HelpFormatter):
    """Descriptions and epilogs printed as written, lines and all (the translation's lines
    too); options' help wrapped by :class:`HelpFormatter`."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))


class Parser(argparse.ArgumentParser):
    """argparse, printing as every other output of diskmark does (escaped, a closed stdout
    reported to ``main`` rather than silently swallowed), and saying what was mistyped. Every
    command and action has ``--lang`` (read before parsing: :func:`typed_language`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)
        self.add_argument(
            LANG_OPTION, metavar="LANG", default=argparse.SUPPRESS,
            # TRANSLATORS: {languages} is the list of language codes (en, ja, de, …)
            help=_("the language of messages and help: {languages} (default: the "
                   "environment's, from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)").format(
                       languages=", ".join(LANGUAGES)))

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
        words = {"value": repr(value), "near": repr(near[0]) if near else "",
                 "choices": ", ".join(choices)}
        if isinstance(action, argparse._SubParsersAction):  # a command or an action
            if action.metavar == "ACTION":
                raise argparse.ArgumentError(None, (
                    _("unknown action {value}; did you mean {near}? (the actions: {choices})")
                    if near else _("unknown action {value} (the actions: {choices})")
                ).format(**words))
            raise argparse.ArgumentError(None, (
                _("unknown command {value}; did you mean {near}? (the commands: {choices})")
                if near else _("unknown command {value} (the commands: {choices})")
            ).format(**words))
        raise argparse.ArgumentError(action, (
            _("invalid choice: {value}; did you mean {near}? (choose from {choices})")
            if near else _("invalid choice: {value} (choose from {choices})")).format(**words))

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

        known = [s for action in self._actions if action.help != argparse.SUPPRESS
                 for s in action.option_strings]
        for word in extras:
            option = word.split("=", 1)[0]
            if not option.startswith("-") or option == "-":
                continue
            near = difflib.get_close_matches(option, known, n=1)
            if near:
                return _("unknown option {option}; did you mean {near}?").format(
                    option=option, near=near[0])
        return _("unrecognized arguments: %s") % " ".join(extras)


def add_replace(parser: argparse.ArgumentParser | argparse._ArgumentGroup, help: str) -> None:
    """``--replace``: the one word, on every command, for letting what is written take the
    place of what is there (a file, a baseline of the same name). ``--force``, which some
    commands used for files, is kept as a hidden alias so that scripts keep working, and
    is neither offered by completion nor suggested for a typo."""
    parser.add_argument("--replace", action="store_true", help=help)
    parser.add_argument("--force", dest="replace", action="store_true", help=argparse.SUPPRESS)


def command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of ``command``, so that a check made after parsing (``--fail-on-regression
    needs --compare``) is said as that command's error, with its usage, as argparse's own
    checks are; the top level's when it has no such command."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and command in action.choices:
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


class Typed(argparse.Action):
    """``store``, noting that the option was typed: :func:`options_before_command` must tell
    a command's default from a value the user gave it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        setattr(namespace, TYPED, getattr(namespace, TYPED, set()) | {self.dest})


class TypedAppend(argparse._AppendAction):
    """``append`` (``--claim`` again for another test), noting that the option was typed,
    as :class:`Typed` does."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        super().__call__(parser, namespace, values, option_string)
        setattr(namespace, TYPED, getattr(namespace, TYPED, set()) | {self.dest})


class TypedEach(Typed):
    """``append``, noting that the option was typed: the first value typed replaces the
    default (``--target``'s "."), the next ones join it in a list (``--target A --target
    B``); typed once, the value stays as ``store`` keeps it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if self.dest in getattr(namespace, TYPED, set()):
            before = getattr(namespace, self.dest)
            values = [*(before if isinstance(before, list) else [before]), values]
        super().__call__(parser, namespace, values, option_string)


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
            parser.error(_("--{name} {before} was typed before `{command}`, which has no "
                           "--{name} option; nothing was done.").format(
                               name=name, command=command, before=_as_typed(before)))
        elif name in typed and getattr(args, name) != before:
            after = getattr(args, name)
            after = " ".join(after) if isinstance(after, list) else after
            parser.error(_("--{name} was typed twice with different values: {before} before "
                           "`{command}` and {after} after it; give it once.").format(
                               name=name, before=_as_typed(before), command=command,
                               after=_as_typed(after)))
        else:
            setattr(args, name, before)


def _as_typed(value: Any) -> str:
    """An option's value as typed: each of an option given again (``--claim``) quoted."""
    return " ".join(map(repr, value)) if isinstance(value, list) else str(value)


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


def claim(text: str) -> str:
    """``--claim "SEQ1M Q8T1 read=3500,write=3000"``: the figures a drive is claimed to
    reach, checked as the claims file's are (:mod:`diskmark.checks.claims`) and kept as
    typed (:func:`claims` reads them)."""
    from diskmark.checks.claims import parse_claims

    try:
        parse_claims(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def claims(typed: list[str] | None) -> list[Claim]:
    """Every ``--claim`` typed, read."""
    from diskmark.checks.claims import parse_claims

    return [c for text in typed or [] for c in parse_claims(text)]


def unit(text: str) -> Unit:
    try:
        return Unit.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def whole(text: str) -> int:
    """A whole number of the command line (``--limit N``), in the digits 0 to 9 as every
    number diskmark reads (:mod:`diskmark.model.numerals`)."""
    try:
        return whole_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            other_digits(text) or _("not a whole number: {text}").format(text=repr(text))) from None


def number(text: str) -> float:
    """A number with or without a decimal point (``--older-than DAYS``), in the digits 0 to 9."""
    try:
        return decimal_number(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            other_digits(text) or _("not a number: {text}").format(text=repr(text))) from None


def percent(text: str) -> float:
    try:
        value = decimal_number(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            other_digits(text) or _("not a percentage: {text}").format(text=repr(text))) from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(_("the percentage must be 0 or more"))
    return value
