"""diskmark.1, the man page, written from the command line's own parser as the package is
built (hatch_build.py), so every command and option in it is the one ``--help`` shows.

A small writer of our own rather than argparse-manpage: the page needs sections argparse
does not hold (exit statuses, files, environment, examples), the commands' own epilogs laid
out as written, and nothing more at build time than the parser, which needs none of
diskmark's dependencies. The page is in English, as the README is: a build makes one page.
"""

from __future__ import annotations

import argparse
import os
import re
from datetime import UTC, datetime

from diskmark import __version__

SUMMARY = "CrystalDiskMark for the Linux terminal"

EXIT_STATUS = [
    ("0", "Done."),
    ("1", "The benchmark failed, or a file or the database could not be read or written; "
          "diskmark keys: the keymap has problems."),
    ("2", "Bad arguments, an unusable target, an unknown baseline or run, or a file that "
          "cannot be imported: nothing was started or changed."),
    ("3", "A regression beyond --fail-on-regression."),
    ("4", "diskmark run: the run finished and its report was printed, but it could not be "
          "kept in the history."),
    ("130", "Interrupted (Ctrl+C)."),
    ("141", "The reader of standard output went away (diskmark run | head -1)."),
]

ENVIRONMENT = [
    ("DISKMARK_HOME", "Keep everything in one directory instead of the XDG directories: "
                      "config/, data/, state/, cache/ and reports/ under it."),
    ("DISKMARK_FIO", "The fio binary to run (default: fio on PATH)."),
    ("DISKMARK_SMARTCTL", "The smartctl binary that reads a drive's health (default: "
                          "smartctl on PATH)."),
    ("DISKMARK_CHROMIUM", "The Chromium binary that renders a shared page as PNG, where one "
                          "is used."),
    ("NO_COLOR", "When set and no theme was saved, the app starts in the monochrome theme."),
    ("LANGUAGE, LC_ALL, LC_MESSAGES, LANG", "The language of messages and help when --lang is "
                                            "not given, read as gettext reads them."),
    ("XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, XDG_DOCUMENTS_DIR",
     "Where the files below live, when DISKMARK_HOME is not set."),
]

FILES = [
    ("~/.config/diskmark/settings.json", "The app's settings, its keymap among them."),
    ("~/.config/diskmark/presets/*.toml", "User presets (diskmark presets lists them)."),
    ("~/.config/diskmark/themes/*.toml", "User colour themes."),
    ("~/.local/share/diskmark/diskmark.sqlite3", "The history of every finished run and the "
                                                 "saved baselines."),
    ("~/.local/state/diskmark/", "The test directories in use, so that one left by a diskmark "
                                 "that was killed is found and removed."),
    ("~/.cache/diskmark/", "What can be made again from other files; safe to delete."),
    ("~/Documents/diskmark/", "Reports and screenshots saved from the app (the XDG documents "
                              "directory)."),
    ("DIR/.diskmark-*/", "The private directory of a run's test file in the target "
                                "directory DIR, removed at the end, on Stop, on errors and on "
                                "quit."),
]

EXAMPLES = [
    ("diskmark", "Open the app on the target used last time."),
    ("diskmark run --target /mnt/usb --size 256MiB", "Measure /mnt/usb headless and print "
                                                     "CrystalDiskMark's text report."),
    ("diskmark run --target /data --save-baseline \"new NVMe\"", "Measure, and keep the result "
                                                                 "as a baseline."),
    ("diskmark run --target /data --compare \"new NVMe\" --fail-on-regression 10",
     "Compare with it; exit with status 3 if any test is more than 10% worse."),
    ("diskmark history trend \"SEQ1M Q8T1\" --kind write", "A test's figure over time."),
    ("diskmark history share last --output run.html", "The newest run as an HTML page."),
    ("diskmark completion bash > ~/.local/share/bash-completion/completions/diskmark",
     "Install bash's completion."),
]


