"""The hosts of a fleet as a user writes them, checked strictly before they reach ssh or
fio's client, and a hosts file (one a line, ``#`` comments).

``[user@]host[:port]``, ``ssh://[user@]host[:port]`` or an alias of ``~/.ssh/config``: the host
is reached over SSH (:mod:`diskmark.engine.fleet.ssh_tunnel`), which starts fio's server there
on a private socket. ``fio://host[:port]``: the host runs ``fio --server`` on a TCP port
itself, and diskmark only connects to it as fio's client does (the labs' raw mode, no
authentication). A host read is a :class:`diskmark.model.fleet.Host`, which the results keep.
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import re
import socket

from diskmark.engine.errors import TargetError
from diskmark.files.regular_file import NotRegularFile, read_regular_file
from diskmark.locale import _
from diskmark.locale.text_safety import shown
from diskmark.model.fleet import DEFAULT_PORT, Host
from diskmark.model.numerals import digits_only

CONNECT_TIMEOUT_S = 5.0
HOSTS_FILE_MAX_BYTES = 1024 * 1024  # some 50,000 hosts
#: ssh reads its configuration a line at a time with no bound of its own: a sparse file of
#: a few GB with no newline is one line it holds whole. A generated config for some 100,000
#: hosts fits.
SSH_CONFIG_MAX_BYTES = 16 * 1024 * 1024
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$")
#: An SSH host or alias: no leading "-" (ssh would read an option), no "%" (a token of ssh's).
_SSH_NAME = re.compile(r"^[A-Za-z0-9_](?:[A-Za-z0-9._-]{0,251}[A-Za-z0-9_])?$")
_USER = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$")
RAW, SSH = "fio://", "ssh://"


class HostError(TargetError):
    """A host written wrongly, or a hosts file or SSH configuration that cannot be read;
    nothing was started."""


def parse_host(text: str) -> Host:
    """``fio://HOST[:PORT]`` is fio's raw server; anything else is a host reached over SSH."""
    raw = text.strip()
    if raw.startswith(RAW):
        return _parse_raw(text, raw.removeprefix(RAW))
    return _parse_ssh(text, raw.removeprefix(SSH))


def _parse_ssh(text: str, raw: str) -> Host:
    user, at, rest = raw.rpartition("@")
    if at and not _USER.match(user):
        raise HostError(_("host {host}: {user} is not a user name ssh is given.").format(
            host=repr(text), user=repr(user)))
    name, port, bracketed = _address(text, rest, "")
    if not bracketed and (not _SSH_NAME.match(name) or ".." in name):
        raise HostError(_("host {host}: write [USER@]HOST[:PORT] (letters, digits, . _ and -), "
                          "an alias of your SSH configuration, an IPv6 address as "
                          "[ADDRESS]:PORT, or fio://HOST[:PORT] for a host running fio "
                          "--server itself.").format(host=repr(text)))
    return Host(name, _port(text, port) if port else 0, ssh=True, user=user)


def _address(text: str, written: str, default_port: str) -> tuple[str, str, bool]:
    """``written`` as (name, port, bracketed): ``[ADDRESS]:PORT`` (an IPv6 address, checked)
    or ``NAME:PORT``, the port ``default_port`` when none is written. The name of an
    unbracketed one is the caller's to check: SSH and fio's server allow different ones."""
    if not written.startswith("["):
        name, port = written, default_port
        if written.count(":") == 1:
            name, port = written.split(":")
        return name, port, False
    end = written.find("]")
    tail = written[end + 1:] if end > 0 else "?"
    if tail and not tail.startswith(":"):
        raise HostError(_("host {host}: an IPv6 address is written [ADDRESS]:PORT.").format(
            host=repr(text)))
    name = written[1:end]
    try:
        ipaddress.IPv6Address(name)
    except ValueError:
        raise HostError(_("host {host}: {name} is not an IPv6 address.").format(
            host=repr(text), name=repr(name))) from None
    return name, tail[1:] if tail else default_port, True


