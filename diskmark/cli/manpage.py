"""diskmark.1, the man page, written from the command line's own parser as the package is
built (hatch_build.py), so every command and option in it is the one ``--help`` shows.

A small writer of our own rather than argparse-manpage: the page needs sections argparse
does not hold (exit statuses, files, environment, examples), the commands' own epilogs laid
out as written, and nothing more at build time than the parser, which needs none of
diskmark's dependencies. A build writes one page per language of the catalogs, as ``--help``
speaks them (``man`` picks the page of the reader's locale); option names, paths and
examples' commands stay as typed.
"""

from __future__ import annotations

import argparse
import os
import re
from datetime import UTC, datetime

from diskmark import __version__
from diskmark.locale import N_, _, language, pgettext
from diskmark.model.numerals import digits_only

SUMMARY = N_("CrystalDiskMark for the Linux terminal")

#: The tables' terms (statuses, variables, paths, commands) stay as typed; their texts are
#: translated as the page is written.
EXIT_STATUS = [
    ("0", N_("Done.")),
    ("1", N_("The benchmark failed, or a file, the database or standard output could not be "
             "read or written; diskmark keys: the keymap has problems.")),
    ("2", N_("Bad arguments, an unusable target, an unknown baseline or run, or a file that "
             "cannot be imported: nothing was started or changed.")),
    ("3", N_("A regression beyond --fail-on-regression.")),
    ("4", N_("diskmark run: the run finished and its report was printed, but it could not be "
             "kept in the history.")),
    ("130", N_("Interrupted (Ctrl+C).")),
    ("141", N_("The reader of standard output went away (diskmark run | head -1).")),
]

ENVIRONMENT = [
    ("DISKMARK_HOME", N_("Keep everything in one directory instead of the XDG directories: "
                         "config/, data/, state/, cache/ and reports/ under it.")),
    ("DISKMARK_FIO", N_("The fio binary to run (default: fio on PATH).")),
    ("DISKMARK_SMARTCTL", N_("The smartctl binary that reads a drive's health (default: "
                             "smartctl on PATH).")),
    ("DISKMARK_CHROMIUM", N_("The Chromium binary that renders a shared page as PNG, where "
                             "one is used.")),
    ("NO_COLOR", N_("When set and no theme was saved, the app starts in the monochrome "
                    "theme.")),
    ("LANGUAGE, LC_ALL, LC_MESSAGES, LANG", N_("The language of messages and help when --lang "
                                               "is not given, read as gettext reads them.")),
    ("XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME, XDG_CACHE_HOME, XDG_DOCUMENTS_DIR",
     N_("Where the files below live, when DISKMARK_HOME is not set.")),
]

FILES = [
    ("~/.config/diskmark/settings.json", N_("The app's settings, its keymap among them.")),
    ("~/.config/diskmark/presets/*.toml", N_("User presets (diskmark presets lists them).")),
    ("~/.config/diskmark/themes/*.toml", N_("User colour themes.")),
    ("~/.local/share/diskmark/diskmark.sqlite3", N_("The history of every finished run and "
                                                    "the saved baselines.")),
    ("~/.local/state/diskmark/", N_("The test directories in use, so that one left by a "
                                    "diskmark that was killed is found and removed.")),
    ("~/.cache/diskmark/", N_("What can be made again from other files; safe to delete.")),
    ("~/Documents/diskmark/", N_("Reports and screenshots saved from the app (the XDG "
                                 "documents directory).")),
    ("DIR/.diskmark-*/", N_("The private directory of a run's test file in the target "
                            "directory DIR, removed at the end, on Stop, on errors and on "
                            "quit.")),
]

EXAMPLES = [
    ("diskmark", N_("Open the app on the target used last time.")),
    ("diskmark run --target /mnt/usb --size 256MiB",
     N_("Measure /mnt/usb headless: a table of every figure, then CrystalDiskMark's text "
        "report.")),
    ("diskmark run --target /mnt/usb --output usb.txt",
     N_("Write CrystalDiskMark's text file alone.")),
    ("diskmark run --target /data --save-baseline \"new NVMe\"",
     N_("Measure, and keep the result as a baseline.")),
    ("diskmark run --target /data --compare \"new NVMe\" --fail-on-regression 10",
     N_("Compare with it; exit with status 3 if any test is more than 10% worse.")),
    ("diskmark baselines import CrystalDiskMark_20240106054115.txt --name windows",
     N_("Keep a text result CrystalDiskMark saved as a baseline to compare with.")),
    ("diskmark run --host web1 --host db1 --target /scratch",
     N_("Measure two hosts over SSH, side by side.")),
    ("diskmark history trend \"SEQ1M Q8T1\" --kind write", N_("A test's figure over time.")),
    ("diskmark history share last --output run.html", N_("The newest run as an HTML page.")),
    ("mkdir -p ~/.local/share/bash-completion/completions && "
     "diskmark completion bash > ~/.local/share/bash-completion/completions/diskmark",
     N_("Install bash's completion.")),
]

