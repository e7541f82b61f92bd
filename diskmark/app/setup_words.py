"""How a run is set up, in a few words: the next one on the facts line (the preset and
profile, whatever differs from CrystalDiskMark's defaults, how long each pass measures or a
sustained write writes), a result's when the tiles cannot show it."""

from __future__ import annotations

from diskmark.app.state import AppState
from diskmark.model.names import mix_label
from diskmark.model.results import SessionResult
from diskmark.model.settings import UNSTABLE_PCT, DataPattern, Mode
from diskmark.model.units import format_size
from diskmark.report.formatting import MODE_LABELS


def setup_name(session: SessionResult) -> str:
    """``Default · Peak +Mix R70/W30``: how a result was set up, in a few words."""
    st = session.settings
    name = f"{session.preset_name or st.preset} · {session.profile_name or st.profile}"
    return name + (f" +Mix {mix_label(st.mix)}" if st.mix is not None else "")


def describe_setup(state: AppState, compact: bool = False) -> str:
    """How the next run is set up, in words (``compact``: for a narrow terminal, still
    labelled: "5 s/pass" is the measure time, "5 s rest" the interval)."""
    s, preset, profile = state.settings, state.preset, state.profile
    plan_measure, plan_interval = state.plan_times()
    name = preset.name
    if profile.name != "Default":
        shown = profile.name.removesuffix(" Performance") if compact else profile.name
        name = f"{name} · {shown}"
    parts = [name]
    if s.mode is not Mode.READ_WRITE:
        parts.append(MODE_LABELS[s.mode])
    if s.mix is not None and profile.mix:
        parts.append(f"+Mix {mix_label(s.mix)}")
    if s.data is DataPattern.ZEROS:
        parts.append("All 0x00")
    elif s.data is DataPattern.REFILL:
        parts.append("fresh random data")
    if not s.direct:
        parts.append("buffered")
    elif state.shown_buffered():
        parts.append("tiles: buffered")  # the shown figures came from a buffered run
    if s.nocow:
        parts.append("NOCOW")
    if s.unstable_pct != UNSTABLE_PCT:
        parts.append(f"~ when passes differ > {s.unstable_pct:g}%")
    if profile.layout == "sustained":  # one write, no passes: how long, how much
        amount = f" or {format_size(s.amount)}" if s.amount else ""
        return " · ".join([*parts, f"write {s.duration:g} s{amount}"])
    parts.append(f"{plan_measure:g} s/pass, {plan_interval:g} s rest" if compact else
                 f"measure {plan_measure:g} s, interval {plan_interval:g} s")
    return " · ".join(parts)
