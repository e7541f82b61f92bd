"""A disk at the bottom of a stack and the link it hangs on, read from sysfs: its model and
size, its bus (NVMe, SATA, SAS, USB, MMC, a hypervisor's), the link's speed against what
both ends could do, USB's driver (UAS or the older Bulk-Only usb-storage), the write cache
and whether it spins, each with the effect it has on the figures (:mod:`.figures` holds
the sizes and their sources)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from diskmark.drive.probe import ancestors, emulated, first_number, pci_function, virtual_disk_of_block
from diskmark.drive.stack.figures import (
    PCIE_GENERATION,
    PCIE_LANE_MB_S,
    SAS_MB_S,
    SATA_MB_S,
    USB3_MB_PER_S,
    USB_MB_S,
)
from diskmark.drive.sysfs import read_sys
from diskmark.model.numerals import digits_only
from diskmark.model.stack import Effect, Kind, Layer, LayerEffect


def _link_name(path: Path) -> str:
    try:
        return os.path.basename(os.readlink(path))
    except OSError:
        return ""


def _size(block: Path) -> str:
    sectors = read_sys(block / "size")
    return str(int(sectors) * 512) if digits_only(sectors) else ""


def _nearest(values: dict[float, float], rate: float) -> float | None:
    """The table's figure for a rate sysfs printed (``8.0``, ``6.0``), or None."""
    return next((v for k, v in values.items() if abs(k - rate) < 0.01), None)


def _pcie(disk: Path, real: Path, sys_root: Path, layer: Layer) -> None:
    """NVMe's PCIe link: generation and width now, and what the device can do."""
    pci = pci_function(real, sys_root)
    if pci is None:  # native multipath: the namespace hangs under the subsystem, beside
        # links to its controllers; the first one's PCI function speaks for the link
        controllers = [c for c in sorted(real.parent.glob("nvme[0-9]*"))
                       if re.fullmatch(r"nvme[0-9]+", c.name)]
        pci = Path(os.path.realpath(controllers[0] / "device")) if controllers else None
    if pci is None or not pci.exists():
        return
    gts, width = (first_number(read_sys(pci / "current_link_speed")),
                  first_number(read_sys(pci / "current_link_width")))
    top_gts, top_width = (first_number(read_sys(pci / "max_link_speed")),
                          first_number(read_sys(pci / "max_link_width")))
    if not gts or not width:
        return
    gen, top_gen = PCIE_GENERATION.get(gts), PCIE_GENERATION.get(top_gts or 0.0)
    layer.facts["link"] = f"PCIe {gen or '?'}.0 x{int(width)} ({gts:g} GT/s)"
    if top_gts and top_width:
        layer.facts["link_max"] = f"PCIe {top_gen or '?'}.0 x{int(top_width)} ({top_gts:g} GT/s)"
    lane = PCIE_LANE_MB_S.get(gts)
    ceiling = lane * width if lane else None
    layer.effects.append(LayerEffect(Effect.LINK, ceiling, {"link": layer.facts["link"]}))
    if top_gts and top_width and (gts < top_gts or width < top_width):
        top_lane = PCIE_LANE_MB_S.get(top_gts)
        layer.effects.append(LayerEffect(
            Effect.LINK_LOW, ceiling,
            {"link": layer.facts["link"], "capable": layer.facts["link_max"],
             "capable_mb_s": top_lane * top_width if top_lane else None}))


def _sata(real: Path, port: str, sys_root: Path, layer: Layer) -> None:
    """SATA's negotiated rate, and the fastest the host's port allows."""
    link = sys_root / "class" / "ata_link" / f"link{port}"
    port_dir = next((p for p in ancestors(real, sys_root) if p.name == f"ata{port}"), None)
    if not (link / "sata_spd").exists() and port_dir is not None:
        link = port_dir / f"link{port}" / "ata_link" / f"link{port}"
    gbps = first_number(read_sys(link / "sata_spd"))
    if not gbps:
        return
    layer.facts["link"] = f"SATA {gbps:.1f} Gb/s"
    ceiling = _nearest(SATA_MB_S, gbps)
    layer.effects.append(LayerEffect(Effect.LINK, ceiling, {"link": layer.facts["link"]}))
    top = first_number(read_sys(link / "hw_sata_spd_limit"))
    if top and top > gbps:
        layer.facts["link_max"] = f"SATA {top:.1f} Gb/s"
        layer.effects.append(LayerEffect(Effect.LINK_LOW, ceiling, {
            "link": layer.facts["link"], "capable": layer.facts["link_max"],
            "capable_mb_s": _nearest(SATA_MB_S, top)}))


