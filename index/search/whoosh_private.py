"""Every private or undocumented part of Whoosh the engine relies on, in one module, for the pinned whoosh3.

Whoosh's documented API (index, fields, formats, analysis, query, qparser, scoring, searching, collectors,
highlight, filedb.filestore) is used where it is needed. What is here Whoosh does not promise: private names
and attributes of its segment writer, posting pool, codec, readers, matchers and queries, and the layout of
its files. Each makes one path faster and changes nothing it gives (ARCHITECTURE.md, "Whoosh internals").
tests/unit/test_whoosh_private.py checks each against the installed Whoosh, and that each fast path is still
taken: an upgrade that moves one fails there, by name, instead of quietly writing another index or searching
slower.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from whoosh import query, scoring
from whoosh.codec import whoosh3
from whoosh.columns import TranslatingColumnReader, VarBytesColumn
from whoosh.filedb import filetables
from whoosh.matching import WrappingMatcher
from whoosh.reading import CorruptIndexError, IndexReader, SegmentReader
from whoosh.system import pack_int as pack_int
from whoosh.system import pack_long as pack_long
from whoosh.system import pack_uint as pack_uint
from whoosh.system import pack_ushort
from whoosh.util.numeric import byte_to_length
from whoosh.util.numeric import length_to_byte as length_to_byte
from whoosh.writing import PostingPool, SegmentWriter

from index.search.bounds import MAX_EXPANSION, SCAN_CHECK, Budget, QueryStopped

Posting = tuple[str, bytes, int, float, bytes | None]
"""(field name, term bytes, document number, weight, value bytes): one posting as Whoosh's pool holds it."""

# Writing a segment

CORRUPT = CorruptIndexError
"""What Whoosh raises on a block it cannot read (a bad block tag): a damaged index, not a bug of ours."""

POSTING_SIZE = 150
"""`PostingPool.add`'s estimate of one posting's memory without its field name, term and value (their lengths
are added to it). The pool spills a sorted run when the estimates pass its limit: counted the same way, a
pool of our own spills at the same postings, so the segment keeps Whoosh's bytes."""


class PostingPoolBase(PostingPool):  # type: ignore[misc]
    """Whoosh's posting pool, its state under names a pool of our own can share.

    A subclass holding postings some other way hands them over as tuples (`hold`) in `before_sort`, which is
    called whenever the pool sorts what it holds: to spill a run, and for the segment at commit.
    """

    def add(self, item: Posting) -> None:
        """`PostingPool.add` without its per-posting asserts (the same size estimate)."""
        fieldname, text, _docnum, _weight, value = item
        self.fieldnames.add(fieldname)
        self.grow(POSTING_SIZE + len(fieldname) + 2 * len(text) + (len(value) if value else 0))
        self.current.append(item)

    def note_field(self, fieldname: str) -> None:
        """Count `fieldname` among the fields the segment has postings of."""
        self.fieldnames.add(fieldname)

    def grow(self, size: int) -> None:
        """Count `size` more bytes (`POSTING_SIZE` a posting); past the limit, everything held is spilled."""
        self.currentsize += size
        if self.currentsize > self.limit:
            self.save()

    def hold(self, postings: list[Posting]) -> None:
        """Take `postings` as Whoosh's tuples, in any order (they are sorted when spilled or written)."""
        self.current.extend(postings)

    def holds_postings(self) -> bool:
        """Whether the pool holds tuples, in memory or spilled to runs."""
        return bool(self.current or self.runs)

    def before_sort(self) -> None:
        """Hand whatever else is held to `hold` (a subclass's hook; nothing here)."""

    def save(self) -> None:
        self.before_sort()
        super().save()

    def iter_postings(self) -> Any:
        self.before_sort()
        return super().iter_postings()


