"""How a catalog is written as the snapshot stored beside the index: the layout, and its encoders.

The layout lets a reader (`index.search.snapshot.Snapshot`) open 56k papers without decoding them all. Three
sections after a fixed header: a small "list" part (ids, headlines, venues, years, statuses: what the paper
list, the position map and the facet counts need at start; the headlines are each paper's own line, which an
update carries over, and beside them the few lines shown instead so that no two papers read alike,
`shown`), one marshal record per paper (decoded only when
that paper is shown or returned by a search), and the listings (decoded only when the whole `Catalog` is
asked for). Marshal of tuples and strings loads at C speed; an `Entry` that only repeats its paper's fields
(nearly all of them) is stored as an integer.
"""

from __future__ import annotations

import itertools
import marshal
import struct
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from index.listings.catalog import distinct_headlines
from index.models import Catalog, Entry, Notice, Paper, Source

STREAM_ABOVE = 100_000
"""Papers above which `encode_parts` encodes each record twice rather than hold all of them."""
FORMAT = 5
"""5: the shown lines joined the list part (no two papers alike); 4: statuses (facet counts per keystroke).
An older snapshot is re-encoded by the next `ensure_current`/`update` (see `IndexMaintenance.staleness`),
without re-indexing."""
MARSHAL_VERSION = 4
HEADER = struct.Struct("<QQQQ")  # format, then the byte lengths of the list part, the records, the listings
Where = tuple[str, str]  # a source's (path, listing name), shared by every paper of one file
Chunk = bytes | memoryview
Columns = tuple[
    list[str], list[str], list[str | None], list[int | None], list[str | None], list[Where], list[Notice]
]
"""The list part's columns before encoding: ids, headlines, venues, years, statuses, wheres, notices."""


def encode(catalog: Catalog) -> bytes:
    """Serialise `catalog`; `decode(encode(c)) == c` but for the headlines `shown_lines` replaces."""
    return b"".join(encode_parts(catalog))


def shown_lines(catalog: Catalog) -> dict[int, str]:
    """The lines shown in place of some papers' own (by paper number) so that no two read alike."""
    papers = catalog.papers
    return distinct_headlines(
        [paper.id for paper in papers], [paper.headline for paper in papers], papers.__getitem__
    )


def encode_parts(catalog: Catalog, shown: Mapping[int, str] | None = None) -> Iterator[bytes]:
    """`encode(catalog)` as pieces to write one after another, never joined into one bytes object.

    `shown`: `shown_lines(catalog)` when the caller has it already (made here otherwise).

    Above `STREAM_ABOVE` papers the records are not even all held at once: they are encoded twice, once for
    their sizes (the offsets table precedes them) and once as they are written. At 250k papers that is 300 MB
    less at the build's peak of memory, for a second or so of marshal.
    """
    where_index: dict[Where, int] = {}

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
    shown = shown_lines(catalog) if shown is None else shown
    head = (
        [paper.id for paper in papers],
        [paper.headline for paper in papers],
        [paper.venue for paper in papers],
        [paper.year for paper in papers],
        [paper.status for paper in papers],
        list(where_index),
        offsets.tobytes(),
        [_notice(n) for n in catalog.notices],
        sorted(shown.items()),
    )
    light = marshal.dumps(head, MARSHAL_VERSION)
    rest = marshal.dumps(listings, MARSHAL_VERSION)
    header = HEADER.pack(FORMAT, len(light), offsets[-1], len(rest))
    yield header
    yield light
    yield from chunks if chunks is not None else map(record, papers)
    yield rest


def encode_spliced(
    columns: Columns,
    lengths: Sequence[int],
    chunks: Sequence[Chunk],
    listings: list[Any],
    shown: Mapping[int, str],
) -> Iterator[Chunk]:
    """The pieces of a snapshot assembled from parts already encoded (see `index.search.splice`).

    Args:
        columns: ids, headlines, venues, years, statuses, the (path, listing name) table source rows point
            into, and the catalog's notices.
        lengths: each paper's record length, in paper order.
        chunks: the records, in paper order: runs of the previous snapshot's records copied as they are,
            and the records of papers encoded again.
        listings: the listings part as `encode_parts` lays it out (entries as paper numbers or tuples).
        shown: the lines shown in place of the headlines column's, by paper number (`shown_lines`).
    """
    ids, headlines, venues, years, statuses, wheres, notices = columns
    offsets = array("q", [0])
    offsets.extend(itertools.accumulate(lengths))
    head = (
        ids,
        headlines,
        venues,
        years,
        statuses,
        wheres,
        offsets.tobytes(),
        [_notice(n) for n in notices],
        sorted(shown.items()),
    )
    light = marshal.dumps(head, MARSHAL_VERSION)
    rest = marshal.dumps(listings, MARSHAL_VERSION)
    yield HEADER.pack(FORMAT, len(light), offsets[-1], len(rest))
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
    return dumps((paper.abstract, paper.title, paper.authors, paper.url, sources), MARSHAL_VERSION)


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


def _notice(notice: Notice) -> tuple[str, str, int | None]:
    return (notice.path, notice.message, notice.line)
