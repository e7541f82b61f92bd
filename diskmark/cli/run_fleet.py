"""``diskmark run --host A --host B --target DIR``: the same profile on many hosts through
fio's client/server mode, reached over SSH (or ``fio://`` raw servers), a session per host
kept in the history under the host's name, the hosts side by side in the report.

Exit codes as a local run: 2 when nothing was started (a host unreachable, a host key
refused, fio missing there, a target missing, a raw server's target writable by other
users, O_DIRECT refused, bad arguments), 1 when a host failed part-way (the others' results are
kept, reported and saved; the failed hosts are named), 3 when a host regressed against its
baseline, 4 when a host's run could not be kept in the history, 130 when stopped.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.cli.saving import Label
    from diskmark.files.destination import Destination
    from diskmark.model.events import Event
    from diskmark.model.fleet import FleetResult, Host
    from diskmark.model.settings import Settings
    from diskmark.report.compare import Comparison

from diskmark.cli.output import (
    EXIT_USAGE,
    ProgressLine,
    error,
    exit_code_for,
)
from diskmark.cli.saving import conclude, open_store
from diskmark.cli.stopping import run_stoppable
from diskmark.locale import N_, _, ngettext
from diskmark.locale.text_safety import shown

# TRANSLATORS: printed as it is below `diskmark run --help`'s text: keep each line under 92
# characters (CJK: 46); it begins with an empty line.
FLEET_HELP = N_("""
fleets: --host [USER@]HOST[:PORT] (repeatable; an alias of ~/.ssh/config too) or
--hosts-file FILE runs the profile on every host, reached with your ssh (keys, agent,
config, known_hosts): diskmark starts `fio --server` there on a Unix socket in a private
directory of --target and reaches it through SSH's forwarding; no TCP port is opened.
Each host needs fio (the same version as here), not Python nor diskmark. An unknown host
key is refused, never accepted; ssh runs with BatchMode=yes (--ssh-option BatchMode=no to
be asked a password).
--host fio://HOST[:PORT] reaches a `fio --server` someone started on a TCP port instead
(labs; no authentication: see the README); a target other users can write in is refused
there unless --accept-shared-target.
With --compare NAME each host is compared with baseline "NAME@HOST" when it exists, else
with NAME; --save-baseline NAME saves each host as "NAME@HOST".
""")


def add_arguments(run: argparse.ArgumentParser) -> None:
    group = run.add_argument_group(_("many hosts (fio's client/server mode)"))
    group.add_argument("--host", action="append", default=[], metavar="[USER@]HOST[:PORT]",
                       help=_("a host reached over SSH (user, host and port as ssh takes them, "
                              "ssh://… or an alias of your SSH configuration; IPv6 as "
                              "[ADDRESS]:PORT), or fio://HOST[:PORT] for a host running `fio "
                              "--server` on a TCP port itself; repeat for more"))
    group.add_argument("--ssh-config", metavar="FILE",
                       help=_("the SSH configuration file to use instead of ~/.ssh/config "
                              "(ssh -F)"))
    group.add_argument("--ssh-option", action="append", default=[], metavar="OPTION",
                       help=_("an ssh option (ssh -o OPTION, e.g. BatchMode=no to be asked "
                              "for a password); repeat for more"))
    group.add_argument("--accept-shared-target", action="store_true",
                       help=_("with fio:// hosts, measure even where other users can write in "
                              "--target (they could swap the test file for a link to a file "
                              "of theirs); the risk is noted in each result"))
    group.add_argument("--hosts-file", metavar="FILE",
                       help=_("hosts one a line (# comments), added to --host"))
    group.add_argument("--one-at-a-time", action="store_true",
                       help=_("measure the hosts one after another instead of all at once "
                              "(hosts sharing a storage system do not disturb each other)"))
    group.add_argument("--target-is-private", action="store_true",
                       help=_("state that on every host only the user fio's server runs as can "
                              "write in --target. diskmark checks it itself where the server "
                              "runs as root (it tries to make a file there as user nobody) and "
                              "refuses a target others can write in whatever you state; a "
                              "server run as another user cannot make that check, so without "
                              "this statement such a host is refused"))


def wanted(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "host", None) or getattr(args, "hosts_file", None))


class FleetProgress(ProgressLine):
    """Progress on stderr: one live line of every host's step on a terminal, a line per
    finished test otherwise; warnings and errors always."""

    def __init__(self, enabled: bool = True) -> None:
        super().__init__(enabled)
        self._steps: dict[str, str] = {}
        self._shown = 0.0

    def on_host_event(self, host: Host, event: Event) -> None:
        from diskmark.model.events import Progress, TestFinished
        from diskmark.report.text import describe_progress

        if self.noticed(event) or not self.enabled:
            return
        if isinstance(event, Progress):
            self._steps[host.label] = describe_progress(event)
            if self.tty and time.monotonic() - self._shown >= 0.2:
                self._shown = time.monotonic()
                self.live(" | ".join(self._steps.values()))
        elif isinstance(event, TestFinished):
            self.finished(event.result, f"{shown(host.label, one_line=True)}: ")


def cmd_fleet(args: argparse.Namespace, parser: argparse.ArgumentParser, settings: Settings,
              destination: Destination | None) -> int:
    from diskmark.engine.errors import DiskmarkError
    from diskmark.engine.fleet.hosts import check_ssh_config, hosts_from, read_hosts_file
    from diskmark.engine.fleet.jobfile import check_remote_target
    from diskmark.engine.fleet.run import Fleet
    from diskmark.engine.fleet.ssh_remote import check_ssh_target

    if args.nocow:
        parser.error(_("--nocow changes a local directory; it cannot be used with --host"))
    if args.sweep:
        parser.error(_("--sweep runs on this machine only; it cannot be used with --host"))
    if getattr(args, "destroy_data", None):
        parser.error(_("--destroy-data is for a block device on this machine; it cannot be "
                       "used with --host (a fleet measures directories only)"))
    try:
        texts = list(args.host) + (read_hosts_file(args.hosts_file) if args.hosts_file else [])
        hosts = hosts_from(texts)
        if any(not h.ssh for h in hosts):
            check_remote_target(settings.target)
        else:
            check_ssh_target(settings.target)
        if args.ssh_config and any(h.ssh for h in hosts):
            check_ssh_config(args.ssh_config)
    except DiskmarkError as e:
        error(str(e))
        return EXIT_USAGE
    opened = open_store(args, parser, [h.label for h in hosts])
    if isinstance(opened, int):
        return opened
    store, references = opened
    from diskmark.engine.fleet.ssh_tunnel import SshSetup

    bad = [o for o in args.ssh_option if not o.isprintable() or "=" not in o.lstrip("=")]
    if bad:
        parser.error(_("--ssh-option {option}: write NAME=VALUE, as ssh -o takes it.").format(
            option=repr(bad[0])))
    fleet = Fleet(hosts, one_at_a_time=args.one_at_a_time,
                  target_private=args.target_is_private,
                  ssh=SshSetup(args.ssh_config, tuple(args.ssh_option)),
                  accept_shared_target=args.accept_shared_target)
    progress = FleetProgress(enabled=not args.quiet)
    try:
        result, interrupted = run_stoppable(lambda: fleet.run(settings, progress.on_host_event),
                                            fleet.stop)
    except DiskmarkError as e:
        progress.clear()
        error(str(e))
        return exit_code_for(e)
    progress.clear()
    from diskmark.checks.claims import claims_of_run
    from diskmark.cli.arguments import claims

    typed, told = claims(args.claim), set[str]()
    for _host, session in result.pairs():  # each host's drive against its model's claims
        session.claims, problems = claims_of_run(session.system.model, typed)
        for problem in sorted(set(problems) - told):
            error(_("claims not read: {problem}").format(problem=problem))
        told |= set(problems)

    def failed(labels: list[str]) -> str:
        return ngettext("failed on {failed} of {count} host: {hosts}; the other hosts' results "
                        "are kept.",
                        "failed on {failed} of {count} hosts: {hosts}; the other hosts' results "
                        "are kept.", len(hosts)).format(
                            failed=len(labels), count=len(hosts), hosts=", ".join(labels))

    return conclude(store, references, result, args,
                    lambda comparisons: _deliver_report(result, args, comparisons, destination),
                    interrupted, _("interrupted; fio stopped on every host and the test files "
                                   "removed."), failed)


def _deliver_report(result: FleetResult, args: argparse.Namespace,
                    comparisons: dict[Label, tuple[Comparison, str]],
                    destination: Destination | None) -> int:
    from diskmark.cli.sides_report import SidesForms, deliver_sides
    from diskmark.report import side_by_side

    forms = SidesForms(json=side_by_side.fleet_json, csv_column="host",
                       markdown=side_by_side.fleet_markdown, grid=side_by_side.fleet_text)
    return deliver_sides(result, forms, args, comparisons, destination)
