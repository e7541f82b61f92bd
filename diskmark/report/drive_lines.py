"""The drive's temperature and health in words, for the reports and the details: one line
such as "Drive: 41 °C → 47 °C (peak 49 °C), SMART PASSED, 3% used", or the reason nothing
was recorded; and the dips that fell at a temperature peak.

Pure functions of a :class:`~diskmark.drive_record.DriveRecord` (passed in, never imported
at run time: the words sit below the results). Each speaks in the user's language, or in
English (``voice``) for CrystalDiskMark's text export.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from diskmark.drive import reasons as drive_reasons
from diskmark.locale import N_
from diskmark.locale.kept import said_again
from diskmark.model.voice import LOCAL, Voice

if TYPE_CHECKING:
    from diskmark.model.drive_record import DriveRecord, Health

NOT_RECORDED = N_("not recorded (the result is from a diskmark that did not read the drive)")


def _c(value: float) -> str:
    return f"{value:.0f} °C"


def temperature_text(record: DriveRecord, voice: Voice = LOCAL) -> str:
    """"41 °C → 47 °C (peak 49 °C)", or "" when there are no samples."""
    first, last, peak = record.first_c, record.last_c, record.peak_c
    if first is None or last is None or peak is None:
        return ""
    text = _c(first) if len(record.samples) == 1 else f"{_c(first)} → {_c(last)}"
    if peak > max(first, last):
        # TRANSLATORS: {temperatures}: "41 °C → 47 °C"; {peak}: "49 °C", the hottest reading
        text = voice._("{temperatures} (peak {peak})").format(temperatures=text, peak=_c(peak))
    return text


def health_text(health: Health | None, voice: Voice = LOCAL) -> str:
    """"SMART PASSED, 3% used, 2 media errors", or "" when nothing is known."""
    if health is None or not health.known:
        return ""
    parts = []
    if health.passed is not None:
        # TRANSLATORS: the drive's SMART overall-health self-assessment, as smartctl says it
        parts.append(voice._("SMART PASSED") if health.passed else voice._("SMART FAILED"))
    if health.percentage_used is not None:
        # TRANSLATORS: share of the drive's rated endurance used up (NVMe)
        parts.append(voice._("{pct}% used").format(pct=health.percentage_used))
    if health.media_errors:
        parts.append(voice.ngettext("{count} media error", "{count} media errors",
                                    health.media_errors).format(count=health.media_errors))
    if health.reallocated_sectors:
        parts.append(voice.ngettext("{count} reallocated sector", "{count} reallocated sectors",
                                    health.reallocated_sectors).format(
            count=health.reallocated_sectors))
    if health.pending_sectors:
        parts.append(voice.ngettext("{count} pending sector", "{count} pending sectors",
                                    health.pending_sectors).format(count=health.pending_sectors))
    if health.critical_warning:
        # TRANSLATORS: NVMe's critical-warning bit field, {code} as 0x04
        parts.append(voice._("CRITICAL WARNING {code}").format(
            code=f"0x{health.critical_warning:02x}"))
    return ", ".join(parts)


def drive_line(record: DriveRecord | None, voice: Voice = LOCAL) -> str:
    """The whole record on one line, each missing part with its reason."""
    if record is None:
        return voice._(NOT_RECORDED)
    health = record.after if record.after is not None and record.after.known else record.before
    temp, state = temperature_text(record, voice), health_text(health, voice)
    if not temp and health is not None and health.temperature_c is not None:
        temp = _c(health.temperature_c)  # smartctl's reading, when no sensor could be sampled
    reasons = []
    if not temp and record.temperature_reason:
        reasons.append(record.temperature_reason)
    if (health is not None and health.reason and health.reason not in reasons
            and not (temp and state)):  # why the temperature or the health is missing
        reasons.append(health.reason)
    if voice is LOCAL:  # kept in English: said again in the reader's language
        reasons = [said_again(reason, drive_reasons.ALL) for reason in reasons]
    shown = ", ".join(x for x in (temp, state) if x)
    why = "; ".join(reasons)
    if shown and why:
        if temp:
            # TRANSLATORS: {readings}: the temperature read; {reason}: why the health is missing
            return voice._("{readings} (no health: {reason})").format(readings=shown, reason=why)
        # TRANSLATORS: {readings}: the health read; {reason}: why the temperature is missing
        return voice._("{readings} (no temperature: {reason})").format(readings=shown, reason=why)
    if shown:
        return shown
    # TRANSLATORS: neither the drive's temperature nor its health could be read: {reason} says why
    return voice._("nothing recorded: {reason}").format(reason=why) if why else voice._(
        "nothing recorded")


def warning_minutes_note(record: DriveRecord | None, voice: Voice = LOCAL) -> str:
    """The drive's own count of minutes above its warning temperature during the session
    (NVMe), in words; "" when it counted none or cannot tell."""
    minutes = record.minutes_above_warning() if record is not None else None
    if not minutes:
        return ""
    return voice.ngettext(
        "the drive counted {minutes} min above its warning temperature during this session: "
        "it throttles there",
        "the drive counted {minutes} min above its warning temperature during this session: "
        "it throttles there", minutes).format(minutes=minutes)


def hot_dip_notes(found: list[tuple[int, int, float, float]], voice: Voice = LOCAL) -> list[str]:
    """Dips at a temperature peak (:meth:`DriveRecord.hot_dips`) in words."""
    # TRANSLATORS: a bandwidth dip at second {second} of pass {pass_no}, at the session's hottest
    return [voice._("pass {pass_no}, second {second}: {speed} MB/s at {temperature}, the "
                    "session's peak: likely thermal throttling").format(
        pass_no=p, second=s, speed=f"{mb_s:.1f}", temperature=_c(c)) for p, s, mb_s, c in found]