def _sas(real: Path, sys_root: Path, layer: Layer) -> None:
    """SAS: the negotiated rate of the phy the end device hangs on."""
    end = next((p for p in ancestors(real, sys_root) if p.name.startswith("end_device-")), None)
    port = end.parent if end is not None else None
    rates = ([first_number(read_sys(phy / "sas_phy" / phy.name / "negotiated_linkrate"))
              for phy in sorted(port.glob("phy-*"))] if port is not None else [])
    gbps = max((r for r in rates if r), default=None)
    if not gbps:
        return
    layer.facts["link"] = f"SAS {gbps:g} Gb/s"
    layer.effects.append(LayerEffect(Effect.LINK, _nearest(SAS_MB_S, gbps),
                                     {"link": layer.facts["link"]}))


def _usb(real: Path, sys_root: Path, layer: Layer) -> None:
    """USB: the speed of the nearest USB device above the disk (the bridge), what that
    device could do (its ``version``), and the driver of its interface: ``uas`` or the
    older Bulk-Only ``usb-storage``."""
    for p in ancestors(real, sys_root):
        if re.fullmatch(r"[0-9]+-[0-9.]+:[0-9]+\.[0-9]+", p.name):  # the interface, 2-1:1.0
            driver = _link_name(p / "driver")
            if driver:
                layer.facts["driver"] = driver
        mbps = first_number(read_sys(p / "speed"))
        if mbps:
            break
        if re.fullmatch(r"usb[0-9]+", p.name):
            return
    else:
        return
    version = first_number(read_sys(p / "version"))
    layer.facts["link"] = f"USB {mbps:g} Mb/s" if mbps < 1000 else f"USB {mbps / 1000:g} Gb/s"
    ceiling = _nearest(USB_MB_S, mbps)
    layer.effects.append(LayerEffect(Effect.LINK, ceiling, {"link": layer.facts["link"]}))
    if version and version >= 3 and mbps < USB3_MB_PER_S:
        layer.facts["link_max"] = f"USB {version:g}"
        layer.effects.append(LayerEffect(Effect.LINK_LOW, ceiling, {
            "link": layer.facts["link"], "capable": layer.facts["link_max"],
            "capable_mb_s": USB_MB_S[USB3_MB_PER_S]}))
    if layer.facts.get("driver") == "usb-storage":
        layer.effects.append(LayerEffect(Effect.USB_BOT, None, {"driver": "usb-storage"}))


def _bus(real: Path, disk: Path, sys_root: Path) -> str:
    text = str(real) + "/"
    if re.search(r"/usb[0-9]+/", text):
        return "USB"
    if re.search(r"/ata[0-9]+/", text):
        return "SATA"
    if "/end_device-" in text or re.search(r"/port-[0-9]+:[0-9]+/", text):
        return "SAS"
    if re.match(r"nvme[0-9]+(c[0-9]+)?n[0-9]+$", disk.name) or "/nvme/" in text:
        return "NVMe"
    if re.match(r"mmcblk[0-9]+$", disk.name):
        return "MMC"
    return ""


def disk_layer(disk: Path, sys_root: Path, depth: int) -> Layer:
    """The whole disk whose sysfs directory is ``disk``: what it is and its link's effects."""
    real = Path(os.path.realpath(disk))
    layer = Layer(Kind.DISK, f"/dev/{disk.name}", depth, device=f"/dev/{disk.name}")
    model = (read_sys(disk / "device" / "model") or read_sys(disk / "device" / "name")
             or read_sys(disk / "device" / "device" / "model"))  # NVMe multipath: its controller
    if model:
        layer.facts["model"] = " ".join(model.split())
    if size := _size(disk):
        layer.facts["size"] = size
    virtual = virtual_disk_of_block(disk, sys_root)
    bus = _bus(real, disk, sys_root)
    layer.type = bus or virtual
    if virtual:
        layer.facts["virtual"] = virtual
        layer.effects.append(LayerEffect(Effect.VIRTUAL, None, {"virtual": virtual}))
    elif not emulated(real, sys_root):
        if bus == "NVMe":
            _pcie(disk, real, sys_root, layer)
        elif bus == "SATA":
            m = re.search(r"/ata([0-9]+)/", str(real) + "/")
            _sata(real, m.group(1) if m else "", sys_root, layer)
        elif bus == "SAS":
            _sas(real, sys_root, layer)
        elif bus == "USB":
            _usb(real, sys_root, layer)
    cache = read_sys(disk / "queue" / "write_cache")
    if cache:
        layer.facts["write_cache"] = cache
        layer.effects.append(LayerEffect(Effect.WRITE_CACHE, None, {"mode": cache}))
    if read_sys(disk / "queue" / "rotational") == "1" and not virtual:
        layer.facts["rotational"] = "1"
        layer.effects.append(LayerEffect(Effect.ROTATIONAL))
    return layer
