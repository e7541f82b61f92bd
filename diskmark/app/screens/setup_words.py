"""How a run is set up, in a few words: the next one on the facts line (the preset and
profile, whatever differs from CrystalDiskMark's defaults, how long each pass measures or a
sustained write writes), a result's when the tiles cannot show it."""

from __future__ import annotations

from diskmark.app.core.state import AppState
from diskmark.locale import _, ngettext
from diskmark.model.names import mix_label
from diskmark.model.results import SessionResult
from diskmark.model.settings import UNSTABLE_PCT, DataPattern, Mode
from diskmark.model.units import format_size
from diskmark.presets.words import said_name
from diskmark.report.formatting import MODE_LABELS


def setup_name(session: SessionResult) -> str:
    """``Default · Peak +Mix R70/W30``: how a result was set up, in a few words."""
    st = session.settings
    name = (f"{said_name(session.preset_name or st.preset)} · "
            f"{said_name(session.profile_name or st.profile)}")
    return name + (f" +Mix {mix_label(st.mix)}" if st.mix is not None else "")


def describe_setup(state: AppState, compact: bool = False) -> str:
    """How the next run is set up, in words (``compact``: for a narrow terminal, still
    labelled: "5 s/pass" is the measure time, "5 s rest" the interval)."""
    s, preset, profile = state.settings, state.preset, state.profile
    plan_measure, plan_interval = state.plan_times()
    name = said_name(preset.name)
    if profile.id != "default":
        name = f"{name} · {said_name(profile.name, short=compact)}"
    parts = [name]
    if state.other_targets:
        count = len(state.other_targets) + 1
        # TRANSLATORS: the next run measures several targets, each test on every one in turn
        parts.append(ngettext("{count} target side by side", "{count} targets side by side",
                              count).format(count=count))
    if s.mode is not Mode.READ_WRITE:
        parts.append(_(MODE_LABELS[s.mode]))
    if s.mix is not None and profile.mix:
        parts.append(f"+Mix {mix_label(s.mix)}")
    if s.data is DataPattern.ZEROS:
        parts.append(_("All 0x00"))
    elif s.data is DataPattern.REFILL:
        parts.append(_("fresh random data"))
    if not s.direct:
        parts.append(_("buffered"))
    elif state.shown_buffered():
        parts.append(_("tiles: buffered"))  # the shown figures came from a buffered run
    if s.nocow:
        parts.append("NOCOW")
    if s.unstable_pct != UNSTABLE_PCT:
        # TRANSLATORS: when the tiles get the ~ mark; {pct} is a number
        parts.append(_("~ when passes differ > {pct}%").format(pct=f"{s.unstable_pct:g}"))
    if profile.layout == "sustained":  # one write, no passes: how long, how much
        seconds = f"{s.duration:g}"
        # TRANSLATORS: how long a sustained write writes, or how much ({amount}: 64GiB)
        parts.append(_("write {seconds} s or {amount}").format(
            seconds=seconds, amount=format_size(s.amount)) if s.amount else
            _("write {seconds} s").format(seconds=seconds))
        return " · ".join(parts)
    measure, interval = f"{plan_measure:g}", f"{plan_interval:g}"
    # TRANSLATORS: the seconds each pass measures and the rest between tests; the first
    # is the short form for narrow terminals
    parts.append(_("{measure} s/pass, {interval} s rest").format(measure=measure, interval=interval)
                 if compact else _("measure {measure} s, interval {interval} s").format(
                     measure=measure, interval=interval))
    return " · ".join(parts)
