"""The command line: the TUI by default, ``run`` for scripts, ``presets`` to see the tests.

Exit codes (``diskmark run``): 0 done, 1 the benchmark failed, 2 bad arguments or an unusable
target (nothing was started), 3 a regression beyond ``--fail-on-regression``, 130 interrupted.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path

from diskmark import __version__
from diskmark.atomic import write_atomic
from diskmark.model import (COUNT_MAX, COUNT_MIN, GIB, MIX_RATIOS, DataPattern, Mode, Progress,
                            Settings, Status, TestFinished, Unit, format_size, parse_size)

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_REGRESSION, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

RUN_EPILOG = """\
examples:
  diskmark run --target /mnt/usb --size 256MiB --count 1
  diskmark run --target . --profile peak --unit IOPS
  diskmark run --target /data --format json --output result.json
  diskmark run --target /dev/shm --buffered          # tmpfs/ramfs need buffered I/O

figures: MB/s = 1,000,000 bytes/s (as CrystalDiskMark); sizes are binary (MiB, GiB).
Each test runs one discarded warm-up pass, then COUNT passes; the best pass is reported
(the lowest latency separately). Progress goes to stderr, the report to stdout.

exit status: 0 done, 1 benchmark failed, 2 bad arguments or unusable target (nothing
started), 130 interrupted (Ctrl+C or SIGTERM; fio is stopped and the test file removed).
"""


def _size(text: str) -> int:
    try:
        return parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _unit(text: str) -> Unit:
    try:
        return Unit.parse(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError("seconds must be between 0 and 3600")
    return value


def _mix(text: str) -> int:
    try:
        value = int(text.rstrip("%"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--mix takes a read percentage, not {text!r}") from None
    if value not in MIX_RATIOS:
        raise argparse.ArgumentTypeError("--mix read percentage must be 10, 20, … 90")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="diskmark",
        description="CrystalDiskMark for the Linux terminal. Without a command, opens the "
                    "full-screen app; `diskmark run` measures headless for scripts.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Set NO_COLOR=1 for a monochrome app. DISKMARK_FIO selects the fio binary; "
               "DISKMARK_HOME moves settings, presets, history and baselines to one directory.")
    parser.add_argument("--version", action="version", version=f"diskmark {__version__}")
    parser.add_argument("--target", metavar="DIR", help="directory to test in the app (default: last used)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    run = sub.add_parser(
        "run", help="run a benchmark without the app and print a report",
        description="Run the CrystalDiskMark tests with fio in DIR and print a report.",
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=RUN_EPILOG)
    run.add_argument("--target", metavar="DIR", default=".",
                     help="directory to test in; diskmark creates one hidden test file there "
                          "and removes it afterwards (default: current directory)")
    run.add_argument("--preset", default="default",
                     help="test set: default, nvme, flash or a user preset (see `diskmark presets`)")
    run.add_argument("--profile", default="default",
                     help="default (4 rows), peak, real (real world), demo, or stable "
                          "(seed 000's start delays and ramp times)")
    run.add_argument("--mix", nargs="?", const=70, type=_mix, metavar="PCT",
                     help="add the +Mix tests: PCT%% reads, the rest writes (default 70)")
    run.add_argument("--mode", choices=[m.value for m in Mode], default=Mode.READ_WRITE.value,
                     help="rw: reads and writes (default); read: reads only; write: writes only")
    run.add_argument("--size", type=_size, default=GIB, metavar="SIZE",
                     help="test file size, 16MiB … 64GiB (default 1GiB)")
    run.add_argument("--count", type=int, default=5, metavar="N",
                     help=f"measured passes per test, {COUNT_MIN}-{COUNT_MAX}; the best is kept (default 5)")
    run.add_argument("--measure", type=_seconds, metavar="SEC",
                     help="seconds each pass measures (default: the preset's, 5)")
    run.add_argument("--interval", type=_seconds, metavar="SEC",
                     help="seconds of rest between tests (default: the preset's, 5)")
    run.add_argument("--data", choices=[d.value for d in DataPattern], default="random",
                     help="test data: random (default) or zeros (CrystalDiskMark's All 0x00)")
    run.add_argument("--buffered", action="store_true",
                     help="go through the page cache instead of O_DIRECT (needed on ramfs, "
                          "old tmpfs, some FUSE and network filesystems); labelled in the report")
    run.add_argument("--unit", type=_unit, default=Unit.MB_S, metavar="UNIT",
                     help="unit of the summary grid: MB/s, GB/s, IOPS or us (default MB/s)")
    run.add_argument("--format", choices=["text", "json", "csv", "markdown"], default="text",
                     help="text: CrystalDiskMark's report; json: everything, schema "
                          "diskmark.result/1; csv: one row per pass; markdown: a table")
    run.add_argument("--output", metavar="FILE",
                     help="write the report to FILE instead of stdout (refuses to replace an "
                          "existing file unless --force)")
    run.add_argument("--force", action="store_true", help="let --output replace an existing file")
    run.add_argument("--comment", default="", help="a comment to include in the report")
    run.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")

    sub.add_parser("presets", help="list the presets, their profiles and tests",
                   description="List built-in and user presets (TOML files in the config "
                               "directory) with their profiles and tests.")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "run":
        return cmd_run(args, parser)
    if args.command == "presets":
        return cmd_presets()
    return cmd_app(args)


def cmd_app(args: argparse.Namespace) -> int:
    from diskmark.app.app import run_app  # Textual loads only for the app

    return run_app(target=args.target)


def cmd_presets() -> int:
    from diskmark.paths import user_presets_dir
    from diskmark.presets import load_catalog

    catalog = load_catalog()
    for preset in catalog.presets.values():
        print(f"{preset.id}: {preset.name} — {preset.description}")
        print(f"    measure {preset.measure:g} s, interval {preset.interval:g} s, from {preset.source}")
        for profile in preset.profiles.values():
            tests = ", ".join(t.label for t in profile.tests)
            print(f"    {profile.id:8} {profile.name}: {tests}")
    print(f"\nUser presets: {user_presets_dir()}/*.toml")
    for problem in catalog.problems:
        print(f"diskmark: skipped preset {problem}", file=sys.stderr)
    return EXIT_OK


def _settings(args: argparse.Namespace) -> Settings:
    return Settings(target=args.target, preset=args.preset, profile=args.profile, mix=args.mix,
                    mode=Mode(args.mode), size=args.size, count=args.count, measure=args.measure,
                    interval=args.interval, data=DataPattern(args.data),
                    direct=not args.buffered, comment=args.comment)


def error(message: str) -> None:
    print(f"diskmark: {message}", file=sys.stderr)


def cmd_run(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from diskmark.engine import DiskmarkError, Engine

    settings = _settings(args)
    try:
        settings.validate()
    except ValueError as e:
        parser.error(str(e))  # exits 2
    out_path = Path(args.output) if args.output else None
    if out_path and out_path.exists() and not args.force:
        error(f"{out_path} exists; diskmark does not replace files it did not create "
              f"(use --force to allow it).")
        return EXIT_USAGE
    engine = Engine()
    progress = ProgressLine(enabled=not args.quiet)
    interrupted = False

    async def go():
        nonlocal interrupted
        loop = asyncio.get_running_loop()

        def on_signal() -> None:
            nonlocal interrupted
            interrupted = True
            engine.stop()

        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, on_signal)
        try:
            return await engine.run(settings, progress.on_event)
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)

    try:
        session = asyncio.run(go())
    except DiskmarkError as e:
        progress.clear()
        error(str(e))
        return e.exit_code
    progress.clear()
    text = render(session, args.format, args.unit)
    if out_path:
        try:
            write_atomic(out_path, text, exclusive=not args.force)
        except OSError as e:
            error(f"cannot write {out_path}: {e.strerror or e}")
            sys.stdout.write(text)
            return EXIT_FAILED
        if not args.quiet:
            print(f"diskmark: report written to {out_path}", file=sys.stderr)
    else:
        sys.stdout.write(text)
        sys.stdout.flush()
    if session.status is Status.CANCELLED or interrupted:
        error("interrupted; fio stopped and the test file removed.")
        return EXIT_INTERRUPTED
    if session.status is Status.FAILED:
        error(session.error or "the benchmark failed")
        return EXIT_FAILED
    return EXIT_OK


def render(session, fmt: str, unit: Unit) -> str:
    from diskmark import report

    if fmt == "json":
        return report.json_report(session)
    if fmt == "csv":
        return report.csv_report(session)
    if fmt == "markdown":
        return report.markdown_report(session)
    return report.grid_report(session, unit) + "\n" + report.text_report(session)


class ProgressLine:
    """Progress on stderr: one live line on a terminal, a line per finished test otherwise."""

    def __init__(self, enabled: bool = True):
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self._width = 0

    def on_event(self, event) -> None:
        from diskmark.report import describe_progress, format_figure

        if not self.enabled:
            return
        if isinstance(event, Progress) and self.tty:
            line = describe_progress(event)[:_columns() - 1]
            sys.stderr.write("\r" + line.ljust(self._width))
            self._width = len(line)
            sys.stderr.flush()
        elif isinstance(event, TestFinished):
            r = event.result
            line = (f"{r.label:14} {r.op.value:5} {format_figure(r.best_mb_s, Unit.MB_S):>10} MB/s "
                    f"{format_figure(r.best_iops, Unit.IOPS):>11} IOPS "
                    f"{format_figure(r.best_lat_us, Unit.US):>10} us")
            self.clear()
            print(line, file=sys.stderr)
        elif hasattr(event, "text"):  # Notice
            self.clear()
            print(f"diskmark: note: {event.text}", file=sys.stderr)

    def clear(self) -> None:
        if self.enabled and self.tty and self._width:
            sys.stderr.write("\r" + " " * self._width + "\r")
            sys.stderr.flush()
            self._width = 0


def _columns() -> int:
    try:
        return os.get_terminal_size(sys.stderr.fileno()).columns
    except OSError:
        return 80


if __name__ == "__main__":
    sys.exit(main())
