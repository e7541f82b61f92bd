"""The storage stack in words: each layer as ``lsblk -s`` would show it, the effect each has
on the figures and what to do about it, a figure's marks, and what a layer measured below
costs. In the user's language on screen (:data:`~diskmark.model.voice.LOCAL`), in English
in what is kept and in CrystalDiskMark's text export (:data:`~diskmark.model.voice.ENGLISH`).
The numbers and ids are :mod:`diskmark.model.stack`'s.
"""

from __future__ import annotations

import textwrap
from typing import Any

from diskmark.locale import N_
from diskmark.locale.said import Said
from diskmark.locale.text_safety import shown
from diskmark.model.numerals import digits_only
from diskmark.model.results import SessionResult, TestResult
from diskmark.model.settings import Op
from diskmark.model.stack import (
    Effect,
    Kind,
    Layer,
    LayerEffect,
    Mark,
    Measured,
    Unknown,
    cost_pct,
)
from diskmark.model.units import format_bytes
from diskmark.model.voice import ENGLISH, LOCAL, Voice
from diskmark.report.cells import text_cells
from diskmark.report.formatting import ljust_cells, rjust_cells

#: The short mark a figure carries on its tile and in the grid, by the effect that explains
#: it (as ``cpu`` marks a figure the CPU set): technical abbreviations, the same in every
#: language, explained in the details and under the grid.
MARK_WORDS = {Effect.COMPRESSED: "zip", Effect.MEMORY: "mem", Effect.ARC: "arc",
              Effect.FUSE: "fuse", Effect.LOOP_CACHE: "loop", Effect.SYNC: "sync",
              Effect.DAX: "dax", Effect.CACHE_DEVICE: "cache", Effect.DEGRADED: "raid",
              Effect.RESYNC: "raid", Effect.LINK: "link"}


#: What a mark means, short enough for a tooltip and a footnote: the layer is named before it.
MARK_PHRASES = {
    Effect.COMPRESSED: N_("compresses what it writes: All 0x00 figures are not the drive's"),
    Effect.MEMORY: N_("is memory, not a drive"),
    Effect.ARC: N_("answers reads from ZFS's ARC in memory (O_DIRECT ignored)"),
    Effect.FUSE: N_("answers through a program in user space and the page cache"),
    Effect.LOOP_CACHE: N_("goes through its file's page cache (no direct I/O)"),
    Effect.SYNC: N_("waits for every write (mounted sync)"),
    Effect.DAX: N_("maps the medium like memory (DAX)"),
    Effect.CACHE_DEVICE: N_("answers from a faster cache device"),
    Effect.DEGRADED: N_("is a degraded array"),
    Effect.RESYNC: N_("is an array busy resyncing"),
    Effect.LINK: N_("caps the figure at what its link carries"),
}


def mark_word(effect: Effect) -> str:
    return MARK_WORDS.get(effect, effect.value)


def mark_phrase(mark: Mark, voice: Voice = LOCAL) -> Said:
    """A mark in a few words: ``zip: file system /mnt/b compresses what it writes: …``."""
    phrase = MARK_PHRASES.get(mark.effect)
    # TRANSLATORS: {mark} a tile's mark (zip, mem, loop), kept as it is; {layer} "loop device
    # /dev/loop0"; {what} what that layer does ("compresses what it writes")
    return Said(voice._("{mark}: {layer} {what}")).format(
        mark=mark_word(mark.effect), layer=layer_name(mark.kind, mark.name, voice),
        what=Said(voice._(phrase)) if phrase else mark.effect.value)


def marks_text(test: TestResult | None) -> str:
    """A figure's marks as the grid and the tile show them: ``zip,loop``."""
    if test is None:
        return ""
    return ",".join(dict.fromkeys(mark_word(m.effect) for m in test.marks))


def _size(text: str) -> str:
    return format_bytes(int(text)) if digits_only(text) else text


