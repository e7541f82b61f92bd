"""The settings CrystalDiskMark keeps in its menus: preset, profile, mode, +Mix, test data,
direct or buffered I/O, measure and interval times, plus btrfs's NOCOW test directory.
Dismisses with new Settings or None."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid
from textual.content import Content
from textual.widgets import Button, Label, Select, Static

from diskmark.app.core.news import listen
from diskmark.app.core.protocol import diskmark_app
from diskmark.app.screens.dialog_frame import Dialog
from diskmark.app.widgets.plain import PlainStatic, plain
from diskmark.locale import LANGUAGES, N_, SOURCE, _, language
from diskmark.locale.said import joined
from diskmark.model.names import mix_label
from diskmark.model.settings import (
    INTERVAL_CHOICES,
    MEASURE_CHOICES,
    MIX_RATIOS,
    UNSTABLE_PCT,
    DataPattern,
    Mode,
    Settings,
)
from diskmark.presets import PresetCatalog
from diskmark.presets.words import said_name
from diskmark.report.formatting import MODE_LABELS

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike

#: The choices of each Select, their labels marked for translation and translated where shown.
MODE_OPTIONS = [(label, mode) for mode, label in MODE_LABELS.items()]
DATA_OPTIONS = [(N_("Random (as CrystalDiskMark)"), DataPattern.RANDOM),
                (N_("All 0x00"), DataPattern.ZEROS),
                (N_("Random, fresh per write"), DataPattern.REFILL)]
IO_OPTIONS = [(N_("Direct (O_DIRECT)"), True), (N_("Buffered (page cache)"), False)]
#: btrfs only (black_cat's filesystem article): CoW and compression let the cache leak into O_DIRECT figures.
NOCOW_OPTIONS = [(N_("As mounted (copy-on-write)"), False), (N_("NOCOW test directory"), True)]
UNSTABLE_CHOICES = [2, 3, 5, 10, 20]  # R/Avg %; 5 is snow_mountain's and the default
PRESET_DEFAULT = -1.0  # a Select cannot hold None as a value: stands for "the preset's"


def translated(options: Sequence[tuple[str, Any]]) -> list[tuple[str, Any]]:
    """A Select's choices with their labels in the language in use."""
    return [(_(label), value) for label, value in options]


def unstable_options(current: float) -> list[tuple[str, float]]:
    values = sorted(set(float(c) for c in UNSTABLE_CHOICES) | {float(current)})
    return [((_("passes differ by > {pct}% (default)") if v == UNSTABLE_PCT
              else _("passes differ by > {pct}%")).format(pct=f"{v:g}"), v)
            for v in values]


def seconds_options(choices: Sequence[int], current: float | None, default: float) -> list[tuple[str, float]]:
    values = sorted(set(float(c) for c in choices) | ({float(current)} if current is not None else set()))
    return ([(_("Preset default ({seconds} s)").format(seconds=f"{default:g}"), PRESET_DEFAULT)]
            + [(f"{v:g} s", v) for v in values])


