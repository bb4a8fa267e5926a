"""Notes: one free-text note per paper, how a note is cleaned, and how `note:` words match it.

A note is the user's own text, kept as written apart from this: line endings become `\\n`, control
characters other than newline and tab are dropped (they would reach the terminal), so are bidi controls
(they would reorder what the terminal and the exports show), surrounding blank space
is trimmed, and a note with nothing left is no note (setting it removes the note, and the removal travels
in exports like an unstar). Where a note is stored, undone, merged and exported is its `PaperField`
(fields.py), as for every field.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from index.render.sanitize import strip_bidi
from index.state.changes import InputError

NOTE_MAX = 20_000
"""Characters in one note: pages of text, and still a small row."""
_WORD = re.compile(r"\w+")
_PATTERN = re.compile(r"\w+\*?")


class NoteError(InputError):
    """A note that cannot be saved (too long); the message is one line."""


def clean_note(text: str) -> str:
    """The stored form of a note ("" for no note).

    Raises:
        NoteError: longer than NOTE_MAX characters once cleaned.
    """
    text = strip_bidi(text.replace("\r\n", "\n").replace("\r", "\n"))
    kept = "".join(
        char for char in text if char in "\n\t" or unicodedata.category(char) not in ("Cc", "Cs")
    ).strip()
    if len(kept) > NOTE_MAX:
        raise NoteError(f"the note has {len(kept)} characters; at most {NOTE_MAX} are kept")
    return kept


def note_words(text: str) -> list[str]:
    """The words of a note or of a `note:` filter, case-folded: what matching compares."""
    return _WORD.findall(text.casefold())


def pattern_words(text: str) -> list[str]:
    """The words of a `note:` filter, case-folded; a word may end in `*` (any word starting so)."""
    return _PATTERN.findall(text.casefold())


def note_matches(note: str, wanted: Sequence[str]) -> bool:
    """Whether the `pattern_words` in `wanted` occur in the note as consecutive words: one word anywhere,
    several as a phrase."""
    if not wanted:
        return False
    words = note_words(note)

    def same(word: str, pattern: str) -> bool:
        return word.startswith(pattern[:-1]) if pattern.endswith("*") else word == pattern

    span = len(wanted)
    return any(
        all(same(words[start + offset], pattern) for offset, pattern in enumerate(wanted))
        for start in range(len(words) - span + 1)
    )
