"""Whoosh's segment writer with its per-posting costs taken out: the same files, written faster.

Whoosh sends each posting through three generators on its way in (`add_document`), holds it as a 5-tuple in
a pool that sorts all of them at commit, and writes it with one `add_posting` call and a dozen per block on
its way out; for each it also reads its document's field length from a file. Here a document's words go into
the pool grouped by term (`_Pool`: a commit sorts terms, not postings), each term is written by one call
(termwrite.py), and the lengths are read whole (`whoosh_private.FieldLengths`). That takes a 1k-paper
update's Whoosh work from ~1.2 s to ~0.55 s of CPU and halves a full build's commit. The segment files are
byte for byte Whoosh's own (a test compares them).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable
from itertools import groupby
from operator import itemgetter
from typing import Any

from whoosh import formats

from index.search import termwrite
from index.search.prefixes import PrefixCountsField
from index.search.schema import SINGLE_POSITION, WordAnalyzer, WordPositions
from index.search.whoosh_private import (
    POSTING_SIZE,
    FieldLengths,
    Posting,
    PostingPoolBase,
    SegmentWriterBase,
    is_w3_field_writer,
    pack_uint,
)

_ARRAY_POSTING = 3 * 8
"""Bytes a posting takes in a `_Field`'s arrays: document number, weight and code, as doubles."""
_WORD_FORMATS = (WordPositions, formats.Frequency)
"""The formats whose postings `FastSegmentWriter` makes from `WordAnalyzer.positions` itself."""


class _Field:
    """One field's postings in the pool, by term, in arrays the garbage collector does not walk.

    A term's postings are (document number, weight, code) triples of doubles (exact for both numbers). The
    code stands for the value bytes: -n is the n-th value the field stored (from 1), n >= 0 is `code_value(n)`
    (a single position's shared encoding, a frequency). As lists of tuples per term, the postings of a full
    build's half (~3M) would be walked by every full collection, and the ~100k growing lists would set one
    off every 25% of growth: ~0.6 s of collections per 9k papers, more than grouping saves.
    """

    __slots__ = ("code_value", "terms", "values")

    def __init__(self, code_value: Callable[[int], bytes] | None) -> None:
        self.terms: dict[Any, array[float]] = {}
        self.values: list[bytes | None] = []
        self.code_value = code_value

    def columns(self, rows: array[float]) -> tuple[list[int], list[float], list[bytes | None]]:
        """A term's document numbers, weights and values (the very objects that were added)."""
        values, code_value = self.values, self.code_value
        codes = [int(code) for code in rows[2::3]]
        return (
            [int(docnum) for docnum in rows[0::3]],
            rows[1::3].tolist(),
            [values[-1 - code] if code < 0 else code_value(code) for code in codes],  # type: ignore[misc]
        )


class _Pool(PostingPoolBase):
    """A posting pool that keeps our postings grouped by field and term: a commit sorts terms, not postings.

    Whoosh's pool holds one (field, term, docnum, weight, value) tuple per posting and sorts them all when
    the segment is written; `add_postings` then groups them back by field and term. Our `add_document`
    numbers documents in order, so each term's postings arrive sorted: kept per term (`_Field`), only the
    ~10k terms of a 1k-paper update (not its ~110k postings) are sorted, and no 5-tuple is made, filtered or
    unzipped per posting. The order, so the segment's bytes, are the same. `add` (Whoosh's merges of small
    segments, a schema our `add_document` leaves to Whoosh) still takes tuples; once it is used, or a run is
    spilled, the pool writes Whoosh's sorted tuples (`iter_postings`), the grouped postings made tuples.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.grouped: dict[str, _Field] = {}
        self.words: dict[str, _Field] = {}
        """Fields whose terms are kept as the analyzer's strings (hashed once, not encoded per posting)."""

    def terms_of(self, fieldname: str) -> _Field:
        """The postings of `fieldname` by term bytes, to add one document's postings to (then `grow`)."""
        field = self.grouped.get(fieldname)
        if field is None:
            field = self.grouped[fieldname] = _Field(None)
            self.note_field(fieldname)
        return field

    def words_of(self, fieldname: str, code_value: Callable[[int], bytes]) -> _Field:
        """`terms_of` by term text: a term first added here must be checked to encode (`encode("utf-8")`)."""
        field = self.words.get(fieldname)
        if field is None:
            field = self.words[fieldname] = _Field(code_value)
            self.note_field(fieldname)
        return field

    def take_grouped(self) -> list[tuple[str, _Field, list[tuple[bytes, array[float]]]]] | None:
        """Each field's terms in Whoosh's order (fields by name, terms by bytes) with their postings, if the
        grouped ones are all there is (no tuples added, no run spilled, no field both ways), else None."""
        if self.holds_postings() or self.words.keys() & self.grouped.keys():
            return None
        fields: list[tuple[str, _Field, list[tuple[bytes, array[float]]]]] = []
        for fieldname in sorted(self.grouped.keys() | self.words.keys()):
            if fieldname in self.words:
                field = self.words[fieldname]
                # Code point order is UTF-8 byte order: the strings sort as their bytes would.
                terms = [(text.encode("utf-8"), field.terms[text]) for text in sorted(field.terms)]
            else:
                field = self.grouped[fieldname]
                terms = [(text, field.terms[text]) for text in sorted(field.terms)]
            if terms:  # (a field of documents without a word here: Whoosh never starts it)
                fields.append((fieldname, field, terms))
        self.grouped, self.words = {}, {}
        return fields

    def before_sort(self) -> None:
        """Hand the grouped postings to Whoosh's pool as its tuples, before it sorts them into a run or for
        the segment."""
        for fieldname, field in [*self.grouped.items(), *self.words.items()]:
            for text, rows in field.terms.items():
                btext = text.encode("utf-8") if isinstance(text, str) else text
                self.hold(
                    [(fieldname, btext, *posting) for posting in zip(*field.columns(rows), strict=True)]
                )
        self.grouped, self.words = {}, {}


