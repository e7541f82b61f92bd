"""``diskmark``: the command line read in the language asked for, then the command it
names run, or the app opened when it names none.

Exit codes (``diskmark run``): 0 done, 1 the benchmark failed, 2 bad arguments or an unusable
target (nothing was started), 3 a regression beyond ``--fail-on-regression``, 4 the run was
not kept in the history (its report is printed all the same), 130 interrupted
(``diskmark check``: 3 a check failed, 5 one cannot be told, see diskmark.cli.checks);
any command: 141 when the reader of stdout went away (see diskmark.cli.streams).
"""

from __future__ import annotations

import argparse
import gc
import sys

from diskmark.cli.arguments import command_parser, options_before_command, typed_language
from diskmark.cli.baselines import cmd_baselines
from diskmark.cli.output import EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, error, out
from diskmark.cli.parser import COMMANDS, build_parser
from diskmark.cli.streams import (
    StdoutFailed,
    ensure_std_streams,
    flush_out,
    stdout_failed,
    stdout_gone,
)
from diskmark.locale import LANGUAGES, _, match, set_language, unreadable_catalog
from diskmark.locale.text_safety import shown
from diskmark.presets.words import said_name


def main(argv: list[str] | None = None) -> int:
    """Run one command. Whatever it is, a reader of stdout that has gone (``| head -1``) ends
    it quietly with status 141, and a stdout that cannot be written (``> /dev/full``) with
    one line and status 1, instead of a traceback (see diskmark.cli.streams)."""
    ensure_std_streams()
    try:
        try:
            status = _command(argv)
        except SystemExit as e:  # argparse after --help, --version or a usage error
            status = e.code if isinstance(e.code, int) else EXIT_USAGE if e.code else EXIT_OK
        flush_out()
    except BrokenPipeError:
        return stdout_gone()
    except StdoutFailed as e:
        return stdout_failed(e)
    return status


def choose_language(words: list[str]) -> str | None:
    """Speak the language ``--lang`` names (anywhere in ``words``), else the environment's,
    before anything is built or printed. Returns the language --lang chose (None: not
    typed), even when its catalog cannot be read, so the app says so too; exits 2 with the
    languages diskmark speaks for one it does not. A catalog that cannot be read is said in
    one line, once, and English spoken."""
    set_language(None)  # the environment's, for a refusal of --lang too
    typed = typed_language(words)
    if typed is None or typed.startswith("-"):  # a --lang without its value: argparse says so
        _warn_unreadable_catalog()
        return None
    chosen = match(typed)
    if chosen is None:
        _warn_unreadable_catalog()  # the environment's, which the refusal is said in
        error(_("--lang {value}: diskmark does not speak that language; it speaks "
                "{languages}.").format(value=typed, languages=", ".join(
                    f"{code} ({name})" for code, name in LANGUAGES.items())))
        raise SystemExit(EXIT_USAGE)
    set_language(chosen)
    _warn_unreadable_catalog()
    return chosen


def _warn_unreadable_catalog() -> None:
    """The language asked for is not spoken, its catalog unreadable: one line, in English."""
    unreadable = unreadable_catalog()
    if unreadable is not None:
        error(shown(unreadable.warning, one_line=True))


def read_command_line(argv: list[str] | None) -> tuple[argparse.ArgumentParser,
                                                       argparse.Namespace]:
    """The parser, in the language chosen, and what it read; ``args.lang`` is the language
    --lang chose, None when it was not typed (the app's saved choice may apply then)."""
    words = sys.argv[1:] if argv is None else argv
    lang = choose_language(words)
    parser = build_parser(only=set(words) & set(COMMANDS))
    args = parser.parse_args(argv)
    args.lang = lang
    options_before_command(parser, args)
    if args.command == "run" and args.format is None:  # a person reads a grid; a file is the text
        args.format = "text" if args.output not in (None, "-") else "grid"
    return parser, args