class SegmentWriterBase(SegmentWriter):  # type: ignore[misc]
    """Whoosh's segment writer, with the private steps of `add_document` and of a commit under names.

    A writer indexing fields its own way (fastwrite.py) calls `start_document`, `store_field` and
    `finish_document` around its loop over the fields and writes the pool's postings in `write_postings`; a
    build in two processes (build.py) commits with `finish_segment` and `commit_segments`, as MpWriter does.

    Args:
        ix: the index to write to.
        pool: the posting pool class, made with the arguments Whoosh makes its own with.
        lock: take the index's write lock (not a child writing a segment for its parent's commit).
        **kwargs: `SegmentWriter`'s other arguments.
    """

    def __init__(self, ix: Any, pool: type[PostingPoolBase], lock: bool = True, **kwargs: Any) -> None:
        super().__init__(ix, _lk=lock, **kwargs)
        self.pool = pool(self._tempstorage, self.newsegment, limitmb=kwargs.get("limitmb", 128))

    def start_document(self, fields: dict[str, Any]) -> tuple[int, float, list[str]]:
        """`add_document` up to its loop over fields: the document's number, its boost and its field names
        (sorted, each checked against the schema)."""
        self._check_state()
        docboost: float = self._doc_boost(fields)
        fieldnames = sorted([name for name in fields if not name.startswith("_")])
        self._check_fields(self.schema, fieldnames)
        self.perdocwriter.start_doc(self.docnum)
        return self.docnum, docboost, fieldnames

    def field_boost(self, fields: dict[str, Any], fieldname: str, docboost: float) -> float:
        """One field's boost in the document: its own (a `_fieldname_boost` value) times the document's."""
        boost: float = self._field_boost(fields, fieldname, docboost)
        return boost

    def store_field(
        self, fields: dict[str, Any], fieldname: str, field: Any, value: Any, length: int
    ) -> None:
        """`add_document`'s loop after the postings: the field's stored value (or a `_stored_` one), its
        length, and its column value."""
        customval = fields.get(f"_stored_{fieldname}", value)
        self.perdocwriter.add_field(fieldname, field, customval if field.stored else None, length)
        column = field.column_type
        if column and customval is not None:
            self.perdocwriter.add_column_value(fieldname, column, field.to_column_value(customval))

    def cancel_document(self) -> None:
        self.perdocwriter.cancel_doc()

    def finish_document(self) -> None:
        self.perdocwriter.finish_doc()
        self._added = True
        self.docnum += 1

    def write_postings(self, fieldwriter: Any, lengths: FieldLengths | None) -> None:
        """Write the pool's postings through `fieldwriter` at commit (a subclass writes them its own way)."""
        fieldwriter.add_postings(self.schema, lengths, self.pool.iter_postings())

    def _flush_segment(self) -> None:
        # SegmentWriter._flush_segment with the postings written by `write_postings` and the field lengths
        # they need read whole (`FieldLengths`).
        self.perdocwriter.close()
        per_doc = self.per_document_reader() if self.codec.length_stats else None
        self.write_postings(self.fieldwriter, FieldLengths(per_doc) if per_doc is not None else None)
        self.fieldwriter.close()
        if per_doc is not None:
            per_doc.close()

    def finish_segment(self) -> Any:
        """Sort and write this writer's segment without committing it: the segment, for `commit_segments`
        (None when no document was added: there is no segment to write)."""
        return self._finalize_segment() if self._added else None

    def commit_segments(self, segments: list[Any]) -> None:
        """Commit one TOC naming `segments` (this writer's, finished, and others written beside it) and
        release the writer; a writer that added nothing only closes its files."""
        if not self._added:
            self._close_segment()
        self._commit_toc(segments)
        self._finish()


_LENGTH_OF_BYTE = [byte_to_length(byte) for byte in range(256)]
_WRITTEN_LENGTH_OF_BYTE: list[int | None] = [None, *_LENGTH_OF_BYTE[1:]]
"""What each stored length byte decodes to; a writer's length reader gives a 0 byte as None, "no length"."""


def _length_column(per_doc: Any, field: str) -> Any:
    """whoosh3's column of `field`'s lengths, one byte per document (None: no document has the field)."""
    return per_doc._cached_reader(whoosh3._lenfield(field), whoosh3.LENGTHS_COLUMN)


class FieldLengths:
    """The `lengths` a field writer's `add_postings` asks each posting's document length of, read whole.

    Writing a segment's postings asks, for every posting, its document's length in the field, to keep the
    shortest and longest per block for BM25's bounds. Whoosh reads it through the column's file reader: a
    seek, a read, a struct unpack and a table lookup per posting, a quarter of a full build's commit. The
    column is one byte per document, so reading it whole once and indexing a bytes object gives the same
    numbers.
    """

    def __init__(self, per_doc: Any) -> None:
        self._per_doc = per_doc

    def doc_field_length_reader(self, fieldname: str, default: int = 0) -> Callable[[int], int | None]:
        """`W3PerDocReader.doc_field_length_reader`: a function from document number to length."""
        column = _length_column(self._per_doc, fieldname)
        if column is None:
            return lambda docnum: default
        raw = bytes(column._dbfile.get(column._basepos, column._count * column._fixedlen))
        count, table = len(raw), _WRITTEN_LENGTH_OF_BYTE

        def length(docnum: int) -> int | None:
            # Past the column's end Whoosh reads its default byte (0), i.e. None, like here.
            return table[raw[docnum]] if docnum < count else None

        return length


