"""Whether other users can write in a raw server's target directory (``fio://``), asked before
anything starts. Over SSH the test file lives in a private directory instead
(:mod:`diskmark.engine.fleet.ssh_remote`) and this question does not arise.

fio's server opens the test file by name in the target directory itself at every step
(``<client address>..diskmark-fleet-<hex>.tmp``), following symbolic links. A user who can
write in that directory could swap the file for a link between two steps, and the server
would write benchmark data over the file the link names: any file at all when the server
runs as root. Such a target is refused, unless the user accepts that risk
(``--accept-shared-target``).

fio's protocol cannot report a directory's permissions, and a root server's own writes
succeed whatever they are, so the host is asked by a job that runs as another user: fio's
``uid`` and ``gid`` options make the job's process user nobody before it creates its file
(:func:`diskmark.engine.fleet.jobfile.others_probe_job`). The file is refused (only the server's
user can write there: fine) or made (others can: refused, whatever the user states). A
sticky directory such as /tmp is refused too: the sticky bit stops others removing the test
file, but fio's clean-up re-creates a missing file by name, and whether the host's kernel
refuses to follow another user's link there (``fs.protected_symlinks``) is the host's
setting, which diskmark cannot see.

Only root can become another user: for a server that runs as anyone else the answer is
unknown, and the run goes on only when the user states the target is private. Not seen by
this check: a group or an ACL that lets particular users write, and the directories above
the target (the README asks for them to be writable by the server's user alone as well).
"""

from __future__ import annotations

import errno
from enum import Enum
from typing import Any

from diskmark.engine.fleet.jobfile import NOBODY
from diskmark.engine.process import Outcome
from diskmark.engine.sentence import Sentence
from diskmark.locale import N_, _


class Access(Enum):
    PRIVATE = "private"  # user nobody was refused
    OTHERS = "others"  # user nobody made a file there
    UNKNOWN = "unknown"  # the server could not become user nobody
    FAILED = "failed"  # something else went wrong: fio's words say what


def access(outcome: Outcome, entries: list[dict[str, Any]]) -> Access:
    """What the probe of :func:`~diskmark.engine.fleet.jobfile.others_probe_job` found, from fio's
    client's outcome and the host's job entries. Only a refusal to create (EACCES) counts
    as private; a failure to change the user (EPERM, or EINVAL for a user a container does
    not map), or an EPERM whose cause fio did not name, is unknown."""
    text = " ".join(outcome.stderr.splitlines() + outcome.noise)
    if "func=setuid" in text or "func=setgid" in text:
        return Access.UNKNOWN
    if outcome.hung or outcome.returncode is None or not entries:
        return Access.FAILED
    err = next((e.get("error") for e in entries if e.get("error")), 0)
    if err == errno.EACCES:
        return Access.PRIVATE
    if err in (errno.EPERM, errno.EINVAL):
        return Access.UNKNOWN
    if err == 0 and outcome.returncode == 0:
        return Access.OTHERS
    return Access.FAILED


def others_can_write(label: str, directory: str) -> str:
    return _("{host}: other users can write in {directory}: a file made there as user nobody "
             "(uid {uid}) was accepted.\n"
             "fio's server opens the test file there by name at every step, so another user "
             "could swap it for a symbolic link and make the server write over a file of their "
             "choosing.\n"
             "Use a directory only the server's user can write, such as one made for it (mkdir "
             "-m 0755 /srv/diskmark, owned by that user); a sticky directory such as /tmp is "
             "refused too. Reach the host over SSH instead (--host HOST), where the test file "
             "lives in a private directory, or accept the risk with "
             "--accept-shared-target.").format(host=label, directory=directory, uid=NOBODY)


def cannot_check(label: str, directory: str) -> str:
    # TRANSLATORS: "The target is private" is a check box of the app's fleet screen: use its words
    return _("{host}: diskmark cannot check whether other users can write in {directory}: "
             "fio's server there cannot run a job as another user (it does not run as root), "
             "and fio's protocol cannot tell a directory's permissions.\n"
             "If only the server's user can write in {directory}, say so with "
             "--target-is-private (in the app, tick \"The target is private\").").format(
                 host=label, directory=directory)


def risk_accepted(label: str, directory: str) -> Sentence:
    """Kept in the host's result: the user ran in a target others may write in."""
    return Sentence(N_("Other users may be able to write in {directory} on {host}, where fio's "
                       "server opens the test file by name; measured there because "
                       "--accept-shared-target was given."), directory=directory, host=label)
