"""How a paper writes each of its terms, so a key term is shown as a word of the paper, never a piece of one.

The index splits words at hyphens (`\\w+`), so "multi-armed", "auto-encoder" and "zero-shot" give it the
terms "multi", "auto", "zero" and "shot": those are the fragments that showed as reasons ("multi", "auto",
"quasi", "self"). Web addresses gave "io" and "github". A term is therefore shown the way the paper writes it
most often on its own and, when the paper never writes it alone, as the compound it is part of
("multi-armed"), unless the rest of that compound says nothing ("state-of-the-art", "real-world",
"large-scale": the term is then not shown at all); words inside a web address are not counted at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from index.render.urls import spans as address_spans

_TOKEN: Final = re.compile(r"\w+(?:-\w+)*")
"""Words joined by hyphens; split at the hyphens, they are exactly the index's `\\w+` words."""
SHORTEST: Final = 3
"""Words shorter than this are shown only when written as an acronym ("RL", "3D"), never "ar" or "io"."""


def shown_as(written: str) -> str:
    """A written word as a reason shows it: lower-cased, unless a capital past its first letter makes it an
    acronym or a name ("GNNs", "3D", "FFNet"), which lower case would hide."""
    rest = written[1:]
    return written if rest != rest.lower() else written.lower()


def is_fragment(word: str) -> bool:
    """Whether a shown word is too short to be one unless it is an acronym (a capital in it: "RL", "3D")."""
    return len(word) < SHORTEST and word == word.lower()


class Forms:
    """Each term's count in a text and the ways it is written there (see the module docstring)."""

    def __init__(self, text: str, term: Callable[[str], str | None], filler: Callable[[str], bool]) -> None:
        """Count the terms of `text`.

        Args:
            text: a headline or rendered abstract.
            term: the indexed term of a word, None for a stop word or one too short to index.
            filler: whether a word adds nothing to a compound it is in (a stop word, a generic word).
        """
        # Plain dicts, not Counters: this runs for every word of every paper a key term is asked of.
        self.counts: dict[str, int] = {}
        self._forms: dict[str, dict[tuple[bool, str], int]] = {}
        counts, all_forms = self.counts, self._forms
        for whole in _TOKEN.findall(_without_addresses(text)):
            if "-" not in whole:  # most words: no compound to look into
                found = term(whole)
                if found is not None:
                    counts[found] = counts.get(found, 0) + 1
                    forms = all_forms.setdefault(found, {})
                    form = (True, shown_as(whole))
                    forms[form] = forms.get(form, 0) + 1
                continue
            parts = whole.split("-")
            for number, part in enumerate(parts):
                found = term(part)
                if found is None:
                    continue
                counts[found] = counts.get(found, 0) + 1
                forms = all_forms.setdefault(found, {})
                if not all(filler(other) for at, other in enumerate(parts) if at != number):
                    form = (False, shown_as(whole))
                    forms[form] = forms.get(form, 0) + 1

    def terms(self) -> list[str]:
        """The text's terms in the order they first appear."""
        return list(self._forms)

    def word(self, term: str) -> str | None:
        """The way the text writes `term` most often alone, else the compound it is most often part of (the
        first written of equals); None when the text does not have it or only in compounds that say nothing
        more than it."""
        forms = self._forms.get(term)
        if not forms:
            return None
        _alone, word = max(forms, key=lambda form: (form[0], forms[form]))
        return word


def _without_addresses(text: str) -> str:
    """`text` with its web addresses blanked: "github.io/x" is where a paper's code is, not what it is."""
    found = address_spans(text)
    if not found:
        return text
    pieces: list[str] = []
    pos = 0
    for start, end in found:
        pieces.append(text[pos:start])
        pieces.append(" ")
        pos = end
    pieces.append(text[pos:])
    return "".join(pieces)
