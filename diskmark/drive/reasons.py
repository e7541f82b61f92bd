"""Why a drive's temperature or health could not be read, as whole sentences with named
values. A result keeps them in English (CrystalDiskMark's text export prints them as they
are); a view says them again in the reader's language with
:func:`diskmark.locale.kept.said_again`, which finds the sentence's template by its shape.
So every reason is made here, from one of these templates, and nowhere else."""

from __future__ import annotations

from diskmark.locale import N_

SMART_NOT_INSTALLED = N_("smartctl is not installed: install smartmontools for the drive's "
                         "health: `sudo apt-get install smartmontools` (Debian, Ubuntu), `sudo "
                         "dnf install smartmontools` (Fedora) or `sudo pacman -S smartmontools` "
                         "(Arch).")
SMART_CANNOT_RUN = N_("smartctl could not be run: it needs root (or a user in the disk group "
                      "with read access to the device).")
SMART_RUN_FAILED = N_("smartctl could not be run: {error}.")
SMART_TIMEOUT = N_("smartctl did not answer about {device} within {seconds} s.")
SMART_STOPPED = N_("smartctl was stopped with the run before it answered about {device}.")
SMART_TOO_LONG = N_("smartctl's answer about {device} was longer than {size}, which is not "
                    "smartctl's: it was not read.")
SMART_NOT_JSON = N_("smartctl's answer about {device} was not its JSON (exit status {status}).")
SMART_NO_PERMISSION = N_("smartctl may not open {device}: it needs root (or a user in the disk "
                         "group with read access to the device).")
SMART_UNKNOWN_DEVICE = N_("smartctl does not know how to ask {device} (a virtual or unusual "
                          "disk).")
SMART_UNKNOWN_DEVICE_SAID = N_("smartctl does not know how to ask {device} (a virtual or "
                               "unusual disk): {said}.")
SMART_CANNOT_OPEN = N_("smartctl could not open {device}.")
SMART_CANNOT_OPEN_SAID = N_("smartctl could not open {device}: {said}.")
SMART_NO_HEALTH = N_("{device} reports no SMART health.")
SMART_NO_HEALTH_SAID = N_("{device} reports no SMART health ({said}).")
SMART_NOT_ASKED = N_("smartctl was not asked: the run was stopped.")

# TRANSLATORS: {source} is "smartctl" or "the sensor nvme Composite"; {value}, {low} and
# {high} are temperatures in °C
IMPLAUSIBLE = N_("{source} reported a temperature of {value} °C, outside what a working drive "
                 "can report ({low} to {high} °C): it was left out")
# TRANSLATORS: as the sentence before, for one drive
IMPLAUSIBLE_FOR = N_("{source} reported a temperature of {value} °C for {device}, outside what "
                     "a working drive can report ({low} to {high} °C): it was left out")

NO_SENSOR_NVME = N_("the NVMe controller exposes no temperature sensor (the kernel's nvme hwmon "
                    "support, CONFIG_NVME_HWMON, is off)")
NO_SENSOR_SATA = N_("the kernel exposes no temperature for this disk: for SATA, load the "
                    "drivetemp module (`sudo modprobe drivetemp`); USB bridges usually hide it")
NO_SENSOR_LOOP = N_("a loop device has no sensor of its own (its I/O goes to the disk that holds "
                    "its backing file)")
NO_SENSOR_RAM = N_("a RAM disk has no drive, so no temperature")
NO_SENSOR = N_("the kernel exposes no temperature sensor for this kind of disk")

NO_DISK = N_("the target's filesystem has no disk under it, so there is no drive to read")
# TRANSLATORS: {fstype} is the filesystem's type: tmpfs, nfs4…
NO_DISK_OF = N_("the target's filesystem ({fstype}) has no disk under it, so there is no drive "
                "to read")
# TRANSLATORS: {kind} is virtio, xen, hyper-v…
VIRTUAL = N_("a virtual disk ({kind}) reports no temperature or health: the hypervisor keeps "
             "the real drive's sensors to itself")

#: Every reason, for a view to find a kept sentence's template by.
ALL = (SMART_NOT_INSTALLED, SMART_CANNOT_RUN, SMART_RUN_FAILED, SMART_TIMEOUT, SMART_STOPPED,
       SMART_TOO_LONG, SMART_NOT_JSON, SMART_NO_PERMISSION, SMART_UNKNOWN_DEVICE_SAID,
       SMART_UNKNOWN_DEVICE, SMART_CANNOT_OPEN_SAID, SMART_CANNOT_OPEN, SMART_NO_HEALTH_SAID,
       SMART_NO_HEALTH, SMART_NOT_ASKED, IMPLAUSIBLE_FOR, IMPLAUSIBLE, NO_SENSOR_NVME,
       NO_SENSOR_SATA, NO_SENSOR_LOOP, NO_SENSOR_RAM, NO_SENSOR, NO_DISK_OF, NO_DISK, VIRTUAL)
