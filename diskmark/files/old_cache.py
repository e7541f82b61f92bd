"""The cache file earlier versions kept, removed once: ``parsed-toml.json`` in the cache
directory held what the preset and theme files parsed to. Measured, it saved under a
millisecond of a start that had it and cost some 20 ms (an fsynced write) of every start
after a file changed, so it went; the file it left is of no use to anyone.

Only that name, only a regular file (not a link), and only when it begins as diskmark wrote
it (``{"schema":"diskmark.toml-cache/1"``): a file of that name diskmark did not make is
left alone. Nothing here raises: a file that cannot be removed stays, as harmless as before.
"""

from __future__ import annotations

import os
import stat

from diskmark.files.paths import cache_dir

FILE_NAME = "parsed-toml.json"
#: How every cache file began (json.dumps of a dict whose first key was the schema).
SIGNATURE = b'{"schema":"diskmark.toml-cache/1"'


def remove_toml_cache() -> bool:
    """Remove the old cache file if it is diskmark's, and its directory if that is then
    empty. True when a file was removed."""
    folder = cache_dir()
    path = folder / FILE_NAME
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        try:
            head = os.read(fd, len(SIGNATURE))
        finally:
            os.close(fd)
        if head != SIGNATURE:
            return False
        os.unlink(path)
    except OSError:
        return False
    try:
        os.rmdir(folder)  # only when empty: diskmark put nothing else there
    except OSError:
        pass
    return True
