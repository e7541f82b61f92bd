"""The drive's temperature and health in words, for the reports and the details: one line
such as "Drive: 41 °C → 47 °C (peak 49 °C), SMART PASSED, 3% used", or the reason nothing
was recorded; and the dips that fell at a temperature peak.

Pure functions of a :class:`~diskmark.drive_record.DriveRecord` (passed in, never imported
at run time: the words sit below the results).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.model.drive_record import DriveRecord, Health

NOT_RECORDED = "not recorded (the result is from a diskmark that did not read the drive)"


def _c(value: float) -> str:
    return f"{value:.0f} °C"



def temperature_text(record: DriveRecord) -> str:
    """"41 °C → 47 °C (peak 49 °C)", or "" when there are no samples."""
    first, last, peak = record.first_c, record.last_c, record.peak_c
    if first is None or last is None or peak is None:
        return ""
    text = _c(first) if len(record.samples) == 1 else f"{_c(first)} → {_c(last)}"
    if peak > max(first, last):
        text += f" (peak {_c(peak)})"
    return text


def health_text(health: Health | None) -> str:
    """"SMART PASSED, 3% used, 2 media errors", or "" when nothing is known."""
    if health is None or not health.known:
        return ""
    parts = []
    if health.passed is not None:
        parts.append("SMART PASSED" if health.passed else "SMART FAILED")
    if health.percentage_used is not None:
        parts.append(f"{health.percentage_used}% used")
    for count, one, many in ((health.media_errors, "media error", "media errors"),
                             (health.reallocated_sectors, "reallocated sector", "reallocated sectors"),
                             (health.pending_sectors, "pending sector", "pending sectors")):
        if count:
            parts.append(f"{count} {one if count == 1 else many}")
    if health.critical_warning:
        parts.append(f"CRITICAL WARNING 0x{health.critical_warning:02x}")
    return ", ".join(parts)


def drive_line(record: DriveRecord | None) -> str:
    """The whole record on one line, each missing part with its reason."""
    if record is None:
        return NOT_RECORDED
    health = record.after if record.after is not None and record.after.known else record.before
    temp, state = temperature_text(record), health_text(health)
    if not temp and health is not None and health.temperature_c is not None:
        temp = _c(health.temperature_c)  # smartctl's reading, when no sensor could be sampled
    reasons = []
    if not temp and record.temperature_reason:
        reasons.append(record.temperature_reason)
    if (health is not None and health.reason and health.reason not in reasons
            and not (temp and state)):  # why the temperature or the health is missing
        reasons.append(health.reason)
    shown = ", ".join(x for x in (temp, state) if x)
    why = "; ".join(reasons)
    if shown and why:
        return f"{shown} (no {'health' if temp else 'temperature'}: {why})"
    return shown or (f"nothing recorded: {why}" if why else "nothing recorded")


def warning_minutes_note(record: DriveRecord | None) -> str:
    """The drive's own count of minutes above its warning temperature during the session
    (NVMe), in words; "" when it counted none or cannot tell."""
    minutes = record.minutes_above_warning() if record is not None else None
    return (f"the drive counted {minutes} min above its warning temperature during this "
            f"session: it throttles there" if minutes else "")


def hot_dip_notes(found: list[tuple[int, int, float, float]]) -> list[str]:
    """Dips at a temperature peak (:meth:`DriveRecord.hot_dips`) in words."""
    return [f"pass {p}, second {s}: {mb_s:.1f} MB/s at {_c(c)}, the session's peak: "
            f"likely thermal throttling" for p, s, mb_s, c in found]
