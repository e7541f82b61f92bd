"""A reading no working drive can give (a temperature of inf, NaN, 0 K): left out, with
the sentence that says why. The kernel's sensor and smartctl both drop such readings."""

from __future__ import annotations


def implausible_text(source: str, value: float, low: float, high: float, device: str = "") -> str:
    """Why a reading from ``source`` ("smartctl", "the sensor nvme Composite") about
    ``device`` was dropped: ``value`` °C lies outside ``low``..``high``, what a working
    drive can report."""
    if device:
        return (f"{source} reported a temperature of {value:g} °C for {device}, outside what a "
                f"working drive can report ({low:g} to {high:g} °C): it was left out")
    return (f"{source} reported a temperature of {value:g} °C, outside what a working drive "
            f"can report ({low:g} to {high:g} °C): it was left out")
