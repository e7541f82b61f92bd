"""The command palette (ctrl+p): every action and every setting by name, so nothing in the
app needs a mouse or a memorised key (the main screen adds its tiles' details,
:class:`~diskmark.app.screens.main.TileDetails`)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Protocol, cast

from rich.text import Text
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from diskmark.app.core.protocol import AppLike
from diskmark.locale import LANGUAGES, N_, _, ngettext
from diskmark.locale.text_safety import shown
from diskmark.model.names import mix_label
from diskmark.model.settings import COUNT_MAX, COUNT_MIN, INTERVAL_CHOICES, MEASURE_CHOICES, MIX_RATIOS
from diskmark.model.units import SIZES, Unit, format_size
from diskmark.presets.words import said_name

#: How each layout shows its tests, in words.
LAYOUT_WORDS = {
    "default": N_("a row per test"),
    "peak": N_("SEQ in MB/s, RND in MB/s, IOPS and µs"),
    "demo": N_("one test in two large tiles"),
    "sustained": N_("one long write, drawn over time"),
    "sweep": N_("a curve across queue depths"),
}

#: Seconds the Sustained Write profile can be set to write from the palette.
SUSTAINED_CHOICES = [30, 60, 120, 300, 600, 1800]

Command = tuple[str, str, Callable[[], object], bool]  # title, help, callback, discoverable


class PaletteApp(AppLike, Protocol):
    """The app as the palette sees it: what every screen may ask, and each action the
    palette offers by name."""

    def set_theme(self, name: str) -> None: ...

    def change_language(self, wanted: str) -> None: ...

    def action_run_all(self) -> None: ...

    def action_save_report(self) -> None: ...

    def action_copy_report(self) -> None: ...

    def action_save_image(self) -> None: ...

    def action_save_svg(self) -> None: ...

    def action_save_baseline(self) -> None: ...

    def action_baselines(self) -> None: ...

    def action_history(self) -> None: ...

    def action_compare_with(self) -> None: ...

    def action_show_comparison(self) -> None: ...

    def action_clear_comparison(self) -> None: ...

    def action_edit_comment(self) -> None: ...

    def action_help(self) -> None: ...

    def action_sweep(self) -> None: ...

    def action_checks(self) -> None: ...

    def action_why(self) -> None: ...

    def action_measure_below(self) -> None: ...

    def action_fleet(self) -> None: ...

    def action_settings(self) -> None: ...

    def action_queues_threads(self) -> None: ...


def _plain_help(text: str) -> str:
    """The palette reads help as markup; ours holds preset descriptions and baseline names,
    which are data, so they are escaped."""
    return escape(shown(text))


def commands(app: PaletteApp) -> Iterator[Command]:
    """Every command the palette offers, most used first; settings only while idle."""
    # the settings screen's choices, loaded with the palette rather than at start
    from diskmark.app.screens.settings import DATA_OPTIONS, MODE_OPTIONS, UNSTABLE_CHOICES

    state = app.state
    running = state.running
    if running:
        yield _("Stop"), _("Stop fio now and remove the test file"), app.action_stop, True
    else:
        yield (_("Run all tests"), _("Every test of the profile (All)"), app.action_run_all,
               True)
    yield (_("Save text report…"), _("CrystalDiskMark's text report, to a file"),
           app.action_save_report, True)
    yield (_("Copy text report"), _("CrystalDiskMark's text report, to the clipboard"),
           app.action_copy_report, True)
    yield (_("Save PNG screenshot"), _("A picture of the window, where reports are saved"),
           app.action_save_image, True)
    yield (_("Save SVG screenshot"), _("The window as an SVG file, where reports are saved"),
           app.action_save_svg, True)
    if not running:
        yield (_("Save as baseline…"), _("Keep the result on screen under a name, to compare later"),
               app.action_save_baseline, True)
    yield (_("Baselines…"), _("List, view, compare, rename, delete, export, import"),
           app.action_baselines, True)
    yield (_("History…"), _("Every completed run; promote one to a baseline"),
           app.action_history, True)
    yield (_("Checks…"), _("Is it good enough: etcd's fdatasync, an SD card's class, a USB "
                           "link; verdicts of the last check run"), app.action_checks, True)
    yield (_("Compare with a baseline…"), _("Every tile shows the change against it"),
           app.action_compare_with, True)
    if app.state.baseline is not None:
        name = app.state.baseline.name
        # TRANSLATORS: {name} is the name of a saved baseline
        yield (_("Show the comparison"), _("Every test and unit against “{name}”").format(name=name),
               app.action_show_comparison, True)
        yield (_("Stop comparing"),
               _("The tiles stop showing the change against “{name}”").format(name=name),
               app.action_clear_comparison, True)
    # TRANSLATORS: {key} is the key that moves to the comment field (n)
    yield (_("Comment…"), _("Type a comment for the report ({key}); Esc leaves it")
           .format(key=state.keys.key("edit_comment")), app.action_edit_comment, True)
    yield _("Keys"), _("Every key binding"), app.action_help, True
    yield (_("Why this figure: the storage stack…"),
           _("The layers under the target, from its file system to the disk's link, and what "
             "each does to the figures"), app.action_why, True)
    for unit in Unit:
        yield (_("Unit: {unit}").format(unit=unit.label), _("Show the tiles in this unit"),
               partial(app.set_unit, unit), False)
    if running:
        return
    from diskmark.app.screens.why import measurable

    if measurable(app) is not None:
        yield (_("Measure the layers below (read-only)…"),
               _("The result's read tests again on each block device under the target, and "
                 "what each layer costs"), app.action_measure_below, True)
    yield (_("Queue-depth sweep…"), _("One pattern at Q1 … Q32, drawn as a curve"),
           app.action_sweep, True)
    yield (_("Run on several hosts (SSH)…"),
           _("The profile on many hosts over SSH with fio's own client and server, side by "
             "side"),
           app.action_fleet, True)
    yield _("Choose target…"), _("The directory to test in"), app.action_pick_target, True
    yield (_("Settings…"), _("Preset, profile, mode, +Mix, test data, times"),
           app.action_settings, True)
    yield (_("Queues & Threads…"),
           _("Every row's type, block size, queues and threads, saved as a preset"),
           app.action_queues_threads, True)
    for n in range(COUNT_MIN, COUNT_MAX + 1):
        yield (_("Count: {count}").format(count=n),
               ngettext("{count} measured pass per test, the best one kept",
                        "{count} measured passes per test, the best one kept", n).format(count=n),
               partial(app.change_settings, count=n), False)
    for size in SIZES:
        yield (_("Size: {size}").format(size=format_size(size)), _("Size of the test file"),
               partial(app.change_settings, size=size), False)
    preset = app.state.catalog.presets.get(app.state.settings.preset)
    if preset is not None:
        for profile in preset.profiles.values():
            n = len(profile.tests)
            yield (_("Profile: {profile}").format(profile=said_name(profile.name)),
                   # TRANSLATORS: {layout} says how the tiles show the tests ("a row per test")
                   ngettext("{count} test: {layout}", "{count} tests: {layout}", n).format(
                       count=n, layout=_(LAYOUT_WORDS.get(profile.layout, profile.layout))),
                   partial(app.change_settings, profile=profile.id), False)
    for p in app.state.catalog.presets.values():
        yield (_("Preset: {preset}").format(preset=said_name(p.name)), _(p.description),
               partial(app.change_settings, preset=p.id), False)
    for label, mode in MODE_OPTIONS:
        yield (_("Mode: {mode}").format(mode=_(label)), _("Which operations run"),
               partial(app.change_settings, mode=mode), False)
    yield (_("+Mix: off"), _("No mixed read/write column"),
           partial(app.change_settings, mix=None), False)
    for ratio in MIX_RATIOS:
        yield (_("+Mix: {ratio}").format(ratio=mix_label(ratio, percent=True)),
               _("Add a mixed read/write column"), partial(app.change_settings, mix=ratio), False)
    for label, data in DATA_OPTIONS:
        yield (_("Test data: {data}").format(data=_(label)), _("What fio writes"),
               partial(app.change_settings, data=data), False)
    yield (_("I/O: direct (O_DIRECT)"), _("Bypass the page cache (CrystalDiskMark's way)"),
           partial(app.change_settings, direct=True), False)
    yield (_("I/O: buffered (page cache)"), _("Needed on ramfs, old tmpfs, some FUSE filesystems"),
           partial(app.change_settings, direct=False), False)
    yield (_("btrfs: NOCOW test directory"),
           _("Copy-on-write off for the test file, so the cache cannot leak into O_DIRECT figures"),
           partial(app.change_settings, nocow=True), False)
    yield (_("btrfs: copy-on-write as mounted"),
           _("The test file as any other file on the filesystem"),
           partial(app.change_settings, nocow=False), False)
    for s in MEASURE_CHOICES:
        yield (_("Measure time: {seconds} s").format(seconds=s), _("Seconds each pass measures"),
               partial(app.change_settings, measure=float(s)), False)
    for s in INTERVAL_CHOICES:
        yield (_("Interval time: {seconds} s").format(seconds=s), _("Seconds of rest between tests"),
               partial(app.change_settings, interval=float(s)), False)
    for s in SUSTAINED_CHOICES:
        yield (_("Sustained write: {seconds} s").format(seconds=s),
               _("How long the Sustained Write profile writes (it stops early at an amount "
                 "only when one is set)"),
               partial(app.change_settings, duration=float(s)), False)
    for pct in UNSTABLE_CHOICES:
        yield (_("Unstable when passes differ by > {pct}%").format(pct=pct),
               _("The threshold of the ~ mark (R/Avg)"),
               partial(app.change_settings, unstable_pct=float(pct)), False)
    for name in sorted(app.available_themes):
        yield (_("Theme: {theme}").format(theme=name), _("Colours of the app"),
               partial(app.set_theme, name), False)
    for code, name in LANGUAGES.items():
        # TRANSLATORS: {language} is the language's name in itself (Deutsch, 日本語)
        yield (_("Language: {language}").format(language=name),
               _("The language of the window, switched at once and remembered"),
               partial(app.change_language, code), False)


class DiskmarkCommands(Provider):
    """Palette source for diskmark's actions and settings."""

    @property
    def _app(self) -> PaletteApp:
        """The app, typed: the palette runs only in diskmark's app."""
        return cast("PaletteApp", self.app)

    async def discover(self) -> Hits:
        for title, help_text, callback, discoverable in commands(self._app):
            if discoverable:
                yield DiscoveryHit(Text(shown(title)), callback, text=shown(title),
                                   help=_plain_help(help_text))

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, help_text, callback, _discoverable in commands(self._app):
            score = matcher.match(shown(title))
            if score > 0:
                yield Hit(score, matcher.highlight(shown(title)), callback,
                          help=_plain_help(help_text))