def kind_words(layer: Layer, voice: Voice = LOCAL) -> Said:
    """What a layer is, in a few words: "btrfs file system", "loop device", "disk"."""
    t = layer.type
    words = {
        Kind.FILESYSTEM: voice._("{type} file system"),
        Kind.FUSE: voice._("FUSE file system ({type})"),
        Kind.NETWORK: voice._("network file system ({type})"),
        Kind.OVERLAY: voice._("overlay file system"),
        Kind.MEMORY: voice._("{type} (memory)"),
        Kind.FILE: voice._("file"),
        Kind.LOOP: voice._("loop device"),
        Kind.DM_CRYPT: voice._("dm-crypt ({type})"),
        Kind.LVM: voice._("LVM volume ({type})"),
        Kind.DEVICE_MAPPER: voice._("device-mapper ({type})"),
        Kind.MD: voice._("md RAID ({type})"),
        Kind.BCACHE: voice._("bcache ({type})"),
        Kind.ZRAM: voice._("zram: compressed memory ({type})"),
        Kind.PARTITION: voice._("partition"),
        Kind.DISK: voice._("disk ({type})") if t else voice._("disk"),
        Kind.UNKNOWN: voice._("unknown layer"),
    }[layer.kind]
    return Said(words).format(type=t or "?")


def _details(layer: Layer, voice: Voice) -> list[str]:
    """What identifies a layer beyond its name, in short pieces."""
    f = layer.facts
    out: list[str] = []
    if layer.kind is Kind.FILESYSTEM and f.get("compression"):
        out.append(f"compress={f['compression']}")
    if layer.kind is Kind.FILESYSTEM and f.get("data_profile"):
        out.append(Said(voice._("data {profile}")).format(profile=f["data_profile"]))
    for key in ("primarycache", "compression", "recordsize", "sync") if layer.type == "zfs" else ():
        if key in f and not (key == "compression" and layer.kind is Kind.FILESYSTEM
                             and "compress=" in " ".join(out)):
            out.append(f"{key}={f[key]}")
    if layer.type == "zfs" and f.get("zfs_version"):
        out.append(f"OpenZFS {f['zfs_version']}")
    if layer.kind is Kind.FUSE:
        out.append(Said(voice._("program {program} (pid {pid})")).format(
            program=f["program"], pid=f.get("pid", "?")) if f.get("program")
            else Said(voice._("its program not found")))
    if layer.kind is Kind.NETWORK and f.get("source"):
        out.append(Said(voice._("from {server}")).format(server=f["source"]))
    if layer.kind is Kind.OVERLAY and f.get("upperdir"):
        out.append(Said(voice._("upper {upper}")).format(upper=f["upperdir"]))
    if layer.kind is Kind.LOOP:
        out.append(Said(voice._("file {file}")).format(file=f.get("backing_file", "?")))
        out.append(voice._("direct I/O on") if f.get("direct_io") == "1" else voice._("direct I/O off"))
    if layer.kind is Kind.DM_CRYPT:
        out.append(f.get("cipher") or voice._("cipher known to root (dmsetup table)"))
    if layer.kind is Kind.MD:
        out.append(Said(voice._("{disks} members")).format(disks=f.get("raid_disks", "?")))
        if f.get("sync_action") and f["sync_action"] != "idle":
            out.append(f["sync_action"])
    if layer.kind is Kind.PARTITION and f.get("number"):
        out.append(Said(voice._("number {number}")).format(number=f["number"]))
    if layer.kind is Kind.DISK:
        out += [f[k] for k in ("model", "link") if f.get(k)]
    if f.get("size"):
        out.append(_size(f["size"]))
    if layer.kind is Kind.DISK and f.get("write_cache"):
        out.append(Said(voice._("write cache: {mode}")).format(mode=f["write_cache"]))
    if layer.kind is Kind.UNKNOWN:
        out.append(Said(voice._("type {type}, source {source}")).format(
            type=layer.type or "?", source=f.get("source", "?")) if f.get("source") or layer.type
            else "")
    return [shown(str(piece), one_line=True) for piece in out if piece]


def layer_line(layer: Layer, voice: Voice = LOCAL) -> str:
    """A layer in one line: its name, what it is, what identifies it."""
    details = _details(layer, voice)
    what = kind_words(layer, voice)
    name = shown(layer.name, one_line=True)
    return f"{name}  {what}" + (f", {', '.join(details)}" if details else "")


