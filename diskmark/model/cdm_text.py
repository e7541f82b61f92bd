"""CrystalDiskMark's text results (File → Save text, or a copy pasted in a forum) read into
plain data, so that years of a drive's Windows figures can stand beside its Linux ones.

CrystalDiskMark changed its layout three times: 5.x/6.x write ``Sequential Read (Q= 32,T= 1)
:`` with the operation in the name, 7.x ``Sequential 1MiB (Q=  8, T= 1):`` under ``[Read]`` /
``[Write]``, 8.x/9.x ``SEQ    1MiB (Q=  8, T= 1):`` and a ``[Mix]`` section. Each test is
mapped to the key diskmark gives the test it runs (:func:`~diskmark.model.names.test_key`),
so a comparison can match them tile by tile. Only bytes in, data out: no I/O here.

What a file holds is bounded before it is kept: a file may hold several results (two
exports pasted one after the other), each read apart; a test is kept once (a repeat is
named, not kept), a result keeps at most :data:`MAX_TESTS` tests, and what could not be read
is said in a few notes, each line clipped, then counted. CrystalDiskMark's files are about
2 KB; a damaged or hostile one must not become 100,000 tests or 100,000 notes.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, replace
from datetime import datetime
from decimal import Decimal

from diskmark.locale import _
from diskmark.locale.text_safety import shown
from diskmark.model.moments import placeable
from diskmark.model.names import test_key, test_title
from diskmark.model.settings import Op
from diskmark.model.voice import LOCAL, Voice

_UNIT_BYTES = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "TiB": 1024**4}
_BLOCK_NAMES = {"KiB": "K", "MiB": "M"}
_SECTIONS = {"read": Op.READ, "write": Op.WRITE, "mix": Op.MIX}

_TITLE = re.compile(r"CrystalDiskMark\s+([0-9]+(?:\.[0-9]+)*\w*)")
# diskmark's own text report: "diskmark 0.2.0 (fio-3.33) Linux storage benchmark"
_DISKMARK_TITLE = re.compile(r"^diskmark\s+(\S+)(?:\s+\((fio-[^)]*)\))?\s+Linux storage benchmark")
# its block after CrystalDiskMark's: "   Preset: NVMe SSD [nvme], profile Peak Performance [peak]"
_DISKMARK_PRESET = re.compile(r"^\s*Preset:\s*(.*?)\s*\[([^\]]+)\],\s*profile\s+(.*?)\s*\[([^\]]+)\]\s*$")
_DISKMARK_IO = re.compile(r"^\s*I/O:\s*(.*)$")
_DISKMARK_FACTS = "diskmark: what CrystalDiskMark's lines above leave out"
# 7.x, 8.x, 9.x: the pattern and block, then queues and threads; the section gives the op
_MODERN = re.compile(
    r"^\s*(SEQ|RND|Sequential|Random)\s+([0-9]+)\s*(KiB|MiB)\s*\(Q=\s*([0-9]+),\s*T=\s*([0-9]+)\)\s*:(.*)$")
# 5.x, 6.x: the op in the name; "Sequential Read (T= 1)" has neither block nor queues
_LEGACY = re.compile(
    r"^\s*(Sequential|Random)\s+(Read|Write)(?:\s+([0-9]+)\s*(KiB|MiB))?\s*"
    r"\((?:Q=\s*([0-9]+),\s*)?T=\s*([0-9]+)\)\s*:(.*)$")
_FIGURES = re.compile(
    r"^\s*([0-9]+(?:\.[0-9]+)?)\s*MB/s(?:\s*\[\s*([0-9]+(?:\.[0-9]+)?)\s*IOPS\s*\])?"
    r"(?:\s*<\s*([0-9]+(?:\.[0-9]+)?)\s*us\s*>)?")
_SECTION = re.compile(r"^\s*\[(Read|Write|Mix)\](?:\s*Read\s+([0-9]+)%\s*/\s*Write\s+[0-9]+%)?\s*$", re.I)
_FIELD = re.compile(r"^\s*(Profile|Test|Mode|Time|Date|OS|Comment)\s*:\s?(.*)$")
_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(KiB|MiB|GiB|TiB)")
_COUNT = re.compile(r"\(x([0-9]+)\)")
_INTERVAL = re.compile(r"Interval\s*[=:]?\s*([0-9]+(?:\.[0-9]+)?)\s*sec", re.I)
_MEASURE = re.compile(r"Measure\s*[=:]?\s*([0-9]+(?:\.[0-9]+)?)\s*sec", re.I)
_DRIVE = re.compile(r"\[(?!Interval)([^\[\]]+?):\s+([^\[\]]*)\]")
_QUOTE = re.compile(r"^\s*(?:>\s?)+")
_DATE_FORMATS = ("%Y/%m/%d %H:%M:%S", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M")

#: the most bytes a text result is read from: CrystalDiskMark's are about 2 KB (4 in
#: UTF-16), diskmark's own reports a few KB
MAX_TEXT_BYTES = 1024 * 1024
#: the most tests one result keeps: CrystalDiskMark writes 12 at most, as diskmark's reports
#: of its built-in presets do; a user's preset may hold more
MAX_TESTS = 100
#: the notes that name a line, before the rest are counted in one
NOTES_SHOWN = 5
#: the characters of a line a note quotes
LINE_SHOWN = 120


class CdmTextError(ValueError):
    """The file is not a CrystalDiskMark text result; the message says why, in one line."""


def _clipped(line: str) -> str:
    """A line of the file as a note quotes it: one line, its control characters escaped
    (diskmark.locale.text_safety), at most :data:`LINE_SHOWN` characters and an ellipsis."""
    text = line if len(line) <= LINE_SHOWN else line[:LINE_SHOWN] + "…"
    return shown(text, one_line=True)


# Each note on what a result's reading left out is named to the user (in their language)
# and kept with the result (in English, as every saved word).

@dataclass(frozen=True)
class UnplacedLine:
    """A line that reports a figure for no test this reader can place (``line`` as
    :func:`_clipped` quotes it)."""

    number: int
    line: str

    def said(self, voice: Voice = LOCAL) -> str:
        # TRANSLATORS: {number} is a line number of the file, {line} the line as written
        return voice._("Line {number} reports a figure for no test diskmark knows: "
                       "{line}").format(number=self.number, line=self.line)


@dataclass(frozen=True)
class RepeatedTest:
    """A test named on more than one line of a result: the first line's figures are kept,
    the others are not read (a result measures a test once)."""

    title: str
    count: int
    number: int

    def said(self, voice: Voice = LOCAL) -> str:
        # TRANSLATORS: {test} is a test ("SEQ1M Q8T1 Read"), {number} the line of its first
        # appearance; {count} is always 2 or more
        return voice.ngettext("{test} appears {count} time; the first, on line {number}, "
                              "is kept.",
                              "{test} appears {count} times; the first, on line {number}, "
                              "is kept.", self.count).format(
                                  test=self.title, count=self.count, number=self.number)


@dataclass(frozen=True)
class TooManyTests:
    """Lines naming tests beyond the :data:`MAX_TESTS` a result keeps."""

    count: int

    def said(self, voice: Voice = LOCAL) -> str:
        return voice.ngettext("Only the first {limit} tests are read; {count} more line "
                              "names other tests.",
                              "Only the first {limit} tests are read; {count} more lines "
                              "name other tests.", self.count).format(
                                  limit=MAX_TESTS, count=self.count)


@dataclass(frozen=True)
class UnreadLines:
    """The lines the notes after the first :data:`NOTES_SHOWN` would have named."""

    count: int

    def said(self, voice: Voice = LOCAL) -> str:
        return voice.ngettext("And {count} more line was not read.",
                              "And {count} more lines were not read.", self.count).format(
                                  count=self.count)


@dataclass(frozen=True)
class UnplacedDate:
    """A Date line diskmark cannot place in time (diskmark.model.moments): the result is
    kept without a date rather than refused for it."""

    date: str

    def said(self, voice: Voice = LOCAL) -> str:
        # TRANSLATORS: {date} is the Date line of the file as written
        return voice._("The date {date} cannot be placed in time; the result is kept without "
                       "a date.").format(date=self.date)


Note = UnplacedLine | RepeatedTest | TooManyTests | UnreadLines | UnplacedDate


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
    #: what the reading left out, bounded (see the module's docstring)
    problems: tuple[Note, ...] = ()
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


def _written_date(date: str) -> datetime | None:
    """The time a Date line gives, whether or not it can be placed in time."""
    for form in _DATE_FORMATS:
        try:
            return datetime.strptime(date, form)
        except ValueError:
            continue
    return None


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
    started = _written_date(date)
    if started is not None and not placeable(started):
        started = None  # kept without a date, and said (_Reader.notes)
    return CdmResult(
        profile=values.get("Profile", ""), mode=values.get("Mode", ""), date=date,
        admin="[admin]" in values["Mode"].lower() if "Mode" in values else None,
        started=started, os=values.get("OS", ""), comment=values.get("Comment", ""),
        # exact, as a whole number: a size no float holds is refused where it is checked
        size_bytes=round(Decimal(size[1]) * _UNIT_BYTES[size[2]]) if size else None,
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


class _Reader:
    """One result of the file as its lines come: its title, tests, footer and diskmark's
    own block, and what could not be read, bounded as it is met (a line is never kept
    whole, and only the first :data:`NOTES_SHOWN` unplaced lines are kept at all)."""

    def __init__(self) -> None:
        self.title = self.version = self.made_by = self.fio = ""
        self.section: Op | None = None
        self.mix_read: int | None = None
        self.tests: dict[str, CdmTest] = {}
        self.first_line: dict[str, int] = {}
        self.repeats: dict[str, int] = {}  # key: times seen after the first
        self.beyond = 0  # lines naming tests past MAX_TESTS
        self.unplaced: list[UnplacedLine] = []
        self.unplaced_count = 0
        self.values: dict[str, str] = {}
        self.facts: dict[str, str] = {}
        self.in_facts = False

    @property
    def begun(self) -> bool:
        """Whether a test or a field was read: a title line then starts another result (a
        title twice in a row is one header, and a line of prose before the title that
        names a speed does not make a result of its own)."""
        return bool(self.tests or self.beyond or self.values)

    def title_line(self, line: str) -> bool:
        """Read ``line`` as the result's title; False when it is none."""
        if (m := _DISKMARK_TITLE.match(line)) is not None:
            self.title, self.version, self.made_by, self.fio = line, m[1], "diskmark", m[2] or ""
            return True
        if (m := _TITLE.search(line)) is not None:
            self.title, self.version = line, m[1]
            return True
        return False

    def read(self, number: int, line: str) -> None:
        """Read a line of the result's body (``line`` without its trailing space)."""
        if self.made_by and line.strip() == _DISKMARK_FACTS:
            self.in_facts = True  # diskmark's own block: its facts, never CrystalDiskMark's fields
            return
        if self.in_facts:
            if (m := _DISKMARK_PRESET.match(line)) is not None:
                self.facts.update(preset_name=m[1], preset_id=m[2], profile_name=m[3],
                                  profile_id=m[4])
            elif (m := _DISKMARK_IO.match(line)) is not None:
                self.facts.setdefault("io", m[1].strip())
            return
        if (m := _SECTION.match(line)) is not None:
            self.section = _SECTIONS[m[1].lower()]
            if self.section is Op.MIX and m[2]:
                self.mix_read = int(m[2])
            return
        test = _test_line(line, self.section, self.mix_read)
        if test is not None:
            self._test(number, test)
        elif (m := _FIELD.match(line)) is not None:
            self.values.setdefault(m[1], m[2].strip())
        elif "MB/s" in line and not line.lstrip().startswith("*"):
            self.unplaced_count += 1
            if len(self.unplaced) < NOTES_SHOWN:
                self.unplaced.append(UnplacedLine(number, _clipped(line.strip())))

    def _test(self, number: int, test: CdmTest) -> None:
        if test.key in self.tests:
            self.repeats[test.key] = self.repeats.get(test.key, 0) + 1
        elif len(self.tests) >= MAX_TESTS:
            self.beyond += 1
        else:
            self.tests[test.key] = replace(test, line=_clipped(test.line))
            self.first_line[test.key] = number

    def notes(self, date_unplaced: bool) -> tuple[Note, ...]:
        """What was not read, in the order of the file: the first :data:`NOTES_SHOWN` notes
        that name a line, then how many more lines the others stand for."""
        named: list[UnplacedLine | RepeatedTest] = [*self.unplaced, *(
            RepeatedTest(test_title(self.tests[k].label, self.tests[k].op,
                                    self.tests[k].mix_read), n + 1, self.first_line[k])
            for k, n in self.repeats.items())]
        named.sort(key=lambda note: note.number)  # the first unplaced lines were kept
        shown_notes: list[Note] = list(named[:NOTES_SHOWN])
        more = self.unplaced_count - len(self.unplaced) + sum(
            1 if isinstance(note, UnplacedLine) else note.count - 1
            for note in named[NOTES_SHOWN:])
        if more:
            shown_notes.append(UnreadLines(more))
        if self.beyond:
            shown_notes.append(TooManyTests(self.beyond))
        if date_unplaced:
            shown_notes.append(UnplacedDate(_clipped(self.values.get("Date", ""))))
        return tuple(shown_notes)

    @property
    def holds_figures(self) -> bool:
        """Whether a line of the result reports a figure, placed or not."""
        return bool(self.tests or self.unplaced_count or self.beyond)

    def result(self) -> CdmResult:
        """The result read; raises CdmTextError when no line of it reports a figure."""
        if not self.holds_figures:
            if self.version:
                raise CdmTextError(_(
                    "This CrystalDiskMark text result holds no test result."))
            raise CdmTextError(_(
                "This is not a CrystalDiskMark text result: it has no CrystalDiskMark title "
                "line and no test result line."))
        written = _written_date(self.values.get("Date", ""))
        facts = self.facts
        return replace(
            _footer(self.values), title=self.title, version=self.version,
            mix_read=self.mix_read, tests=tuple(self.tests.values()),
            problems=self.notes(written is not None and not placeable(written)),
            made_by=self.made_by, fio_version=self.fio,
            preset_id=facts.get("preset_id", ""), preset_name=facts.get("preset_name", ""),
            profile_id=facts.get("profile_id", ""), profile_name=facts.get("profile_name", ""),
            io=facts.get("io", ""))


