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

from diskmark.locale import N_, _


@dataclass(frozen=True)
class KeyDef:
    """One binding a keymap can name: its id, its keys by default (Textual's names,
    comma-separated) and what it does, as the README's table says it."""

    id: str
    keys: str
    does: str  # marked with N_: shown with _()


#: Every binding of the app, in the order of the help screen and the README's table.
KEYS: tuple[KeyDef, ...] = (
    KeyDef("run_all", "a", N_("run every test of the profile")),
    KeyDef("stop", "escape", N_("stop the run")),
    KeyDef("stop_ctrl_c", "ctrl+c", N_("stop the run")),
    KeyDef("cycle_unit", "u", N_("next unit")),
    KeyDef("unit_mb_s", "1", N_("show MB/s")),
    KeyDef("unit_gb_s", "2", N_("show GB/s")),
    KeyDef("unit_iops", "3", N_("show IOPS")),
    KeyDef("unit_us", "4", N_("show µs")),
    KeyDef("save_report", "s", N_("save the text report")),
    KeyDef("copy_report", "c", N_("copy the text report")),
    KeyDef("save_svg", "p,ctrl+s", N_("save a PNG screenshot")),
    KeyDef("pick_target", "t", N_("choose the target directory")),
    KeyDef("settings", "o,f2", N_("settings")),
    KeyDef("toggle_mix", "m", N_("+Mix column on / off")),
    KeyDef("baselines", "b", N_("the baselines")),
    KeyDef("save_baseline", "B", N_("save the result as a baseline")),
    KeyDef("history", "h", N_("history")),
    KeyDef("compare_with", "x", N_("compare the tiles with a baseline")),
    KeyDef("clear_comparison", "X", N_("stop comparing")),
    KeyDef("show_comparison", "v", N_("the comparison")),
    KeyDef("sweep", "w", N_("queue-depth sweep")),
    KeyDef("edit_comment", "n", N_("type a comment")),
    KeyDef("help", "question_mark,f1", N_("every key")),
    KeyDef("quit", "ctrl+q", N_("quit")),
    KeyDef("focus_next", "tab", N_("next control")),
    KeyDef("focus_previous", "shift+tab", N_("previous control")),
)
BY_ID: dict[str, KeyDef] = {k.id: k for k in KEYS}
IDS: tuple[str, ...] = tuple(BY_ID)

#: Keys that are not the app's to give: Textual's command palette keeps ctrl+p, and it is
#: where every action can be found when its key is gone.
PALETTE_KEY = "ctrl+p"
RESERVED: dict[str, str] = {PALETTE_KEY: N_("the command palette")}

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


def _does(binding_id: str) -> str:
    """What a binding does, in the language in use."""
    return _(BY_ID[binding_id].does)


def _listed(keys: tuple[str, ...]) -> str:
    return ", ".join(spell(k) for k in keys)


def resolve(keymap: Mapping[str, str] | None, where: str | None = None) -> Keymap:
    """The keys in effect for a user's ``keymap`` (binding id -> keys), and its problems.

    The rule, the one Textual applies when the keymap gives a key another binding has by
    default: the keymap wins, and the other binding loses that key. Two entries of the
    keymap that give the same key: the first in the file wins. The command palette's key
    is never given away. An id that is not a binding is ignored, and said so with the ids
    there are. ``where`` names the settings file in the sentences."""
    if where is None:
        where = _("the settings file")
    keymap = dict(keymap or {})
    wanted: dict[str, tuple[str, ...]] = {}
    problems: list[str] = []
    told: set[str] = set()  # ids whose keys were said to be wrong already
    for k in KEYS:
        given = split_keys(keymap[k.id]) if k.id in keymap else ()
        bad = [key for key in given if not is_key(key)]
        if bad:
            given = tuple(key for key in given if is_key(key))
            problems += [_not_a_key(where, k.id, key, given) for key in bad]
            told.add(k.id)
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
    empty = [i for i in keymap if i in BY_ID and not split_keys(keymap[i]) and i not in told]
    # TRANSLATORS: {where} is the settings file; {id} a binding id (run_all); {keys} its keys
    problems += [_("In {where}, the keymap gives {id} no key, so {id} keeps its own ({keys}).")
                 .format(where=where, id=i, keys=", ".join(DEFAULT.spelled(i))) for i in empty]
    remapped = frozenset(i for i in BY_ID if keys[i] != DEFAULT.keys[i])
    return Keymap(keys, remapped, tuple(problems))