def effect_sentence(effect: LayerEffect, voice: Voice = LOCAL) -> Said:
    """What one effect does to the figures, and what to do about it, in a sentence or two."""
    v: dict[str, Any] = effect.values
    e = effect.effect
    if e is Effect.COMPRESSED:
        text = voice._("Compresses what it writes ({algorithm}): All 0x00 data shrinks to "
                       "almost nothing, so All 0x00 figures are not the drive's; --data random "
                       "(the default) measures the drive.")
    elif e is Effect.MEMORY:
        text = voice._("Memory, not a drive: its figures are the memory's and the CPU's. Choose "
                       "a directory on a drive to measure the drive.")
    elif e is Effect.ARC:
        text = (voice._("OpenZFS {version} accepts O_DIRECT and ignores it (it is honoured from "
                        "{honoured_from}): reads come from the ARC in memory. A test file larger "
                        "than the ARC, or primarycache=metadata on a test dataset, measures the "
                        "disks.") if v.get("version") else
                voice._("ZFS before OpenZFS {honoured_from} accepts O_DIRECT and ignores it: "
                        "reads come from the ARC in memory. A test file larger than the ARC, or "
                        "primarycache=metadata on a test dataset, measures the disks."))
    elif e is Effect.FUSE:
        text = (voice._("Each request goes through the program {program} in user space, which "
                        "keeps its storage in the page cache: figures can be the memory's and "
                        "the program's, not the drive's. --down measures the device under it.")
                if v.get("program") else
                voice._("Each request goes through a program in user space, which keeps its "
                        "storage in the page cache: figures can be the memory's and the "
                        "program's, not the drive's. --down measures the device under it."))
    elif e is Effect.LOOP_CACHE:
        text = voice._("Reads and writes its file without direct I/O, through that file's page "
                       "cache: figures can be the memory's. losetup --direct-io=on, or --down, "
                       "measures what is under it.")
    elif e is Effect.SYNC:
        text = voice._("Mounted {option}: every write waits until the device has it, so write "
                       "figures are far below the drive's usual ones.")
    elif e is Effect.DAX:
        text = voice._("Mounted {option} (direct access): no page cache, the medium is mapped "
                       "like memory.")
    elif e is Effect.CACHE_DEVICE:
        text = voice._("A faster device caches a slower one: figures are the cache's while the "
                       "test file fits in it; a test file larger than the cache measures the "
                       "slower device.")
    elif e is Effect.DEGRADED:
        missing = int(v.get("missing", 1))
        return Said(voice.ngettext(
            "The array is degraded ({missing} member missing): reads rebuild data from the "
            "others, so figures are below the array's own. Measure again once it has been "
            "rebuilt.",
            "The array is degraded ({missing} members missing): reads rebuild data from the "
            "others, so figures are below the array's own. Measure again once it has been "
            "rebuilt.", missing)).format(missing=missing)
    elif e is Effect.RESYNC:
        text = (voice._("The array is busy ({action}, {pct}% done): its own I/O competes with "
                        "the test. Measure once /proc/mdstat shows it idle.") if "pct" in v else
                voice._("The array is busy ({action}): its own I/O competes with the test. "
                        "Measure once /proc/mdstat shows it idle."))
    elif e is Effect.LINK:
        if effect.mb_s is None:
            return Said(voice._("Its link: {link}.")).format(link=v.get("link", "?"))
        text = voice._("Its link ({link}) carries about {mb_s} MB/s at most: a figure near that "
                       "is the link's, not the drive's.")
    elif e is Effect.LINK_LOW:
        text = voice._("The link runs at {link}, below the {capable} the device can do: a slot "
                       "with all its lanes, another port or cable, or the firmware's link "
                       "settings would lift its ceiling.")
    elif e is Effect.USB_BOT:
        text = voice._("Driven by usb-storage (Bulk-Only transport), not UAS: one command at a "
                       "time, so queued and random figures stay low. A UAS-capable enclosure or "
                       "port queues commands.")
    elif e is Effect.NETWORK:
        text = voice._("Served over a network by {server}: figures are the network's, the "
                       "server's and their caches', not a drive's of this machine.")
    elif e is Effect.VIRTUAL:
        text = voice._("A virtual machine's disk ({virtual}): figures are the host's disk and "
                       "cache's. Measure on the host for the drive's.")
    elif e is Effect.CIPHER:
        cipher = v.get("cipher") or "?"
        aes = v.get("aes")
        text = (voice._("Encrypts every block ({cipher}); this CPU has AES instructions. --down "
                        "measures the device under it: the difference is the encryption's cost.")
                if aes else
                voice._("Encrypts every block ({cipher}); this CPU has no AES instructions, so "
                        "expect a large cost. --down measures the device under it: the "
                        "difference is the encryption's cost.")
                if aes is False else
                voice._("Encrypts every block ({cipher}). --down measures the device under it: "
                        "the difference is the encryption's cost."))
        return Said(text).format(cipher=cipher)
    elif e is Effect.RAID:
        text = voice._("RAID level {level} over {disks} members: what they add up to depends on "
                       "the level; raid5 and raid6 writes pay for parity.")
    elif e is Effect.WRITE_CACHE:
        text = (voice._("Its write cache is on (write back): writes are acknowledged from the "
                        "device's cache.") if "back" in str(v.get("mode", "")) else
                voice._("Its write cache is off (write through): every write waits for the "
                        "medium."))
    elif e is Effect.ROTATIONAL:
        text = voice._("A spinning disk: the outer tracks are faster than the inner ones, and "
                       "random figures are its seeks'.")
    elif e is Effect.UPPER:
        text = voice._("New files go to its upper layer {upper}, whose stack is below.")
    elif e is Effect.NO_ANSWER:
        text = voice._("Did not answer within {seconds} s: a server that is gone or a FUSE "
                       "program that is stopped. diskmark looked no further; check it, or "
                       "choose another target.")
    else:
        return unknown_sentence(v, voice)
    values = {**v, "mb_s": f"{effect.mb_s:.0f}" if effect.mb_s is not None else "?"}
    if "seconds" in values:
        values["seconds"] = f"{float(values['seconds']):g}"
    return Said(text).format_map(_Default(values))