def is_w3_field_writer(fieldwriter: Any) -> bool:
    """Whether `fieldwriter` is exactly what termwrite.py reproduces: Whoosh 3's field writer over an ordered
    hash term file, with number ids and no inlined postings (the default W3 codec)."""
    return (
        type(fieldwriter) is whoosh3.W3FieldWriter
        and type(fieldwriter._tindex) is filetables.OrderedHashWriter
        and type(fieldwriter._codec) is whoosh3.W3Codec
        and fieldwriter._codec._inlinelimit <= 1
    )


class FieldFiles:
    """Where termwrite.py writes a started field's terms, and how, read off a W3 field writer: postings per
    block, zlib's level for their data (0: none), the size of a posting's value (None: variable, 0: none),
    the postings file, the term index (for `add_term_record`) and its file, and the field's number packed
    (a term's key is that and the term's bytes)."""

    def __init__(self, fieldwriter: Any) -> None:
        postwriter = fieldwriter._postwriter
        self.block_limit: int = postwriter._blocklimit
        self.compression: int = postwriter._compression
        self.fixed_value_size: int | None = fieldwriter._format.fixed_value_size()
        self.postings: Any = fieldwriter._postfile
        self.terms: Any = fieldwriter._tindex
        self.terms_file: Any = fieldwriter._tindex.dbfile
        self.key_prefix: bytes = pack_ushort(fieldwriter._fieldid)


POSTINGS_HEADER: bytes = whoosh3.WHOOSH3_HEADER_MAGIC
"""The 4 bytes before a term's first block in the postings file."""
COMPRESSION_MIN_SIZE: int = whoosh3.COMPRESSION_MIN_SIZE
"""A block's pickled data of at least this many bytes is compressed."""
pack_term_info: Callable[..., bytes] = whoosh3.W3TermInfo._struct.pack
"""A term's statistics as its record in the term index starts (weight, lengths, first and last document)."""
_pack_record_lengths: Callable[[int, int], bytes] = filetables._lengths.pack


def add_term_record(terms: Any, key: bytes, value: bytes, at: int) -> bytes:
    """`OrderedHashWriter.add` of a record written at file position `at`, without its writes: the key is
    checked, indexed and hashed as `add` does it; the record's bytes (its lengths, key and value) are returned
    for the caller to write at `at`."""
    if key <= terms.lastkey:
        raise ValueError(f"Keys must increase: {terms.lastkey!r}..{key!r}")
    terms.index.append(at)
    h = terms.hashfn(key)
    terms.buckets[h & 255].append((h, at))
    terms.lastkey = key
    return _pack_record_lengths(len(key), len(value)) + key + value


# Reading a segment


def field_lengths(leaf: Any, field: str) -> list[int]:
    """Each document's length in `field` (as Whoosh stores it, one byte) in one segment.

    whoosh3 keeps them in a column of one byte per document: read whole, that is ~1 ms for 28k documents
    where asking `doc_field_length` per document takes ~40 ms; any other layout is asked document by document
    (a test compares both ways).
    """
    count = int(leaf.doc_count_all())
    try:
        column = _length_column(leaf._perdoc, field)
        if column is None:  # no document has the field (no titles in a plain listing): all zero, as
            return [0] * count  # whoosh3's doc_field_length answers, without a stat per document
        raw = column._dbfile.get(column._basepos, count) if column._fixedlen == 1 else b""
    except (AttributeError, TypeError):
        raw = b""
    if len(raw) == count:
        return [_LENGTH_OF_BYTE[byte] for byte in raw]
    return [leaf.doc_field_length(docnum, field) or 0 for docnum in range(count)]


def generation_files(ix: Any, searcher: Any) -> tuple[str, tuple[str, ...]]:
    """The files of the generation `searcher` reads, by whoosh3's file layout: its table of contents, and the
    prefix of each of its segments' files (`MAIN_<segment id>.`). A commit writes and removes other
    generations' files but never these, so one of these that changes was changed by something else."""
    name = ix.indexname
    generation = searcher.reader().generation()  # None for an index without a segment: its newest TOC
    toc = f"_{name}_{ix.latest_generation() if generation is None else generation}.toc"
    segments = [leaf.segment() for leaf, _offset in searcher.reader().leaf_readers()]
    return toc, tuple(sorted(f"{name}_{segment.segid}." for segment in segments if segment is not None))


def deleted_set(leaf: Any) -> frozenset[int]:
    """A segment's deleted documents (whoosh3 keeps them as a set; empty when there are none or no set)."""
    deleted = getattr(leaf, "deleted_docs_set", None) if leaf.has_deletions() else None
    return deleted if isinstance(deleted, frozenset) else frozenset()


