"""diskmark: CrystalDiskMark for the Linux terminal, on fio."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("diskmark")
except PackageNotFoundError:  # running from a source tree without an install
    __version__ = "0.0.0+src"
