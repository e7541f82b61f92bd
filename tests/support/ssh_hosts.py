"""Real OpenSSH servers as the hosts of a fleet: each ``sshd -D`` runs in a network and a mount
namespace of its own (``unshare -n -m``), with a fresh tmpfs at :data:`TARGET` and an empty
``/run`` (so the system's is never touched), on port 2222 of its own loopback. ssh reaches it
through ``ProxyCommand`` (:mod:`ssh_relay`, run in the host's network namespace), with a host
key and a user key made for the test, a private ``known_hosts`` and a private ssh config
given to diskmark with ``--ssh-config``: ``~/.ssh`` and the system's sshd are never used.

The config has an alias per host (``h0``, ``h1``…) and some that fail on purpose:
``stranger`` (a host key not in known_hosts), ``impostor`` (h0 under h1's name: a changed
key), ``nokey`` (a user key the host does not accept), ``dead`` (no server on the port).
Needs root and openssh-server; :func:`why_not` says why not otherwise."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SSHD = "/usr/sbin/sshd"
PORT = 2222
#: One path per test process, as fleet_servers' (a mount point is per namespace, its name not).
TARGET = Path(f"/mnt/diskmark-ssh-target-{os.getpid()}")
RELAY = Path(__file__).with_name("ssh_relay.py")


def why_not() -> str | None:
    if os.geteuid() != 0:
        return "sshd in network and mount namespaces of its own needs root (unshare, mount)"
    missing = [t for t in ("ssh", "ssh-keygen", "unshare", "nsenter", "ip", "setpriv")
               if shutil.which(t) is None]
    if not os.path.exists(SSHD):
        missing.append(SSHD)
    if missing:
        return (f"{', '.join(missing)} not installed (./test.sh installs openssh-server when "
                f"run as root)")
    return None


def _keygen(path: Path) -> str:
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", path.name, "-f",
                    str(path)], check=True, timeout=30)
    return path.with_suffix(".pub").read_text().strip()


@dataclass
class SshHost:
    alias: str
    proc: subprocess.Popen
    mode: str
    login: str = ""  # the ForceCommand every login runs instead of what ssh asks, if any

    @property
    def pid(self) -> int:
        return self.proc.pid

    def nsenter(self, *cmd: str, user: int | None = None, **kw) -> subprocess.CompletedProcess:
        """``cmd`` inside this host's namespaces (as ``user`` when given)."""
        who = ["setpriv", f"--reuid={user}", f"--regid={user}", "--clear-groups"] if user else []
        return subprocess.run(["nsenter", f"--mount=/proc/{self.pid}/ns/mnt",
                               f"--net=/proc/{self.pid}/ns/net", *who, *cmd],
                              capture_output=True, timeout=30, **kw)

    def files(self) -> list[str]:
        """Everything under the target on this host, directories and files, recursively."""
        out = self.nsenter("find", str(TARGET), "-mindepth", "1")
        assert out.returncode == 0, out.stderr
        return sorted(os.fsdecode(line) for line in out.stdout.splitlines())

    def listening_tcp(self) -> set[int]:
        """The TCP ports listening in this host's network namespace."""
        ports = set()
        for name in ("tcp", "tcp6"):
            for line in Path(f"/proc/{self.pid}/net/{name}").read_text().splitlines()[1:]:
                fields = line.split()
                if fields[3] == "0A":
                    ports.add(int(fields[1].rsplit(":", 1)[1], 16))
        return ports

    def fio_processes(self) -> list[int]:
        """fio processes running in this host's mount namespace."""
        ns = os.readlink(f"/proc/{self.pid}/ns/mnt")
        found = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                if (Path(f"/proc/{entry}/comm").read_text().strip() == "fio"
                        and os.readlink(f"/proc/{entry}/ns/mnt") == ns):
                    found.append(int(entry))
            except OSError:
                continue
        return found

    def cut(self) -> None:
        """Drop this host's SSH connections: its relays are killed (as a network cut). Only
        this lab's: each worker of the suite has hosts of the same names, told apart by the
        namespace's pid in the relay's name."""
        mark = f"{RELAY} 127.0.0.1 {PORT} {self.alias}-{self.pid}".encode()
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    if Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").strip()\
                            .endswith(mark):
                        os.kill(int(entry), signal.SIGKILL)
                except OSError:
                    continue


