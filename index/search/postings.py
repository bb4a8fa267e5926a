"""Term weights read from the index's posting lists, for scoring papers against a profile (profile.py).

Whoosh stores no term vectors here, and ranking a few terms over every paper needs none: a term's posting list
gives every abstract holding it and how often. Decoding a list is most of the cost (~1.5 µs a posting: each
block is unpickled with its positions), so each term's list is decoded once per index generation and kept,
as BM25 weights (idf included) by document number.
"""

from __future__ import annotations

import math
from array import array
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from index.search.whoosh_private import deleted_set, field_lengths, read_postings, unfiltered

FIELD = "abstract"
K1, B = 1.2, 0.75
_CACHED_POSTINGS = 2_000_000
"""Postings kept decoded per index generation (12 bytes each)."""


@dataclass(frozen=True, slots=True)
class Seed:
    """One seed paper: its document number, its key terms' weights, and the word each term was written as."""

    docnum: int
    terms: Mapping[str, float]
    words: Mapping[str, str]


class Postings:
    """BM25 weights of terms in the abstracts of one index generation, decoded on first use and kept."""

    def __init__(self, searcher: Any) -> None:
        self.reader = searcher.reader()
        self.papers = max(self.reader.doc_count(), 1)
        self.size = int(self.reader.doc_count_all())
        """Document numbers run below this (deleted documents included)."""
        self._leaves = [(leaf.reader(), offset) for leaf, offset in searcher.leaf_searchers()]
        self._average = max(self.reader.field_length(FIELD) / self.papers, 1.0)
        self._lengths: dict[int, list[int]] = {}
        self._kept: OrderedDict[str, tuple[array[int], array[float]]] = OrderedDict()
        self._size = 0
        self.counts = Counts(self.reader)
        self.seeds: dict[str, Seed] = {}
        """Seeds already made this generation, by paper id (making one asks the index ~100 frequencies)."""

    def frequency(self, term: str) -> int:
        """How many abstracts hold `term` (memoised: Whoosh takes ~30 µs to say)."""
        return self.counts.doc_frequency(FIELD, term)

    def weights(self, term: str) -> tuple[array[int], array[float]]:
        """Document numbers holding `term` (ascending) and the term's BM25 weight (idf included) in each."""
        kept = self._kept.get(term)
        if kept is not None:
            self._kept.move_to_end(term)
            return kept
        docnums: array[int] = array("i")
        weights: array[float] = array("d")
        frequency = self.frequency(term)
        if frequency:
            idf = math.log(1 + (self.papers - frequency + 0.5) / (frequency + 0.5))
            for number, (leaf, offset) in enumerate(self._leaves):
                if (FIELD, term) not in leaf:
                    continue
                lengths = self._leaf_lengths(number, leaf)
                ids, counts = read_postings(unfiltered(leaf, leaf.postings(FIELD, term)))
                deleted = deleted_set(leaf)
                for docnum, count in zip(ids, counts, strict=True):
                    if docnum not in deleted:
                        norm = K1 * (1 - B + B * lengths[docnum] / self._average)
                        docnums.append(docnum + offset)
                        weights.append(idf * count * (K1 + 1) / (count + norm))
        self._kept[term] = (docnums, weights)
        self._size += len(docnums)
        while self._size > _CACHED_POSTINGS and len(self._kept) > 1:
            _term, (old, _weights) = self._kept.popitem(last=False)
            self._size -= len(old)
        return docnums, weights

    def weight(self, term: str, docnum: int) -> float:
        """The term's weight in one document (0 when it does not hold it)."""
        docnums, weights = self.weights(term)
        at = bisect_left(docnums, docnum)
        return weights[at] if at < len(docnums) and docnums[at] == docnum else 0.0

    def _leaf_lengths(self, number: int, leaf: Any) -> list[int]:
        """Every document's abstract length in one segment, read once per generation."""
        lengths = self._lengths.get(number)
        if lengths is None:
            lengths = self._lengths[number] = field_lengths(leaf, FIELD)
        return lengths


class Counts:
    """The part of a Whoosh reader `Similarity.key_terms` asks (document counts), memoised per generation:
    a seed's key terms ask ~100 frequencies, at ~30 µs each from Whoosh."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader
        self._known: dict[tuple[str, str], int] = {}
        self._count = int(reader.doc_count())

    def doc_count(self) -> int:
        return self._count

    def doc_frequency(self, field: str, term: str) -> int:
        known = self._known.get((field, term))
        if known is None:
            known = self._known[field, term] = int(self._reader.doc_frequency(field, term))
        return known