def unfiltered(leaf: Any, matcher: Any) -> Any:
    """The segment's own matcher under whoosh3's deleted-documents filter, which steps one posting at a time
    (the caller leaves deleted documents out itself, by `deleted_set`); as it is when there is no filter."""
    child = getattr(matcher, "child", None)
    return child if child is not None and deleted_set(leaf) else matcher


def read_postings(matcher: Any) -> tuple[list[int], list[float]]:
    """All (document number, term frequency) of a fresh posting-list matcher.

    Whoosh's codec decodes a block of up to 128 postings at once; stepping through them one call per posting
    costs a third more, so whole blocks are taken when the matcher offers them (whoosh3's `W3LeafMatcher`;
    a test compares both ways).
    """
    ids: list[int] = []
    counts: list[float] = []
    if all(hasattr(matcher, name) for name in ("_read_ids", "_read_weights", "_next_block")):
        while matcher.is_active():
            matcher._read_ids()
            matcher._read_weights()
            ids.extend(matcher._ids)
            counts.extend(matcher._weights)
            matcher._next_block()
        return ids, counts
    while matcher.is_active():
        ids.append(matcher.id())
        counts.append(matcher.weight())
        matcher.next()
    return ids, counts


def block_deltas(matcher: Any) -> tuple[list[int], list[float], list[int]] | None:
    """A fresh W3 matcher's document numbers as its blocks store them (each minus the one before, from zero in
    each block), its weights, and where each block starts; None for another matcher. Summed with numpy
    (termarrays.decode), they skip whoosh3's generator per posting, a third of the decoding time."""
    names = ("_read_data", "_read_weights", "_next_block", "_data", "_byteids")
    if not all(hasattr(matcher, name) for name in names) or matcher._byteids:
        return None
    deltas: list[int] = []
    weights: list[float] = []
    starts: list[int] = []
    while matcher.is_active():
        if matcher._data is None:
            matcher._read_data()
        starts.append(len(deltas))
        deltas.extend(matcher._data[0])
        matcher._read_weights()
        weights.extend(matcher._weights)
        matcher._next_block()
    return deltas, weights, starts


def var_bytes_values(column: Any) -> tuple[bytes, Sequence[int], Sequence[int]] | None:
    """A whoosh3 variable-length column's values back to back in one read, with each one's offset and length;
    None for any other column (or an empty one). Whoosh reads a value at a time: 180 ms for 56k ids."""
    raw = column.raw_column() if isinstance(column, TranslatingColumnReader) else None
    if isinstance(raw, VarBytesColumn.Reader) and raw._offsets is not None and len(raw._lengths):
        offsets, lengths = raw._offsets, raw._lengths
        end = offsets[-1] + lengths[-1]
        return bytes(raw._dbfile.get(raw._basepos, end)), offsets, lengths
    return None


# Queries


def expand_once(leaf: Any, budget: Budget | None = None) -> None:
    """Make a prefix, wildcard or fuzzy leaf expand once per segment reader: Whoosh's `estimate_size`,
    `matcher` and `existing_terms` each ask `MultiTerm._btexts`, which expands it again. With `budget`, each
    walk checks it as it goes and stops past `MAX_EXPANSION` words (`QueryStopped`)."""
    if not isinstance(leaf, query.MultiTerm):
        return
    if "_btexts" not in vars(leaf):
        leaf._btexts = _Expansions(leaf, leaf._btexts)
    if isinstance(leaf._btexts, _Expansions):
        leaf._btexts.budget = budget


def seed_expansion(leaf: Any, reader: Any, words: list[bytes]) -> None:
    """Hand `leaf` (made to `expand_once`) the terms it expands to in `reader`."""
    if isinstance(vars(leaf).get("_btexts"), _Expansions):
        leaf._btexts.seed(reader, words)


def expansion(leaf: Any, reader: Any) -> Any:
    """The terms (bytes) a prefix, wildcard or fuzzy leaf expands to in one segment reader."""
    return leaf._btexts(reader)


