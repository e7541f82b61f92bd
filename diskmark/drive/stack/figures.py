"""The known sizes of the layers' effects, each with its source: what a link carries, which
OpenZFS honours O_DIRECT, which mount options change the figures. A figure here bounds or
explains a result; it never estimates one.

MB/s are 1e6 bytes per second, as diskmark's figures are.
"""

from __future__ import annotations

# --- links -------------------------------------------------------------------------------------

#: PCIe payload per lane after line encoding, by the link's rate in GT/s: 2.5 and 5 GT/s
#: use 8b/10b, 8 GT/s and up 128b/130b (PCI-SIG, PCI Express Base Specification 1.0 to 6.0;
#: tabled in Wikipedia's "PCI Express", section "Comparison table": 250, 500, 985, 1969,
#: 3938, 7563 MB/s per lane). 64 GT/s (PCIe 6, PAM4 with FLIT encoding) is that table's
#: 7563. Transaction-layer overhead takes a few more percent, which NEAR_CEILING allows for.
PCIE_LANE_MB_S = {2.5: 250.0, 5.0: 500.0, 8.0: 984.6, 16.0: 1969.2, 32.0: 3938.5,
                  64.0: 7563.0}
#: The PCIe generation of each rate, as the specifications number them.
PCIE_GENERATION = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6}

#: SATA's payload by its line rate in Gb/s: 8b/10b encoding leaves 150, 300 and 600 MB/s
#: (SATA-IO, "SATA Revision 3.0", the 6 Gb/s FAQ: "SATA 6Gb/s ... 600MB/s"; Wikipedia,
#: "SATA", section "SATA revision 2.0 (3 Gbit/s, 300 MB/s)").
SATA_MB_S = {1.5: 150.0, 3.0: 300.0, 6.0: 600.0}

#: SAS's payload by its line rate in Gb/s: SAS-1 to SAS-3 use 8b/10b (300, 600, 1200 MB/s),
#: SAS-4's 22.5 Gb/s uses 128b/150b, 2400 MB/s (Wikipedia, "Serial Attached SCSI", the
#: table "SAS-1 … SAS-4").
SAS_MB_S = {3.0: 300.0, 6.0: 600.0, 12.0: 1200.0, 22.5: 2400.0}

#: What a USB link carries for mass storage, by its speed in Mb/s as sysfs says it.
#: 12 Mb/s (full speed): the bulk limit of the USB 2.0 specification, Table 5-9 (19
#: transactions of 64 bytes per 1 ms frame: 1.216 MB/s). 480 Mb/s (high speed): a practical
#: figure, as the bulk limit (Table 5-10: 13 × 512 bytes per 125 µs microframe, 53 MB/s) is
#: never reached by a disk behind Bulk-Only transport: Wikipedia's "USB" (section
#: "Transmission rates") gives hi-speed hard drives reading at 30–42 MB/s in CNet's tests and
#: quotes the USB-IF's chairman on 10–15 % of the 60 MB/s going to overhead. SuperSpeed and
#: up: the line rate after encoding, 8b/10b for 5 Gb/s (500 MB/s) and 128b/132b for 10 and
#: 20 Gb/s (1212 and 2424 MB/s; USB 3.2 specification, chapter 6; Wikipedia, "USB 3.0").
USB_MB_S = {12.0: 1.216, 480.0: 40.0, 5000.0: 500.0, 10000.0: 1212.0, 20000.0: 2424.0}
#: The USB speeds of a "USB 3" device: below this a SuperSpeed device runs as a USB 2 one.
USB3_MB_PER_S = 5000.0

# --- file systems --------------------------------------------------------------------------------

#: The first OpenZFS that honours O_DIRECT (its ``direct`` property, default "standard"):
#: 2.3.0, with openzfs/zfs pull request #10018 "Direct IO Support". From 0.8.0 (pull
#: request #7823) to 2.2, O_DIRECT is accepted and ignored: reads are served by the ARC.
ZFS_DIRECT_IO = (2, 3)
#: Mount options that change figures, by file system (``mount(8)``, ``btrfs(5)``,
#: the kernel's Documentation/filesystems/dax.rst): compression, every write synchronous,
#: direct access to the medium without the page cache.
COMPRESS_OPTIONS = ("compress", "compress-force")
SYNC_OPTIONS = ("sync",)
DAX_OPTIONS = ("dax", "dax=always")
