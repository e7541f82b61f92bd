"""A user's keymap resolved by one rule, for the app and for ``diskmark keys``: which binding
keeps a key two of them are given, what the loser keeps, ids that are not bindings; and the
command that checks a keymap without starting the app (nor loading Textual)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from diskmark.app.app import DiskmarkApp
from diskmark.app.core.keymap import DEFAULT, IDS, KEYS, resolve
from diskmark.cli.main import main

ROOT = Path(__file__).resolve().parents[2]


def test_the_declared_keys_are_the_apps_bindings():
    declared = {k.id: k.keys for k in KEYS}
    bound = {b.id: b.key for b in DiskmarkApp.BINDINGS}  # type: ignore[union-attr]
    assert declared == bound
    assert DiskmarkApp.COMMAND_PALETTE_BINDING == "ctrl+p"  # the key resolve() keeps for it


def test_the_defaults_bind_no_key_twice():
    assert resolve({}).problems == () and resolve({}).keys == DEFAULT.keys


def test_a_swap_is_no_conflict():
    keymap = resolve({"run_all": "h", "history": "a"})
    assert keymap.problems == ()
    assert keymap.keys["run_all"] == ("h",) and keymap.keys["history"] == ("a",)
    assert keymap.remapped == {"run_all", "history"}


def test_a_key_taken_from_a_default_binding_leaves_it_its_other_keys():
    keymap = resolve({"run_all": "a,p"}, "settings.json")
    assert keymap.keys["run_all"] == ("a", "p") and keymap.keys["save_svg"] == ("ctrl+s",)
    assert keymap.key("save_svg") == "ctrl+s"
    (problem,) = keymap.problems
    assert problem.startswith("In settings.json, p is bound to both run_all (run every test of "
                              "the profile) and save_svg (save a PNG screenshot): run_all wins, "
                              "as the keymap gives p to it, and save_svg keeps ctrl+s."), problem
    assert 'such as "save_svg": "P", or take p out of run_all\'s keys.' in problem


def test_two_entries_with_one_key_the_first_in_the_file_keeps_it():
    keymap = resolve({"history": "y", "baselines": "y"})
    assert keymap.keys["history"] == ("y",) and keymap.keys["baselines"] == ()
    assert keymap.key("baselines") == "ctrl+p"  # texts send the user to the palette
    (problem,) = keymap.problems
    assert ("the keymap gives y to both history (history) and baselines (the baselines): "
            "history wins, as it comes first in the keymap, and baselines has no key left "
            "(the command palette, ctrl+p, still has it)") in problem
    assert resolve({"baselines": "y", "history": "y"}).keys["baselines"] == ("y",)


def test_the_palette_key_is_never_given_away():
    keymap = resolve({"history": "ctrl+p,y"})
    assert keymap.keys["history"] == ("y",)
    (problem,) = keymap.problems
    assert "ctrl+p opens the command palette, which keeps it: history keeps y." in problem


def test_an_unknown_id_is_named_with_a_guess_and_the_ids_there_are():
    (problem,) = resolve({"run_al": "r", "frobnicate": "z"}).problems
    assert "“run_al”, which is not a binding id, so it is ignored. Did you mean “run_all”?" in problem
    assert "“frobnicate”, which is not a binding id, so it is ignored. The binding ids" in problem
    assert problem.endswith(f"The binding ids are: {', '.join(IDS)}.")


def test_an_entry_without_a_key_keeps_the_default():
    keymap = resolve({"history": ","})
    assert keymap.keys["history"] == ("h",) and "gives history no key" in keymap.problems[0]


def test_keys_are_read_as_textual_reads_them():
    keymap = resolve({"help": " f1 , - ", "run_all": "r,r"})
    assert keymap.keys["help"] == ("f1", "minus") and keymap.keys["run_all"] == ("r",)
    assert keymap.spelled("help") == ("F1", "-") and keymap.key("stop") == "Esc"


def settings_file(home: Path, data: dict) -> Path:
    (home / "config").mkdir(parents=True, exist_ok=True)
    path = home / "config" / "settings.json"
    path.write_text(json.dumps({"schema": "diskmark.config/1", **data}))
    return path


def test_diskmark_keys_checks_a_keymap_without_the_app(isolated_home, capsys):
    path = settings_file(isolated_home, {"keymap": {"stop": "escape,s", "run_al": "r"}})
    assert main(["keys"]) == 1
    out, err = capsys.readouterr()
    assert f"with the keymap of {path}" in out
    lines = {line.split()[0]: line for line in out.splitlines()[2:] if line.strip()}
    assert set(lines) == set(IDS)
    assert lines["stop"].split()[1] == "escape,s" and "remapped; by default escape" in lines["stop"]
    assert "(no key)" in lines["save_report"] and "the keymap took it" in lines["save_report"]
    assert f"diskmark: In {path}, s is bound to both stop" in err
    assert "Did you mean “run_all”?" in err and "The binding ids are: run_all," in err
    assert path.exists() and not list(path.parent.glob("*.damaged-*"))  # only looked at


def test_diskmark_keys_without_a_keymap_lists_the_defaults(isolated_home, capsys):
    assert main(["keys"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and "no keymap in" in out
    assert any(line.split()[:2] == ["run_all", "a"] for line in out.splitlines())


def test_diskmark_keys_reports_a_damaged_settings_file_and_leaves_it(isolated_home, capsys):
    path = settings_file(isolated_home, {"keymap": {"run_all": ["r"]}})
    assert main(["keys"]) == 1
    _out, err = capsys.readouterr()
    assert f"the settings file {path} has problems" in err and "keymap" in err
    assert path.exists() and not list(path.parent.glob("*.damaged-*"))


@pytest.mark.parametrize("data", [{}, {"keymap": {"run_all": "r"}}])
def test_diskmark_keys_does_not_load_textual(isolated_home, data):
    settings_file(isolated_home, data)
    code = ("import sys; from diskmark.cli.main import main; code = main(['keys']); "
            "assert not [m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')], "
            "sorted(m for m in sys.modules if m.startswith(('textual', 'rich')))[:5]; "
            "sys.exit(code)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_key_no_terminal_sends_is_named_with_the_nearest_and_ignored():
    km = resolve({"stop": "esacpe", "help": "?,F5", "run_all": "ctrl+shift+r,foo+x"}, "S")
    assert km.keys["stop"] == ("escape",)  # the typo ignored: stop keeps its own key
    assert km.keys["help"] == ("question_mark",)  # "?" is the question mark; F5 is not a key
    assert km.keys["run_all"] == ("ctrl+shift+r",)
    said = " ".join(km.problems)
    assert "gives stop the key “esacpe”, which is not a key a terminal sends" in said
    assert "Did you mean “escape”?" in said and "Did you mean “f5”?" in said
    assert "“foo+x”" in said and "names such as escape" in said


def test_a_key_the_keymap_cannot_use_does_not_set_the_settings_file_aside(isolated_home):
    from diskmark.store.app_settings import load_config

    path = isolated_home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema": "diskmark.config/1",
                                "keymap": {"help": "?", "stop": "esacpe"}}))
    cfg, notice = load_config()
    assert notice is None and cfg.keymap == {"help": "?", "stop": "esacpe"}
    assert path.exists() and list(path.parent.glob("*.damaged-*")) == []


def test_every_key_textual_names_is_a_key_here():
    from textual.keys import Keys, _character_to_key

    from diskmark.app.core.keymap import _CHARACTER_NAMES, is_key

    for key in Keys:
        if not key.value.startswith("<") and key.value not in ("ctrl-at", "ctrl+@", "return"):
            assert is_key(key.value), key.value
    for char, name in _CHARACTER_NAMES.items():
        assert _character_to_key(char) == name
