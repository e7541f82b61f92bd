"""The command palette (ctrl+p): every action and every setting by name, so nothing in the
app needs a mouse or a memorised key."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import partial
from typing import Protocol, cast

from rich.text import Text
from textual.app import SystemCommand
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from diskmark.app.protocol import AppLike
from diskmark.app.screens.main import MainScreen
from diskmark.files.text_safety import shown
from diskmark.model.names import mix_label
from diskmark.model.settings import COUNT_MAX, COUNT_MIN, INTERVAL_CHOICES, MEASURE_CHOICES, MIX_RATIOS
from diskmark.model.units import SIZES, Unit, format_size

#: Seconds the Sustained Write profile can be set to write from the palette.
SUSTAINED_CHOICES = [30, 60, 120, 300, 600, 1800]

Command = tuple[str, str, Callable[[], object], bool]  # title, help, callback, discoverable


class PaletteApp(AppLike, Protocol):
    """The app as the palette sees it: what every screen may ask, and each action the
    palette offers by name."""

    @property
    def available_themes(self) -> Mapping[str, object]: ...

    @property
    def main(self) -> MainScreen: ...

    def set_theme(self, name: str) -> None: ...

    def action_run_all(self) -> None: ...

    def action_save_report(self) -> None: ...

    def action_copy_report(self) -> None: ...

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

    def action_fleet(self) -> None: ...

    def action_settings(self) -> None: ...


def _plain_help(text: str) -> str:
    """The palette reads help as markup; ours holds preset descriptions and baseline names,
    which are data, so they are escaped."""
    return escape(shown(text))


def without_ours(system: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """Textual's palette entries, less the two diskmark has its own of: "Keys" (our help
    lists diskmark's keys) and "Screenshot" (ours never replaces a file)."""
    return (command for command in system if command.title not in ("Keys", "Screenshot"))


def commands(app: PaletteApp) -> Iterator[Command]:
    """Every command the palette offers, most used first; settings only while idle."""
    # the settings screen's choices, loaded with the palette rather than at start
    from diskmark.app.screens.settings import DATA_OPTIONS, MODE_OPTIONS, UNSTABLE_CHOICES

    state = app.state
    running = state.running
    if running:
        yield "Stop", "Stop fio now and remove the test file", app.action_stop, True
    else:
        yield "Run all tests", "Every test of the profile (All)", app.action_run_all, True
    yield "Save text report…", "CrystalDiskMark's text report, to a file", app.action_save_report, True
    yield "Copy text report", "CrystalDiskMark's text report, to the clipboard", app.action_copy_report, True
    yield "Save SVG screenshot", "A picture of the window, where reports are saved", app.action_save_svg, True
    if not running:
        yield ("Save as baseline…", "Keep the result on screen under a name, to compare later",
               app.action_save_baseline, True)
    yield "Baselines…", "List, view, compare, rename, delete, export, import", app.action_baselines, True
    yield "History…", "Every completed run; promote one to a baseline", app.action_history, True
    yield ("Compare with a baseline…", "Every tile shows the change against it",
           app.action_compare_with, True)
    if app.state.baseline is not None:
        yield ("Show the comparison", f"Every test and unit against “{app.state.baseline.name}”",
               app.action_show_comparison, True)
        yield ("Stop comparing", f"The tiles stop showing the change against “{app.state.baseline.name}”",
               app.action_clear_comparison, True)
    for tile in app.main.grid.tiles:
        if tile.result is not None and tile.result.runs and tile.fixed_unit in (None, Unit.MB_S):
            title = f"Details: {tile.spec.label} {tile.op.value}"
            yield title, "Every pass and the fio command line", partial(app.main.open_details, tile), False
    yield ("Comment…", f"Type a comment for the report ({state.keys.key('edit_comment')}); Esc leaves it",
           app.action_edit_comment, True)
    yield "Keys", "Every key binding", app.action_help, True
    for unit in Unit:
        yield (f"Unit: {unit.label}", "Show the tiles in this unit",
               partial(app.set_unit, unit), False)
    if running:
        return
    yield ("Queue-depth sweep…", "One pattern at Q1 … Q32, drawn as a curve",
           app.action_sweep, True)
    yield ("Run on several hosts (fio --server)…", "The profile on many hosts through fio's "
           "client/server mode, side by side", app.action_fleet, True)
    yield "Choose target…", "The directory to test in", app.action_pick_target, True
    yield "Settings…", "Preset, profile, mode, +Mix, test data, times", app.action_settings, True
    for n in range(COUNT_MIN, COUNT_MAX + 1):
        yield (f"Count: {n}", f"{n} measured pass{'es' * (n != 1)} per test, the best one kept",
               partial(app.change_settings, count=n), False)
    for size in SIZES:
        yield (f"Size: {format_size(size)}", "Size of the test file",
               partial(app.change_settings, size=size), False)
    preset = app.state.catalog.presets.get(app.state.settings.preset)
    if preset is not None:
        for profile in preset.profiles.values():
            n = len(profile.tests)
            yield (f"Profile: {profile.name}", f"{n} test{'s' * (n != 1)}, {profile.layout} layout",
                   partial(app.change_settings, profile=profile.id), False)
    for p in app.state.catalog.presets.values():
        yield f"Preset: {p.name}", p.description, partial(app.change_settings, preset=p.id), False
    for label, mode in MODE_OPTIONS:
        yield f"Mode: {label}", "Which operations run", partial(app.change_settings, mode=mode), False
    yield "+Mix: off", "No mixed read/write column", partial(app.change_settings, mix=None), False
    for ratio in MIX_RATIOS:
        yield (f"+Mix: {mix_label(ratio, percent=True)}", "Add a mixed read/write column",
               partial(app.change_settings, mix=ratio), False)
    for label, data in DATA_OPTIONS:
        yield f"Test data: {label}", "What fio writes", partial(app.change_settings, data=data), False
    yield ("I/O: direct (O_DIRECT)", "Bypass the page cache (CrystalDiskMark's way)",
           partial(app.change_settings, direct=True), False)
    yield ("I/O: buffered (page cache)", "Needed on ramfs, old tmpfs, some FUSE filesystems",
           partial(app.change_settings, direct=False), False)
    yield ("btrfs: NOCOW test directory", "Copy-on-write off for the test file, so the cache "
           "cannot leak into O_DIRECT figures", partial(app.change_settings, nocow=True), False)
    yield ("btrfs: copy-on-write as mounted", "The test file as any other file on the filesystem",
           partial(app.change_settings, nocow=False), False)
    for s in MEASURE_CHOICES:
        yield (f"Measure time: {s} s", "Seconds each pass measures",
               partial(app.change_settings, measure=float(s)), False)
    for s in INTERVAL_CHOICES:
        yield (f"Interval time: {s} s", "Seconds of rest between tests",
               partial(app.change_settings, interval=float(s)), False)
    for s in SUSTAINED_CHOICES:
        yield (f"Sustained write: {s} s", "How long the Sustained Write profile writes "
               "(it stops early at an amount only when one is set)",
               partial(app.change_settings, duration=float(s)), False)
    for pct in UNSTABLE_CHOICES:
        yield (f"Unstable when passes differ by > {pct}%", "The threshold of the ~ mark (R/Avg)",
               partial(app.change_settings, unstable_pct=float(pct)), False)
    for name in sorted(app.available_themes):
        yield f"Theme: {name}", "Colours of the app", partial(app.set_theme, name), False


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
        for title, help_text, callback, _ in commands(self._app):
            score = matcher.match(shown(title))
            if score > 0:
                yield Hit(score, matcher.highlight(shown(title)), callback,
                          help=_plain_help(help_text))
