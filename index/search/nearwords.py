"""Indexed words within a few typos of a word, found with array arithmetic instead of a walk of the lexicon.

"Did you mean" runs on every keystroke that finds little, which while a word is being typed is most of them;
Whoosh's `terms_within` takes 150-250 ms a word at 56k papers (a Python automaton over the lexicon, or a
Python edit distance per word when the index has several segments). Here the words sharing the first letter
are read once per index generation into a matrix of code points, and the edit distance to all of them is one
dynamic programme over whole columns: the same words come out (a test compares both ways), in milliseconds.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from index.search.whoosh_private import terms_within_swaps

Codes = npt.NDArray[np.int32]


class NearWords:
    """`reader.terms_within(field, word, maxdist, prefix=1)` for one reader (one generation), kept per letter.

    Whoosh answers it two ways, and this follows whichever the reader uses: a single segment runs a
    Levenshtein automaton (no transpositions), several segments run Damerau-Levenshtein over the merged
    lexicon (a swap of two neighbours costs one). Any other reader is simply asked.
    """

    def __init__(self, reader: Any, field: str) -> None:
        self.reader = reader
        self.field = field
        self._swaps = terms_within_swaps(reader)
        self._letters: dict[str, tuple[list[str], Codes, npt.NDArray[np.int64]]] = {}

    def within(self, word: str, maxdist: int) -> list[str]:
        """The indexed words (the word itself included, when indexed) starting with the same letter and
        within `maxdist` edits of `word`, in lexicon order."""
        if self._swaps is None or not word:
            return [str(found) for found in self.reader.terms_within(self.field, word, maxdist, prefix=1)]
        words, codes, lengths = self._letter(word[0])
        near = np.flatnonzero(np.abs(lengths - len(word)) <= maxdist)
        if not len(near):
            return []
        width = min(codes.shape[1], len(word) + maxdist)
        distances = edit_distances(word, codes[near, :width], lengths[near], self._swaps)
        return [words[number] for number in near[distances <= maxdist]]

    def warm(self, letters: str) -> None:
        """Read these letters' words now (a worker at start), not on the first keystroke that needs them."""
        for letter in letters:
            self._letter(letter)

    def _letter(self, letter: str) -> tuple[list[str], Codes, npt.NDArray[np.int64]]:
        known = self._letters.get(letter)
        if known is None:
            field = self.reader.schema[self.field]
            # Each segment's words, merged as a set: the order does not matter to the callers, and a
            # MultiReader's heap merge of the segments costs more than the rest of the table.
            segments = [segment for segment, _base in self.reader.leaf_readers()]
            found = set().union(*(segment.expand_prefix(self.field, letter) for segment in segments))
            words = [field.from_bytes(btext) for btext in sorted(found)]
            lengths = np.fromiter((len(word) for word in words), dtype=np.int64, count=len(words))
            codes = np.full((len(words), int(lengths.max(initial=0))), -1, dtype=np.int32)
            if words:
                points = np.frombuffer("".join(words).encode("utf-32-le"), dtype=np.int32)
                rows = np.repeat(np.arange(len(words)), lengths)
                starts = np.cumsum(lengths) - lengths
                codes[rows, np.arange(len(points)) - np.repeat(starts, lengths)] = points
            known = self._letters[letter] = (words, codes, lengths)
        return known


def edit_distances(
    word: str, codes: Codes, lengths: npt.NDArray[np.int64], swaps: bool
) -> npt.NDArray[np.int64]:
    """The edit distance from `word` to each row of `codes` (code points, -1 past each row's `lengths`).

    The textbook dynamic programme, one row per letter of `word`, each cell computed for every candidate at
    once; with `swaps`, a transposition of neighbours costs one (the restricted Damerau-Levenshtein distance
    `whoosh.support.levenshtein.damerau_levenshtein` computes).
    """
    count, width = codes.shape
    letters = [ord(char) for char in word]
    before: npt.NDArray[np.int64] | None = None
    previous = np.tile(np.arange(width + 1, dtype=np.int64), (count, 1))
    for i, letter in enumerate(letters, start=1):
        current = np.empty_like(previous)
        current[:, 0] = i
        for j in range(1, width + 1):
            differs = codes[:, j - 1] != letter
            best = np.minimum(previous[:, j] + 1, current[:, j - 1] + 1)
            best = np.minimum(best, previous[:, j - 1] + differs)
            if swaps and before is not None and j > 1:
                swapped = differs & (codes[:, j - 1] == letters[i - 2]) & (codes[:, j - 2] == letter)
                best = np.where(swapped, np.minimum(best, before[:, j - 2] + 1), best)
            current[:, j] = best
        before, previous = previous, current
    distances: npt.NDArray[np.int64] = previous[np.arange(count), lengths.clip(max=width)]
    return distances
