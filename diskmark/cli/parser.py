"""The command line's words: every command and option, their help in the language in use.

Built from here: what ``diskmark`` reads (:mod:`diskmark.cli.main`), the man page
(:mod:`diskmark.cli.manpage`, written as the package is built, in a build environment that
has none of diskmark's dependencies: nothing here may need them) and the shells'
completion (:mod:`diskmark.cli.completion`). A command's own options may live with the
command (``history``, ``keys``, ``completion``, ``run --host``); this module puts them
together.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection

from diskmark import __version__
from diskmark.cli import run_fleet, run_targets
from diskmark.cli.arguments import (
    Parser,
    RawDescriptionHelpFormatter,
    TypedAppend,
    TypedEach,
    add_replace,
    claim,
    percent,
    setting,
    speak_argparse,
    unit,
)
from diskmark.cli.run_help import RUN_EPILOG
from diskmark.locale import _
from diskmark.model.settings import COUNT_MAX, COUNT_MIN, UNSTABLE_PCT, DataPattern, Mode, Settings
from diskmark.model.units import Unit

DEFAULTS = Settings()

#: The commands, each declared only when it was typed (see :func:`build_parser`).
COMMANDS = ("run", "check", "checks", "why", "presets", "baselines", "history", "keys",
            "completion")


def build_parser(only: Collection[str] | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with ``only`` the options of those commands alone (the
    others are named, with their help): the app's start parses none of them, and declaring
    every option cost it 5 ms. Its texts are in the language in use (set it first)."""
    speak_argparse()
    parser = Parser(
        prog="diskmark",
        description=_("CrystalDiskMark for the Linux terminal. Without a command, opens the "
                      "full-screen app; `diskmark run` measures headless for scripts."),
        formatter_class=RawDescriptionHelpFormatter,
        epilog=_("Set NO_COLOR=1 for a monochrome app. DISKMARK_FIO selects the fio binary; "
                 "DISKMARK_HOME moves settings, presets, history and baselines to one "
                 "directory."))
    parser.add_argument("-V", "--version", action="version", version=f"diskmark {__version__}",
                        help=_("show program's version number and exit"))
    parser.add_argument("--target", metavar="DIR", dest="target_before",
                        help=_("directory to test in the app (default: last used); before a "
                               "command, the same as that command's --target"))
    parser.add_argument("--claim", metavar="CLAIM", dest="claim_before", action=TypedAppend,
                        type=claim,
                        help=_("what the drive is claimed to do (\"SEQ1M Q8T1 read=3500,"
                               "write=3000\"): the app's tiles show each figure's %% of it; "
                               "before `run`, the same as run's --claim"))
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser(
        "run", help=_("run a benchmark without the app and print a report"),
        description=_("Run the CrystalDiskMark tests with fio in DIR (or on a block device) "
                      "and print a report."),
        formatter_class=RawDescriptionHelpFormatter,
        epilog=_(RUN_EPILOG) + _(run_targets.TARGETS_HELP) + _(run_fleet.FLEET_HELP))
    if only is None or "run" in only:
        _run_options(run)
    from diskmark.cli.checks import add_parsers as add_checks_parsers

    add_checks_parsers(sub, (only is None or "check" in only, only is None or "checks" in only))
    sub.add_parser("presets", help=_("list the presets, their profiles and tests"),
                   description=_("List built-in and user presets (TOML files in the config "
                                 "directory) with their profiles and tests."))
    bl = sub.add_parser(
        "baselines", help=_("list, show, compare, delete, export and import saved baselines"),
        # TRANSLATORS: printed as it is: keep lines under 90 characters (CJK: 45)
        description=_("Saved baselines: named results to compare later runs against. They live\n"
                      "in the SQLite file diskmark.sqlite3 in the data directory "
                      "(DISKMARK_HOME/data\n"
                      "when set), with the history of every finished run; export and import\n"
                      "share one as a JSON file."),
        formatter_class=RawDescriptionHelpFormatter,
        # TRANSLATORS: printed as it is: keep lines under 90 characters (CJK: 45)
        epilog=_("exit status: 0 done, 1 a file could not be read or written, 2 unknown\n"
                 "baseline, name taken or invalid file (nothing changed), 3 a regression "
                 "beyond\n--fail-on-regression."))
    if only is None or "baselines" in only:
        _baselines_actions(bl)

    from diskmark.cli.completion import add_parser as add_completion_parser
    from diskmark.cli.history import add_parser as add_history_parser
    from diskmark.cli.keys import add_parser as add_keys_parser
    from diskmark.cli.why import add_parser as add_why_parser

    add_why_parser(sub)
    add_history_parser(sub, {"unit": unit}, declare=only is None or "history" in only)
    add_keys_parser(sub)
    add_completion_parser(sub)
    return parser