class FastSegmentWriter(SegmentWriterBase):
    """`SegmentWriter` with a leaner posting pool (`_Pool`), whose terms are each written in one call.

    Segments are written as separate files, not Whoosh's default single compound file: a reader opens a
    compound file's postings as a BytesIO copy of them (340 MB of the reader's memory at 250k papers), and
    separate files are read from the page cache instead. Results are the same (a test compares them).
    """

    def __init__(self, ix: Any, **kwargs: Any) -> None:
        kwargs.setdefault("compound", False)
        super().__init__(ix, _Pool, **kwargs)
        # Spelling words and term vectors are not written by our `add_document`; our schema has neither.
        self._plain_schema = not any(
            field.separate_spelling() or field.vector for _name, field in self.schema.items()
        )

    def add_document(self, **fields: Any) -> None:
        """`SegmentWriter.add_document`, with each `WordPositions` field's postings made in one loop from the
        analyzer's positions, not by three generators stepping once per posting, and kept by term in the
        pool (`_Pool`)."""
        if not self._plain_schema:
            super().add_document(**fields)
            return
        docnum, docboost, fieldnames = self.start_document(fields)
        schema = self.schema
        try:
            for fieldname in fieldnames:
                value = fields.get(fieldname)
                if value is None:
                    continue
                field = schema[fieldname]
                length = 0
                if field.indexed:
                    fieldboost = self.field_boost(fields, fieldname, docboost)
                    length = self._index(field, fieldname, value, fieldboost, docnum)
                self.store_field(fields, fieldname, field, value, length)
        except ValueError:
            self.cancel_document()
            raise
        self.finish_document()

    def _index(self, field: Any, fieldname: str, value: Any, fieldboost: float, docnum: int) -> int:
        """One field's postings of a document into the pool; returns the field's length (0: not scored)."""
        fmt = field.format
        if type(value) is dict and type(field) is PrefixCountsField:
            # Counted at what the postings hold (three doubles each), not at Whoosh's per-tuple estimate: the
            # prefixes are a third of a build's postings, and the estimate would spill the pool to disk.
            self._add_frequencies(fieldname, value, fmt.field_boost, fieldboost, docnum, _ARRAY_POSTING)
            return sum(value.values())
        if (
            type(fmt) not in _WORD_FORMATS
            or type(field.analyzer) is not WordAnalyzer
            or type(value) is not str
        ):
            return self._index_slowly(field, fieldname, value, fieldboost, docnum)
        found = field.analyzer.positions(value)
        if type(fmt) is WordPositions:
            self._add_positions(fieldname, found, fmt, fieldboost, docnum)
        else:
            counts = {text: len(at) for text, at in found.items()}
            self._add_frequencies(fieldname, counts, fmt.field_boost, fieldboost, docnum)
        return sum(map(len, found.values())) if field.scorable else 0

    def _add_positions(
        self,
        fieldname: str,
        found: dict[str, list[int]],
        fmt: WordPositions,
        fieldboost: float,
        docnum: int,
    ) -> None:
        """One document's postings of a `WordPositions` field into the grouped pool: the values of
        `WordPositions.word_values`, `FieldType.index` and Whoosh's loop, folded (a test compares
        segments)."""
        boost, encode, single = fmt.field_boost, fmt.encode, SINGLE_POSITION
        # The weight as Whoosh computes it: (count * format boost) * field boost, in that order.
        once = 1.0 * boost * fieldboost
        field = self.pool.words_of(fieldname, _single_position)
        terms, values = field.terms, field.values
        size = len(found) * (POSTING_SIZE + len(fieldname))
        for text, at in found.items():
            rows = terms.get(text)
            if rows is None:
                text.encode("utf-8")  # a word that cannot be a term fails here, as in Whoosh's loop
                rows = terms[text] = array("d")
            if len(at) == 1:  # most words: their encoding is kept by position (`WordPositions.encode`)
                value = single.get(at[0]) or encode(at)
                rows.extend((docnum, once, at[0]))
            else:
                value = encode(at)
                values.append(value)
                rows.extend((docnum, float(len(at)) * boost * fieldboost, -len(values)))
            size += 2 * len(text) + len(value)
        self.pool.grow(size)

    def _add_frequencies(
        self,
        fieldname: str,
        found: dict[str, int],
        boost: float,
        fieldboost: float,
        docnum: int,
        posting_size: int | None = None,
    ) -> None:
        """One document's postings of a `Frequency` field (venue, status, source, the prefix counts; `found`:
        term -> count): the values of
        `Frequency.word_values`, `FieldType.index` and Whoosh's loop (the weight: the tokens' boosts, each
        1.0, summed, times the format's boost, times the field's; the value: the count, packed)."""
        terms = self.pool.words_of(fieldname, pack_uint).terms
        size = 0
        for text, count in found.items():
            rows = terms.get(text)
            if rows is None:
                text.encode("utf-8")  # (as in `_add_positions`)
                rows = terms[text] = array("d")
            rows.extend((docnum, float(count) * boost * fieldboost, count))
            # (4: the packed count)
            size += posting_size or POSTING_SIZE + len(fieldname) + 2 * len(text) + 4
        self.pool.grow(size)

    def _index_slowly(
        self, field_type: Any, fieldname: str, value: Any, fieldboost: float, docnum: int
    ) -> int:
        """Whoosh's own loop over `field.index(value)` for a field of another format; returns its length."""
        length = 0
        field = self.pool.terms_of(fieldname)
        terms, values = field.terms, field.values
        size = 0
        for tbytes, freq, weight, vbytes in field_type.index(value):
            if field_type.scorable:
                length += freq
            rows = terms.get(tbytes)
            if rows is None:
                rows = terms[tbytes] = array("d")
            values.append(vbytes)
            rows.extend((docnum, weight * fieldboost, -len(values)))
            size += POSTING_SIZE + len(fieldname) + 2 * len(tbytes) + (len(vbytes) if vbytes else 0)
        self.pool.grow(size)
        return length

    def write_postings(self, fieldwriter: Any, lengths: FieldLengths | None) -> None:
        """Each term's postings in one `TermWriter.add`: as the pool grouped them when it holds nothing else
        (`_Pool.take_grouped`), else from its sorted tuples (`add_postings`)."""
        grouped = self.pool.take_grouped() if is_w3_field_writer(fieldwriter) else None
        if grouped is not None:
            _write_grouped(fieldwriter, self.schema, lengths, grouped)
        else:
            add_postings(fieldwriter, self.schema, lengths, self.pool.iter_postings())


