"""Every document's paper id, by document number, read from the id column in one piece per segment.

A ranked list of every hit needs the paper id of each of its document numbers; Whoosh hands the column out a
value at a time (a file read and a decode per document: 180 ms for 56k on a busy machine, paid by the first
big search of each generation). whoosh3's variable-length column keeps all values back to back with their
lengths and offsets, so one read and one decode of the whole block give the same strings (a test compares
both ways); any other column is read value by value.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from index.search.whoosh_private import var_bytes_values

FIELD = "id"
LOOKUP_MAX = 2000
"""Up to this many hits are mapped to ids by column lookups; more read the whole id column once."""


class DocIds:
    """Paper ids of Whoosh documents for one generation: a few are looked up, many picked from the column.

    Reading all 56k ids costs 30-70 ms (whole blocks, `paper_ids`), a lookup about 5 µs: the first top-20
    search of a fresh reader should not pay for the whole column, a search listing every hit should not pay
    per hit (the whole column is kept as an array, so 28k hits are picked in one indexing step).
    """

    def __init__(self, searcher: Any) -> None:
        self._searcher = searcher
        self._column: Any = None
        self._ids: npt.NDArray[np.object_] | None = None

    def __call__(self, docnums: Any) -> tuple[str, ...]:
        """The ids of `docnums` (a sequence or an array of document numbers), in their order."""
        if not len(docnums):
            return ()
        if self._ids is None and len(docnums) <= LOOKUP_MAX:
            if self._column is None:
                self._column = self._searcher.reader().column_reader(FIELD)
            return tuple(_text(self._column[docnum]) for docnum in docnums)
        if self._ids is None:
            self._ids = paper_ids(self._searcher)
        return tuple(self._ids[np.asarray(docnums, dtype=np.int64)].tolist())


def paper_ids(searcher: Any) -> npt.NDArray[np.object_]:
    """The id of every document of the searcher's index (deleted ones included), by document number."""
    ids: list[str] = []
    for leaf, _offset in searcher.leaf_searchers():
        reader = leaf.reader()
        if reader.doc_count_all() == 0 or not reader.has_column(FIELD):  # an empty index has no columns
            continue
        ids += _segment_ids(reader.column_reader(FIELD))
    return np.array(ids, dtype=object)


def _segment_ids(column: Any) -> list[str]:
    whole = var_bytes_values(column)
    if whole is not None:
        block, offsets, lengths = whole
        text = block.decode("utf-8")
        if len(text) == len(block):  # ASCII: character offsets are byte offsets
            return [text[start : start + size] for start, size in zip(offsets, lengths, strict=True)]
    return [_text(value) for value in column]


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)
