"""Whoosh's segment writer with two per-posting costs taken out: the same files, written faster.

Writing a segment's postings asks, for every posting, the length of that document's field, to keep the
shortest and longest per block for BM25's bounds. Whoosh reads it through the length column's file reader:
a seek, a read, a struct unpack and a table lookup per posting, a quarter of a full build's commit. The column
is one byte per document, so reading it whole once and indexing a bytes object gives the same numbers. And
the posting pool type-checks every posting it is given; ours come from our own schema, so it only counts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, _lenfield
from whoosh.util.numeric import byte_to_length
from whoosh.writing import PostingPool, SegmentWriter

_LENGTHS = [None] + [byte_to_length(code) for code in range(1, 256)]
"""What each stored length byte decodes to; a 0 byte is "no length", which Whoosh reports as None."""


class _Lengths:
    """The `lengths` argument of `FieldWriter.add_postings`: per-field readers over in-memory columns."""

    def __init__(self, per_doc: Any) -> None:
        self._per_doc = per_doc

    def doc_field_length_reader(self, fieldname: str, default: int = 0) -> Callable[[int], int | None]:
        # The same private column reader Whoosh's own `doc_field_length_reader` uses.
        reader = self._per_doc._cached_reader(_lenfield(fieldname), LENGTHS_COLUMN)
        if reader is None:
            return lambda docnum: default
        column = bytes(reader._dbfile.get(reader._basepos, reader._count * reader._fixedlen))
        count, table = len(column), _LENGTHS

        def length(docnum: int) -> int | None:
            # Past the column's end Whoosh reads its default byte (0), i.e. None, like here.
            return table[column[docnum]] if docnum < count else None

        return length


class _Pool(PostingPool):  # type: ignore[misc]
    """`PostingPool.add` without its per-posting asserts; the same size estimate, so the same runs spill."""

    def add(self, item: tuple[str, bytes, int, float, bytes | None]) -> None:
        fieldname, text, _docnum, _weight, value = item
        self.fieldnames.add(fieldname)
        # PostingPool's estimate of the tuple's memory, term by term summed into one constant.
        self.currentsize += 150 + len(fieldname) + 2 * len(text) + (len(value) if value else 0)
        if self.currentsize > self.limit:
            self.save()
        self.current.append(item)


class FastSegmentWriter(SegmentWriter):  # type: ignore[misc]
    """`SegmentWriter` with a leaner posting pool, whose `_flush_segment` reads field lengths from memory.

    Segments are written as separate files, not Whoosh's default single compound file: a reader opens a
    compound file's postings as a BytesIO copy of them (340 MB of the reader's memory at 250k papers), and
    separate files are read from the page cache instead. Results are the same (a test compares them).
    """

    def __init__(self, ix: Any, **kwargs: Any) -> None:
        kwargs.setdefault("compound", False)
        super().__init__(ix, **kwargs)
        self.pool = _Pool(self._tempstorage, self.newsegment, limitmb=kwargs.get("limitmb", 128))

    def _flush_segment(self) -> None:
        # SegmentWriter._flush_segment, with the per-document reader wrapped.
        self.perdocwriter.close()
        per_doc = self.per_document_reader() if self.codec.length_stats else None
        lengths = _Lengths(per_doc) if per_doc is not None else None
        self.fieldwriter.add_postings(self.schema, lengths, self.pool.iter_postings())
        self.fieldwriter.close()
        if per_doc is not None:
            per_doc.close()
