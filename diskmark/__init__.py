"""diskmark: CrystalDiskMark for the Linux terminal, on fio."""

#: The one place the version is written; the package build reads it from here. (Asking
#: importlib.metadata instead costs a tenth of a second at every start.)
__version__ = "0.2.0"

#: Where diskmark lives: its reports name it where CrystalDiskMark names Crystal Dew World.
HOMEPAGE = "https://github.com/diskmark/diskmark"
