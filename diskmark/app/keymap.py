"""The app's keys, declared without Textual, and a user's keymap checked against them.

A user gives the app's bindings other keys in the settings file (``"keymap": {"run_all":
"r"}``). Textual alone applies such a keymap silently: a key given to a second binding is
taken from the first without a word, and a mistyped id is ignored. Here the keymap is
resolved once, by one rule, for the app and for ``diskmark keys`` alike: the keys each
binding has in effect, and every conflict and unknown id as sentences that say which
binding wins and how to fix it. It lives below the app so that the command line can check
a keymap without loading Textual.
"""

from __future__ import annotations

import difflib
import string
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class KeyDef:
    """One binding a keymap can name: its id, its keys by default (Textual's names,
    comma-separated) and what it does, as the README's table says it."""

    id: str
    keys: str
    does: str


#: Every binding of the app, in the order of the help screen and the README's table.
KEYS: tuple[KeyDef, ...] = (
    KeyDef("run_all", "a", "run every test of the profile"),
    KeyDef("stop", "escape", "stop the run"),
    KeyDef("stop_ctrl_c", "ctrl+c", "stop the run"),
    KeyDef("cycle_unit", "u", "next unit"),
    KeyDef("unit_mb_s", "1", "show MB/s"),
    KeyDef("unit_gb_s", "2", "show GB/s"),
    KeyDef("unit_iops", "3", "show IOPS"),
    KeyDef("unit_us", "4", "show µs"),
    KeyDef("save_report", "s", "save the text report"),
    KeyDef("copy_report", "c", "copy the text report"),
    KeyDef("save_svg", "p,ctrl+s", "save an SVG screenshot"),
    KeyDef("pick_target", "t", "choose the target directory"),
    KeyDef("settings", "o,f2", "settings"),
    KeyDef("toggle_mix", "m", "+Mix column on / off"),
    KeyDef("baselines", "b", "the baselines"),
    KeyDef("save_baseline", "B", "save the result as a baseline"),
    KeyDef("history", "h", "history"),
    KeyDef("compare_with", "x", "compare the tiles with a baseline"),
    KeyDef("clear_comparison", "X", "stop comparing"),
    KeyDef("show_comparison", "v", "the comparison"),
    KeyDef("sweep", "w", "queue-depth sweep"),
    KeyDef("edit_comment", "n", "type a comment"),
    KeyDef("help", "question_mark,f1", "every key"),
    KeyDef("quit", "ctrl+q", "quit"),
    KeyDef("focus_next", "tab", "next control"),
    KeyDef("focus_previous", "shift+tab", "previous control"),
)
BY_ID: dict[str, KeyDef] = {k.id: k for k in KEYS}
IDS: tuple[str, ...] = tuple(BY_ID)

#: Keys that are not the app's to give: Textual's command palette keeps ctrl+p, and it is
#: where every action can be found when its key is gone.
PALETTE_KEY = "ctrl+p"
RESERVED: dict[str, str] = {PALETTE_KEY: "the command palette"}

#: Textual's names of the punctuation keys: a keymap may give the character or its name
#: (a comma separates keys, so the comma key is only ever "comma").
_CHARACTER_NAMES = {
    "!": "exclamation_mark", '"': "quotation_mark", "#": "number_sign", "$": "dollar_sign",
    "%": "percent_sign", "&": "ampersand", "'": "apostrophe", "(": "left_parenthesis",
    ")": "right_parenthesis", "*": "asterisk", "+": "plus", "-": "minus", ".": "full_stop",
    "/": "slash", ":": "colon", ";": "semicolon", "<": "less_than_sign", "=": "equals_sign",
    ">": "greater_than_sign", "?": "question_mark", "@": "at", "[": "left_square_bracket",
    "\\": "backslash", "]": "right_square_bracket", "^": "circumflex_accent",
    "_": "underscore", "`": "grave_accent", "{": "left_curly_bracket", "|": "vertical_line",
    "}": "right_curly_bracket", "~": "tilde"}
#: The keys a terminal sends that have names (Textual's), beside letters, digits and the
#: punctuation above; a keymap's key must end in one of them, after its modifiers.
NAMED_KEYS = frozenset({
    "escape", "enter", "tab", "space", "backspace", "delete", "insert", "home", "end",
    "pageup", "pagedown", "up", "down", "left", "right", "comma",
    *(f"f{n}" for n in range(1, 25)), *_CHARACTER_NAMES.values()})
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
#: How a key reads on screen, where Textual's name for it is not what is printed on the key.
_SPELLED = {"escape": "Esc", "question_mark": "?", "minus": "-", "plus": "+",
            "underscore": "_", **{f"f{n}": f"F{n}" for n in range(1, 25)}}