@dataclass
class SshLab:
    """The keys, the config and the hosts of one test module."""

    root: Path
    hosts: list[SshHost] = field(default_factory=list)

    @property
    def config(self) -> str:
        return str(self.root / "ssh_config")

    def args(self) -> list[str]:
        return ["--ssh-config", self.config]

    def start(self, n: int, mode: str = "0755", fio: str | None = None,
              login: str = "") -> list[SshHost]:
        """``n`` more hosts, their target with ``mode``; ``fio`` is ``"missing"`` or a script
        put in place of fio there; ``login`` a command every login runs instead (sshd's
        ForceCommand: ``sleep 600`` is a login shell that hangs)."""
        TARGET.mkdir(exist_ok=True)
        started = []
        for _ in range(n):
            alias = f"h{len(self.hosts)}"
            key = self.root / f"host_{alias}"
            public = _keygen(key)
            (self.root / f"sshd_{alias}").write_text(
                f"ListenAddress 127.0.0.1:{PORT}\nHostKey {key}\n"
                f"AuthorizedKeysFile {self.root / 'authorized_keys'}\nPidFile none\nUsePAM no\n"
                "StrictModes no\nPermitRootLogin prohibit-password\nPasswordAuthentication no\n"
                "KbdInteractiveAuthentication no\nAllowStreamLocalForwarding yes\n"
                "LogLevel ERROR\n" + (f"ForceCommand {login}\n" if login else ""))
            fake = ""
            if fio == "missing":
                fake = f"mount --bind /dev/null {shutil.which('fio')} && "
            elif fio:
                script = self.root / f"fio_{alias}"
                script.write_text(fio)
                script.chmod(0o755)
                fake = f"mount --bind {script} {shutil.which('fio')} && "
            shell = (f"ip link set lo up && mount -t tmpfs -o mode=755 diskmark-run /run && "
                     f"mkdir /run/sshd && mount -t tmpfs -o mode={mode},size=256m "
                     f"diskmark-ssh {TARGET} && {fake}"
                     f"exec {SSHD} -D -e -f {self.root / f'sshd_{alias}'}")
            proc = subprocess.Popen(["unshare", "-n", "-m", "--propagation", "private", "sh",
                                     "-c", shell], stdin=subprocess.DEVNULL,
                                    stdout=subprocess.DEVNULL,
                                    stderr=open(self.root / f"sshd_{alias}.log", "w"),
                                    start_new_session=True)
            host = SshHost(alias, proc, mode, login)
            self.hosts.append(host)
            started.append(host)
            with open(self.root / "known_hosts", "a") as f:
                f.write(f"{alias} {public}\n")
            self._write_config()
            deadline = time.monotonic() + 15
            while PORT not in _ports(proc.pid):
                if proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.root / f"sshd_{alias}.log").read_text()
                    raise AssertionError(f"sshd for {alias} did not start: {log}")
                time.sleep(0.05)
        return started

    def _write_config(self) -> None:
        relay = f"{sys.executable} {RELAY}"
        common = ("  User root\n  IdentitiesOnly yes\n"
                  f"  IdentityAgent none\n  UserKnownHostsFile {self.root / 'known_hosts'}\n"
                  "  GlobalKnownHostsFile /dev/null\n  UpdateHostKeys no\n  LogLevel ERROR\n")

        def entry(alias: str, pid: int, key_alias: str, port: int = PORT,
                  identity: str = "") -> str:
            return (f"Host {alias}\n  HostName 127.0.0.1\n  Port {port}\n"
                    f"  HostKeyAlias {key_alias}\n"
                    f"  ProxyCommand nsenter --net=/proc/{pid}/ns/net {relay} %h %p {alias}-{pid}\n"
                    + f"  IdentityFile {identity or self.root / 'user'}\n" + common)

        first = self.hosts[0].pid
        text = "".join(entry(h.alias, h.pid, h.alias) for h in self.hosts)
        text += entry("stranger", first, "stranger")
        text += entry("impostor", first, "h1" if len(self.hosts) > 1 else "h0x")
        text += entry("nokey", first, "h0", identity=str(self.root / "other"))
        text += entry("dead", first, "h0", port=1)
        (self.root / "ssh_config").write_text(text)

    def stop(self) -> None:
        for host in self.hosts:
            # named while the namespace's first process lives: a login that hangs is in a
            # session of its own, which killing that process's group does not reach
            left = host_processes(host)
            try:
                os.killpg(host.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            host.proc.wait(timeout=10)
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        try:
            TARGET.rmdir()
        except OSError:
            pass


def host_processes(host: SshHost) -> list[int]:
    """Every process left in ``host``'s mount namespace (its sessions, fio)."""
    try:
        ns = os.readlink(f"/proc/{host.pid}/ns/mnt")
    except OSError:
        return []
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.readlink(f"/proc/{entry}/ns/mnt") == ns:
                    out.append(int(entry))
            except OSError:
                continue
    return out


def _ports(pid: int) -> set[int]:
    try:
        text = Path(f"/proc/{pid}/net/tcp").read_text()
    except OSError:
        return set()
    return {int(line.split()[1].rsplit(":", 1)[1], 16) for line in text.splitlines()[1:]
            if line.split()[3] == "0A"}


def make_lab(root: Path) -> SshLab:
    root.mkdir(parents=True, exist_ok=True)
    root.chmod(0o700)
    _keygen(root / "user")
    _keygen(root / "other")
    (root / "authorized_keys").write_text((root / "user.pub").read_text())
    return SshLab(root)


def listening_inodes() -> set[str]:
    """The socket inodes of every TCP socket listening in this network namespace."""
    found = set()
    for name in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{name}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A":
                found.add(fields[9])
    return found


def tree_sockets(pid: int) -> set[str]:
    """The socket inodes open in ``pid`` and every process below it."""
    pids, found = {pid}, set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                if int(stat.rsplit(")", 1)[1].split()[1]) in pids:
                    pids.add(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    for p in pids:
        try:
            for fd in os.listdir(f"/proc/{p}/fd"):
                link = os.readlink(f"/proc/{p}/fd/{fd}")
                if link.startswith("socket:["):
                    found.add(link[8:-1])
        except OSError:
            continue
    return found
