"""One host reached over SSH with the system's OpenSSH client: the user's keys, agent,
``~/.ssh/config`` (aliases, jump hosts) and ``known_hosts`` apply as they do for ``ssh``.

One ``ssh`` process per host runs :mod:`diskmark.engine.fleet.ssh_remote`'s script there and
forwards a Unix socket here (in the run's private job directory) to fio's socket in the
host's private directory, so fio's client here connects to ``sock:`` and no TCP port is
opened anywhere. ssh is told ``BatchMode=yes`` (a password or passphrase prompt would hang a
run; ``--ssh-option BatchMode=no`` asks for it) and never how to check host keys: an
unknown or changed key is refused as the user's configuration says (by default: refused),
and the refusal names the key's fingerprint and how to accept it. A private connection
(``ControlMaster=no``) so the forward's life is this process's.

Closing the process's input ends the script there, which kills fio's server and removes its
directory and the test file; diskmark dying closes it too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
from dataclasses import dataclass, field

from diskmark.engine.fleet import ssh_remote
from diskmark.files import program
from diskmark.locale import _
from diskmark.locale.said import lines_said
from diskmark.model.fleet import Host

READY_TIMEOUT_S = 60.0  # connecting, the checks and fio's server starting
CLOSE_TIMEOUT_S = 15.0  # the script kills the server and removes its directory
#: Options diskmark always sets; the user's ``--ssh-option`` come first, and win.
OPTIONS = ("BatchMode=yes", "ExitOnForwardFailure=yes", "StreamLocalBindUnlink=yes",
           "ControlMaster=no", "ControlPath=none", "ConnectTimeout=15",
           "ServerAliveInterval=5", "ServerAliveCountMax=3", "RequestTTY=no")
_FINGERPRINT = re.compile(r"(?:Server host key: |key sent by the remote host is\s*)"
                          r"(?:(\S+) )?(SHA256:[A-Za-z0-9+/=]+)")
INSTALL = "sudo apt install fio, sudo dnf install fio"
#: strerror(ENOSPC) as the host's tools print it (the script runs them with LC_ALL=C)
NO_SPACE = "No space left on device"
#: What is kept of what ssh and the host say: the script's lines (a handful), each cut to
#: LINE_MAX; the end of ssh's stderr. A host's login files may print anything.
LINES_KEPT = 256
LINE_MAX = 4096
STDERR_KEEP = 64 * 1024


@dataclass(frozen=True)
class SshSetup:
    """How ssh is run: ``-F FILE`` when given, and the user's ``-o`` options."""

    config: str | None = None
    options: tuple[str, ...] = ()

    def base(self) -> list[str]:
        args = ["ssh"]
        if self.config:
            args += ["-F", self.config]
        for option in (*self.options, *OPTIONS):
            args += ["-o", option]
        return args

    def destination(self, host: Host) -> list[str]:
        port = ["-p", str(host.port)] if host.port else []
        return [*port, "--", host.destination]


