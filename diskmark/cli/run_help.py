"""What `diskmark run --help` says below its options: examples, what the figures mean,
devices and comparisons. Kept apart from the parser so the parser stays readable; marked
here, translated where the parser is built."""

from diskmark.locale import N_

# TRANSLATORS: printed as it is, lines and all: keep each line under 92 characters (CJK: 46),
# and the commands of the examples, option names and units exactly.
RUN_EPILOG = N_("""\
examples:
  diskmark run --target /mnt/usb --size 256MiB --count 1
  diskmark run --target . --profile peak --unit IOPS
  diskmark run --target /data --format json --output result.json
  diskmark run --target /dev/shm --buffered          # tmpfs/ramfs need buffered I/O
  diskmark run --target /data --sweep RND4K --mode read --unit IOPS   # queue-depth curve
  diskmark run --target /data --profile sustained --size 32GiB --duration 120   # the knee
  diskmark run --target /data --save-baseline "new NVMe" --note "fw 4B2QGXA7"
  diskmark run --target /data --compare "new NVMe" --fail-on-regression 10   # CI gate
  diskmark run --target /dev/sdb --destroy-data /dev/sdb   # writes too: ERASES /dev/sdb

figures: MB/s = 1,000,000 bytes/s (as CrystalDiskMark); sizes are binary (MiB, GiB).
Each test runs one discarded warm-up pass, then COUNT passes; the best pass is reported
(the lowest latency separately). Progress goes to stderr, the report to stdout.

Every finished run is kept in the history (see `diskmark baselines --help`).

devices: --target /dev/sdb measures the device's first SIZE bytes as they are (no test
file); reads change nothing. Writes destroy its data: they need --destroy-data naming the
same device (else rw runs the reads only, write and --mix are refused) and never run while
it or a partition is mounted, swap or held (LVM, md). Needs its group (usually disk) or root.

comparing (--compare, --fail-on-regression): one rule for MB/s, IOPS and latency. X% worse
means the figure delivers X% less than the baseline: MB/s or IOPS X% lower, or latency so
much higher that 1/latency is X% lower (twice the latency is 50% worse, as half the MB/s
is). "same" means the two figures are no further apart than the passes are: their range
over their mean is within the noise band, the passes' own spread (R/Avg) where it is known,
else 3%. Any band, even one of 100% or more, is judged this way: two passes 107% apart
fell 70% from one to the other, so a 97% fall (189% apart) is worse, never same.
--fail-on-regression counts only figures the comparison calls worse: a fall within the
noise is named as not counted, and the table and the exit status always agree.

exit status: 0 done, 1 benchmark failed, or its report could not be written (to --output
or stdout; the run is still kept), 2 bad arguments, unusable target or unknown
baseline (nothing started), 3 a test worse than the --compare baseline by more than
--fail-on-regression PCT, 4 the run finished and its report was printed but it could not be
kept in the history (the data directory could not be written; the message says why; a
regression still gives 3), 130 interrupted (Ctrl+C, SIGTERM, SIGHUP or SIGQUIT; fio is
stopped and the test file removed; a second Ctrl+C stops fio at once), 141 stdout's reader
went away (e.g. `| head -1`; the run is still kept).
""")