def _clash(where: str, key: str, winner: str | None, loser: str, left: tuple[str, ...],
           mapped: list[str], taken: set[str]) -> str:
    """One conflict in sentences: who has the key, why, what the loser keeps, the fix."""
    names = {"where": where, "key": spell(key), "loser": loser, "loser_does": _does(loser),
             "kept": _listed(left), "palette": PALETTE_KEY, "suggestion": _free_key(taken, key)}
    # TRANSLATORS: in the keymap's sentences, {where} is the settings file; {key} a key (s);
    # {winner} and {loser} binding ids (run_all) and {winner_does}, {loser_does} what they
    # do; {kept} the keys the loser keeps; {suggestion} a free key. "{loser}": "{suggestion}"
    # is what to type in the settings file: keep it as it is.
    if winner is None:
        names["reserved"] = _(RESERVED[key])
        if left:
            text = _("In {where}, the keymap gives {key} to {loser} ({loser_does}), but {key} "
                     "opens {reserved}, which keeps it: {loser} keeps {kept}. To fix it, give "
                     "{loser} another key in the keymap, such as \"{loser}\": \"{suggestion}\".")
        else:
            text = _("In {where}, the keymap gives {key} to {loser} ({loser_does}), but {key} "
                     "opens {reserved}, which keeps it: {loser} has no key left (the command "
                     "palette, {palette}, still has it). To fix it, give {loser} another key in "
                     "the keymap, such as \"{loser}\": \"{suggestion}\".")
        return text.format(**names)
    names.update(winner=winner, winner_does=_does(winner))
    if loser in mapped:
        if left:
            text = _("In {where}, the keymap gives {key} to both {winner} ({winner_does}) and "
                     "{loser} ({loser_does}): {winner} wins, as it comes first in the keymap, "
                     "and {loser} keeps {kept}. To fix it, give {loser} another key, such as "
                     "\"{loser}\": \"{suggestion}\".")
        else:
            text = _("In {where}, the keymap gives {key} to both {winner} ({winner_does}) and "
                     "{loser} ({loser_does}): {winner} wins, as it comes first in the keymap, "
                     "and {loser} has no key left (the command palette, {palette}, still has "
                     "it). To fix it, give {loser} another key, such as \"{loser}\": "
                     "\"{suggestion}\".")
        return text.format(**names)
    if left:
        text = _("In {where}, {key} is bound to both {winner} ({winner_does}) and {loser} "
                 "({loser_does}): {winner} wins, as the keymap gives {key} to it, and {loser} "
                 "keeps {kept}. To fix it, give {loser} a key of its own in the keymap, such as "
                 "\"{loser}\": \"{suggestion}\", or take {key} out of {winner}'s keys.")
    else:
        text = _("In {where}, {key} is bound to both {winner} ({winner_does}) and {loser} "
                 "({loser_does}): {winner} wins, as the keymap gives {key} to it, and {loser} "
                 "has no key left (the command palette, {palette}, still has it). To fix it, "
                 "give {loser} a key of its own in the keymap, such as \"{loser}\": "
                 "\"{suggestion}\", or take {key} out of {winner}'s keys.")
    return text.format(**names)


def _not_a_key(where: str, binding_id: str, key: str, kept: tuple[str, ...]) -> str:
    """A key no terminal sends (a typo such as "esacpe"): ignored, with the nearest name."""
    guess = _nearest_key(key)
    # TRANSLATORS: {where} is the settings file; {id} a binding id (stop); {key} what the
    # keymap gives it (esacpe); {keys} the keys it keeps
    if kept:
        first = _("In {where}, the keymap gives {id} the key “{key}”, which is not a key a "
                  "terminal sends, so it is ignored and it keeps {keys}.").format(
            where=where, id=binding_id, key=key, keys=_listed(kept))
    else:
        first = _("In {where}, the keymap gives {id} the key “{key}”, which is not a key a "
                  "terminal sends, so it is ignored and it keeps its own ({keys}).").format(
            where=where, id=binding_id, key=key, keys=", ".join(DEFAULT.spelled(binding_id)))
    if guess:
        # TRANSLATORS: {guess} is a key's name as Textual spells it (escape)
        return " ".join((first, _("Did you mean “{guess}”?").format(guess=guess)))
    return " ".join((first, _("Keys are letters, digits and names such as escape, enter, "
                              "space, f5 or question_mark, after modifiers such as ctrl+.")))


def _unknown(where: str, unknown: list[str]) -> str:
    """The ids that are not bindings, a guess at each one meant, and the ids there are."""
    sentences = []
    for name in unknown:
        close = difflib.get_close_matches(name, IDS, n=1)
        # TRANSLATORS: {where} is the settings file; {name} what the keymap names
        sentences.append(_("In {where}, the keymap names “{name}”, which is not a binding id, "
                           "so it is ignored.").format(where=where, name=name))
        if close:
            sentences.append(_("Did you mean “{guess}”?").format(guess=close[0]))
    sentences.append(_("The binding ids are: {ids}.").format(ids=", ".join(IDS)))
    return " ".join(sentences)
