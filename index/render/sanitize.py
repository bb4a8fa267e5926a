"""Strip terminal escape sequences and invisible characters from untrusted text before anyone displays it."""

from __future__ import annotations

import re
import unicodedata

# Whole escape sequences go, parameters included: removing only the ESC byte would leave "[2J" or "]52;c;..."
# behind as visible junk, and a terminal that drops the ESC could still act on the rest. Unterminated string
# sequences (OSC/DCS/...) lose only their introducer, so a stray ESC cannot swallow an abstract's text.
_ESCAPES = re.compile(
    r"""
      \x1b\[ [0-?]* [ -/]* [@-~]                          # CSI: ESC [ params intermediates final
    | \x9b   [0-?]* [ -/]* [@-~]                          # 8-bit CSI
    | \x1b\] [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)        # OSC ... BEL or ST
    | \x9d   [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)        # 8-bit OSC
    | \x1b[PX^_] [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)    # DCS, SOS, PM, APC ... ST
    | [\x90\x98\x9e\x9f] [^\x07\x1b\x9c]* (?:\x07|\x1b\\|\x9c)  # their 8-bit forms
    | \x1b [ -/]* [0-~]                                   # two-byte and nF escapes (ESC c, ESC ( B, ESC 7)
    """,
    re.VERBOSE,
)
_ESCAPE_START = re.compile(r"[\x90\x98\x9b\x9d\x9e\x9f]")
# C0 and C1 controls and DEL. Tabs, line breaks and form feeds are whitespace that callers collapse.
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")
_ZWJ = "\u200d"

# Unicode keeps its format characters (category Cf) in a handful of blocks; scanning those at import costs a
# few milliseconds where the whole code space costs a fifth of a second. A test checks nothing lies outside.
FORMAT_BLOCKS = (
    (0x80, 0x2100),
    (0xFE00, 0x10000),
    (0x11000, 0x14000),
    (0x1BC00, 0x1D200),
    (0xE0000, 0xE0100),
)


def _format_characters() -> str:
    """A regex class body of the format characters as ranges (a flat list of 160 literals is 50x slower)."""
    codes = [
        code
        for low, high in FORMAT_BLOCKS
        for code in range(low, high)
        if unicodedata.category(chr(code)) == "Cf" and chr(code) != _ZWJ
    ]
    ranges: list[list[int]] = []
    for code in codes:
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    return "".join(f"\\U{low:08x}-\\U{high:08x}" for low, high in ranges)


# Format characters (bidi overrides, zero-width spaces, BOM) hide or reorder text; lone surrogates cannot
# even be printed.
_INVISIBLE = re.compile(f"[{_format_characters()}\ud800-\udfff]")
_ZWJ_OUTSIDE_EMOJI = re.compile(r"\u200d")


def _joins_emoji(match: re.Match[str]) -> str:
    """A zero-width joiner glues emoji into one glyph (family, flags); anywhere else it only hides things."""
    text, index = match.string, match.start()
    if 0 < index < len(text) - 1:
        before, after = unicodedata.category(text[index - 1]), unicodedata.category(text[index + 1])
        if before in ("So", "Sk", "Mn") and after == "So":
            return _ZWJ
    return ""


def _strip_invisible(text: str) -> str:
    # Most text has a few distinct non-ASCII letters and no format character: checking each distinct character
    # once is several times faster than running the character class over the whole text.
    if not any(c > "\x7f" and unicodedata.category(c) in ("Cf", "Cs") for c in set(text)):
        return text
    text = _INVISIBLE.sub("", text)
    if _ZWJ in text:
        text = _ZWJ_OUTSIDE_EMOJI.sub(_joins_emoji, text)
    return text


BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Embeddings, overrides and isolates (U+202A-202E, U+2066-2069): they reorder the characters after them,
so "txt.exe" can read "exe.txt": a terminal line or a spreadsheet cell shows other text than it holds."""
_NO_BIDI = str.maketrans(dict.fromkeys(BIDI_CONTROLS))


def strip_bidi(text: str) -> str:
    """`text` without bidi controls: user text (notes, queries) on its way in or out, where `strip_controls`
    would take more than it should (a note may hold tabs, newlines and joiners)."""
    return text if text.isascii() else text.translate(_NO_BIDI)


def strip_controls(text: str) -> str:
    """Remove escape sequences, controls and invisible characters; callers collapse the whitespace."""
    if text.isprintable():
        return text  # no control, format, surrogate or private-use character: the common case, checked in C
    if "\x1b" in text or (not text.isascii() and _ESCAPE_START.search(text) is not None):
        text = _ESCAPES.sub("", text)
        text = text.replace("\x1b", "")
    text = _CONTROLS.sub("", text)
    return text if text.isascii() else _strip_invisible(text)


def sanitize(text: str) -> str:
    """Make a short display string (title, author, file name) safe to print: no controls, one-spaced.

    Rich markup such as ``[bold]`` stays literal: the UI never interprets markup in data, so it is harmless.
    """
    return " ".join(strip_controls(text).split())


URL_MAX = 2048
"""Longer than any real paper link; a longer one is shown as text, not handed to the terminal as a link."""
_URL_FORBIDDEN = re.compile(r"""[\x00-\x20\x7f-\x9f"'<>\\`]""")
"""Control bytes, spaces and quotes: any of them could end the OSC 8 sequence or the link early, or make
the visible text differ from where the link goes."""


def safe_url(url: str) -> str | None:
    """The URL if a terminal may be given it as a hyperlink target (OSC 8), else None.

    Only `http`/`https` links with a host, and nothing in them that could break out of the escape sequence
    that carries them: no control bytes (C0, C1, DEL), no whitespace, no quotes or angle brackets, no
    invisible format characters. Surrounding whitespace is forgiven; anything else is not repaired, since a
    repaired link would point somewhere the listing did not say. The caller shows a refused URL as plain
    text.
    """
    candidate = url.strip()
    if not candidate or len(candidate) > URL_MAX or _URL_FORBIDDEN.search(candidate):
        return None
    if not candidate.isprintable():  # format characters (bidi, zero-width) and non-ASCII spaces
        return None
    scheme, separator, rest = candidate.partition("://")
    if not separator or scheme.lower() not in ("http", "https"):
        return None
    host = rest.split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    return candidate if host.rsplit("@", 1)[-1] else None
