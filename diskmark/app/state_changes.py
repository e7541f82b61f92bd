"""The App's own state, changed here and then announced: the settings (refused mid-run), a
preset saved from the Queues & Threads settings, the unit, the comment, the baseline, the
other targets, the language. A part of the App, as its keys' actions are: screens ask
(through :class:`~diskmark.app.core.protocol.AppLike`), these change
:class:`~diskmark.app.core.state.AppState`, then the App's signals tell whoever listens.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from diskmark.app.language_switch import switch_language
from diskmark.app.preferences import save_preferences
from diskmark.locale import _, as_sentence
from diskmark.locale.said import joined
from diskmark.presets import Preset, Profile, load_catalog

if TYPE_CHECKING:
    from diskmark.app.comparing import Comparing
    from diskmark.app.core.protocol import AppLike
    from diskmark.model.settings import Settings
    from diskmark.model.units import Unit
    from diskmark.store.entry import Entry

    class Parts(AppLike, Protocol):
        """The app as its state's changes need it (only for the type checker)."""

        persist: bool
        theme: str

        @property
        def comparing(self) -> Comparing: ...

        def load_facts(self) -> None: ...


def save(app: Parts) -> None:
    """The settings file written anew (unless the app was made not to), a failure said."""
    problem = save_preferences(app.state, app.theme) if app.persist else None
    if problem:
        app.notify(problem, severity="warning")


def _busy(app: Parts) -> str | None:
    """Why the settings cannot change now (a run is under way), or None."""
    # TRANSLATORS: {key} is the key that stops the run (Esc)
    return _("Settings cannot change while a test runs; stop it first ({key}).").format(
        key=app.state.keys.key("stop")) if app.state.running else None


def _take(app: Parts, new: Settings, shown: Profile) -> None:
    """The settings are ``new`` (``shown``: the profile the grid had), announced and saved."""
    state = app.state
    old = state.settings
    if new == old and state.profile == shown:
        return
    state.settings = new
    if old.target != new.target:
        app.load_facts()
        if new.target in state.other_targets:  # measured once, as the reference now
            _other_targets(app, [t for t in state.other_targets if t != new.target])
    if (old.preset, old.profile, old.mix) != (new.preset, new.profile, new.mix) or (
            state.profile != shown):
        state.result_on_tiles()  # the grid takes another shape: the result's, or none
        app.comparing.refresh()
    elif state.result is None:
        app.comparing.refresh()  # before any run, the line compares the settings
    app.signals.settings.publish(old)
    app.refresh_bindings()
    save(app)


def _other_targets(app: Parts, targets: list[str]) -> None:
    app.state.other_targets = targets
    app.signals.targets.publish(None)


class StateChanges:
    """What the screens ask the App to change (a part of the App)."""

    def change_settings(self: Parts, **changes: Any) -> None:
        """Apply setting changes from any control; refused while a run is under way."""
        if (busy := _busy(self)) is not None:
            self.notify(busy, severity="warning")
            return
        _take(self, self.state.changed(**changes), self.state.profile)

    def keep_preset(self: Parts, preset: Preset, path: Path, replace: bool) -> str | None:
        """Save ``preset`` at ``path`` (the Queues & Threads settings) and use it from now on:
        the presets read again, so the grid has the rows the command line will read, and
        ``preset`` chosen with its own times. Returns why it was not saved, or None."""
        from diskmark.files.destination import DestinationError
        from diskmark.presets.queues_threads import save_preset

        if (busy := _busy(self)) is not None:
            return busy
        try:
            written = save_preset(preset, path, replace)
        except DestinationError as e:
            return as_sentence(str(e))
        shown, state = self.state.profile, self.state
        state.presets_read(load_catalog())
        if preset.id not in state.catalog.presets:  # another file took its id meanwhile
            return joined("\n", state.catalog.problems)
        _take(self, state.changed(preset=preset.id, measure=None, interval=None), shown)
        # TRANSLATORS: {preset} is the preset's name, {path} its file
        self.notify(_("Preset {preset} saved in {path}; diskmark run --preset {preset} runs "
                      "it.").format(preset=preset.id, path=written))
        return None

    def add_target(self: Parts, path: str) -> None:
        """Measure ``path`` too, each test on every target in turn (refused mid-run, and for
        a target already measured)."""
        state = self.state
        if state.running or path in (state.settings.target, *state.other_targets):
            if not state.running:
                self.notify(_("{target} is measured already.").format(target=path))
            return
        _other_targets(self, [*state.other_targets, path])

    def one_target(self: Parts) -> None:
        if not self.state.running:
            _other_targets(self, [])

    def change_language(self: Parts, wanted: str) -> None:
        """Speak ``wanted`` from now on, the whole window at once, and remember it."""
        self.comparing.refresh()  # as of now, for the window drawn anew
        if switch_language(self, wanted):
            save(self)

    def set_unit(self: Parts, unit: Unit) -> None:
        """Re-render every tile in ``unit`` at once; nothing is measured again."""
        if unit == self.state.unit:
            return
        self.state.unit = unit
        self.comparing.refresh()  # as of now: the line counts verdicts in the unit on screen
        self.signals.unit.publish(unit)
        save(self)

    def set_comment(self: Parts, comment: str) -> None:
        self.state.comment = comment

    def set_baseline(self: Parts, entry: Entry | None) -> None:
        """Compare the tiles with ``entry`` from now on (None: stop comparing)."""
        self.state.baseline = entry if entry is not None and entry.ok else None
        self.set_class(self.state.baseline is not None, "-comparing")
        self.comparing.refresh()
        self.signals.baseline.publish(None)
        save(self)
