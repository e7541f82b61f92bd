"""argparse's own words, marked for the catalogs: argparse translates them with gettext's
``_`` and ``ngettext``, which :func:`diskmark.cli.arguments.speak_argparse` points at
diskmark.locale, but no extraction reads argparse's source. These are the texts a user of
diskmark can see from argparse of Python 3.11 to 3.13, spelt exactly as argparse spells
them (a different spelling would never be looked up). Nothing imports this module: it
exists to be read by the extraction.
"""

from __future__ import annotations

from diskmark.locale import N_, ngettext

# TRANSLATORS: argparse's words. Keep every %s, %r and %(name)s exactly; "usage: " keeps its
# trailing space, and the error line its trailing newline.
WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("subcommands"),
    N_("%(heading)s:"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_(" (default: %(default)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("%(prog)s: warning: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("unrecognized arguments: %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
)


def _plurals(n: int) -> tuple[str, ...]:
    """argparse's plural: "expected 2 arguments" (``nargs=N``)."""
    return (ngettext("expected %s argument", "expected %s arguments", n),)
