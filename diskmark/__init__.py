"""diskmark: CrystalDiskMark for the Linux terminal, on fio."""

#: The one place the version is written; the package build reads it from here. (Asking
#: importlib.metadata instead costs a tenth of a second at every start.)
__version__ = "0.2.0"
