"""CrystalDiskMark's text results (File → Save text, or a copy pasted in a forum) read into
plain data, so that years of a drive's Windows figures can stand beside its Linux ones.

CrystalDiskMark changed its layout three times: 5.x/6.x write ``Sequential Read (Q= 32,T= 1)
:`` with the operation in the name, 7.x ``Sequential 1MiB (Q=  8, T= 1):`` under ``[Read]`` /
``[Write]``, 8.x/9.x ``SEQ    1MiB (Q=  8, T= 1):`` and a ``[Mix]`` section. Each test is
mapped to the key diskmark gives the test it runs (:func:`~diskmark.model.names.test_key`),
so a comparison can match them tile by tile. Only bytes in, data out: no I/O here.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace
from datetime import datetime

from diskmark.locale import _
from diskmark.model.names import test_key
from diskmark.model.settings import Op
from diskmark.model.voice import LOCAL, Voice

_UNIT_BYTES = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "TiB": 1024**4}
_BLOCK_NAMES = {"KiB": "K", "MiB": "M"}
_SECTIONS = {"read": Op.READ, "write": Op.WRITE, "mix": Op.MIX}

_TITLE = re.compile(r"CrystalDiskMark\s+(\d+(?:\.\d+)*\w*)")
# diskmark's own text report: "diskmark 0.2.0 (fio-3.33) Linux storage benchmark"
_DISKMARK_TITLE = re.compile(r"^diskmark\s+(\S+)(?:\s+\((fio-[^)]*)\))?\s+Linux storage benchmark")
# its block after CrystalDiskMark's: "   Preset: NVMe SSD [nvme], profile Peak Performance [peak]"
_DISKMARK_PRESET = re.compile(r"^\s*Preset:\s*(.*?)\s*\[([^\]]+)\],\s*profile\s+(.*?)\s*\[([^\]]+)\]\s*$")
_DISKMARK_IO = re.compile(r"^\s*I/O:\s*(.*)$")
_DISKMARK_FACTS = "diskmark: what CrystalDiskMark's lines above leave out"
# 7.x, 8.x, 9.x: the pattern and block, then queues and threads; the section gives the op
_MODERN = re.compile(
    r"^\s*(SEQ|RND|Sequential|Random)\s+(\d+)\s*(KiB|MiB)\s*\(Q=\s*(\d+),\s*T=\s*(\d+)\)\s*:(.*)$")
# 5.x, 6.x: the op in the name; "Sequential Read (T= 1)" has neither block nor queues
_LEGACY = re.compile(
    r"^\s*(Sequential|Random)\s+(Read|Write)(?:\s+(\d+)\s*(KiB|MiB))?\s*"
    r"\((?:Q=\s*(\d+),\s*)?T=\s*(\d+)\)\s*:(.*)$")
_FIGURES = re.compile(
    r"^\s*(\d+(?:\.\d+)?)\s*MB/s(?:\s*\[\s*(\d+(?:\.\d+)?)\s*IOPS\s*\])?"
    r"(?:\s*<\s*(\d+(?:\.\d+)?)\s*us\s*>)?")
_SECTION = re.compile(r"^\s*\[(Read|Write|Mix)\](?:\s*Read\s+(\d+)%\s*/\s*Write\s+\d+%)?\s*$", re.I)
_FIELD = re.compile(r"^\s*(Profile|Test|Mode|Time|Date|OS|Comment)\s*:\s?(.*)$")
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(KiB|MiB|GiB|TiB)")
_COUNT = re.compile(r"\(x(\d+)\)")
_INTERVAL = re.compile(r"Interval\s*[=:]?\s*(\d+(?:\.\d+)?)\s*sec", re.I)
_MEASURE = re.compile(r"Measure\s*[=:]?\s*(\d+(?:\.\d+)?)\s*sec", re.I)
_DRIVE = re.compile(r"\[(?!Interval)([^\[\]]+?):\s+([^\[\]]*)\]")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_DATE_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M")


class CdmTextError(ValueError):
    """The file is not a CrystalDiskMark text result; the message says why, in one line."""


@dataclass(frozen=True)
class UnplacedLine:
    """A line that reports a figure for no test this reader can place: named to the user
    (in their language) and kept with the result (in English, as every saved word)."""

    number: int
    line: str

    def said(self, voice: Voice = LOCAL) -> str:
        # TRANSLATORS: {number} is a line number of the file, {line} the line as written
        return voice._("Line {number} reports a figure for no test diskmark knows: "
                       "{line}").format(number=self.number, line=self.line)


@dataclass(frozen=True)
class CdmTest:
    """One result line: the diskmark test it is, and the figures CrystalDiskMark printed
    (5.x/6.x print no latency, and no IOPS for sequential tests)."""

    key: str
    label: str
    op: Op
    mix_read: int | None
    mb_s: float
    iops: float | None
    latency_us: float | None
    line: str

    @property
    def measured(self) -> bool:
        """CrystalDiskMark writes zeros for a test it did not run (stopped, or left out by
        a read-only or write-only run): such a line has no figure."""
        return self.mb_s > 0 or bool(self.iops)


@dataclass(frozen=True)
class CdmResult:
    """What one CrystalDiskMark text result says, kept as the file says it."""

    title: str = ""
    version: str = ""
    profile: str = ""
    size_bytes: int | None = None
    count: int | None = None
    interval_s: float | None = None
    measure_s: float | None = None
    date: str = ""
    started: datetime | None = None
    os: str = ""
    drive: str = ""
    usage: str = ""
    mode: str = ""
    #: ``[Admin]`` on the Mode line: it ran elevated (None: the file has no Mode line)
    admin: bool | None = None
    mix_read: int | None = None
    comment: str = ""
    tests: tuple[CdmTest, ...] = ()
    problems: tuple[UnplacedLine, ...] = ()
    #: "diskmark" for a text report diskmark wrote, "" for CrystalDiskMark's own
    made_by: str = ""
    fio_version: str = ""
    #: what diskmark's block says (a diskmark report only): preset and profile ids, I/O
    preset_id: str = ""
    preset_name: str = ""
    profile_id: str = ""
    profile_name: str = ""
    io: str = ""


def decode(data: bytes) -> str:
    """The text of the file as CrystalDiskMark saves it: UTF-16 LE with a BOM (5.x to 7.x),
    UTF-8 with or without one (8.x and later), or UTF-16 without a BOM as some editors keep
    a copy."""
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        codec = "utf-16"
    elif data.startswith(codecs.BOM_UTF8):
        codec = "utf-8-sig"
    elif len(data) >= 2 and data[1::2].count(0) > len(data) // 4:
        codec = "utf-16-le"
    else:
        codec = "utf-8"
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        raise CdmTextError(_(
            "This is not a CrystalDiskMark text result: it is not text in UTF-8 or UTF-16."
        )) from None


def _label(pattern: str, size: str, unit: str, queues: int, threads: int) -> str:
    kind = "SEQ" if pattern.upper().startswith("SEQ") else "RND"
    return f"{kind}{size}{_BLOCK_NAMES[unit]} Q{queues}T{threads}"


def _figures(rest: str) -> tuple[float, float | None, float | None] | None:
    m = _FIGURES.match(rest)
    if m is None:
        return None
    iops = float(m[2]) if m[2] else None
    latency = float(m[3]) if m[3] else None
    return float(m[1]), iops, latency


def _test_line(line: str, section: Op | None, mix_read: int | None) -> CdmTest | None:
    """The test on a line, or None when the line names no test this reader knows or
    carries no figures."""
    if (m := _LEGACY.match(line)) is not None:
        pattern, verb, size, unit, queues, threads, rest = m.groups()
        op = Op.READ if verb == "Read" else Op.WRITE
        if pattern == "Sequential" and size is None:
            # 5.x/6.x: "Sequential (Q= 32,T= 1)" moved 128 KiB blocks, "(T= 1)" 1 MiB ones
            size, unit = ("128", "KiB") if queues else ("1", "MiB")
        if size is None:
            return None
        label = _label(pattern, size, unit, int(queues or 1), int(threads))
        mix = None
    elif (m := _MODERN.match(line)) is not None and section is not None:
        pattern, size, unit, queues, threads, rest = m.groups()
        op, mix = section, (mix_read if section is Op.MIX else None)
        label = _label(pattern, size, unit, int(queues), int(threads))
    else:
        return None
    figures = _figures(rest)
    if figures is None:
        return None
    mb_s, iops, latency = figures
    return CdmTest(test_key(label, op, mix), label, op, mix, mb_s, iops, latency, line.strip())


def _footer(values: dict[str, str]) -> CdmResult:
    """The footer's lines (Profile, Test, Mode, Time, Date, OS, Comment) as a result's
    fields; the Test line holds size, count, drive and, before 8.x, the interval."""
    test, time = values.get("Test", ""), values.get("Time", "")
    size = _SIZE.match(test)
    count = _COUNT.search(test)
    drive = _DRIVE.search(test)
    interval = _INTERVAL.search(time) or _INTERVAL.search(test)
    measure = _MEASURE.search(time) or _MEASURE.search(test)
    date = values.get("Date", "")
    started = None
    for form in _DATE_FORMATS:
        try:
            started = datetime.strptime(date, form)
            break
        except ValueError:
            continue
    return CdmResult(
        profile=values.get("Profile", ""), mode=values.get("Mode", ""), date=date,
        admin="[admin]" in values["Mode"].lower() if "Mode" in values else None,
        started=started, os=values.get("OS", ""), comment=values.get("Comment", ""),
        size_bytes=round(float(size[1]) * _UNIT_BYTES[size[2]]) if size else None,
        count=int(count[1]) if count else None,
        drive=drive[1].strip() if drive else "", usage=drive[2].strip() if drive else "",
        interval_s=float(interval[1]) if interval else None,
        measure_s=float(measure[1]) if measure else None,
    )


def _unquoted(lines: list[str]) -> list[str]:
    """The lines without the ``> `` a forum, a mail or a Markdown page puts before every line
    of a quotation (only when every line that is not blank has it)."""
    written = [line for line in lines if line.strip()]
    if not written or not all(line.lstrip().startswith(">") for line in written):
        return lines
    return [_QUOTE.sub("", line) for line in lines]


def parse(data: bytes) -> CdmResult:
    """A CrystalDiskMark text result read from the file's bytes.

    Raises :class:`CdmTextError` when the bytes are not one. A line that reports a figure
    (it has ``MB/s``) but names no test this reader can place is named in ``problems``:
    a figure is never dropped without a word.
    """
    text = decode(data)
    title = version = ""
    section: Op | None = None
    mix_read: int | None = None
    tests: list[CdmTest] = []
    problems: list[UnplacedLine] = []
    values: dict[str, str] = {}
    made_by = fio = ""
    facts: dict[str, str] = {}
    in_facts = False
    for number, raw in enumerate(_unquoted(text.splitlines()), start=1):
        line = raw.rstrip()
        if not version and (m := _DISKMARK_TITLE.match(line.strip())) is not None:
            title, version, made_by, fio = line.strip(), m[1], "diskmark", m[2] or ""
            continue
        if not version and (m := _TITLE.search(line)) is not None:
            title, version = line.strip(), m[1]
            continue
        if made_by and line.strip() == _DISKMARK_FACTS:
            in_facts = True  # diskmark's own block: its facts, never CrystalDiskMark's fields
            continue
        if in_facts:
            if (m := _DISKMARK_PRESET.match(line)) is not None:
                facts.update(preset_name=m[1], preset_id=m[2], profile_name=m[3],
                             profile_id=m[4])
            elif (m := _DISKMARK_IO.match(line)) is not None:
                facts.setdefault("io", m[1].strip())
            continue
        if (m := _SECTION.match(line)) is not None:
            section = _SECTIONS[m[1].lower()]
            if section is Op.MIX and m[2]:
                mix_read = int(m[2])
            continue
        test = _test_line(line, section, mix_read)
        if test is not None:
            tests.append(test)
        elif (m := _FIELD.match(line)) is not None:
            values.setdefault(m[1], m[2].strip())
        elif "MB/s" in line and not line.lstrip().startswith("*"):
            problems.append(UnplacedLine(number, line.strip()))
    if not tests and not problems:
        if version:
            raise CdmTextError(_(
                "This CrystalDiskMark text result holds no test result."))
        raise CdmTextError(_(
            "This is not a CrystalDiskMark text result: it has no CrystalDiskMark title line "
            "and no test result line."))
    return replace(_footer(values), title=title, version=version, mix_read=mix_read,
                   tests=tuple(tests), problems=tuple(problems), made_by=made_by,
                   fio_version=fio, preset_id=facts.get("preset_id", ""),
                   preset_name=facts.get("preset_name", ""),
                   profile_id=facts.get("profile_id", ""),
                   profile_name=facts.get("profile_name", ""), io=facts.get("io", ""))
