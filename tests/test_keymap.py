"""A user's keymap resolved by one rule: which binding keeps a key two of them are given,
what the loser keeps, ids that are not bindings."""

from __future__ import annotations

from diskmark.app.app import DiskmarkApp
from diskmark.keymap import DEFAULT, IDS, KEYS, resolve


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
                              "the profile) and save_svg (save an SVG screenshot): run_all wins, "
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
