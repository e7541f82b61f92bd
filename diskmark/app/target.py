"""The target in the app: what is known about it (device, filesystem, free space), read in a
thread for the app, which keeps the facts and announces them, and the word of advice where
its filesystem is known to flatter O_DIRECT figures."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from typing import TYPE_CHECKING

from diskmark.app.core.keymap import Keymap
from diskmark.locale import _
from diskmark.model.facts import SystemFacts

if TYPE_CHECKING:
    from diskmark.app.core.protocol import AppLike


class NotADirectory(FileNotFoundError):
    """The target is gone or is not a directory; the app says which key chooses another."""


def default_facts(path: str) -> SystemFacts:
    from diskmark.drive.probe import facts_for, facts_for_device

    if os.path.exists(path) and stat.S_ISBLK(os.stat(path).st_mode):
        return facts_for_device(os.path.realpath(path))
    if not os.path.isdir(path):
        raise NotADirectory(path)
    return facts_for(path)


def filesystem_advice(facts: SystemFacts, nocow: bool, keys: Keymap) -> tuple[str, str] | None:
    """Where the filesystem is known to leak the cache into O_DIRECT figures (black_cat's
    filesystem article): a title and what to do about it; on btrfs, the NOCOW test
    directory (unless ``nocow`` is chosen already)."""
    if facts.fstype == "btrfs" and not nocow:
        # TRANSLATORS: {key} opens the settings (o); "Settings → btrfs → NOCOW test
        # directory" names the settings screen's field and choice as it shows them
        return "btrfs", _("This target is btrfs: copy-on-write and compression can let the "
                          "page cache leak into O_DIRECT figures. Settings ({key}) → btrfs → "
                          "NOCOW test directory avoids that.").format(key=keys.key("settings"))
    if facts.fstype == "jfs":
        return "JFS", _("This target is JFS, which is known to let the page cache leak into "
                        "O_DIRECT random writes: treat those figures with care.")
    return None


def read_facts(app: AppLike, compare: Callable[[], None]) -> None:
    """The target's device, filesystem and free space, read off the event loop, kept in the
    state and announced (or why they could not be read); ``compare`` works the comparison
    out again, as another device or filesystem than the baseline's shows before a run."""
    target = app.state.settings.target

    def read() -> None:
        try:
            facts = app.facts_provider(target)
        except NotADirectory:
            app.call_from_thread(app.signals.facts.publish, _(
                "{target} is not a directory: press {key} to choose the target").format(
                target=target, key=app.state.keys.key("pick_target")))
            return
        except FileNotFoundError as e:
            app.call_from_thread(app.signals.facts.publish, str(e))
            return
        except Exception as e:  # facts decorate; they never stop anything
            app.call_from_thread(app.signals.facts.publish, _(
                "No details about {target}: {error}").format(target=target, error=e))
            return
        app.call_from_thread(read_in, facts)

    def read_in(facts: SystemFacts) -> None:
        state = app.state
        state.facts = facts
        if state.result is None:
            compare()
        app.signals.facts.publish(facts)
        key = (facts.target, facts.fstype)
        if key in state.advised:
            return
        state.advised.add(key)
        advice = filesystem_advice(facts, state.settings.nocow, state.keys)
        if advice is not None:
            title, text = advice
            app.notify(text, title=title, severity="warning", timeout=12)

    app.run_worker(read, thread=True, exclusive=True, group="facts", exit_on_error=False)
