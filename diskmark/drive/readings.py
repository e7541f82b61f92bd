"""A reading no working drive can give (a temperature of inf, NaN, 0 K): left out, with
the sentence that says why. The kernel's sensor and smartctl both drop such readings."""

from __future__ import annotations

from diskmark.drive import reasons


def implausible_text(source: str, value: float, low: float, high: float, device: str = "") -> str:
    """Why a reading from ``source`` ("smartctl", "the sensor nvme Composite") about
    ``device`` was dropped: ``value`` °C lies outside ``low``..``high``, what a working
    drive can report."""
    return (reasons.IMPLAUSIBLE_FOR if device else reasons.IMPLAUSIBLE).format(
        source=source, value=f"{value:g}", low=f"{low:g}", high=f"{high:g}", device=device)