#: The languages whose words are not parted by spaces: roff may break a line between any
#: two of their characters, and lines are not stretched to the margin.
_UNSPACED = ("ja", "zh")
#: What a line in those languages may not start with (closing marks, small kana, the
#: prolonged sound mark) or end with (opening marks): no break is offered there.
_NO_LINE_START = frozenset("、。，．・：；？！）」』】〕〉》］｝ーゝゞ々ぁぃぅぇぉっゃゅょゎ"
                           "ァィゥェォッャュョヮヵヶ…‥％,.:;?!)]}%")
_NO_LINE_END = frozenset("（「『【〔〈《［｛")


def escape(text: str) -> str:
    """``text`` as roff reads it literally: backslashes and hyphens escaped, a line that
    would start with a control character guarded, any other character than ASCII named; in
    Japanese and Chinese, which put no spaces between words, the places a line may break."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    # anything beyond ASCII (µs, …, →) as groff's named Unicode escapes: plain groff reads bytes;
    # in Japanese and Chinese, after each ideograph or kana a place to break the line (\\:)
    unspaced = language().split("_")[0] in _UNSPACED
    out = []
    for i, c in enumerate(text):
        after = text[i + 1:i + 2]
        out.append(c if ord(c) < 128 else f"\\[u{ord(c):04X}]")
        if unspaced and _wide(c) and c not in _NO_LINE_END and after not in _NO_LINE_START:
            out.append("\\:")
    text = "".join(out)
    return "\n".join("\\&" + line if line.startswith((".", "'")) else line
                     for line in text.splitlines())


def _wide(c: str) -> bool:
    """A character of the scripts that part no words with spaces: CJK ideographs, kana, their
    punctuation and full-width forms (U+2E80 on), Hangul aside (Korean puts spaces)."""
    return ord(c) >= 0x2E80 and not 0xAC00 <= ord(c) <= 0xD7AF


def _section(title: str) -> str:
    return f'.SH "{escape(title)}"'


def render(parser: argparse.ArgumentParser) -> str:
    """The whole page in the language in use, from ``parser`` built in that language (every
    command's options declared)."""
    # a build's own date, or the one SOURCE_DATE_EPOCH fixes (the same page from the same source)
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = datetime.fromtimestamp(int(epoch), UTC) if digits_only(epoch) else datetime.now(UTC)
    date = when.strftime("%Y-%m-%d")
    # TRANSLATORS: the man page's header; the manual it belongs to, as man pages name it
    manual = escape(pgettext("man page", "User Commands"))
    # TRANSLATORS: {help} and {lang} are the options as the page prints them (--help, --lang LANG)
    every = escape(_("Every command takes {help} and {lang} as well."))
    # no hyphenation: a word broken at a hyphen reads as another option (--dura-tion)
    out = [f'.TH DISKMARK 1 "{date}" "diskmark {__version__}" "{manual}"', ".nh"]
    if language().split("_")[0] in _UNSPACED:  # no stretching of a line that has no spaces
        out.append(".ad l")
    out += [_section(pgettext("man page section", "NAME")), f"diskmark \\- {escape(_(SUMMARY))}",
            _section(pgettext("man page section", "SYNOPSIS")), ".B diskmark",
            "[\\fIOPTIONS\\fR] [\\fICOMMAND\\fR [\\fIARGS\\fR]]",
            _section(pgettext("man page section", "DESCRIPTION")),
            escape(parser.description or ""),
            _section(pgettext("man page section", "OPTIONS")),
            *_options(parser, every_command=True),
            ".PP", every.format(help="\\fB\\-\\-help\\fR",
                                lang="\\fB\\-\\-lang\\fR \\fILANG\\fR"),
            _section(pgettext("man page section", "COMMANDS"))]
    for words, sub in _commands(parser, ()):
        out += [f'.SS "diskmark {" ".join(words)}"', *_usage(sub),
                escape(sub.description or ""), *_options(sub)]
        if sub.epilog:
            out += [".PP", ".nf", escape(sub.epilog.rstrip()), ".fi"]
    out += [_section(pgettext("man page section", "EXIT STATUS")), *_table(EXIT_STATUS),
            _section(pgettext("man page section", "ENVIRONMENT")),
            *_table(ENVIRONMENT, bold=True),
            _section(pgettext("man page section", "FILES")), *_table(FILES, bold=True),
            _section(pgettext("man page section", "EXAMPLES")), *_table(EXAMPLES, bold=True),
            _section(pgettext("man page section", "SEE ALSO")),
            "\\fBfio\\fR(1), \\fBsmartctl\\fR(8)"]
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
        lines += [".TP", f"\\fB{escape(term)}\\fR" if bold else escape(term), escape(_(text))]
    return lines