class SettingsScreen(Dialog[Settings]):
    """A form of Selects; nothing changes until Apply."""

    BINDINGS = [Binding("ctrl+s", "apply", N_("Apply"), show=False)]

    def __init__(self, settings: Settings, catalog: PresetCatalog) -> None:
        super().__init__(_("Settings"), classes="settings")
        #: the language chosen when Apply was pressed (None: not applied)
        self.language_wanted: str | None = None
        self.settings = settings
        self.catalog = catalog

    def body(self) -> ComposeResult:
        s = self.settings
        preset = self.catalog.presets.get(s.preset) or next(iter(self.catalog.presets.values()))
        with Grid(classes="form"):
            yield Label(_("Language"))
            yield Select([(name, code) for code, name in LANGUAGES.items()], value=language()
                         if language() in LANGUAGES else SOURCE, allow_blank=False,
                         compact=True, id="language")
            yield Label(_("Preset"))
            yield Select([(plain(said_name(p.name)), p.id) for p in self.catalog.presets.values()],
                         value=preset.id, allow_blank=False, compact=True, id="preset")
            yield Label(_("Profile"))
            yield Select(self._profile_options(preset.id), value=self._profile_value(preset.id),
                         allow_blank=False, compact=True, id="profile")
            yield Label(_("Mode"))
            yield Select(translated(MODE_OPTIONS), value=s.mode, allow_blank=False, compact=True, id="mode")
            yield Label("+Mix")
            yield Select([(_("Off"), 0)] + [(mix_label(r, percent=True), r) for r in MIX_RATIOS],
                         value=s.mix or 0, allow_blank=False, compact=True, id="mix")
            yield Label(_("Test data"))
            yield Select(translated(DATA_OPTIONS), value=s.data, allow_blank=False, compact=True, id="data")
            yield Label(_("I/O"))
            yield Select(translated(IO_OPTIONS), value=s.direct, allow_blank=False, compact=True, id="direct")
            yield Label("btrfs")
            nocow = Select(translated(NOCOW_OPTIONS), value=s.nocow, allow_blank=False, compact=True,
                           id="nocow")
            nocow.tooltip = _("On btrfs, test in a directory with copy-on-write off "
                              "(chattr +C), so CoW and the page cache cannot inflate O_DIRECT "
                              "figures. Other filesystems ignore it.")
            yield nocow
            yield Label(_("Measure time"))
            yield Select(seconds_options(MEASURE_CHOICES, s.measure, preset.measure),
                         value=s.measure if s.measure is not None else PRESET_DEFAULT,
                         allow_blank=False, compact=True, id="measure")
            yield Label(_("Interval time"))
            yield Select(seconds_options(INTERVAL_CHOICES, s.interval, preset.interval),
                         value=s.interval if s.interval is not None else PRESET_DEFAULT,
                         allow_blank=False, compact=True, id="interval")
            yield Label(_("Unstable when"))
            unstable = Select(unstable_options(s.unstable_pct), value=float(s.unstable_pct),
                              allow_blank=False, compact=True, id="unstable")
            unstable.tooltip = _("A tile is marked ~ when its passes differ by more than this "
                                 "(R/Avg: range over mean, as snow_mountain's fio article "
                                 "measures it).")
            yield unstable
        yield PlainStatic(self._describe(preset.id), id="preset-description",
                          classes="dialog-hint")
        if self.catalog.problems:
            yield PlainStatic(_("Skipped user presets:\n{problems}").format(
                problems=joined("\n", self.catalog.problems)), classes="dialog-problem")

    def buttons(self) -> ComposeResult:
        # TRANSLATORS: opens CrystalDiskMark's Queues & Threads settings (every row's test)
        yield Button(_("Queues & Threads…"), id="queues-threads")
        yield Button(_("Apply"), id="apply", variant="primary")
        yield Button(_("Cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#preset", Select).focus()
        self._sync_mix()
        listen(diskmark_app(self).signals.settings, self, self._settings_taken)

    def _settings_taken(self, _old: Settings) -> None:
        """The app took other settings while this form was open (a preset saved in the
        Queues & Threads settings, and chosen): the form shows the presets as they are now,
        that preset, its profile and its own times; its other fields stay as they were."""
        new = diskmark_app(self).state.settings
        self.settings = replace(self.settings, preset=new.preset, profile=new.profile,
                                measure=new.measure, interval=new.interval)
        preset = self.query_one("#preset", Select)
        with preset.prevent(Select.Changed):
            preset.set_options([(plain(said_name(p.name)), p.id) for p in self.catalog.presets.values()])
            preset.value = new.preset
        self._show_preset(new.preset, measure=new.measure, interval=new.interval)

    def _profile_options(self, preset_id: str) -> list[tuple[Content, str]]:
        return [(plain(said_name(p.name)), p.id)
                for p in self.catalog.get(preset_id).profiles.values()]

    def _profile_value(self, preset_id: str) -> str:
        profiles = self.catalog.get(preset_id).profiles
        return self.settings.profile if self.settings.profile in profiles else next(iter(profiles))

    def _describe(self, preset_id: str) -> str:
        preset = self.catalog.get(preset_id)
        source = "" if preset.source == "built-in" else f"  ({preset.source})"
        return f"{_(preset.description)}{source}"

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        self._show_preset(str(event.value))

    def _show_preset(self, preset_id: str, **times: float | None) -> None:
        """The fields that follow the preset: its profiles, its description, its times (as
        the form has them, or ``times``: measure, interval, None for the preset's)."""
        profile = self.query_one("#profile", Select)
        profile.set_options(self._profile_options(preset_id))
        profile.value = self._profile_value(preset_id)
        self.query_one("#preset-description", Static).update(self._describe(preset_id))
        preset = self.catalog.get(preset_id)
        for name, choices, default in (("measure", MEASURE_CHOICES, preset.measure),
                                       ("interval", INTERVAL_CHOICES, preset.interval)):
            select = self.query_one(f"#{name}", Select)
            value = (select.value if name not in times else
                     PRESET_DEFAULT if times[name] is None else times[name])
            current = float(value) if isinstance(value, (int, float)) else None
            select.set_options(seconds_options(
                choices, None if current == PRESET_DEFAULT else current, default))
            select.value = value
        self._sync_mix()

    @on(Select.Changed, "#profile")
    def _profile_changed(self) -> None:
        self._sync_mix()

    def _sync_mix(self) -> None:
        """Demo has no +Mix column (as in CDM)."""
        preset = self.catalog.get(str(self.query_one("#preset", Select).value))
        profile_id = self.query_one("#profile", Select).value
        profile = preset.profiles.get(str(profile_id))
        self.query_one("#mix", Select).disabled = profile is not None and not profile.mix

    def result(self) -> Settings:
        def value(name: str) -> Any:  # what the option holds: an id, a number, an enum
            return self.query_one(f"#{name}", Select).value

        measure, interval = value("measure"), value("interval")
        return replace(
            self.settings, preset=str(value("preset")), profile=str(value("profile")),
            mode=Mode(value("mode")), mix=int(value("mix")) or None, data=DataPattern(value("data")),
            direct=bool(value("direct")), nocow=bool(value("nocow")),
            measure=None if measure == PRESET_DEFAULT else float(measure),
            interval=None if interval == PRESET_DEFAULT else float(interval),
            unstable_pct=float(value("unstable")),
        )

    @property
    def chosen_language(self) -> str:
        """The language chosen in the form (applied with the settings, by the app)."""
        return str(self.query_one("#language", Select).value)

    def action_apply(self) -> None:
        self.language_wanted = self.chosen_language
        self.dismiss(self.result())

    def pressed(self, button: str) -> None:
        if button == "apply":
            self.action_apply()
        elif button == "queues-threads":
            from diskmark.app.screens.queues_threads import edit_queues_threads

            edit_queues_threads(diskmark_app(self), str(self.query_one("#preset", Select).value))


def edit_settings(app: AppLike) -> None:
    """The settings screen, from the app's key; what it returns is applied (and saved) as
    one change."""
    screen = SettingsScreen(app.state.settings, app.state.catalog)

    def done(new: Settings | None) -> None:
        if new is not None:
            app.change_settings(**{name: getattr(new, name) for name in (
                "preset", "profile", "mode", "mix", "data", "direct", "nocow", "measure",
                "interval", "unstable_pct")})
        if screen.language_wanted not in (None, language()):
            app.change_language(screen.language_wanted)

    app.push_screen(screen, done)
