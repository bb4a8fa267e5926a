"""Stage 5: the final check a headline passes before it is shown: it must read as a title.

The candidates stage already keeps spans to whole chunks and off a dangling word; what is left to check
needs the finished line: its length, balanced brackets and quotes, and its first and last words once the
punctuation around them is trimmed.
"""

from __future__ import annotations

from typing import Final

from index.headline.words import CANNOT_END, CANNOT_START

SHORTEST: Final = 30
"""Characters below which a line reads as a fragment, not a title (unless the abstract has nothing longer)."""
PAIRS: Final = (("(", ")"), ("[", "]"), ("{", "}"))


def problems(line: str, longest: int, shortest: int = SHORTEST) -> list[str]:
    """Why `line` does not read as a title, in words; empty when it does."""
    found = []
    if len(line) > longest:
        found.append(f"longer than {longest} characters")
    if len(line) < shortest:
        found.append(f"shorter than {shortest} characters")
    if any(line.count(opening) != line.count(closing) for opening, closing in PAIRS) or line.count('"') % 2:
        found.append("an unclosed bracket or quote")
    words = line.lower().split()
    if words and words[-1].strip(",;:-–—") in CANNOT_END:
        found.append(f"ends on {words[-1]!r}")
    if words and words[0] in CANNOT_START:
        found.append(f"starts on {words[0]!r}")
    if line[-1:] in ",;:-–—(":
        found.append("ends on punctuation")
    return found
