"""What the app holds, in one plain object, and the rules that read it.

The settings a run would use, the unit on screen, the result the tiles show (with the run
under way merged into it as its tests finish), this process's runs, the baseline the tiles
are compared with: one :class:`AppState`, which the app (and the run controller and the
comparison it owns) changes and its screens only read. Nothing here draws or imports
Textual, so that every rule about which result is shown, reported or compared can be read
(and tested) apart from the window.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from diskmark.app.core.keymap import Keymap
from diskmark.engine.times import times
from diskmark.locale import _
from diskmark.model.results import SessionResult, Status, TestResult, in_order
from diskmark.model.settings import Mode, Op, Settings
from diskmark.model.units import Unit
from diskmark.presets import Preset, PresetCatalog, Profile
from diskmark.presets.words import said_name

if TYPE_CHECKING:
    from diskmark.checks import CheckCatalog
    from diskmark.engine.plan import Plan, PlannedTest
    from diskmark.model.claims import Claim
    from diskmark.model.facts import SystemFacts
    from diskmark.model.sides import TargetsResult
    from diskmark.report.compare import Comparison
    from diskmark.store.entry import Entry


@dataclass
class SidesRun:
    """A run on several targets (each test on every target in turn), as the app follows it:
    the targets by label (the first the reference), the tests of the plan, each target's
    tests as they finish and its last step, and the engine's result once it has returned.
    What it shows reads as a side by side (:meth:`sessions`)."""

    labels: list[str]
    settings: Settings
    #: (key, title) of every test of the plan, in CrystalDiskMark's order
    rows: list[tuple[str, str]]
    tests: list[dict[str, TestResult]]
    steps: list[str]
    result: TargetsResult | None = None

    @classmethod
    def begin(cls, labels: list[str], settings: Settings, plan: Plan) -> SidesRun:
        ordered = sorted(plan.tests, key=lambda t: (t.op.rank, t.mix_read or 0, t.row))
        rows = [(t.key, t.title) for t in ordered]
        return cls(labels, settings, rows, [{} for _label in labels], ["" for _label in labels])

    def sessions(self) -> list[SessionResult]:
        """Each target's session: the engine's once returned, else its tests so far."""
        if self.result is not None:
            return self.result.sessions
        from diskmark.model.facts import SystemFacts

        return [SessionResult(settings=replace(self.settings, target=label),
                              system=SystemFacts(target=label), tests=list(tests.values()))
                for label, tests in zip(self.labels, self.tests)]

@dataclass
class AppState:
    """Everything the app holds between two keys; the window draws it."""

    settings: Settings
    unit: Unit
    #: The presets the selectors offer; the engine plans from the same catalogue.
    catalog: PresetCatalog
    #: The keys in effect: the user's keymap resolved, its conflicts and unknown ids told
    #: at start; every text that names a key asks :meth:`Keymap.key`.
    keys: Keymap
    #: The keymap as the settings file has it, saved back unchanged.
    keymap: dict[str, str] | None = None
    #: The language chosen in the app, saved (None: the environment's, or --lang's).
    language: str | None = None
    #: The comment as typed under the tiles; it goes into the report.
    comment: str = ""
    #: The target's device, filesystem and free space, once read (in a thread).
    facts: SystemFacts | None = None
    #: The result: the last run's own settings, preset, profile and tests (a row run that
    #: repeats one row of the same set-up is merged in). Every view of a result — report,
    #: copy, baseline, comparison — uses this, never the selectors as they are now.
    result: SessionResult | None = None
    #: This process's runs, oldest first; the store keeps all of them.
    history: list[SessionResult] = field(default_factory=list)
    #: The tiles: (row, op) -> the result each shows (always of ``result``, or of the run
    #: under way).
    on_tiles: dict[tuple[int, Op], TestResult] = field(default_factory=dict)
    #: The baseline the tiles are compared with, and what the tiles show compared with it
    #: (before anything is measured: the settings a run would use, whose differences the
    #: comparison line warns of).
    baseline: Entry | None = None
    compared: Comparison | None = None
    #: A run or a sweep is under way (the app switches its controls and keys with it).
    running: bool = False
    #: Quitting waits for the run under way to end (fio stopped, the test file removed):
    #: nothing more is said or asked meanwhile.
    quitting: bool = False
    #: The run under way, as its tests finish; the result a row run repeats a row of.
    live: SessionResult | None = None
    merge_into: SessionResult | None = None
    #: The tests of the run under way, by plan index (empty during a sweep).
    plan: dict[int, PlannedTest] = field(default_factory=dict)
    #: The settings the last run (or sweep) started with.
    run_settings: Settings | None = None
    #: The last queue-depth sweep.
    sweep_session: SessionResult | None = None
    #: The checks the run under way (or the last check run) judges; () for other runs.
    run_checks: tuple[str, ...] = ()
    #: The last check run, its verdicts in ``checks``.
    checks_session: SessionResult | None = None
    #: The checks there are, read when first needed (the Checks panel, a check run).
    check_catalog: CheckCatalog | None = None
    #: What the drive is claimed to do, as typed (``diskmark --claim``): every run of the
    #: grid is held against it, and against the claims file's for the drive's model.
    claims: list[Claim] = field(default_factory=list)
    #: The hosts last typed on the fleet screen, offered again.
    fleet_hosts: str = ""
    #: (target, filesystem) already warned about.
    advised: set[tuple[str, str]] = field(default_factory=set)
    #: The targets measured beside ``settings.target`` (the reference), each test on every
    #: target in turn; for this session of the app only.
    other_targets: list[str] = field(default_factory=list)
    #: The last run on several targets (or the one under way).
    sides: SidesRun | None = None

    @property
    def comparison(self) -> Comparison | None:
        """The comparison the tiles' deltas show: once a test of what they show is complete."""
        compared = self.compared
        measured = compared is not None and any(t.complete for t in compared.current.tests)
        return compared if measured else None

    # --- the set-up ---------------------------------------------------------------------

    @property
    def preset(self) -> Preset:
        return self.catalog.get(self.settings.preset)

    @property
    def profile(self) -> Profile:
        return self.preset.profile(self.settings.profile)

    def plan_times(self) -> tuple[float, float]:
        """The measure and interval seconds a run would use now (the engine's rule)."""
        return times(self.preset, self.profile, self.settings)

    def fix_preset_choice(self) -> list[str]:
        """A saved preset or profile may have gone (a deleted user preset): fall back, and
        say so."""
        notices = []
        presets = self.catalog.presets
        if self.settings.preset not in presets:
            # TRANSLATORS: {preset} is a preset's id, quoted ('nvme')
            notices.append(_("Preset {preset} is not available; using the Default preset.")
                           .format(preset=repr(self.settings.preset)))
            self.settings.preset = "default" if "default" in presets else next(iter(presets))
        if self.settings.profile not in self.preset.profiles:
            notices.append(_("Profile {profile} is not in the {preset} preset; using its first "
                             "profile.").format(profile=repr(self.settings.profile),
                                                preset=said_name(self.preset.name)))
            self.settings.profile = next(iter(self.preset.profiles))
        return notices

    def presets_read(self, fresh: PresetCatalog) -> None:
        """The presets as they are on disk now (one was saved): taken into the catalogue in
        place, as the engine plans from this same object."""
        self.catalog.presets, self.catalog.problems = fresh.presets, fresh.problems

    def changed(self, **changes: Any) -> Settings:
        """The settings with ``changes``; another preset brings its default profile when
        it lacks the one chosen."""
        new = replace(self.settings, **changes)
        profiles = self.catalog.get(new.preset).profiles
        if new.preset != self.settings.preset and new.profile not in profiles:
            new.profile = "default" if "default" in profiles else next(iter(profiles))
        return new

    # --- the result ---------------------------------------------------------------------

    def fits_layout(self, session: SessionResult | None) -> bool:
        """Whether ``session`` ran under the grid's current layout (same preset, profile,
        +Mix and the same test in every row it measured)."""
        if session is None or session.settings.sweep:
            return False
        st, now = session.settings, self.settings
        if (st.preset, st.profile, st.mix) != (now.preset, now.profile, now.mix):
            return False
        tests = self.profile.tests
        return all(t.index < len(tests) and tests[t.index] == t.spec for t in session.tests)

    def repeats_a_row_of_result(self, settings: Settings) -> bool:
        """A row run whose every setting but the row, the mode and the comment is the
        result's: its figures belong in that result."""
        result = self.result
        if result is None or settings.only_test is None or not self.fits_layout(result):
            return False

        def essence(s: Settings) -> Settings:
            return replace(s, only_test=None, comment="", mode=Mode.READ_WRITE)

        return essence(result.settings) == essence(settings)

    def current_session(self) -> SessionResult | None:
        """The result as one session with its own settings, preset, profile and tests (the
        run under way, so far, while one runs), and the comment as typed now."""
        session = self.live if self.running and self.live is not None else self.result
        if session is None:
            return None
        settings = replace(session.settings, comment=self.comment, only_test=None)
        return replace(session, settings=settings, tests=in_order(session.tests))

    def session_of(self, result: TestResult) -> SessionResult | None:
        """The run a tile's result came from (a row run after an All has its own test file
        and notes), or the result."""
        for session in reversed(self.history):
            if any(t is result for t in session.tests):
                return session
        return self.result

    def session_for_comparison(self, base: SessionResult) -> SessionResult:
        """What the tiles show, as a session. With no result on them: the settings a run
        would use now and the target's facts, so a mismatch shows before it runs."""
        session = self.current_session()
        if session is not None and (self.running or self.fits_layout(self.result)):
            return session
        measure, interval = self.plan_times()
        return SessionResult(settings=self.run_settings or self.settings,
                             system=self.facts or base.system, preset_name=self.preset.name,
                             profile_name=self.profile.name, measure=measure,
                             interval=interval, tests=in_order(list(self.on_tiles.values())))

    def result_on_tiles(self) -> bool:
        """The tiles take the result's tests when it fits the layout, else none. Returns
        whether it fits."""
        self.on_tiles = {}
        if self.result is None or not self.fits_layout(self.result):
            return False
        self.on_tiles = {(t.index, t.op): t for t in self.result.tests}
        return True

    def shown_buffered(self) -> bool:
        """Whether a tile shows a figure of a buffered run (the selectors may say direct)."""
        shown = list(self.on_tiles.values())
        return any(not session.settings.direct for session in self.history
                   if any(t is r for t in session.tests for r in shown))

    # --- a run --------------------------------------------------------------------------

    def begin_run(self, plan: Plan, settings: Settings) -> list[TestResult]:
        """A run starts: a row button after a run of the same set-up repeats that row
        within it, anything else is a new result. Returns the tests of the result that
        stay on the tiles (none for a new result: the old one stays in the history, and
        comes back if this run measures nothing)."""
        from diskmark.model.facts import SystemFacts

        self.plan = {t.index: t for t in plan.tests}
        slots = {(t.row, t.op) for t in plan.tests}
        base = self.result if self.repeats_a_row_of_result(settings) else None
        self.merge_into = base
        kept: list[TestResult] = []
        if base is not None:
            kept = [t for t in base.tests if (t.index, t.op) not in slots]
            self.live = replace(base, tests=kept)
        else:
            self.live = SessionResult(
                settings=replace(settings, only_test=None), preset_name=plan.preset.name,
                system=self.facts or SystemFacts(target=settings.target),
                profile_name=plan.profile.name, measure=plan.measure, interval=plan.interval)
        self.on_tiles = {(t.index, t.op): t for t in kept}
        self.run_settings = settings
        return kept

    def test_finished(self, result: TestResult) -> None:
        """A test of the run under way has its final figures."""
        self.on_tiles[(result.index, result.op)] = result
        if self.live is not None:
            self.live.tests = [t for t in self.live.tests if t.key != result.key]
            self.live.tests.append(result)

    def run_abandoned(self) -> None:
        """The run stopped or failed before returning a session: the result is as it was."""
        self.live = self.merge_into = None

    def run_returned(self, session: SessionResult) -> None:
        """The engine returned ``session``: merged into the result a row run repeats, or
        the new result, unless it measured nothing and there is a result to keep."""
        base, self.merge_into, self.live = self.merge_into, None, None
        measured = any(t.runs for t in session.tests)
        if base is not None:
            done = {(t.index, t.op) for t in session.tests}
            tests = [t for t in base.tests if (t.index, t.op) not in done] + session.tests
            notes = base.warnings + [w for w in session.warnings if w not in base.warnings]
            self.result = replace(base, tests=in_order(tests), warnings=notes)
        elif measured or session.status is Status.COMPLETE or self.result is None:
            self.result = session  # the authoritative results, whatever was coalesced
        # else: stopped or failed before anything was measured: the last result stays
        self.history.append(session)
