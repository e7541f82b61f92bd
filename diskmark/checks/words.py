"""The built-in checks' descriptions and what each says of how diskmark's measurement
differs from its source's, marked for translation: they are data (TOML), which the
extraction of the catalogs does not read, and a person reads them in ``diskmark checks`` and
the app's Checks. Shown through ``_()``, a user check's own texts (in no catalog) stay as its
file writes them. The checks' names (the classes' own, "SD Video Speed Class 30 (V30)") and
the sources (titles and addresses, cited as published) stay as written in every language."""

from __future__ import annotations

from diskmark.locale import N_

TEXTS = (
    N_("The sequential write speed an SD or microSD card must sustain to carry this class's "
       "mark."),
    N_("The SD Association measures a card on its own bus, in its class's bus mode, writing "
       "whole allocation units as its Speed Class rules lay down; diskmark writes a file "
       "through the card reader, the kernel and the file system, 1 MiB at a time at queue "
       "depth 1, and judges the slowest pass. A reader or a USB link can hold the figure "
       "below the card's (diskmark says so where the link is known), and a card may write "
       "faster while its cache is empty than its class guarantees."),
    N_("The random reads and writes an SD or microSD card must sustain, with its sequential "
       "floor, to carry this Application Performance Class's mark."),
    N_("The SD Association measures 4 KiB random reads and writes with the card in a host of"
       " its own; diskmark measures them through the reader and the file system at queue "
       "depth 1, and judges the slowest pass. A2's figures need a host that uses the card's "
       "command queue and cache: through a USB reader, or a host without them, an A2 card "
       "measures like an A1 card or below, which says nothing about the card."),
    N_("Whether a disk is fast enough for etcd's write-ahead log: an fdatasync after every "
       "2,300-byte write, the test etcd's operators run with fio."),
    N_("fio writes over diskmark's laid-out test file, not a new file (etcd preallocates its"
       " log files too), and stops at the run's time limit if it has not written its 22 MiB "
       "by then. In use, other writes to the same disk make etcd's latency worse than this "
       "test's, so a figure close to the limit is not enough."),
    N_("Whether the drive hangs on a USB 3 link (5 Gb/s or more): a USB 3 stick in a USB 2 "
       "port, or behind a USB 2 hub or cable, is measured at USB 2's speed."),
    N_("diskmark reads the speed the USB device above the disk negotiated, from /sys, and "
       "what that link can carry; a virtual disk, tmpfs or a network file system has no such"
       " link, and then nothing can be told."),
)