def _run_options(run: argparse.ArgumentParser) -> None:
    run.add_argument("--target", metavar="DIR|DEVICE", default=".", action=TypedEach,
                     help=_("directory to test in; diskmark creates one hidden test file there "
                            "and removes it afterwards (default: current directory); or a block "
                            "device such as /dev/sdb, measured itself (read tests only, see "
                            "below). Repeat it to measure several targets side by side, each "
                            "test on every target in turn, the first the reference"))
    run.add_argument("--destroy-data", metavar="DEVICE",
                     help=_("allow the write and mix tests on the block device --target names; "
                            "DEVICE must be that same device. Everything on it is destroyed"))
    run.add_argument("--preset", default="default",
                     help=_("test set: default, nvme, flash or a user preset (see `diskmark presets`)"))
    run.add_argument("--profile", default="default",
                     help=_("default (4 rows), peak, real (real world), demo, stable "
                            "(the start delays and ramp times of snow_mountain's fio article), "
                            "or sustained (one long write: where its speed fell, see --duration)"))
    run.add_argument("--mix", nargs="?", const=70, type=setting("mix"), metavar="PCT",
                     help=_("add the +Mix tests: PCT%% reads, the rest writes (default 70)"))
    run.add_argument("--mode", choices=[m.value for m in Mode], default=DEFAULTS.mode.value,
                     help=_("rw: reads and writes (default); read: reads only; write: writes only"))
    run.add_argument("--size", type=setting("size"), default=DEFAULTS.size, metavar="SIZE",
                     help=_("test file size in whole MiB, 16MiB … 64GiB (default 1GiB); K, M, "
                            "G and KiB, MiB, GiB are binary; MB and GB are refused, as diskmark's "
                            "MB is 1,000,000 bytes"))
    run.add_argument("--count", type=setting("count"), default=DEFAULTS.count, metavar="N",
                     help=_("measured passes per test, {min}-{max}; the best is kept "
                            "(default {default})").format(min=COUNT_MIN, max=COUNT_MAX,
                                                          default=DEFAULTS.count))
    run.add_argument("--measure", type=setting("measure"), metavar="SEC",
                     help=_("seconds each pass measures (default: the preset's, 5)"))
    run.add_argument("--interval", type=setting("interval"), metavar="SEC",
                     help=_("seconds of rest between tests (default: the preset's, 5)"))
    run.add_argument("--duration", type=setting("duration"), default=DEFAULTS.duration,
                     metavar="SEC", help=_("--profile sustained: write for SEC seconds (default "
                                           "{seconds}), wrapping around the --size test file"
                                           ).format(seconds=f"{DEFAULTS.duration:g}"))
    run.add_argument("--amount", type=setting("amount"), metavar="SIZE",
                     help=_("--profile sustained: stop once SIZE is written (e.g. 32GiB), if "
                            "that comes before --duration"))
    run.add_argument("--data", choices=[d.value for d in DataPattern], default=DEFAULTS.data.value,
                     help=_("test data: random (default; one buffer of random data filled once "
                            "and reused, as CrystalDiskMark's DiskSpd -Z), zeros (CDM's All "
                            "0x00), or refill (fresh random data for every write, for drives "
                            "that compress or deduplicate; costs CPU, which caps fast drives)"))
    run.add_argument("--buffered", action="store_true",
                     help=_("go through the page cache instead of O_DIRECT (needed on ramfs, "
                            "old tmpfs, some FUSE and network filesystems); labelled in the report"))
    run.add_argument("--down", action="store_true",
                     help=_("after the tests, run the same read tests on the block device under "
                            "the target's file system and under each layer that has one (a "
                            "loop device's file, dm-crypt's partition, an md member), read-only, "
                            "and say what each layer costs; see `diskmark why`"))
    run.add_argument("--nocow", action="store_true",
                     help=_("btrfs: test in a directory with copy-on-write turned off (chattr +C), "
                            "so CoW and the cache cannot inflate O_DIRECT figures"))
    run.add_argument("--sweep", metavar="PATTERN",
                     help=_("instead of a profile, run one pattern (e.g. RND4K, SEQ1M, SEQ128K) at "
                            "queue depths 1, 2, 4, 8, 16, 32 and draw the curve"))
    run.add_argument("--unstable", type=setting("unstable_pct"), default=UNSTABLE_PCT,
                     metavar="PCT",
                     help=_("mark a test unstable when its passes differ by more than PCT "
                            "percent (R/Avg: range over mean; default {pct})"
                            ).format(pct=f"{UNSTABLE_PCT:g}"))
    run.add_argument("--unit", type=unit, default=Unit.MB_S, metavar="UNIT",
                     help=_("unit of the summary grid: MB/s, GB/s, IOPS or µs, also written us (default MB/s)"))
    run.add_argument("--format", choices=["grid", "text", "json", "csv", "markdown"],
                     help=_("grid: a table of every figure, then the text report (the default "
                            "on standard output); text: CrystalDiskMark's text report alone, "
                            "as CrystalDiskMark saves it and its readers parse it (the default "
                            "with --output FILE); json: everything, schema diskmark.result/1; "
                            "csv: one row per pass; markdown: a table"))
    run.add_argument("--output", metavar="FILE",
                     help=_("write the report to FILE instead of stdout (- is stdout), checked "
                            "before the run: FILE's directory must exist, and an existing file "
                            "is replaced only with --replace; a FIFO or character device "
                            "(/dev/stdout) is written into, never replaced"))
    add_replace(run, _("let --output replace an existing regular file, and --save-baseline a "
                       "baseline of the same name"))
    run.add_argument("--comment", default="", help=_("a comment to include in the report"))
    run.add_argument("--claim", action=TypedAppend, default=[], type=claim, metavar="CLAIM",
                     help=_("what the drive is claimed to do, e.g. \"SEQ1M Q8T1 read=3500,"
                            "write=3000\" (MB/s; or GB/s, IOPS, us after the figure): each "
                            "figure then shows its %% of the claim, and whether it fell short "
                            "beyond the run's noise; again for more tests. The claims file "
                            "(claims.toml in the config directory) gives them by drive model"))
    run.add_argument("-q", "--quiet", action="store_true",
                     help=_("no progress on stderr; warnings and errors (a file left on disk, "
                            "a failure) are still printed"))
    run_fleet.add_arguments(run)
    saved = run.add_argument_group(_("baselines and comparison"))
    saved.add_argument("--save-baseline", metavar="NAME",
                       help=_("save this result as baseline NAME (any text); an existing NAME is "
                              "not replaced unless --replace"))
    saved.add_argument("--note", metavar="TEXT", default="",
                       help=_("a note stored with --save-baseline"))
    saved.add_argument("--compare", metavar="NAME",
                       help=_("compare with baseline NAME: the report gains baseline and delta "
                              "columns (JSON: a `comparison` section)"))
    saved.add_argument("--fail-on-regression", type=percent, metavar="PCT",
                       help=_("with --compare: exit with status 3 when any test is worse than the "
                              "baseline (beyond the runs' noise) by more than PCT percent, naming "
                              "which; X%% worse is X%% less MB/s or IOPS, or a latency whose "
                              "inverse is X%% lower (2x the latency = 50%% worse), see below"))