class _Expansions:
    """One leaf's expanded terms per reader (held by reference, so its id is never reused meanwhile)."""

    def __init__(self, leaf: Any, expand: Any) -> None:
        self._leaf = leaf
        self._expand = expand
        self._seen: dict[int, tuple[Any, list[bytes]]] = {}
        self.budget: Budget | None = None

    def __call__(self, reader: Any) -> list[bytes]:
        known = self._seen.get(id(reader))
        if known is None:
            words = self._walk(reader) if self.budget is not None else list(self._expand(reader))
            known = self._seen[id(reader)] = (reader, words)
        return known[1]

    def seed(self, reader: Any, words: list[bytes]) -> None:
        """Take an expansion made earlier for an equal leaf (the fast ranker keeps them per generation)."""
        self._seen.setdefault(id(reader), (reader, words))

    def _walk(self, reader: Any) -> list[bytes]:
        """The expansion under the budget. A wildcard walks the lexicon here, with the clock looked at every
        `SCAN_CHECK` entries (Whoosh's walk yields only the matches, so a rare `*zq*` would never look);
        a prefix or fuzzy walk yields little between matches (the automaton skips), so its own will do."""
        budget = self.budget
        assert budget is not None
        leaf, shown = self._leaf, typed_form(self._leaf)
        what = f"expanding {shown}"
        budget.check(what)
        candidates: Any = self._expand(reader)
        pattern = None
        if type(leaf) is query.Wildcard:
            prefix = leaf._find_prefix(leaf.text)
            candidates = (
                reader.expand_prefix(leaf.fieldname, prefix) if prefix else reader.lexicon(leaf.fieldname)
            )
            pattern = re.compile(leaf._get_pattern())
            from_bytes = reader.schema[leaf.fieldname].from_bytes
        words: list[bytes] = []
        for count, btext in enumerate(candidates):
            if not count % SCAN_CHECK:
                budget.check(what)
            if pattern is not None and not pattern.match(from_bytes(btext)):
                continue
            words.append(btext)
            if len(words) > MAX_EXPANSION:
                raise QueryStopped(f"{shown} matches more than {MAX_EXPANSION:,} words (type more letters)")
        return words


def typed_form(leaf: Any) -> str:
    """A prefix, wildcard or fuzzy leaf as a query would write it (`diffu*`, `*a*`, `difusion~2`)."""
    if isinstance(leaf, query.FuzzyTerm):
        return f"{leaf.text}~{leaf.maxdist}"
    if type(leaf) is query.Prefix:
        return f"{leaf.text}*"
    return str(leaf.text)


def bm25f_b(weighting: Any, field: str) -> float:
    """The B a `scoring.BM25F` scores `field` with: its own (a `field_B` argument), else the one for all."""
    b: float = weighting._field_B.get(field, weighting.B)
    return b


def terms_within_swaps(reader: Any) -> bool | None:
    """Whether `reader.terms_within` counts a swap of two neighbouring letters as one edit: on one segment
    Whoosh runs a Levenshtein automaton (two edits), on several Damerau-Levenshtein over the merged lexicon
    (one). None: another kind of reader, whose way is not known."""
    method = type(reader).terms_within
    if method is IndexReader.terms_within:
        return True
    if method is SegmentReader.terms_within:
        return False
    return None


# Scoring a phrase by its count (query.py's `FrequencyPhrase`)


def boosted(matcher: Any, boost: float) -> Any:
    """`matcher` with its scores times `boost`, as Whoosh's own `Phrase.matcher` boosts one."""
    return WrappingMatcher(matcher, boost=boost)


def counted_phrase(matcher: Any, searcher: Any, field: str, idf: float, weighting: Any, boost: float) -> Any:
    """Whoosh's phrase `matcher` (a span matcher), scored by BM25F over the phrase's count in the paper (its
    spans) with `idf`, times `boost`. Whoosh has no public way to give a query's matcher another score; a
    wrapping matcher is what both its collector and the array ranker (which steps it) then ask."""
    return _PhraseCount(matcher, searcher, field, idf, weighting, boost)


class _PhraseCount(WrappingMatcher):  # type: ignore[misc]
    def __init__(
        self, child: Any, searcher: Any, field: str, idf: float, weighting: Any, boost: float
    ) -> None:
        super().__init__(child, boost=boost)
        self._searcher = searcher
        self._field = field
        self._idf = idf
        self._weighting = weighting
        self._average = searcher.get_parent().avg_field_length(field) or 1
        self._b = bm25f_b(weighting, field)

    def copy(self) -> _PhraseCount:
        return self._replacement(self.child.copy())

    def _replacement(self, newchild: Any) -> _PhraseCount:
        return _PhraseCount(newchild, self._searcher, self._field, self._idf, self._weighting, self.boost)

    def supports_block_quality(self) -> bool:
        return False  # the words' block bounds say nothing of the phrase's count

    def score(self) -> float:
        count = len(self.child.spans())
        length = self._searcher.doc_field_length(self.child.id(), self._field, 1)
        score = float(scoring.bm25(self._idf, count, length, self._average, self._b, self._weighting.K1))
        return score * float(self.boost)