def _write_grouped(
    fieldwriter: Any,
    schema: Any,
    lengths: FieldLengths | None,
    fields: list[tuple[str, _Field, list[tuple[bytes, array[float]]]]],
) -> None:
    """The pool's grouped postings (`_Pool.take_grouped`), one `TermWriter.add` per term."""
    for fieldname, field, terms in fields:
        fieldwriter.start_field(fieldname, schema[fieldname])
        writer = termwrite.TermWriter(
            fieldwriter, lengths.doc_field_length_reader(fieldname) if lengths else None
        )
        for btext, rows in terms:
            writer.add(btext, *field.columns(rows))
        writer.close()
        fieldwriter.finish_field()


def _single_position(position: int) -> bytes:
    """The shared encoding of one position (`WordPositions.encode` made it when the posting was added)."""
    return SINGLE_POSITION[position]


def add_postings(fieldwriter: Any, schema: Any, lengths: Any, items: Iterable[Posting]) -> None:
    """`FieldWriter.add_postings` a term at a time instead of a posting at a time: the same bytes in the same
    files, each term written by one `TermWriter.add` (see termwrite.py) from its postings' columns, not by
    one `add_posting` per posting and a dozen calls per block (the sorted postings of a commit come from our
    own pool, so Whoosh's order and type checks add nothing).

    That per-posting path is half of writing a small segment (an update's 1k papers). Any other field
    writer goes through Whoosh's own method.
    """
    if not is_w3_field_writer(fieldwriter):
        fieldwriter.add_postings(schema, lengths, items)
        return
    for fieldname, field_postings in groupby(items, key=itemgetter(0)):
        fieldwriter.start_field(fieldname, schema[fieldname])
        terms = termwrite.TermWriter(
            fieldwriter, lengths.doc_field_length_reader(fieldname) if lengths else None
        )
        for btext, term_postings in groupby(field_postings, key=itemgetter(1)):
            # docnum -1 marks a spelling word, not a posting (Whoosh skips it before starting the term).
            rows = [row for row in term_postings if row[2] != -1]
            if rows:
                _names, _texts, docnums, weights, values = zip(*rows, strict=True)
                terms.add(btext, docnums, weights, values)
        terms.close()
        fieldwriter.finish_field()