def unknown_sentence(values: dict[str, Any], voice: Voice = LOCAL) -> Said:
    """Why a layer is unknown, and what identifies it."""
    reason, what = values.get("reason", ""), values.get("what", "")
    if reason == Unknown.NOT_IN_SYSFS:
        text = voice._("Named as a member, but not found in /sys: what it is and what it does "
                       "to the figures is not known.")
    elif reason == Unknown.TOO_DEEP:
        text = voice._("The stack goes deeper than diskmark follows (a file on a loop device on "
                       "a file …): what lies below is not read.")
    elif reason == Unknown.NO_MOUNT:
        text = voice._("No mount holds this path: what it is and what it does to the figures is "
                       "not known.")
    elif reason == Unknown.NO_DEVICE:
        text = voice._("No such block device in /sys.")
    elif reason == Unknown.NO_SOURCE:
        text = voice._("diskmark does not know what this file system sits on (its source is "
                       "{what}): what that does to the figures is not said.")
    elif reason == Unknown.ERROR:
        text = voice._("diskmark could not read this layer ({what}): what it does to the figures "
                       "is not said.")
    else:
        text = voice._("diskmark does not know this kind of layer ({what}): what it does to the "
                       "figures is not said.")
    return Said(text).format(what=what or "?")


class _Default(dict[str, Any]):
    """A sentence's values; one it names but was not given reads "?"."""

    def __missing__(self, key: str) -> str:
        return "?"


