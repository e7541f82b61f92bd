"""Which fio I/O engine comes closest to the device: io_uring where the kernel, the sandbox
and this fio allow it, libaio otherwise.

Measured on a memory-backed ext4 (2 cores, fio 3.33): the same MB/s within noise, but
io_uring spends 7–17% less CPU per 4 KiB I/O, and where one fio thread saturates a core
(RND4K Q32T1 read) it came out about 1.2× faster. None of io_uring's extra options
(fixed buffers, registered files, a polling thread) are used: CrystalDiskMark's DiskSpd
has no such help either.

io_uring can be missing in three places: the kernel (before 5.1, or turned off with the
``kernel.io_uring_disabled`` sysctl), a sandbox (containers often forbid its system calls
with seccomp), and fio (built without it). All three are asked, cheaply, before a run.
"""

from __future__ import annotations

import ctypes
import errno
import os
from functools import lru_cache

from diskmark.engine.sentence import Sentence
from diskmark.files import program
from diskmark.files.program import Ending
from diskmark.locale import N_

IO_URING, LIBAIO = "io_uring", "libaio"
SYS_IO_URING_SETUP = 425  # the same number on every architecture (unified syscall table)
_PARAMS_SIZE = 120  # struct io_uring_params
ENGHELP_TIMEOUT_S = 3.0
#: fio's list of its engines is some 40 short lines
ENGHELP_MAX = 256 * 1024


def kernel_allows_io_uring() -> tuple[bool, Sentence | None]:
    """(True, None) when this process can set up an io_uring, else (False, why)."""
    try:
        with open("/proc/sys/kernel/io_uring_disabled", encoding="ascii") as f:
            if f.read().strip() == "2":
                return False, Sentence(N_("io_uring is turned off (kernel.io_uring_disabled = 2)"))
    except OSError:
        pass  # kernels before 6.6 have no such switch
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return False, Sentence(N_("the C library cannot be asked"))
    params = ctypes.create_string_buffer(_PARAMS_SIZE)
    fd = libc.syscall(SYS_IO_URING_SETUP, ctypes.c_uint(1), params)
    if fd < 0:
        err = ctypes.get_errno()
        why = {errno.ENOSYS: N_("the kernel has no io_uring"),
               errno.EPERM: N_("io_uring is not permitted here (a sandbox or the sysctl)")}
        if err in why:
            return False, Sentence(why[err])
        return False, Sentence(N_("io_uring_setup failed: {error}"), error=os.strerror(err))
    os.close(fd)
    return True, None


@lru_cache(maxsize=8)
def fio_engines(fio: str) -> tuple[frozenset[str], Sentence | None]:
    """The I/O engines a fio binary was built with (``fio --enghelp``), or none and why its
    list could not be read."""
    try:
        said = program.run([fio, "--enghelp"], timeout=ENGHELP_TIMEOUT_S, limit=ENGHELP_MAX)
    except OSError as e:
        return frozenset(), Sentence(N_("fio --enghelp could not be run: {error}"),
                                     error=e.strerror or str(e))
    if said.ending is Ending.TOO_LONG:
        return frozenset(), Sentence(N_("fio's answer to --enghelp was longer than {size}, which "
                                        "no fio says: it was not read"),
                                     size=f"{ENGHELP_MAX // 1024} KiB")
    if said.ending is not Ending.EXITED:
        return frozenset(), Sentence(N_("fio did not answer --enghelp within {seconds} s"),
                                     seconds=f"{ENGHELP_TIMEOUT_S:g}")
    lines = said.stdout.decode("utf-8", "replace").splitlines()[1:]
    return frozenset(line.strip() for line in lines if line.strip()), None


def choose(fio: str) -> tuple[str, Sentence | None]:
    """(engine, why not io_uring or None)."""
    ok, why = kernel_allows_io_uring()
    if not ok:
        return LIBAIO, why
    engines, unread = fio_engines(fio)
    if unread is not None:
        return LIBAIO, unread
    if IO_URING not in engines:
        return LIBAIO, Sentence(N_("this fio was built without io_uring"))
    return IO_URING, None