def _command(argv: list[str] | None) -> int:
    parser, args = read_command_line(argv)
    if args.command is not None:
        gc.enable()  # off while diskmark loaded (diskmark.launch); the app turns it on itself
    if args.command in ("run", "check", "presets", "baselines", "history"):
        sweep_leftovers()  # the app does it itself, on screen
    if args.command == "run":
        try:
            from diskmark.cli.run import cmd_run

            return cmd_run(args, command_parser(parser, "run"))
        except KeyboardInterrupt:  # before the engine's own handler is in place
            error(_("interrupted"))
            return EXIT_INTERRUPTED
    if args.command == "check":
        from diskmark.cli.checks import cmd_check

        try:
            return cmd_check(args, command_parser(parser, "check"))
        except KeyboardInterrupt:  # before the engine's own handler is in place
            error(_("interrupted"))
            return EXIT_INTERRUPTED
    if args.command == "checks":
        from diskmark.cli.checks import cmd_checks

        return cmd_checks(args)
    if args.command == "why":
        from diskmark.cli.why import cmd_why

        return cmd_why(args)
    if args.command == "presets":
        return cmd_presets()
    if args.command == "baselines":
        return cmd_baselines(args)
    if args.command == "history":
        from diskmark.cli.history import cmd_history
        from diskmark.cli.history_views import share_command, trend_command

        return cmd_history(args, {"trend": trend_command, "share": share_command})
    if args.command == "keys":
        from diskmark.cli.keys import cmd_keys

        return cmd_keys()
    if args.command == "completion":
        from diskmark.cli.completion import cmd_completion

        return cmd_completion(args, build_parser())
    return cmd_app(args)


def cmd_app(args: argparse.Namespace) -> int:
    """``diskmark`` without a command: the app, in ``--lang``'s language if one was typed."""
    from diskmark.app.app import DiskmarkApp  # Textual loads only for the app

    # What the imports made lives as long as the app: frozen, the collector (off since
    # diskmark.launch, on once the first frame is drawn) never walks it; its full collection
    # in the middle of composing the window cost that frame 13 ms.
    gc.freeze()
    from diskmark.cli.arguments import claims

    code = DiskmarkApp(target=args.target, language=args.lang, claims=claims(args.claim)).run()
    return code if isinstance(code, int) else 0


def cmd_presets() -> int:
    from diskmark.files.paths import user_presets_dir
    from diskmark.presets import load_catalog

    catalog = load_catalog()
    for preset in catalog.presets.values():
        times = {"measure": f"{preset.measure:g}", "interval": f"{preset.interval:g}",
                 "source": preset.source}
        timing = (_("measure {measure} s, interval {interval} s, from built-in")
                  if preset.source == "built-in" else
                  # TRANSLATORS: {source} is the path of the preset's TOML file
                  _("measure {measure} s, interval {interval} s, from {source}")).format(**times)
        name = shown(said_name(preset.name), one_line=True)
        description = shown(_(preset.description), one_line=True)
        out(f"{preset.id}: {name} — {description}\n    {timing}\n")
        width = max(len(profile.id) for profile in preset.profiles.values())
        for profile in preset.profiles.values():
            tests = ", ".join(t.label for t in profile.tests)
            out(f"    {profile.id:{width}}  {shown(said_name(profile.name), one_line=True)}: {tests}\n")
    out("\n" + _("User presets: {files}").format(files=f"{user_presets_dir()}/*.toml") + "\n")
    for problem in catalog.problems:
        error(_("skipped preset {problem}").format(problem=problem))
    return EXIT_OK


def sweep_leftovers() -> None:
    """Remove what a diskmark that was killed (kill -9, a power cut) left behind, saying so,
    and the cache file of earlier versions (nothing to say: it was only a cache)."""
    from diskmark.engine.leftovers import sweep_register
    from diskmark.files.old_cache import remove_toml_cache

    remove_toml_cache()

    for found in sweep_register():
        error(found.describe())