def split_keys(keys: str) -> tuple[str, ...]:
    """``"r, f5"`` as Textual reads it: each key stripped, one-character names spelled out,
    each once, in order."""
    out: list[str] = []
    for key in keys.split(","):
        key = key.strip()
        key = _CHARACTER_NAMES.get(key, key)
        if key and key not in out:
            out.append(key)
    return tuple(out)


def is_key(key: str) -> bool:
    """Whether a terminal can send ``key`` as Textual names it: modifiers joined by ``+``,
    then a letter, a digit or a named key (``ctrl+s``, ``F5`` is not one: ``f5``)."""
    *mods, last = key.split("+")
    if any(m not in MODIFIERS for m in mods) or len(set(mods)) != len(mods):
        return False
    return last in NAMED_KEYS or (len(last) == 1 and last in string.ascii_letters + string.digits)


def _nearest_key(key: str) -> str | None:
    *mods, last = key.split("+")
    if mods and any(m not in MODIFIERS for m in mods):
        return None
    names = sorted(NAMED_KEYS) + [c.lower() for c in string.ascii_letters[:26]]
    close = difflib.get_close_matches(last.lower(), names, n=1, cutoff=0.6)
    return "+".join([*mods, close[0]]) if close else None


def spell(key: str) -> str:
    """A key as the app's texts name it: Esc, ?, F1, B."""
    return _SPELLED.get(key, key)


@dataclass(frozen=True)
class Keymap:
    """The keys in effect: each binding id's keys (none when a conflict took its only key),
    which ids the user's keymap changed, and what is wrong with that keymap, in sentences."""

    keys: Mapping[str, tuple[str, ...]]
    remapped: frozenset[str] = frozenset()
    problems: tuple[str, ...] = ()

    def key(self, binding_id: str) -> str:
        """The key a text names for ``binding_id``: its first, spelled as printed on the
        keyboard; the palette's key when a conflict left it none (the palette has every
        action)."""
        keys = self.keys[binding_id]
        return spell(keys[0]) if keys else PALETTE_KEY

    def spelled(self, binding_id: str) -> tuple[str, ...]:
        return tuple(spell(k) for k in self.keys[binding_id])


DEFAULT = Keymap({k.id: split_keys(k.keys) for k in KEYS})


def _free_key(taken: set[str], lost: str) -> str:
    """A key no binding has, to suggest: the lost letter's other case first (s → S)."""
    candidates = []
    if len(lost) == 1 and lost.isalpha():
        candidates.append(lost.swapcase())
    candidates += list(string.ascii_lowercase) + list(string.ascii_uppercase)
    candidates += [f"f{n}" for n in range(3, 13)]
    return next((c for c in candidates if c not in taken), "f12")


def _named(binding_id: str) -> str:
    return f"{binding_id} ({BY_ID[binding_id].does})"


def _left(binding_id: str, keys: tuple[str, ...]) -> str:
    """What the loser of a conflict still has, as the end of a sentence."""
    if not keys:
        return f"{binding_id} has no key left (the command palette, {PALETTE_KEY}, still has it)"
    return f"{binding_id} keeps {', '.join(spell(k) for k in keys)}"


