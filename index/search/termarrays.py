"""One segment's posting lists as numpy arrays: decoded once per index generation, scored with BM25F in bulk.

Whoosh scores a match one posting at a time in Python (~10 µs a match, its tree of matchers counted), so
a common word over 56k abstracts costs hundreds of milliseconds on every keystroke. The same numbers come from
reading a term's posting list once (ids and weights, block by block) and doing BM25F's arithmetic on whole
arrays: numpy's float64 operations are the IEEE operations Python does, in the same order, so every score is
bit for bit the one `whoosh.scoring.bm25` gives (the equivalence tests compare them).
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import numpy as np
import numpy.typing as npt
from whoosh import scoring

from index.search.whoosh_private import (
    block_deltas,
    bm25f_b,
    deleted_set,
    field_lengths,
    read_postings,
    unfiltered,
)

Docnums = npt.NDArray[np.int64]
Scores = npt.NDArray[np.float64]
Mask = npt.NDArray[np.bool_]

_CACHED_POSTINGS = 3_000_000
"""Scored postings kept per segment reader (16 bytes each, 48 MB): every word typed in a long session on a
250k index fits (its most common word holds 75k postings per segment)."""


class Unsupported(Exception):
    """The index or the weighting is not one the fast path reproduces exactly: ask Whoosh instead."""


class SegmentArrays:
    """One segment reader's field lengths, deleted documents and scored posting lists, kept for its lifetime.

    Args:
        searcher: the segment's own searcher (a leaf of the top searcher), whose parent holds the global
            statistics (idf, average field length) Whoosh's BM25F scorer asks for.
    """

    def __init__(self, searcher: Any) -> None:
        self.searcher = searcher
        self.reader = searcher.reader()
        self.size = int(self.reader.doc_count_all())
        deleted = deleted_set(self.reader)
        self.live: Mask = np.ones(self.size, dtype=np.bool_)
        if deleted:
            self.live[np.fromiter(deleted, dtype=np.int64, count=len(deleted))] = False
        elif self.reader.has_deletions():
            raise Unsupported("deleted documents are not kept as a set")
        weighting = searcher.weighting
        if type(weighting) is not scoring.BM25F:
            raise Unsupported(f"weighting {type(weighting).__name__}")
        self._weighting = weighting
        self._lengths: dict[str, npt.NDArray[np.float64]] = {}
        self._terms: OrderedDict[tuple[str, bytes], tuple[Docnums, Scores]] = OrderedDict()
        self._kept = 0

    def term(self, field: str, btext: bytes) -> tuple[Docnums, Scores]:
        """The live documents holding the term (ascending) and the score Whoosh's BM25F gives each."""
        key = (field, btext)
        known = self._terms.get(key)
        if known is not None:
            self._terms.move_to_end(key)
            return known
        known = self._score(field, btext)
        self._terms[key] = known
        self._kept += len(known[0])
        while self._kept > _CACHED_POSTINGS and len(self._terms) > 1:
            _key, (old, _scores) = self._terms.popitem(last=False)
            self._kept -= len(old)
        return known

    def _score(self, field: str, btext: bytes) -> tuple[Docnums, Scores]:
        if (field, btext) not in self.reader:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64)
        docnums, weights = decode(self.reader, field, btext)
        if not self.live.all():
            keep = self.live[docnums]
            docnums, weights = docnums[keep], weights[keep]
        if not self.searcher.schema[field].scorable:
            return docnums, weights  # WeightScorer: the score is the weight
        # BM25FScorer's own statistics, asked the way it asks them (global, from the parent searcher).
        parent = self.searcher.get_parent()
        idf = parent.idf(field, btext)
        avgfl = parent.avg_field_length(field) or 1
        b = bm25f_b(self._weighting, field)
        k1 = self._weighting.K1
        lengths = self.lengths(field)[docnums]
        # The expression of whoosh.scoring.bm25, operation for operation.
        scores = idf * ((weights * (k1 + 1)) / (weights + k1 * ((1 - b) + b * lengths / avgfl)))
        return docnums, scores

    def lengths(self, field: str) -> npt.NDArray[np.float64]:
        """Every document's length in `field`, as the scorer reads it (one byte per document, decoded)."""
        known = self._lengths.get(field)
        if known is None:
            known = self._lengths[field] = np.asarray(field_lengths(self.reader, field), dtype=np.float64)
        return known


def decode(reader: Any, field: str, btext: bytes) -> tuple[Docnums, npt.NDArray[np.float64]]:
    """A term's whole posting list in one segment: document numbers and weights (deleted ones included).

    whoosh3's block matcher keeps ids delta-coded per block; taking the deltas of every block and summing
    them with numpy skips a Python generator per posting (a third of the decoding time). Other matchers
    are stepped through (a test compares both ways).
    """
    matcher = unfiltered(reader, reader.postings(field, btext))
    blocks = block_deltas(matcher)
    if blocks is None:
        ids, counts = read_postings(matcher)
        return np.asarray(ids, dtype=np.int64), np.asarray(counts, dtype=np.float64)
    deltas, weights, starts = blocks
    if not deltas:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64)
    summed = np.cumsum(np.asarray(deltas, dtype=np.int64))
    # Each block's deltas start again from zero: subtract what the blocks before it added up to.
    first = np.asarray(starts, dtype=np.int64)
    before = np.concatenate(([0], summed[first[1:] - 1]))
    lengths = np.diff(np.append(first, len(deltas)))
    docnums = summed - np.repeat(before, lengths)
    return docnums, np.asarray(weights, dtype=np.float64)
