"""What diskmark asks a host's shell to do over SSH, and the one rule for what it sends.

The host's login shell gets one line: ``sh -c SCRIPT diskmark-fleet TARGET NAME VERSION``,
every word of it passed through :func:`shlex.quote`, so a target named ``;rm -rf ~`` or
``$(reboot)`` is a path and nothing else. SCRIPT is diskmark's own constant text (no value
of the user's is ever pasted into it); it is one line without ``!`` so that a csh or fish
login shell reads the quoted word as sh does.

On the host the script checks fio (there, and the same version as here), enters the target
(``cd -P``: from then on nothing is looked up by the target's name), refuses a target others
can write in without the sticky bit (they could rename diskmark's directory and put theirs in
its place, where the forwarded socket is looked up by name), removes what an earlier
run killed outright left there (:data:`PREFIX` directories of this user whose script is not
running any more), makes a private directory (mode 0700) and starts ``fio --server`` on a
Unix socket inside it, with the directory as its working directory: every job names its
test file relative to it, so no other user can see, swap or redirect the file, and nobody
but this user can reach the socket. It says ``ready`` and waits for the end of its input:
when diskmark closes it, or the connection is lost, or diskmark dies, the script kills the
server and its jobs (their own process group) and removes the directory with all in it. A
step that fails once the directory exists (a pid file the full file system refuses, fio's
server not starting) says why and ends the script the same way: nothing it made stays.
"""

from __future__ import annotations

import os
import secrets
import shlex

from diskmark.engine.errors import TargetError
from diskmark.locale import _

PREFIX = ".diskmark-fleet-"
SOCKET = "fio.sock"
#: What Linux allows in a Unix socket's path, its final NUL included.
SUN_PATH_MAX = 108
#: What the script prints, one a line, for diskmark to read.
READY, REMOVED, SWEPT, NO_FIO, VERSION, NO_TARGET, SHARED, MKDIR, WRITE, NO_SERVER = (
    "diskmark:ready", "diskmark:removed", "diskmark:swept:", "diskmark:nofio",
    "diskmark:version:", "diskmark:notarget", "diskmark:shared", "diskmark:mkdir:",
    "diskmark:write:", "diskmark:noserver:")

# One line, no "!", no value of the user's: $1 the target, $2 the directory's name, $3 fio's
# version here. Every step that can fail says so and ends the script, whose EXIT trap kills
# whatever it started and removes its directory, from the moment the directory exists; the
# tools' words in English (LC_ALL=C), so that diskmark can tell "No space left on device".
# Files are written with tee, which names the error (dash's echo says "I/O error" for all).
# The server's pid is `$!`, known before anything is written and its zombie reaped by `wait`
# at once; spelled with printf's \041, as a csh login shell would expand a `!` even in the
# quoted word. `setsid` makes the server lead its own process group, killed whole.
SCRIPT = (
    'LC_ALL=C; export LC_ALL; umask 077; '
    'command -v fio >/dev/null 2>&1 || { echo diskmark:nofio; exit 0; }; '
    'v=$(fio --version 2>/dev/null); '
    'test "$v" = "$3" || { echo "diskmark:version:$v"; exit 0; }; '
    'cd -P -- "$1" 2>/dev/null || { echo diskmark:notarget; exit 0; }; '
    'if test -n "$(find . -maxdepth 0 -perm /022)"; then '
    'test -k . || { echo diskmark:shared; exit 0; }; fi; '
    'for x in .diskmark-fleet-*; do '
    'test -L "$x" && continue; { test -d "$x" && test -O "$x"; } || continue; '
    'p=$(cat "$x/pid" 2>/dev/null); '
    'if test -n "$p" && kill -0 "$p" 2>/dev/null; then continue; fi; '
    'if test -z "$p" && test -z "$(find "$x" -maxdepth 0 -mmin +1)"; then continue; fi; '
    's=$(cat "$x/server" 2>/dev/null); '
    'if test -n "$s" && test "$(readlink "/proc/$s/cwd")" = "$PWD/$x"; then '
    'kill -KILL -- "-$s" 2>/dev/null || kill -KILL "$s" 2>/dev/null; fi; '
    'rm -rf -- "$x" && echo "diskmark:swept:$x"; done; '
    'e=$(mkdir -m 0700 -- "$2" 2>&1) || { echo "diskmark:mkdir:$e"; exit 0; }; '
    'd=$PWD/$2; s=; '
    'c() { trap "" HUP INT TERM PIPE; '
    'if test -n "$s"; then kill -KILL -- "-$s" 2>/dev/null || kill -KILL "$s" 2>/dev/null; '
    'wait "$s" 2>/dev/null; fi; '
    'cd / && rm -rf -- "$d" && echo diskmark:removed; }; '
    'trap c EXIT; trap "exit 1" HUP INT TERM PIPE; '
    'cd -P -- "$2" || { echo "diskmark:write:cannot enter $2"; exit 0; }; '
    'e=$(echo $$ | tee pid 2>&1 >/dev/null) || { echo "diskmark:write:$e"; exit 0; }; '
    'e=$(tee server.err </dev/null 2>&1 >/dev/null) || { echo "diskmark:write:$e"; exit 0; }; '
    'g=; if command -v setsid >/dev/null 2>&1; then g=setsid; fi; '
    '$g fio --server=sock:fio.sock </dev/null >/dev/null 2>>server.err & '
    "eval \"s=\\$$(printf '\\041')\"; "
    'e=$(echo "$s" | tee server 2>&1 >/dev/null) || { echo "diskmark:write:$e"; exit 0; }; '
    'i=0; until test -S fio.sock; do '
    'kill -0 "$s" 2>/dev/null || { echo "diskmark:noserver:$(head -c 300 server.err)"; exit 0; }; '
    'i=$((i+1)); test "$i" -gt 200 && { echo "diskmark:noserver:"; exit 0; }; '
    'sleep 0.05; done; '
    'echo diskmark:ready; cat >/dev/null')


