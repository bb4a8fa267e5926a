"""The catalog stored beside the index, laid out so a reader opens 56k papers without decoding them all.

Three sections after a fixed header: a small "list" part (ids, headlines, venues, years, statuses: what the
paper list, the position map and the facet counts need at start), one marshal record per paper (decoded only
when that paper is shown or returned by a search), and the listings (decoded only when the whole `Catalog` is
asked for). Marshal of tuples and strings loads at C speed; an `Entry` that only repeats its paper's fields
(nearly all of them) is stored as an integer.
"""

from __future__ import annotations

import gc
import itertools
import marshal
import operator
import struct
from array import array
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from index.models import Catalog, Entry, LazyPapers, Listing, Notice, Paper, Source, metadata_keywords

STREAM_ABOVE = 100_000
"""Papers above which `encode_parts` encodes each record twice rather than hold all of them."""
FORMAT = 4
"""4: statuses joined the list part (facet counts per keystroke); an older snapshot is re-encoded by the next
`ensure_current`/`update` (see `IndexMaintenance.staleness`), without re-indexing."""
_MARSHAL_VERSION = 4
_HEADER = struct.Struct("<QQQQ")  # format, then the byte lengths of the list part, the records, the listings
HEAD_SIZE = _HEADER.size
_Where = tuple[str, str]  # a source's (path, listing name), shared by every paper of one file
Chunk = bytes | memoryview
Columns = tuple[
    list[str], list[str], list[str | None], list[int | None], list[str | None], list[_Where], list[Notice]
]
"""The list part's columns before encoding: ids, headlines, venues, years, statuses, wheres, notices."""


class SnapshotDamaged(ValueError):
    """A record could not be decoded although the snapshot's frame was intact: the caller rebuilds."""


def encode(catalog: Catalog) -> bytes:
    """Serialise `catalog`; `decode(encode(c)) == c`."""
    return b"".join(encode_parts(catalog))


def encode_parts(catalog: Catalog) -> Iterator[bytes]:
    """`encode(catalog)` as pieces to write one after another, never joined into one bytes object.

    Above `STREAM_ABOVE` papers the records are not even all held at once: they are encoded twice, once for
    their sizes (the offsets table precedes them) and once as they are written. At 250k papers that is 300 MB
    less at the build's peak of memory, for a second or so of marshal.
    """
    where_index: dict[_Where, int] = {}

    def source_row(source: Source) -> tuple[int, int, int]:
        key = (source.path, source.listing)
        ref = where_index.get(key)
        if ref is None:
            ref = where_index[key] = len(where_index)
        return (ref, source.paragraph, source.line)

    papers = catalog.papers
    dumps = marshal.dumps

    def record(paper: Paper) -> bytes:
        return encode_record(paper, source_row, dumps)

    # Either pass numbers the sources in paper order, so both write the same bytes.
    chunks = [record(paper) for paper in papers] if len(papers) <= STREAM_ABOVE else None
    offsets = array("q", [0])
    offsets.extend(itertools.accumulate(map(len, chunks) if chunks else (len(record(p)) for p in papers)))
    # Keyed by object identity: the catalog shares one Source object between a paper and its entry, and
    # identity skips the dataclass __hash__. Equal but distinct objects only cost a fully stored entry.
    owner: dict[int, int] = {}
    for number, paper in enumerate(papers):
        for source in paper.sources:
            owner.setdefault(id(source), number)
    listings = []
    for listing in catalog.listings:
        entries: list[Any] = []
        for entry in listing.entries:
            number = owner.get(id(entry.source), -1)
            if number >= 0:
                entries.append(encode_entry(entry, papers[number], number, source_row))
            else:
                entries.append((entry.abstract, source_row(entry.source), *entry.metadata_values()))
        listings.append(
            (
                listing.path,
                listing.name,
                listing.venue,
                listing.year,
                listing.format,
                entries,
                [_notice(n) for n in listing.notices],
            )
        )
    head = (
        [paper.id for paper in papers],
        [paper.headline for paper in papers],
        [paper.venue for paper in papers],
        [paper.year for paper in papers],
        [paper.status for paper in papers],
        list(where_index),
        offsets.tobytes(),
        [_notice(n) for n in catalog.notices],
    )
    light = marshal.dumps(head, _MARSHAL_VERSION)
    rest = marshal.dumps(listings, _MARSHAL_VERSION)
    header = _HEADER.pack(FORMAT, len(light), offsets[-1], len(rest))
    yield header
    yield light
    yield from chunks if chunks is not None else map(record, papers)
    yield rest


