"""Prefix postings: the papers holding a word that starts with one to three given letters, stored as one term.

A short prefix such as `d*` expands to thousands of indexed words, and reading thousands of posting lists on
a keystroke took up to a second at 56k papers. FTS5's `prefix=` option answers the same question from an
index of prefixes written beside the words; this is that index inside Whoosh: a field whose terms are the
first one, two and three letters of every indexed word of the default fields (the stems, exactly the terms a
prefix expands to), counted per paper. It is written with each document, so it is part of every segment,
replaced atomically with the index and kept by incremental updates and merges like any other field.

A paper holds the prefix term exactly when it holds some word the prefix expands to, so the hits are the
expansion's hits; the score is BM25 over the merged term (the prefix's count in the paper), as FTS5 ranks
a prefix query.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from whoosh import fields
from whoosh import query as wq

from index.search.whoosh_private import pack_uint

PREFIX_FIELD = "prefixes"
LONGEST_PREFIX = 3
"""Prefixes of up to this many letters are stored; longer ones expand to few words and are expanded."""


class PrefixCountsField(fields.TEXT):  # type: ignore[misc]
    """A frequency field indexed from a {prefix: count} mapping made by `prefix_counts` (not from text)."""

    def __init__(self) -> None:
        super().__init__(phrase=False)

    def index(self, value: Any, **kwargs: Any) -> Iterator[tuple[bytes, int, float, bytes]]:
        if not isinstance(value, Mapping):
            yield from super().index(value, **kwargs)
            return
        boost = self.format.field_boost
        for text, count in value.items():
            yield text.encode("utf-8"), count, float(count) * boost, pack_uint(count)


class PrefixCounter:
    """Counts the short prefixes of a paper's indexed words; each word's prefixes are worked out once."""

    def __init__(self) -> None:
        self._prefixes: dict[str, tuple[str, ...]] = {}

    def add(self, counts: dict[str, int], words: Mapping[str, list[int]]) -> None:
        """Add the prefixes of `words` (term -> its positions in one field, as `WordAnalyzer.positions`)."""
        known = self._prefixes
        for word, places in words.items():
            prefixes = known.get(word)
            if prefixes is None:
                prefixes = known[word] = tuple(
                    word[:end] for end in range(1, min(len(word), LONGEST_PREFIX) + 1)
                )
            times = len(places)
            for prefix in prefixes:
                counts[prefix] = counts.get(prefix, 0) + times


class PrefixTerm(wq.Term):  # type: ignore[misc]
    """`typed*` for a prefix of one to three letters: the one stored term of the prefix field.

    It remembers what was typed, so highlighting can still show the words the prefix stands for.
    """

    def __init__(self, typed: str, boost: float = 1.0) -> None:
        super().__init__(PREFIX_FIELD, typed, boost=boost)
        self.typed = typed


def is_short(text: str) -> bool:
    """Whether a prefix is answered from the stored prefixes rather than by expanding it."""
    return 0 < len(text) <= LONGEST_PREFIX
