"""What a refusal to open a target means, by its errno and by whether diskmark runs as root:
one rule for a device and for a directory.

EACCES (permission denied) for a user is the file's permissions: the group to join, or
root. Root passes over the permissions, so a refusal of root comes from a policy above them,
and "run diskmark as root" is no advice: a security module (SELinux, AppArmor), a file
system mounted ``nodev`` (no device on it may be opened), a network file system that maps
root to another user. EPERM (operation not permitted) is such a policy for every user, root
included: a container's device policy (its device cgroup), an immutable file, a sandbox.
Found in a container where ``--target /dev/vda`` as root was told to run diskmark as root.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from diskmark.engine.errors import TargetError
from diskmark.locale import _


def by_policy(error: int) -> bool:
    """Whether a refusal with ``error`` comes from a policy that binds root too: EPERM for
    anyone, any refusal of root. Only the rest is the file's permissions."""
    return error == errno.EPERM or os.geteuid() == 0


def refused(path: Path, error: OSError, device: bool) -> TargetError:
    """A refusal by policy (:func:`by_policy`) of the device or directory ``path``: what it
    means, and what to do instead of becoming root."""
    said = error.strerror or os.strerror(error.errno or 0)
    if os.geteuid() == 0:
        first = (_("diskmark runs as root, and the system still refused to open the device "
                   "{path}: {error}.") if device else
                 _("diskmark runs as root, and the system still refused to write in {path}: "
                   "{error}."))
    else:
        first = (_("The system refused to open the device {path}: {error}. Running diskmark as "
                   "root would not change that.") if device else
                 _("The system refused to write in {path}: {error}. Running diskmark as root "
                   "would not change that."))
    if error.errno == errno.EPERM:
        hint = (_("Operation not permitted comes from a policy above the file's permissions, "
                  "which binds root too: a device policy of the container (its device cgroup; "
                  "Docker and Podman pass a device in with --device {path}), a security module "
                  "(SELinux, AppArmor: see journalctl -k or the audit log) or an immutable "
                  "device file. Run diskmark where the device is allowed, such as on the host "
                  "rather than in the container.") if device else
                _("Operation not permitted comes from a policy above the directory's "
                  "permissions, which binds root too: an immutable or append-only directory "
                  "(lsattr -d {path}; chattr -i lifts it), or a security module or sandbox "
                  "(SELinux, AppArmor: see journalctl -k or the audit log). Choose another "
                  "directory, or lift that policy."))
    else:
        hint = (_("Root is refused a device by a security module (SELinux, AppArmor: see "
                  "journalctl -k or the audit log), or when the device file lies on a file "
                  "system mounted nodev (findmnt -T {path}). Use the device's own name in /dev, "
                  "or run diskmark where the device is allowed.") if device else
                _("Root is refused by a security module (SELinux, AppArmor: see journalctl -k "
                  "or the audit log), or by a network file system that maps root to another "
                  "user (NFS's root_squash). Choose a directory on a local file system, or one "
                  "the server lets root write in."))
    return TargetError(first.format(path=path, error=said), hint.format(path=path))