class SshTargetError(TargetError):
    """A target that cannot be sent to a host over SSH; nothing was started."""


def fresh_name() -> str:
    return f"{PREFIX}{secrets.token_hex(6)}"


def check_ssh_target(path: str) -> str:
    """The target as sent over SSH, or a refusal naming why. Any character a file name may
    hold goes (it is quoted), but a line break (a name no one means), ``${`` (ssh expands it
    in a forwarded socket's path, with no way to escape it) and a path too long for the
    socket inside it."""
    if not path.startswith("/"):
        raise SshTargetError(_("the target {path} must be an absolute path on every host (e.g. "
                               "/mnt/data): relative paths mean nothing there.").format(
                                   path=repr(path)))
    if "\n" in path or "\r" in path:
        raise SshTargetError(_("the target {path} holds a line break; diskmark does not send "
                               "such a name to a host.").format(path=repr(path)))
    if "${" in path:
        raise SshTargetError(_("the target {path} holds ${{, which ssh would expand in the "
                               "path of the socket it forwards; rename the directory or use "
                               "another.").format(path=repr(path)))
    target = path.rstrip("/") or "/"
    if len(os.fsencode(remote_socket(target, fresh_name()))) >= SUN_PATH_MAX:
        raise SshTargetError(_("the target {path} is too long: fio's socket in diskmark's "
                               "private directory there would have a path over {limit} bytes, "
                               "which Linux does not allow; use a shorter path (a link to the "
                               "directory will do).").format(path=repr(path),
                                                             limit=SUN_PATH_MAX - 1))
    return target


def remote_dir(target: str, name: str) -> str:
    return f"{target.rstrip('/')}/{name}"


def remote_socket(target: str, name: str) -> str:
    return f"{remote_dir(target, name)}/{SOCKET}"


def remote_command(target: str, name: str, fio_version: str) -> str:
    """The one line the host's login shell runs: every word quoted."""
    return " ".join(shlex.quote(word) for word in
                    ("sh", "-c", SCRIPT, "diskmark-fleet", target, name, fio_version))


def forward_path(path: str) -> str:
    """``path`` as ssh's ``-L`` reads one side of a forward: ``\\`` and ``:`` escaped with a
    backslash, ``%`` doubled (ssh expands %-tokens there)."""
    return path.replace("\\", "\\\\").replace(":", "\\:").replace("%", "%%")
