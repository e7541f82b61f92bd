"""The target directory in the app: choosing it, and what is known about it (device,
filesystem, free space), read off the event loop and shown beside the setup, with a word of
advice where a filesystem is known to flatter O_DIRECT figures."""

from __future__ import annotations

import os
import stat

from textual import work

from diskmark.app.widgets.topbar import FactsLine
from diskmark.model.facts import SystemFacts


class NotADirectory(FileNotFoundError):
    """The target is gone or is not a directory; the app says which key chooses another."""


def default_facts(path: str) -> SystemFacts:
    from diskmark.drive.probe import facts_for, facts_for_device

    if os.path.exists(path) and stat.S_ISBLK(os.stat(path).st_mode):
        return facts_for_device(os.path.realpath(path))
    if not os.path.isdir(path):
        raise NotADirectory(path)
    return facts_for(path)


class Target:
    """The DiskmarkApp's target (a mixin: the state it uses is the app's)."""

    def action_pick_target(self) -> None:
        from diskmark.app.screens.target_picker import TargetPicker

        def chosen(path: str | None) -> None:
            if path:
                self.change_settings(target=path)

        self.push_screen(TargetPicker(self.state.settings.target), chosen)

    @work(exclusive=True, group="facts", thread=True, exit_on_error=False)
    def _load_facts(self) -> None:
        target = self.state.settings.target
        line = self.main.query_one("#facts-line", FactsLine)
        try:
            facts = self.facts_provider(target)
        except NotADirectory:
            self.call_from_thread(line.show_facts, None, f"{target} is not a directory: press "
                                  f"{self.key('pick_target')} to choose the target")
            return
        except FileNotFoundError as e:
            self.call_from_thread(line.show_facts, None, str(e))
            return
        except Exception as e:  # facts decorate; they never stop anything
            self.call_from_thread(line.show_facts, None, f"No details about {target}: {e}")
            return
        self.call_from_thread(self._facts_loaded, facts)

    def _facts_loaded(self, facts: SystemFacts) -> None:
        self.state.facts = facts
        self.main.query_one("#facts-line", FactsLine).show_facts(facts)
        if self.state.result is None:
            self._update_comparison()  # another device or filesystem than the baseline's?
        self._filesystem_advice(facts)

    def _filesystem_advice(self, facts: SystemFacts) -> None:
        """Where the filesystem is known to leak the cache into O_DIRECT figures (black_cat's filesystem article),
        say so once per target, and on btrfs offer the NOCOW test directory."""
        key = (facts.target, facts.fstype)
        if key in self.state.advised:
            return
        self.state.advised.add(key)
        if facts.fstype == "btrfs" and not self.state.settings.nocow:
            self.notify("This target is btrfs: copy-on-write and compression can let the page "
                        f"cache leak into O_DIRECT figures. Settings ({self.key('settings')}) → "
                        f"btrfs → NOCOW test directory avoids that.", title="btrfs", severity="warning", timeout=12)
        elif facts.fstype == "jfs":
            self.notify("This target is JFS, which is known to let the page cache leak into "
                        "O_DIRECT random writes: treat those figures with care.", title="JFS",
                        severity="warning", timeout=12)