def why_lines(layers: list[Layer], voice: Voice = LOCAL, sentences: bool = True,
              width: int | None = None) -> list[str]:
    """The stack as ``lsblk -s`` draws it, outermost first, each layer's effects in
    sentences under it (wrapped to ``width`` columns when given)."""
    out: list[str] = []
    for i, layer in enumerate(layers):
        d = layer.depth
        rails = "".join("│ " if _later_sibling(layers, i, k) else "  " for k in range(1, d))
        branch = ("├─" if _later_sibling(layers, i, d) else "└─") if d else ""
        out.append(f"{rails}{branch}{layer_line(layer, voice)}")
        if not sentences or not layer.effects:
            continue
        rails = "".join("│ " if _later_sibling(layers, i, k) else "  " for k in range(1, d + 1))
        child = "│ " if i + 1 < len(layers) and layers[i + 1].depth > d else "  "
        prefix = f"{rails}{child}  "
        for effect in layer.effects:
            sentence = effect_sentence(effect, voice)
            room = (width or 0) - text_cells(prefix)
            lines = textwrap.wrap(sentence, room, break_on_hyphens=False) \
                if width and room >= 30 else [sentence]
            out += [prefix + line for line in lines]
    return out


def _later_sibling(layers: list[Layer], i: int, depth: int) -> bool:
    """Whether a layer at ``depth`` follows layer ``i`` before the tree climbs above that
    depth: the line of that level goes on past ``i``."""
    for later in layers[i + 1:]:
        if later.depth < depth:
            return False
        if later.depth == depth:
            return True
    return False


def why_text(target: str, layers: list[Layer], voice: Voice = LOCAL,
             width: int | None = None) -> str:
    """``diskmark why``'s answer: the stack under ``target``."""
    head = Said(voice._("The storage stack under {target}, outermost first:")).format(
        target=target)
    return "\n".join([head, "", *why_lines(layers, voice, width=width)]) + "\n"


def stack_json(layers: list[Layer]) -> list[dict[str, Any]]:
    """The layers as a result's ``stack`` keeps them, each with its notes in English: what
    ``why --format json`` prints and ``run --format json`` adds for readers."""
    return [layer.to_dict() | {"notes": [str(effect_sentence(e, ENGLISH)) for e in layer.effects]}
            for layer in layers]


def layer_name(layer_kind: Kind, name: str, voice: Voice = LOCAL) -> Said:
    """A layer named in a sentence: "loop device /dev/loop0"."""
    return Said(voice._("{kind} {name}")).format(kind=Said(_KIND_NOUNS[layer_kind](voice)),
                                                 name=name)


_KIND_NOUNS = {
    Kind.FILESYSTEM: lambda v: v._("file system"), Kind.FUSE: lambda v: v._("FUSE file system"),
    Kind.NETWORK: lambda v: v._("network file system"), Kind.OVERLAY: lambda v: v._("overlay"),
    Kind.MEMORY: lambda v: v._("memory file system"), Kind.FILE: lambda v: v._("file"),
    Kind.LOOP: lambda v: v._("loop device"), Kind.DM_CRYPT: lambda v: v._("dm-crypt"),
    Kind.LVM: lambda v: v._("LVM volume"), Kind.DEVICE_MAPPER: lambda v: v._("device-mapper"),
    Kind.MD: lambda v: v._("md RAID"), Kind.BCACHE: lambda v: v._("bcache"),
    Kind.ZRAM: lambda v: v._("zram"), Kind.PARTITION: lambda v: v._("partition"),
    Kind.DISK: lambda v: v._("disk"), Kind.UNKNOWN: lambda v: v._("unknown layer"),
}


def mark_sentence(mark: Mark, stack: list[Layer], voice: Voice = LOCAL) -> Said:
    """Why a figure carries a mark: the layer, and its effect's sentence (said again from
    the stack when the result has it, else from the mark alone)."""
    layer = stack[mark.layer] if 0 <= mark.layer < len(stack) else None
    effect = layer.effect(mark.effect) if layer is not None else None
    sentence = effect_sentence(effect, voice) if effect is not None else \
        effect_sentence(LayerEffect(mark.effect), voice)
    # TRANSLATORS: {mark} is a short mark (zip, mem, loop); {layer} "loop device /dev/loop0";
    # {sentence} what that layer does to the figures
    return Said(voice._("{mark}: {layer}: {sentence}")).format(
        mark=mark_word(mark.effect), layer=layer_name(mark.kind, mark.name, voice),
        sentence=sentence)