def encode_spliced(
    columns: Columns, lengths: Sequence[int], chunks: Sequence[Chunk], listings: list[Any]
) -> Iterator[Chunk]:
    """The pieces of a snapshot assembled from parts already encoded (see `index.search.splice`).

    Args:
        columns: ids, headlines, venues, years, statuses, the (path, listing name) table source rows point
            into, and the catalog's notices.
        lengths: each paper's record length, in paper order.
        chunks: the records, in paper order: runs of the previous snapshot's records copied as they are,
            and the records of papers encoded again.
        listings: the listings part as `encode_parts` lays it out (entries as paper numbers or tuples).
    """
    ids, headlines, venues, years, statuses, wheres, notices = columns
    offsets = array("q", [0])
    offsets.extend(itertools.accumulate(lengths))
    head = (ids, headlines, venues, years, statuses, wheres, offsets.tobytes(), [_notice(n) for n in notices])
    light = marshal.dumps(head, _MARSHAL_VERSION)
    rest = marshal.dumps(listings, _MARSHAL_VERSION)
    yield _HEADER.pack(FORMAT, len(light), offsets[-1], len(rest))
    yield light
    yield from chunks
    yield rest


def encode_record(
    paper: Paper,
    source_row: Callable[[Source], tuple[int, int, int]],
    dumps: Callable[..., bytes] = marshal.dumps,
) -> bytes:
    """One paper's record: what the list part does not hold, sources as rows into the (path, name) table."""
    sources = tuple([source_row(source) for source in paper.sources])
    return dumps((paper.abstract, paper.title, paper.authors, paper.url, sources), _MARSHAL_VERSION)


def encode_entry(
    entry: Entry, paper: Paper, number: int, source_row: Callable[[Source], tuple[int, int, int]]
) -> Any:
    """How the listings part stores an entry of paper `number`: the number alone for the paper's first
    occurrence, (number, source row) for a duplicate that says nothing more, else the whole entry."""
    if _repeats(entry, paper):
        return number if entry.source is paper.sources[0] else (number, source_row(entry.source))
    return (entry.abstract, source_row(entry.source), *entry.metadata_values())


def _repeats(entry: Entry, paper: Paper) -> bool:
    """Whether the entry says nothing its paper does not (field by field: no Entry built to compare)."""
    return entry.abstract == paper.abstract and entry.metadata_values() == paper.metadata_values()


def format_of(head: bytes) -> int | None:
    """The format number in a stored snapshot's first `HEAD_SIZE` bytes, None if too short."""
    return int(_HEADER.unpack_from(head)[0]) if len(head) >= _HEADER.size else None


def decode(data: bytes | memoryview) -> Catalog | None:
    """The whole catalog `encode` wrote; None for another format or damaged data (the caller rebuilds)."""
    opened = Snapshot.open(data)
    if opened is None:
        return None
    try:
        return opened.catalog()
    except SnapshotDamaged:
        return None


