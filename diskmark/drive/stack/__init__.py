"""The storage stack under a target, from the target down to the hardware: mounts read from
mountinfo, block devices from sysfs (under a root given, so a captured tree is read by the
same code as the live system), a few programs a system already has (``zfs``, ``dmsetup``),
never a shell and never a write. :func:`diskmark.drive.stack.resolve.stack_of` is the entry."""
