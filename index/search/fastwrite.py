"""Whoosh's segment writer with its per-posting costs taken out: the same files, written faster.

Writing a segment's postings asks, for every posting, the length of that document's field, to keep the
shortest and longest per block for BM25's bounds. Whoosh reads it through the length column's file reader:
a seek, a read, a struct unpack and a table lookup per posting, a quarter of a full build's commit. The column
is one byte per document, so reading it whole once and indexing a bytes object gives the same numbers. And
the posting pool type-checks every posting it is given; ours come from our own schema, so it only counts.
Each posting also went through three generators on its way in (`add_document`) and one `add_posting` call on
its way out (`add_postings`); both now work a field, or a term, at a time. Together that took a 1k-paper
update's Whoosh work from ~1.2 s to ~0.85 s of CPU (a full build writes its postings the same way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import groupby
from operator import itemgetter
from typing import Any

from whoosh.codec.whoosh3 import LENGTHS_COLUMN, W3FieldWriter, _lenfield
from whoosh.util.numeric import byte_to_length
from whoosh.writing import PostingPool, SegmentWriter

from index.search.schema import WordAnalyzer, WordPositions

_Posting = tuple[str, bytes, int, float, bytes | None]
"""(field name, term bytes, document number, weight, value bytes), sorted, as the posting pool yields them."""
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

    def add_field(self, fieldname: str, rows: Sequence[_Posting]) -> None:
        """`add` for each of one field's postings; one `extend` when they all fit (no run spills between
        them, so the pool ends the same)."""
        values = [row[4] for row in rows]
        size = len(rows) * (150 + len(fieldname)) + 2 * sum([len(row[1]) for row in rows])
        size += sum([len(value) for value in values if value])
        if self.currentsize + size > self.limit:
            for row in rows:
                self.add(row)
            return
        if rows:
            self.fieldnames.add(fieldname)
        self.currentsize += size
        self.current.extend(rows)


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
        # Spelling words and term vectors are not written by our `add_document`; our schema has neither.
        self._plain_schema = not any(
            field.separate_spelling() or field.vector for _name, field in self.schema.items()
        )

    def add_document(self, **fields: Any) -> None:
        """`SegmentWriter.add_document`, with each `WordPositions` field's postings made in one comprehension
        from the analyzer's positions, not by three generators stepping once per posting (the same tuples:
        `WordPositions.word_values`, `FieldType.index` and Whoosh's loop, folded; a test compares the
        segments)."""
        if not self._plain_schema:
            super().add_document(**fields)
            return
        self._check_state()
        perdocwriter = self.perdocwriter
        schema = self.schema
        docnum = self.docnum
        docboost = self._doc_boost(fields)
        fieldnames = sorted([name for name in fields if not name.startswith("_")])
        self._check_fields(schema, fieldnames)
        perdocwriter.start_doc(docnum)
        try:
            for fieldname in fieldnames:
                value = fields.get(fieldname)
                if value is None:
                    continue
                field = schema[fieldname]
                length = 0
                if field.indexed:
                    fieldboost = self._field_boost(fields, fieldname, docboost)
                    fmt = field.format
                    if (
                        type(fmt) is WordPositions
                        and type(field.analyzer) is WordAnalyzer
                        and type(value) is str
                    ):
                        found = field.analyzer.positions(value)
                        boost, encode = fmt.field_boost, fmt.encode
                        # The weight as Whoosh computes it: (count * format boost) * field boost, in order.
                        rows = [
                            (
                                fieldname,
                                text.encode("utf-8"),
                                docnum,
                                float(len(at)) * boost * fieldboost,
                                encode(at),
                            )
                            for text, at in found.items()
                        ]
                        if field.scorable:
                            length = sum(map(len, found.values()))
                        self.pool.add_field(fieldname, rows)
                    else:
                        length = self._index_slowly(field, fieldname, value, fieldboost, docnum)
                customval = fields.get(f"_stored_{fieldname}", value)
                perdocwriter.add_field(fieldname, field, customval if field.stored else None, length)
                column = field.column_type
                if column and customval is not None:
                    perdocwriter.add_column_value(fieldname, column, field.to_column_value(customval))
        except ValueError:
            perdocwriter.cancel_doc()
            raise
        perdocwriter.finish_doc()
        self._added = True
        self.docnum += 1

    def _index_slowly(self, field: Any, fieldname: str, value: Any, fieldboost: float, docnum: int) -> int:
        """Whoosh's own loop over `field.index(value)` for a field of another format; returns its length."""
        length = 0
        add = self.pool.add
        for tbytes, freq, weight, vbytes in field.index(value):
            if field.scorable:
                length += freq
            add((fieldname, tbytes, docnum, weight * fieldboost, vbytes))
        return length

    def _flush_segment(self) -> None:
        # SegmentWriter._flush_segment, with the per-document reader wrapped.
        self.perdocwriter.close()
        per_doc = self.per_document_reader() if self.codec.length_stats else None
        lengths = _Lengths(per_doc) if per_doc is not None else None
        add_postings(self.fieldwriter, self.schema, lengths, self.pool.iter_postings())
        self.fieldwriter.close()
        if per_doc is not None:
            per_doc.close()


def add_postings(fieldwriter: Any, schema: Any, lengths: Any, items: Iterable[_Posting]) -> None:
    """`FieldWriter.add_postings` a term at a time instead of a posting at a time: the same calls to the W3
    field writer (start_field, start_term, finish_term, finish_field) and the same blocks, but each block's
    ids, weights, values and length bounds are filled by C loops, not by one `add_posting` per posting
    (the sorted postings of a commit come from our own pool, so Whoosh's order and type checks add nothing).

    Half of writing a small segment (an update's 1k papers) was that per-posting path. Any other field
    writer goes through Whoosh's own method.
    """
    if type(fieldwriter) is not W3FieldWriter:
        fieldwriter.add_postings(schema, lengths, items)
        return
    for fieldname, field_postings in groupby(items, key=itemgetter(0)):
        fieldwriter.start_field(fieldname, schema[fieldname])
        length_of = lengths.doc_field_length_reader(fieldname) if lengths else None
        for btext, term_postings in groupby(field_postings, key=itemgetter(1)):
            # docnum -1 marks a spelling word, not a posting (Whoosh skips it before starting the term).
            rows = [row for row in term_postings if row[2] != -1]
            if rows:
                fieldwriter.start_term(btext)
                _fill_blocks(fieldwriter._postwriter, rows, length_of)
                fieldwriter.finish_term()
        fieldwriter.finish_field()


def _fill_blocks(writer: Any, rows: list[_Posting], length_of: Callable[[int], int | None] | None) -> None:
    """What `add_posting` for each of `rows` leaves in `writer`: full blocks written, the last one buffered
    for `finish_postings` (which writes it, or inlines a single posting)."""
    limit = writer._blocklimit
    for start in range(0, len(rows), limit):
        if start:
            writer._write_block()
        _names, _texts, docnums, weights, values = zip(*rows[start : start + limit], strict=True)
        writer._ids.extend(docnums)
        writer._weights.extend(weights)
        writer._values.extend([value for value in values if value])
        top = max(weights)
        if top > 0:
            writer._maxweight = top
        if length_of is not None:
            known = [length for length in map(length_of, docnums) if length]
            if known:
                writer._minlength = min(known)
                writer._maxlength = max(known)