def resolve(keymap: Mapping[str, str] | None, where: str = "the settings file") -> Keymap:
    """The keys in effect for a user's ``keymap`` (binding id -> keys), and its problems.

    The rule, the one Textual applies when the keymap gives a key another binding has by
    default: the keymap wins, and the other binding loses that key. Two entries of the
    keymap that give the same key: the first in the file wins. The command palette's key
    is never given away. An id that is not a binding is ignored, and said so with the ids
    there are. ``where`` names the settings file in the sentences."""
    keymap = dict(keymap or {})
    wanted: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    for k in KEYS:
        given = split_keys(keymap[k.id]) if k.id in keymap else ()
        bad = [key for key in given if not is_key(key)]
        if bad:
            given = tuple(key for key in given if is_key(key))
            problems += [_not_a_key(where, k.id, key, given) for key in bad]
            keymap[k.id] = ",".join(given)
        wanted[k.id] = given or split_keys(k.keys)
    mapped = [i for i in keymap if i in BY_ID and split_keys(keymap[i])]
    # who claims each key, the keymap's entries (in the file's order) before the defaults
    claims: dict[str, list[str]] = {}
    for binding_id in mapped + [k.id for k in KEYS if k.id not in mapped]:
        for key in wanted[binding_id]:
            claims.setdefault(key, []).append(binding_id)
    lost: dict[str, set[str]] = {i: set() for i in BY_ID}
    clashes: list[tuple[str, str | None, str]] = []  # key, winner (None: reserved), loser
    for key, ids in claims.items():
        winner = None if key in RESERVED else ids[0]
        for loser in ids[1:] if winner is not None else ids:
            lost[loser].add(key)
            clashes.append((key, winner, loser))
    keys = {i: tuple(k for k in wanted[i] if k not in lost[i]) for i in BY_ID}
    taken = set(claims) | set(RESERVED)
    problems += [_clash(where, key, winner, loser, keys[loser], mapped, taken)
                 for key, winner, loser in clashes]
    unknown = [i for i in keymap if i not in BY_ID]
    if unknown:
        problems.append(_unknown(where, unknown))
    empty = [i for i in keymap if i in BY_ID and not split_keys(keymap[i])
             and not any(p.startswith(f"In {where}, the keymap gives {i} ") for p in problems)]
    problems += [f"In {where}, the keymap gives {i} no key, so {i} keeps its own "
                 f"({', '.join(DEFAULT.spelled(i))})." for i in empty]
    remapped = frozenset(i for i in BY_ID if keys[i] != DEFAULT.keys[i])
    return Keymap(keys, remapped, tuple(problems))


def _clash(where: str, key: str, winner: str | None, loser: str, left: tuple[str, ...],
           mapped: list[str], taken: set[str]) -> str:
    """One conflict in sentences: who has the key, why, what the loser keeps, the fix."""
    k, suggestion = spell(key), _free_key(taken, key)
    if winner is None:
        return (f"In {where}, the keymap gives {k} to {_named(loser)}, but {k} opens "
                f"{RESERVED[key]}, which keeps it: {_left(loser, left)}. To fix it, give "
                f"{loser} another key in the keymap, such as \"{loser}\": \"{suggestion}\".")
    if loser in mapped:
        return (f"In {where}, the keymap gives {k} to both {_named(winner)} and "
                f"{_named(loser)}: {winner} wins, as it comes first in the keymap, and "
                f"{_left(loser, left)}. To fix it, give {loser} another key, such as "
                f"\"{loser}\": \"{suggestion}\".")
    return (f"In {where}, {k} is bound to both {_named(winner)} and {_named(loser)}: "
            f"{winner} wins, as the keymap gives {k} to it, and {_left(loser, left)}. To fix "
            f"it, give {loser} a key of its own in the keymap, such as \"{loser}\": "
            f"\"{suggestion}\", or take {k} out of {winner}'s keys.")


def _not_a_key(where: str, binding_id: str, key: str, kept: tuple[str, ...]) -> str:
    """A key no terminal sends (a typo such as "esacpe"): ignored, with the nearest name."""
    guess = _nearest_key(key)
    keeps = (f"it keeps {', '.join(spell(k) for k in kept)}" if kept else
             f"it keeps its own ({', '.join(DEFAULT.spelled(binding_id))})")
    if guess:
        return (f"In {where}, the keymap gives {binding_id} the key “{key}”, which is not a key "
                f"a terminal sends, so it is ignored and {keeps}. Did you mean “{guess}”?")
    return (f"In {where}, the keymap gives {binding_id} the key “{key}”, which is not a key a "
            f"terminal sends, so it is ignored and {keeps}. Keys are letters, digits and names "
            f"such as escape, enter, space, f5 or question_mark, after modifiers such as ctrl+.")


def _unknown(where: str, unknown: list[str]) -> str:
    """The ids that are not bindings, a guess at each one meant, and the ids there are."""
    sentences = []
    for name in unknown:
        close = difflib.get_close_matches(name, IDS, n=1)
        if close:
            sentences.append(f"In {where}, the keymap names “{name}”, which is not a binding "
                             f"id, so it is ignored. Did you mean “{close[0]}”?")
        else:
            sentences.append(f"In {where}, the keymap names “{name}”, which is not a binding "
                             f"id, so it is ignored.")
    sentences.append(f"The binding ids are: {', '.join(IDS)}.")
    return " ".join(sentences)
