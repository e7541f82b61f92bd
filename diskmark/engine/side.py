"""One target of a session, from its opening to its closing: checked and opened (a private
workspace made in a directory, or a block device opened), its facts read and its result
begun, and at the end everything it made removed, whatever happened.

A session on one target (:mod:`diskmark.engine.runner`) holds one; a session on several,
interleaved test by test (:mod:`diskmark.engine.sides`), holds one per target, all open at
once, and closes every one of them the same way.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass

from diskmark import __version__
from diskmark.drive.stack.resolve import stack_of
from diskmark.engine import ioengine
from diskmark.engine.clock import now_iso, usable_cpus
from diskmark.engine.fio import Fio
from diskmark.engine.plan import Plan
from diskmark.engine.sentence import Sentence
from diskmark.engine.session_run import EventSink
from diskmark.engine.target import TargetCheck, open_target
from diskmark.locale import N_, _
from diskmark.model.events import Notice, Phase, Progress
from diskmark.model.results import SessionResult


@dataclass
class Side:
    """A target opened for a session, and its result once begun."""

    check: TargetCheck
    #: the plan as it runs here (a device without consent runs its read tests only)
    plan: Plan
    session: SessionResult | None = None

    @classmethod
    async def open(cls, plan: Plan, destroy: str | None) -> Side:
        """Check ``plan``'s target and open it (raises TargetError, leaving nothing, when a
        run there cannot work or must not happen)."""
        st = plan.settings
        check = await asyncio.to_thread(open_target, st.target, st.size, st.direct, st.nocow,
                                        plan, destroy)
        return cls(check, check.plan or plan)

    async def begin(self, fio: Fio, emit: EventSink) -> SessionResult:
        """Its notes said, its facts read, fio's I/O engine chosen: its result begins."""
        check, plan = self.check, self.plan
        for note in check.notes:
            emit(Notice(note.said(), "information"))
        facts = await asyncio.to_thread(check.facts)
        stack = await asyncio.to_thread(stack_of, check.path)
        facts.cpus = usable_cpus()
        facts.as_root = os.geteuid() == 0
        engine, why_not = await asyncio.to_thread(ioengine.choose, fio.path)
        if why_not:
            check.notes.append(Sentence(N_("fio uses libaio: {why}."), why=why_not))
            emit(Notice(check.notes[-1].said(), "information"))
        self.session = SessionResult(
            settings=plan.settings, system=facts, preset_name=plan.preset.name,
            profile_name=plan.profile.name, measure=plan.measure, interval=plan.interval,
            fio_version=fio.version, diskmark_version=__version__, started=now_iso(),
            warnings=[note.english() for note in check.notes], ioengine=engine, stack=stack)
        return self.session

    def close(self, emit: EventSink) -> None:
        """Remove what was made (close the device); what could not be removed is said and
        kept in the result's warnings, never raised."""
        emit(Progress(Phase.CLEANUP, _("Closing the device") if self.check.device
                      else _("Removing the test file"), eta_s=0.0, session_percent=100.0))
        for problem in self.check.workspace.remove():
            # TRANSLATORS: {problem} is what stays and why ("/mnt/x/.diskmark-…: Permission denied")
            note = Sentence(N_("Could not remove {problem}. diskmark leaves nothing else "
                               "behind; remove it yourself once the target is writable "
                               "again."), problem=problem)
            emit(Notice(note.said(), "error"))
            if self.session is not None:
                self.session.warnings.append(note.english())
        if self.session is not None:
            self.session.finished = now_iso()