def escape(text: str) -> str:
    """``text`` as roff reads it literally: backslashes and hyphens escaped, a line that
    would start with a control character guarded, any other character than ASCII named."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # anything beyond ASCII (µs, …, →) as groff's named Unicode escapes: plain groff reads bytes
    text = "".join(c if ord(c) < 128 else f"\\[u{ord(c):04X}]" for c in text)
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def render(parser: argparse.ArgumentParser) -> str:
    """The whole page, from ``parser`` (every command's options declared)."""
    # a build's own date, or the one SOURCE_DATE_EPOCH fixes (the same page from the same source)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = datetime.fromtimestamp(int(epoch), UTC) if epoch.isdigit() else datetime.now(UTC)
    date = when.strftime("%Y-%m-%d")
    out = [f'.TH DISKMARK 1 "{date}" "diskmark {__version__}" "User Commands"',
           ".SH NAME", f"diskmark \\- {escape(SUMMARY)}",
           ".SH SYNOPSIS", ".B diskmark", "[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fIARGS\\fR]]",
           ".SH DESCRIPTION", escape(parser.description or ""),
           ".SH OPTIONS", *_options(parser, every_command=True),
           ".PP", "Every command takes \\fB\\-\\-help\\fR and \\fB\\-\\-lang\\fR \\fILANG\\fR as well.",
           ".SH COMMANDS"]
    for words, sub in _commands(parser, ()):
        out += [f'.SS "diskmark {" ".join(words)}"', *_usage(sub),
                escape(sub.description or ""), *_options(sub)]
        if sub.epilog:
            out += [".PP", ".nf", escape(sub.epilog.rstrip()), ".fi"]
    out += [".SH EXIT STATUS", *_table(EXIT_STATUS),
            ".SH ENVIRONMENT", *_table(ENVIRONMENT, bold=True),
            ".SH FILES", *_table(FILES, bold=True),
            ".SH EXAMPLES", *_table(EXAMPLES, bold=True),
            ".SH SEE ALSO", "\\fBfio\\fR(1), \\fBsmartctl\\fR(8)"]
    return "\n".join(out) + "\n"


def _commands(parser: argparse.ArgumentParser, words: tuple[str, ...]
              ) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """Every command and action, each after the command it belongs to."""
    found: list[tuple[tuple[str, ...], argparse.ArgumentParser]] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for word, sub in action.choices.items():
                found.append(((*words, word), sub))
                found += _commands(sub, (*words, word))
    return found


def _usage(parser: argparse.ArgumentParser) -> list[str]:
    usage = re.sub(r"^\S+:\s*", "", parser.format_usage().strip())  # "usage: " in any language
    return [".PP", f"\\fB{escape(' '.join(usage.split()))}\\fR", ".PP"]


def _options(parser: argparse.ArgumentParser, every_command: bool = False) -> list[str]:
    """The options of ``parser``; --help and --lang, which every command has, only where
    ``every_command`` (the program's own options) says so."""
    formatter = parser._get_formatter()
    lines: list[str] = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        if not every_command and {"--help", "--lang"} & set(action.option_strings):
            continue
        names = ", ".join(f"\\fB{escape(o)}\\fR" for o in action.option_strings)
        if not action.option_strings:
            names = f"\\fI{escape(str(action.metavar or action.dest))}\\fR"
        elif action.nargs != 0:
            metavar = action.metavar or (
                "{" + ",".join(map(str, action.choices)) + "}" if action.choices else
                action.dest.upper())
            names += f" \\fI{escape(str(metavar))}\\fR"
        lines += [".TP", names, escape(formatter._expand_help(action) if action.help else "")]
    return lines


def _table(rows: list[tuple[str, str]], bold: bool = False) -> list[str]:
    lines: list[str] = []
    for term, text in rows:
        lines += [".TP", f"\\fB{escape(term)}\\fR" if bold else escape(term), escape(text)]
    return lines