def parse(data: bytes) -> tuple[CdmResult, ...]:
    """The CrystalDiskMark text results in the file's bytes, in the file's order: one, or
    several when the file holds several (each begins at its title line).

    Raises :class:`CdmTextError` when the bytes are no text result (none of their lines
    reports a figure), or there are more than :data:`MAX_TEXT_BYTES`. A line that reports a figure
    (it has ``MB/s``) but names no test this reader can place is named in ``problems``: a
    figure is never dropped without a word.
    """
    if len(data) > MAX_TEXT_BYTES:
        raise CdmTextError(too_large())
    text = decode(data)
    readers = [_Reader()]
    for number, raw in enumerate(_unquoted(text.splitlines()), start=1):
        # a file of two results joined may hold the second's byte order mark mid-text
        line = raw.rstrip().lstrip("\ufeff")
        stripped = line.strip()
        if not stripped:
            continue
        reader = readers[-1]
        if reader.begun and _starts_result(stripped):
            readers.append(_Reader())
            readers[-1].title_line(stripped)
            continue
        if not reader.version and reader.title_line(stripped):
            continue
        reader.read(number, line)
    # a title with nothing after it that reports a figure (a header pasted twice, a line
    # naming CrystalDiskMark at the end) is no result: nothing of it is lost
    held = [reader for reader in readers if reader.holds_figures] or \
        [next((reader for reader in readers if reader.version), readers[0])]
    return tuple(reader.result() for reader in held)


def _starts_result(line: str) -> bool:
    """A title line, CrystalDiskMark's name first (a comment that names it is none)."""
    return _DISKMARK_TITLE.match(line) is not None or _TITLE.match(line) is not None


def too_large() -> str:
    """Why a text of more than :data:`MAX_TEXT_BYTES` is not read: the reader's bound,
    which the store applies as it reads a file (before it is read whole)."""
    return _("This is not a CrystalDiskMark text result: it is larger than {size} MiB, and "
             "CrystalDiskMark's are a few KB.").format(size=MAX_TEXT_BYTES // (1024 * 1024))
