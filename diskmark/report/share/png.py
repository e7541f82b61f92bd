"""An SVG picture as a PNG, drawn by resvg (the Rust renderer in the ``resvg-py`` wheel).

No browser and no system service: resvg reads the SVG and the fonts in the system's font
directories itself (fonts-dejavu-core on Debian, which ``./start.sh`` installs when no
DejaVu is there), and picks, glyph by glyph, a font that has the character, so a Japanese,
Chinese or Korean word is drawn by whichever CJK font is installed (fonts-wqy-microhei,
which ``./start.sh`` installs when none is, or fonts-noto-cjk). A machine without any font
would get a picture without words, so that is refused, and text in a script no font covers
is said (a note beside the PNG), not left as empty boxes unannounced. Whether a font covers
a character is asked of resvg itself: the character drawn alone is compared with a character
no font has.
"""

from __future__ import annotations

import unicodedata

from diskmark.locale import _

#: The fonts the pictures name first (Textual's screenshots ask for "Fira Code, monospace").
MONOSPACE, SANS_SERIF = "DejaVu Sans Mono", "DejaVu Sans"
#: A character of each script the app's languages write in, and the package that draws it.
PROBES = (("Latin", "A"), ("Han", "字"), ("Kana", "あ"), ("Hangul", "한"))
NO_GLYPH = "\U0010fffd"  # a private-use character: no font has it, every font draws .notdef
CJK_PACKAGE = "fonts-wqy-microhei"
LATIN_PACKAGE = "fonts-dejavu-core"


class PictureError(RuntimeError):
    """No PNG could be drawn; the message says why and what would help."""


def _render(svg: str, fonts: list[str] | None) -> bytes:
    """``fonts``: font files to use instead of the system's (None: the system's)."""
    try:
        import resvg_py
    except ImportError:
        raise PictureError(_("a PNG needs the resvg-py package, which is not installed "
                             "(reinstall diskmark, or: {command})").format(
            command="pip install resvg-py")) from None
    try:
        return bytes(resvg_py.svg_to_bytes(
            svg_string=svg, monospace_family=MONOSPACE, sans_serif_family=SANS_SERIF,
            skip_system_fonts=fonts is not None, font_files=fonts))
    except (ValueError, OSError, RuntimeError) as e:
        # TRANSLATORS: {problem} is resvg's own message, in English
        raise PictureError(_("the picture could not be drawn: {problem}").format(problem=e)) from None


def _script(ch: str) -> str | None:
    name = unicodedata.name(ch, "")
    if name.startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEOGRAPH")):
        return "Han"
    if name.startswith(("HIRAGANA", "KATAKANA")):
        return "Kana"
    if name.startswith("HANGUL"):
        return "Hangul"
    return None


def _covered(ch: str, fonts: list[str] | None) -> bool:
    def alone(c: str) -> bytes:
        return _render('<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">'
                       f'<text x="4" y="32" font-size="30" font-family="sans-serif">{c}</text>'
                       "</svg>", fonts)

    return alone(ch) != alone(NO_GLYPH)


def svg_to_png(svg: str, fonts: list[str] | None = None) -> tuple[bytes, str | None]:
    """The PNG of ``svg``, and a sentence when some of its text had no font (else None).
    Raises PictureError when it cannot be drawn, or when no font has even Latin letters."""
    if not _covered("A", fonts):
        raise PictureError(_("a PNG needs a font, and none was found (Debian/Ubuntu: "
                             "{command})").format(command=f"sudo apt install {LATIN_PACKAGE}"))
    scripts = {s for ch in set(svg) if ord(ch) > 0x2e7f and (s := _script(ch))}
    probes = dict(PROBES)
    missing = sorted(s for s in scripts if not _covered(probes[s], fonts))
    note = None
    if missing:
        # TRANSLATORS: {scripts}: "Han, Kana" (script names, in English); {command}: an apt command
        note = _("No font has the {scripts} characters of this picture, so they are missing "
                 "from it (Debian/Ubuntu: {command}).").format(
            scripts=", ".join(missing), command=f"sudo apt install {CJK_PACKAGE}")
    return _render(svg, fonts), note
