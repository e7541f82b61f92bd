"""The seconds a run measures each pass for and pauses between tests: the settings' own,
else the profile's, else the preset's. Apart from :mod:`diskmark.engine.plan`, which plans
with it, so that the app's first frame (its status line says how long a run takes) can ask
without creating the plan's types."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from diskmark.model.settings import Settings
    from diskmark.presets import Preset, Profile


def times(preset: Preset, profile: Profile, settings: Settings) -> tuple[float, float]:
    """The measure and interval seconds a run uses: the settings' own, else the profile's,
    else the preset's. The one place this rule lives; the app asks it before a run."""
    measure = settings.measure if settings.measure is not None else (profile.measure or preset.measure)
    interval = settings.interval if settings.interval is not None else (
        profile.interval if profile.interval is not None else preset.interval)
    return float(measure), float(interval)