@dataclass
class Tunnel:
    host: Host
    setup: SshSetup
    local_socket: str
    target: str
    name: str = field(default_factory=ssh_remote.fresh_name)
    proc: asyncio.subprocess.Process | None = None
    swept: list[str] = field(default_factory=list)
    removed: bool = False
    ready: bool = False  # the script said READY
    _lines: list[str] = field(default_factory=list)
    _said: asyncio.Event = field(default_factory=asyncio.Event)  # READY, or the stream's end
    _stderr: bytearray = field(default_factory=bytearray)
    _readers: list[asyncio.Future[None]] = field(default_factory=list)

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    @property
    def client_arg(self) -> str:
        return f"--client=sock:{self.local_socket}"

    def ssh_said(self) -> str:
        """ssh's own last words (its stderr, trimmed), for a message: its lines kept as lines,
        each made safe (a host's name in them is the user's, and may hold a newline)."""
        text = self._stderr.decode("utf-8", "replace").replace("\r", "")
        lines = [ln for ln in text.splitlines() if ln.strip() and not ln.startswith("debug")]
        return lines_said("\n".join(lines[-4:]))

    async def open(self, fio_version: str) -> str | None:
        """Start ssh and the script there; None once fio's server answers through the
        forward, else why not, in words naming the host."""
        forward = (f"{ssh_remote.forward_path(self.local_socket)}:"
                   f"{ssh_remote.forward_path(ssh_remote.remote_socket(self.target, self.name))}")
        args = [*self.setup.base(), "-L", forward, *self.setup.destination(self.host),
                ssh_remote.remote_command(self.target, self.name, fio_version)]
        try:
            self.proc = await program.start(args, stdin=True)
        except OSError as e:
            return _("{host}: cannot run ssh: {error}.").format(host=self.host.label,
                                                                error=e.strerror or e)
        try:
            return await self._ready(self.proc, fio_version)
        except asyncio.CancelledError:
            # A stop (RunControl.until_stopped) while the host is checked: ssh is killed at
            # once. The script there reads its input only once it is ready, so nothing is
            # gained by waiting; when it next speaks it finds the connection gone, and its
            # trap kills what it started and removes its directory.
            await self.close(0)
            raise

    async def _ready(self, proc: asyncio.subprocess.Process, fio_version: str) -> str | None:
        assert proc.stdout is not None and proc.stderr is not None
        self._readers.append(asyncio.ensure_future(
            program.keep_tail(proc.stderr, self._stderr, STDERR_KEEP)))
        self._readers.append(asyncio.ensure_future(self._read_script(proc.stdout)))
        try:
            await asyncio.wait_for(self._said.wait(), READY_TIMEOUT_S)
        except TimeoutError:
            await self.close()
            return _("{host}: the host did not get fio's server ready within {seconds} s over "
                     "SSH.").format(host=self.host.label, seconds=f"{READY_TIMEOUT_S:.0f}")
        if self.ready and os.path.exists(self.local_socket):
            return None
        if self.ready:  # the script is ready; ssh's forward is not
            await self.close()
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(proc.wait(), 10)
            await self.close()
        return await self._why_not(fio_version)

    async def _read_script(self, stream: asyncio.StreamReader) -> None:
        """The script's lines to the end of the stream: what it found until it said READY
        (kept, at most :data:`LINES_KEPT`), then only whether it removed its directory."""
        async for raw in program.read_lines(stream, LINE_MAX):
            line = raw.decode("utf-8", "replace")
            if line.strip() == ssh_remote.REMOVED:
                self.removed = True
            if self.ready:
                continue
            if len(self._lines) < LINES_KEPT:
                self._lines.append(line)
            if line.startswith(ssh_remote.SWEPT) and len(self.swept) < LINES_KEPT:
                self.swept.append(line.removeprefix(ssh_remote.SWEPT))
            if line == ssh_remote.READY:
                self.ready = True
                self._said.set()
        self._said.set()

    async def close(self, timeout: float = CLOSE_TIMEOUT_S) -> bool:
        """End the script there (it kills fio's server and removes its directory); True
        when it said it did. ssh is killed when it does not end within ``timeout`` (the
        script, if it runs, then sees its connection end and does the same)."""
        proc = self.proc
        if proc is None:
            return False
        if proc.stdin is not None and not proc.stdin.is_closing():
            proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), timeout)
        except TimeoutError:
            program.signal_group(proc.pid)
            await proc.wait()
        for reader in self._readers:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(reader, 2)
        with contextlib.suppress(OSError):
            os.unlink(self.local_socket)
        return self.removed

    async def _why_not(self, fio_version: str) -> str:
        host, said = self.host.label, self.ssh_said()
        for line in self._lines:
            if (line.startswith((ssh_remote.MKDIR, ssh_remote.WRITE, ssh_remote.NO_SERVER))
                    and NO_SPACE in line):
                # the script's tools speak English there (LC_ALL=C): ENOSPC, blocks or inodes
                return _("{host}: no space left on the file system of {directory} there: "
                         "diskmark cannot make or fill its private directory.").format(
                             host=host, directory=self.target)
            if line == ssh_remote.NO_FIO:
                return _("{host}: fio is not installed there; install {version}, the same "
                         "version as here (e.g. {command}).").format(
                             host=host, version=fio_version, command=INSTALL)
            if line.startswith(ssh_remote.VERSION):
                return _("{host}: fio there is {theirs}, here {ours}: fio's client/server mode "
                         "needs the same version on both sides; install {ours} there (e.g. "
                         "{command}).").format(host=host, command=INSTALL, ours=fio_version,
                                               theirs=line.removeprefix(ssh_remote.VERSION)
                                               or _("unknown"))
            if line == ssh_remote.NO_TARGET:
                return _("{host}: the target directory {directory} does not exist there (or is "
                         "not a directory).").format(host=host, directory=self.target)
            if line == ssh_remote.SHARED:
                return _("{host}: other users can write in {directory} and it has no sticky "
                         "bit: they could rename diskmark's private directory there and put "
                         "one of theirs in its place. Use a directory only you can write in, or "
                         "one with the sticky bit such as /tmp.").format(host=host,
                                                                         directory=self.target)
            if line.startswith(ssh_remote.MKDIR):
                return _("{host}: cannot make diskmark's private directory in {directory}: "
                         "{error}").format(host=host, directory=self.target,
                                           error=line.removeprefix(ssh_remote.MKDIR))
            if line.startswith(ssh_remote.WRITE):
                return _("{host}: cannot write in diskmark's private directory in "
                         "{directory}: {error}").format(host=host, directory=self.target,
                                                        error=line.removeprefix(ssh_remote.WRITE))
            if line.startswith(ssh_remote.NO_SERVER):
                return _("{host}: fio's server did not start there: {error}").format(
                    host=host, error=line.removeprefix(ssh_remote.NO_SERVER) or _("no reason given"))
        if "Host key verification failed" in said or "HOST IDENTIFICATION HAS CHANGED" in said:
            return await self._host_key_refused(said)
        if "Permission denied" in said:
            return _("{host}: the SSH server refused every key offered, and diskmark does not "
                     "ask for passwords: add your public key to the host's authorized_keys or "
                     "load it in your agent (ssh-add), or pass --ssh-option BatchMode=no to be "
                     "asked.\n{said}").format(host=host, said=said)
        if "forwarding" in said.lower() or "forward" in said.lower():
            return _("{host}: ssh could not forward fio's socket (the server may forbid it: "
                     "AllowStreamLocalForwarding).\n{said}").format(host=host, said=said)
        if self.ready:
            return _("{host}: the SSH connection ended as fio's server started.\n{said}").format(
                host=host, said=said)
        return _("{host}: cannot reach the host over SSH.\n{said}").format(
            host=host, said=said or _("ssh ended without saying why"))

    async def _host_key_refused(self, said: str) -> str:
        """The key's fingerprint, which BatchMode's refusal does not print: ssh is asked again
        with -v, which names it before the check (nothing is accepted)."""
        found = _FINGERPRINT.search(said)
        if found is None:
            with contextlib.suppress(OSError):
                asked = await program.run_async(
                    [*self.setup.base(), "-v", *self.setup.destination(self.host), "true"],
                    timeout=30, limit=STDERR_KEEP, stdout=False)
                said += "\n" + asked.stderr.decode("utf-8", "replace")
                found = _FINGERPRINT.search(said)
        fingerprint = " ".join(g for g in found.groups() if g) if found else _("not known")
        config = ["-F", self.setup.config] if self.setup.config else []
        destination = shlex.join(["ssh", *config, *self.setup.destination(self.host)[:-2],
                                  self.host.destination])
        if "HOST IDENTIFICATION HAS CHANGED" in said:
            return _("{host}: the host's SSH key has CHANGED (it now offers {fingerprint}): "
                     "someone may be intercepting the connection, or the host was reinstalled. "
                     "diskmark does not accept it. If you know why it changed, remove the old "
                     "key with ssh-keygen -R and connect once with `{command}`.").format(
                         host=self.host.label, fingerprint=fingerprint, command=destination)
        return _("{host}: the host's SSH key is not known (it offers {fingerprint}), and "
                 "diskmark does not accept a key on its own. Check the fingerprint, then "
                 "accept it by connecting once with `{command}` and answering yes.").format(
                     host=self.host.label, fingerprint=fingerprint, command=destination)