def marks_footnotes(session: SessionResult, voice: Voice = LOCAL) -> list[str]:
    """Under a grid or a table: each mark once, with the layer and what it does
    (``diskmark why`` and the details say more)."""
    seen: dict[tuple[int, Effect], Mark] = {}
    for t in session.tests:
        for m in t.marks:
            seen.setdefault((m.layer, m.effect), m)
    return [mark_phrase(m, voice) for m in seen.values()]


# --- the layers below, measured ------------------------------------------------------------------

#: A difference smaller than this between two runs of a few seconds each is their noise,
#: not a layer's cost: not said (the table shows it).
NOISE_PCT = 5.0


def _figure(m: Measured, key: str) -> float | None:
    figures = m.figures.get(key)
    return figures.get("mb_s") if figures else None


def cost_sentences(session: SessionResult, voice: Voice = LOCAL) -> list[str]:
    """What each measured layer costs, test by test: "dm-crypt costs 38 % of SEQ1M Q8T1
    read here", said of the layers between two measurements (the target's file system
    above the first device, then each device above the next)."""
    out: list[str] = []
    stack = session.stack
    reads = [t for t in session.tests if t.runs and not t.error and t.op is Op.READ]
    above: dict[str, float] = {t.key: t.best_mb_s for t in reads}
    above_name = Said(voice._("the target"))
    first = 0
    for m in session.below:
        if m.skipped:
            out.append(Said(voice._("{device} was not measured: {why}")).format(
                device=m.device, why=m.skipped))
            continue
        between = [layer for layer in stack[first:m.layer]
                   if layer.kind not in (Kind.PARTITION, Kind.FILE)] or stack[first:m.layer]
        names = Said(", ").join(layer_name(x.kind, x.name, voice) for x in between[:3]) \
            if between else above_name
        for t in reads:
            below = _figure(m, t.key)
            if below is None or t.key not in above:
                continue
            pct = cost_pct(above[t.key], below)
            if pct is None or abs(pct) < NOISE_PCT:
                continue
            test = f"{t.label} {voice.pgettext('operation', 'read')}"
            if pct >= 0:
                # TRANSLATORS: {layers}: "dm-crypt /dev/mapper/x"; {pct}: 38; {test}: "SEQ1M Q8T1 read"
                text = voice._("{layers} costs {pct} % of {test} here ({above} MB/s above, "
                               "{below} MB/s on {device}).")
            else:
                text = voice._("{layers} makes {test} {pct} % faster here ({above} MB/s above, "
                               "{below} MB/s on {device}): a cache answers above the device.")
            out.append(Said(text).format(layers=names, pct=f"{abs(pct):.0f}", test=test,
                                         above=f"{above[t.key]:.1f}", below=f"{below:.1f}",
                                         device=m.device))
        above = {k: v["mb_s"] for k, v in m.figures.items() if "mb_s" in v}
        above_name = Said(m.device)
        first = m.layer
    return out


def below_table(session: SessionResult, voice: Voice = LOCAL) -> list[str]:
    """The read tests side by side: the target's MB/s, then each device measured below it."""
    measured = [m for m in session.below if not m.skipped]
    reads = [t for t in session.tests if t.runs and not t.error and t.op is Op.READ]
    if not measured or not reads:
        return []
    heads = [str(voice._("target"))] + [m.device for m in measured]
    width = max(len(f"{t.label} {voice.pgettext('operation', 'read')}") for t in reads)
    widths = [max(10, text_cells(h)) for h in heads]
    out = [" " * width + "".join(f"  {rjust_cells(h, w)}" for h, w in zip(heads, widths))]
    for t in reads:
        figures = [t.best_mb_s] + [_figure(m, t.key) for m in measured]
        cells = [f"{f:.2f}" if f is not None else "-" for f in figures]
        name = f"{t.label} {voice.pgettext('operation', 'read')}"
        out.append(ljust_cells(name, width) + "".join(f"  {rjust_cells(c, w)}"
                                                      for c, w in zip(cells, widths)))
    return out