def _parse_raw(text: str, raw: str) -> Host:
    name, port, bracketed = _address(text, raw, str(DEFAULT_PORT))
    if not bracketed and (not _NAME.match(name) or ".." in name):
        raise HostError(_("host {host}: write fio://HOST[:PORT] with a host name or IPv4 "
                          "address (letters, digits, . and -), with :PORT when the server "
                          "does not listen on {port}; an IPv6 address as "
                          "fio://[ADDRESS]:PORT.").format(host=repr(text), port=DEFAULT_PORT))
    return Host(name, _port(text, port))


def _port(text: str, port: str) -> int:
    """The port written in host ``text``: the digits 0 to 9 only, as ssh and fio read it
    (``٢٢`` or ``２２`` would be 22 to Python and an error to ssh; ``²`` a traceback)."""
    if not digits_only(port) or not 0 < int(port) < 65536:
        raise HostError(_("host {host}: the port {port} must be a number from 1 to 65535, "
                          "written with the digits 0 to 9.").format(host=repr(text),
                                                                   port=repr(port)))
    return int(port)


def read_hosts_file(path: str) -> list[str]:
    """The hosts written in ``path``: one a line; blank lines and ``#`` comments ignored.
    Read as presets and settings are: a regular file only (a FIFO would wait for ever, a
    link to /dev/zero fill the memory), at most :data:`HOSTS_FILE_MAX_BYTES`."""
    try:
        text = read_regular_file(path, HOSTS_FILE_MAX_BYTES).decode("utf-8")
    except NotRegularFile as e:
        raise HostError(_("cannot read the hosts file {path}: {error}.").format(
            path=path, error=e)) from None
    except UnicodeDecodeError:
        raise HostError(_("cannot read the hosts file {path}: it is not UTF-8 text.").format(
            path=path)) from None
    except OSError as e:
        raise HostError(_("cannot read the hosts file {path}: {error}.").format(
            path=path, error=e.strerror or e)) from None
    return [line.split("#", 1)[0].strip() for line in text.splitlines()
            if line.split("#", 1)[0].strip()]


def check_ssh_config(path: str) -> None:
    """Refuse an SSH configuration (``--ssh-config``, ssh's ``-F``) that ssh could not read
    and end: it is read as the hosts file is, before ssh sees it. ssh itself would read a
    link to /dev/zero as one endless line until the machine ran out of memory, and wait on
    a FIFO until the host was blamed for not answering."""
    try:
        read_regular_file(path, SSH_CONFIG_MAX_BYTES)
    except NotRegularFile as e:
        why = str(e)
    except OSError as e:
        why = e.strerror or str(e)
    else:
        return
    # TRANSLATORS: {error} is why, e.g. "not a regular file (a FIFO)" or "larger than 16 MiB"
    raise HostError(_("cannot use {path} as the SSH configuration (--ssh-config): "
                      "{error}.").format(path=shown(path, one_line=True), error=why))


def hosts_from(texts: list[str]) -> list[Host]:
    """Every host once, in the order given; none at all is an error."""
    hosts: list[Host] = []
    for text in texts:
        host = parse_host(text)
        if any(h.label == host.label for h in hosts):
            raise HostError(_("host {host} is given twice.").format(host=host.label))
        hosts.append(host)
    if not hosts:
        raise HostError(_("no hosts given (--host [USER@]HOST[:PORT] or a hosts file)."))
    return hosts


async def unreachable(host: Host, timeout: float = CONNECT_TIMEOUT_S) -> str | None:
    """Why fio's server on ``host`` cannot be reached, or None when a connection opens. A
    firewall that drops packets would keep fio's own client waiting for minutes."""
    try:
        _reader, writer = await asyncio.wait_for(asyncio.open_connection(host.name, host.port), timeout)
    except TimeoutError:
        return _("no answer on port {port} within {seconds} s (a firewall, or the host is "
                 "down)").format(port=host.port, seconds=f"{timeout:.0f}")
    except OSError as e:  # asyncio words a refusal "Connect call failed (…)": say the errno's
        if isinstance(e, socket.gaierror) or not e.errno or e.errno < 0:
            why = e.strerror or str(e)  # a name that does not resolve
        else:
            why = os.strerror(e.errno)
        return _("cannot connect to port {port}: {error}").format(port=host.port, error=why)
    writer.close()
    try:
        await writer.wait_closed()
    except OSError:
        pass
    return None
