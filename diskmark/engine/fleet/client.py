"""fio's client and one host of a fleet: how the host is named to it (a raw server's address),
what it said about the host in words a user can act on, and the figures of that host in
fio's final JSON (:mod:`diskmark.engine.fleet.run`)."""

from __future__ import annotations

import signal
from typing import Any

from diskmark.engine.errors import FioFailed, fio_failure
from diskmark.engine.process import Outcome
from diskmark.locale import N_, _
from diskmark.model.fleet import Host

ALL_CLIENTS = "All clients"
# TRANSLATORS: what fio was doing, put where {what} stands in "… while {what}."
PROBING = N_("checking the target")


def client_arg(host: Host) -> str:
    """fio's client's option for a raw server (``fio://``); over SSH the tunnel's socket is
    named instead (:attr:`diskmark.engine.fleet.ssh_tunnel.Tunnel.client_arg`)."""
    return f"--client={'ip6' if host.ipv6 else 'ip'}:{host.name},{host.port}"


def on_host(host: Host, message: str) -> str:
    """``message`` about ``host``, said with the host's name first."""
    # TRANSLATORS: a message about one host of a fleet: "db1:8765: checking fio's server"
    return _("{host}: {message}").format(host=host.label, message=message)


def _lines(outcome: Outcome) -> list[str]:
    return [ln.strip() for ln in outcome.stderr.splitlines() + outcome.noise if ln.strip()]


def client_problem(host: Host, what: str, outcome: Outcome) -> str | None:
    """What went wrong on ``host`` in words a user can act on, or None. fio's client exits 0
    when the server refused the job file (a missing directory): no ``client_stats`` then."""
    lines = _lines(outcome)
    text = "\n".join(lines)
    tail = "\n".join(lines[-6:])
    low = text.lower()
    head = None
    if outcome.hung:
        head = _("fio's server on {host} did not answer while {what}; fio was stopped.")
    elif "failed to connect" in low or "connection refused" in low:
        head = _("cannot connect to fio's server on {host} while {what}.")
    elif "version" in low and ("bad" in low or "mismatch" in low):
        head = _("fio on {host} is another version than this machine's: fio's client/server "
                 "mode needs the same fio on both sides.")
    elif outcome.returncode == -signal.SIGPIPE:
        # the other end closed the socket as fio's client wrote: seen when the server is
        # another fio version (it may hang up before saying so) or no fio server at all
        head = _("fio's server on {host} closed the connection while {what}: it may be another "
                 "fio version than this machine's (client/server mode needs the same fio on "
                 "both sides), or not a fio server.")
    elif "is not a directory" in low or "no such file or directory" in low:
        head = _("the target directory does not exist on {host} (or is not a directory).")
    elif "permission denied" in low or "read-only file system" in low:
        head = _("fio's server on {host} cannot write in the target directory.")
    elif "does not support o_direct" in low or (
            outcome.last is not None and _errno(outcome.last, host) == 22 and what == _(PROBING)):
        head = _("the target on {host} refuses O_DIRECT (ramfs, old tmpfs, some FUSE and "
                 "network filesystems); run with --buffered.")
    elif "disconnected" in low or "timeout on" in low or "connection reset" in low:
        # after what the server said of the job: a server that refused it hangs up, and a
        # loaded machine can relay that before the rest of what the server said
        head = _("the connection to fio's server on {host} was lost while {what} (the server "
                 "stopped or the host went down).")
    if head:
        head = head.format(host=host.label, what=what)
        return f"{head}\n{tail}" if tail else head
    if outcome.returncode is None:
        return _("fio's client for {host} did not exit while {what}.").format(host=host.label,
                                                                             what=what)
    entries = host_entries(outcome.last, host)
    err = next((e.get("error") for e in entries if e.get("error")), 0)
    if outcome.returncode != 0 or not entries or err:
        last = {"jobs": entries} if entries else None
        detail = fio_failure(what, outcome.returncode, outcome.stderr, outcome.noise, last)
        return on_host(host, detail)
    return None


def _errno(obj: dict[str, Any], host: Host) -> int:
    found = next((e.get("error") for e in host_entries(obj, host) if e.get("error")), 0)
    return found if isinstance(found, int) else 0


def host_entries(obj: dict[str, Any] | None, host: Host) -> list[dict[str, Any]]:
    """The job entries of ``host`` in one final object, in the order of their groups (a
    client over SSH has one server, named by its socket, not its port)."""
    stats = obj.get("client_stats") if isinstance(obj, dict) else None
    if not isinstance(stats, list):
        return []
    mine = [e for e in stats if isinstance(e, dict) and e.get("jobname") != ALL_CLIENTS
            and (host.ssh or e.get("port", host.port) == host.port)]
    return sorted(mine, key=lambda e: e.get("groupid", 0) if isinstance(e.get("groupid"), int) else 0)


def entries(obj: dict[str, Any], host: Host, expected: int, what: str) -> list[dict[str, Any]]:
    found = host_entries(obj, host)
    if len(found) != expected:
        raise FioFailed(on_host(host, _("fio reported {found} jobs for {what}, not "
                                        "{expected}.").format(found=len(found), what=what,
                                                              expected=expected)))
    return found


def disk(obj: dict[str, Any]) -> str:
    """The device under the target as fio's ``disk_util`` names it on the host ('' when
    fio does not say: tmpfs, a network filesystem)."""
    utils = obj.get("disk_util") if isinstance(obj, dict) else None
    if isinstance(utils, list) and utils and isinstance(utils[0], dict):
        name = utils[0].get("name")
        return f"/dev/{name}" if isinstance(name, str) and name.isprintable() else ""
    return ""