def _baselines_actions(bl: argparse.ArgumentParser) -> None:
    bsub = bl.add_subparsers(dest="action", metavar="ACTION", required=True)
    bls = bsub.add_parser("list", help=_("name, date, device, filesystem and headline MB/s of "
                                         "each baseline; damaged ones with the reason"))
    bls.add_argument("--format", choices=["text", "json"], default="text",
                     help=_("json: the fields of `history list --format json`, by name"))
    bls.add_argument("--names", action="store_true",
                     help=_("only the names, one a line, for scripts and shell completion"))
    show = bsub.add_parser("show", help=_("print a baseline's report"))
    show.add_argument("name", metavar="NAME")
    bcmp = bsub.add_parser("compare", help=_("compare two saved baselines without running anything"),
                           description=_("Compare baseline B against baseline A (A is the "
                                         "reference): every test's figures, deltas and verdicts."))
    bcmp.add_argument("a", metavar="A", help=_("the reference baseline"))
    bcmp.add_argument("b", metavar="B", help=_("the baseline compared with A"))
    bcmp.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    bcmp.add_argument("--fail-on-regression", type=percent, metavar="PCT",
                      help=_("exit with status 3 when B is worse than A by more than PCT "
                             "percent (X%% worse: X%% less MB/s or IOPS, or 1/latency X%% lower)"))
    delete = bsub.add_parser("delete", help=_("delete a baseline (a damaged one too)"))
    delete.add_argument("name", metavar="NAME")
    export = bsub.add_parser("export", help=_("write a baseline to a file to share it"))
    export.add_argument("name", metavar="NAME")
    export.add_argument("file", metavar="FILE", help=_("the file to write, or - for stdout"))
    add_replace(export, _("replace FILE if it exists"))
    imp = bsub.add_parser("import", help=_("import a baseline file (an export, the JSON "
                                           "report of `diskmark run --format json`, or a "
                                           "CrystalDiskMark text result)"),
                          description=_("Import a baseline file: an export, the JSON report "
                                        "of `diskmark run --format json`, or a text result "
                                        "CrystalDiskMark 5 to 9 saved (File → Save text), "
                                        "each test one pass with the file's figures. Its "
                                        "name is the file's, without its extension, unless "
                                        "--name gives another."))
    imp.add_argument("file", metavar="FILE")
    imp.add_argument("--name", metavar="N", help=_("save it under this name instead of its own"))
    add_replace(imp, _("replace a baseline of the same name"))