class Snapshot:
    """One stored catalog: the list columns at once, each paper on first use, the listings on demand.

    Safe to share between the UI thread and a search worker: a paper decoded twice by two threads at once
    is equal both times, and storing it in the cache list is atomic.
    """

    def __init__(
        self,
        ids: Sequence[str],
        headlines: Sequence[str],
        venues: Sequence[str | None],
        years: Sequence[int | None],
        statuses: Sequence[str | None],
        notices: tuple[Notice, ...],
    ) -> None:
        self.ids = ids
        self.headlines = headlines
        self.venues = venues
        self.years = years
        self.statuses = statuses
        self.notices = notices
        self._papers: list[Paper | None] = [None] * len(ids)
        self._catalog: Catalog | None = None
        self._data: memoryview | None = None
        self._wheres: list[_Where] = []
        self._offsets: array[int] = array("q")
        self._records_at = 0
        self._rest: tuple[int, int] = (0, 0)
        self.papers: Sequence[Paper] = LazyPapers(len(ids), self.paper)

    @classmethod
    def from_catalog(cls, catalog: Catalog) -> Snapshot:
        """A snapshot of a catalog already in memory (just built or updated): nothing left to decode."""
        papers = catalog.papers
        made = cls(
            [paper.id for paper in papers],
            [paper.headline for paper in papers],
            [paper.venue for paper in papers],
            [paper.year for paper in papers],
            [paper.status for paper in papers],
            catalog.notices,
        )
        made._papers = list(papers)
        made._catalog = catalog
        return made

    @classmethod
    def open(cls, data: bytes | memoryview) -> Snapshot | None:
        """Read the list part of `data` (bytes or a mapped file); None for another format or a bad frame."""
        view = memoryview(data)
        try:
            version, light_len, records_len, rest_len = _HEADER.unpack_from(view)
            if version != FORMAT or _HEADER.size + light_len + records_len + rest_len != len(view):
                return None
            start = _HEADER.size
            ids, headlines, venues, years, statuses, wheres, offsets, notices = marshal.loads(
                view[start : start + light_len]
            )
            made = cls(ids, headlines, venues, years, statuses, tuple(Notice(*n) for n in notices))
            made._offsets.frombytes(offsets)
            if (
                len(made._offsets) != len(ids) + 1
                or made._offsets[-1] != records_len
                or len(statuses) != len(ids)
            ):
                return None
        except (ValueError, EOFError, TypeError, struct.error):
            return None
        made._data = view
        made._wheres = [tuple(where) for where in wheres]
        made._records_at = start + light_len
        made._rest = (made._records_at + records_len, rest_len)
        return made

    def __len__(self) -> int:
        return len(self.ids)

    def paper(self, number: int) -> Paper:
        """The paper at `number` in listing order (decoded once, then cached)."""
        paper = self._papers[number]
        if paper is None:
            paper = self._papers[number] = self._decode_paper(number)
        return paper

    def _decode_paper(self, number: int) -> Paper:
        assert self._data is not None
        base = self._records_at
        try:
            abstract, title, authors, url, sources = marshal.loads(
                self._data[base + self._offsets[number] : base + self._offsets[number + 1]]
            )
            return Paper(
                self.ids[number],
                self.headlines[number],
                abstract,
                tuple(self._source(row) for row in sources),
                title=title,
                authors=authors,
                url=url,
                venue=self.venues[number],
                year=self.years[number],
                status=self.statuses[number],
            )
        except (ValueError, EOFError, TypeError, IndexError) as error:
            raise SnapshotDamaged(f"paper record {number}: {error}") from None

    def with_title_and_authors(self) -> Iterator[Paper]:
        """The papers whose record has a title and an author, in listing order; the others are looked at no
        further than their title and authors (a BibTeX export of 56k title-less papers decodes none)."""
        assert self._data is not None
        base, offsets, data = self._records_at, self._offsets, self._data
        for number in range(len(self.ids)):
            if self._papers[number] is None:
                record = marshal.loads(data[base + offsets[number] : base + offsets[number + 1]])
                if not (record[1] and record[2]):
                    continue
            paper = self.paper(number)
            if paper.title and paper.authors:
                yield paper

    @property
    def wheres(self) -> list[_Where]:
        """The (path, listing name) table the stored source rows point into."""
        return self._wheres

    def records(self, start: int, stop: int) -> memoryview:
        """The stored records of papers `start` to `stop - 1` as they are, undecoded (an update copies the
        unchanged ones)."""
        assert self._data is not None
        base = self._records_at
        return self._data[base + self._offsets[start] : base + self._offsets[stop]]

    def record_lengths(self) -> list[int]:
        """Each paper's stored record length, in paper order."""
        offsets = self._offsets
        return list(map(operator.sub, offsets[1:], offsets[:-1]))

    def raw_listings(self) -> list[Any]:
        """The listings part as `encode_parts` laid it out: entries as paper numbers or tuples."""
        assert self._data is not None
        at, length = self._rest
        try:
            raw: list[Any] = marshal.loads(self._data[at : at + length])
        except (ValueError, EOFError, TypeError) as error:
            raise SnapshotDamaged(f"listings: {error}") from None
        return raw

    def source(self, row: tuple[int, int, int]) -> Source:
        """The `Source` a stored source row stands for."""
        return self._source(row)

    def raw_entry(self, row: Any) -> Entry:
        """The `Entry` one item of `raw_listings()` stands for (decoding only the paper it names)."""
        try:
            if isinstance(row, int):
                paper = self.paper(row)
                return _entry_from(paper, paper.sources[0])
            if len(row) == 2:
                return _entry_from(self.paper(row[0]), self._source(row[1]))
            return Entry(row[0], self._source(row[1]), **metadata_keywords(row[2:]))
        except (ValueError, TypeError, IndexError) as error:
            raise SnapshotDamaged(f"listing entry: {error}") from None

    def _source(self, row: tuple[int, int, int]) -> Source:
        path, listing = self._wheres[row[0]]
        return Source(path, row[1], row[2], listing)

    def catalog(self) -> Catalog:
        """Everything, as the `Catalog` it was made from (decodes every paper: for the CLI and tests)."""
        if self._catalog is not None:
            return self._catalog
        assert self._data is not None
        # Some 300k objects are created below and none is garbage: a collection pass in the middle of that is
        # pure cost, so the collector waits until the catalog is built.
        enabled = gc.isenabled()
        gc.disable()
        try:
            papers = tuple(self.paper(number) for number in range(len(self)))
            at, length = self._rest
            raw_listings = marshal.loads(self._data[at : at + length])
            listings = tuple(
                Listing(
                    path,
                    name,
                    venue,
                    year,
                    fmt,
                    tuple(self._entry(papers, row) for row in entries),
                    tuple(Notice(*n) for n in notices),
                )
                for path, name, venue, year, fmt, entries, notices in raw_listings
            )
        except (ValueError, EOFError, TypeError, IndexError) as error:
            raise SnapshotDamaged(f"listings: {error}") from None
        finally:
            if enabled:
                gc.enable()
        self._catalog = Catalog(listings, papers, self.notices)
        return self._catalog

    def _entry(self, papers: tuple[Paper, ...], row: Any) -> Entry:
        if isinstance(row, int):
            return _entry_from(papers[row], papers[row].sources[0])
        if len(row) == 2:
            return _entry_from(papers[row[0]], self._source(row[1]))
        return Entry(row[0], self._source(row[1]), **metadata_keywords(row[2:]))


def _entry_from(paper: Paper, source: Source) -> Entry:
    # Keywords spelled out, not `**paper.metadata()`: a whole catalog builds 56k of these.
    return Entry(
        paper.abstract,
        source,
        title=paper.title,
        authors=paper.authors,
        url=paper.url,
        venue=paper.venue,
        year=paper.year,
        status=paper.status,
    )


def _notice(notice: Notice) -> tuple[str, str, int | None]:
    return (notice.path, notice.message, notice.line)
