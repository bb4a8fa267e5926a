"""The catalog as one marshal blob of plain tuples, so a reader opens 56k papers without re-parsing listings.

Dataclass pickles cost a `__setstate__` call per object; marshal of tuples and strings loads at C speed, and
an `Entry` that only repeats its paper's fields (nearly all of them) is stored as two integers.
"""

from __future__ import annotations

import gc
import marshal
from typing import Any

from index.models import Catalog, Entry, Listing, Notice, Paper, Source

FORMAT = 2
_MARSHAL_VERSION = 4


def encode(catalog: Catalog) -> bytes:
    """Serialise `catalog`; `decode(encode(c)) == c`."""
    # Keyed by object identity: the catalog shares one Source object between a paper and its entry, and
    # identity skips the dataclass __hash__ (a third of the encoding time). Equal but distinct objects only
    # cost a duplicate row or a fully stored entry, never a wrong answer.
    source_index: dict[int, int] = {}
    sources: list[tuple[Any, ...]] = []

    def source_ref(source: Source) -> int:
        ref = source_index.get(id(source))
        if ref is None:
            ref = source_index[id(source)] = len(sources)
            sources.append((source.path, source.paragraph, source.line, source.listing))
        return ref

    papers = catalog.papers
    owner: dict[int, int] = {}
    for number, paper in enumerate(papers):
        for source in paper.sources:
            owner.setdefault(id(source), number)
    # Column-wise: decode builds every Paper with one C-level map() call instead of a Python loop.
    columns = (
        [paper.id for paper in papers],
        [paper.headline for paper in papers],
        [paper.abstract for paper in papers],
        [tuple(source_ref(source) for source in paper.sources) for paper in papers],
        [paper.title for paper in papers],
        [paper.authors for paper in papers],
        [paper.url for paper in papers],
        [paper.venue for paper in papers],
        [paper.year for paper in papers],
        [paper.status for paper in papers],
    )
    listings = []
    for listing in catalog.listings:
        entries: list[Any] = []
        for entry in listing.entries:
            number = owner.get(id(entry.source), -1)
            if number >= 0 and entry == _entry_from(papers[number], entry.source):
                # The paper's first occurrence: its index alone; a duplicate's: index and source.
                first = entry.source is papers[number].sources[0]
                entries.append(number if first else (number, source_ref(entry.source)))
            else:
                entries.append(
                    (
                        entry.abstract,
                        source_ref(entry.source),
                        entry.title,
                        entry.authors,
                        entry.url,
                        entry.venue,
                        entry.year,
                        entry.status,
                    )
                )
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
    body = (FORMAT, sources, columns, listings, [_notice(n) for n in catalog.notices])
    return marshal.dumps(body, _MARSHAL_VERSION)


def decode(data: bytes) -> Catalog | None:
    """The catalog `encode` wrote, or None for another format version or damaged data (caller rebuilds)."""
    # Some 300k objects are created below and none is garbage: a collection pass in the middle of that is
    # pure cost (about a third of the time), so the collector waits until the catalog is built.
    enabled = gc.isenabled()
    gc.disable()
    try:
        version, raw_sources, columns, raw_listings, raw_notices = marshal.loads(data)
        if version != FORMAT:
            return None
        sources = list(map(Source, *zip(*raw_sources, strict=True))) if raw_sources else []
        ids, headlines, abstracts, refs, titles, authors, urls, venues, years, statuses = columns
        paper_sources = [(sources[r[0]],) if len(r) == 1 else tuple([sources[i] for i in r]) for r in refs]
        papers = tuple(
            map(
                Paper,
                ids,
                headlines,
                abstracts,
                paper_sources,
                titles,
                authors,
                urls,
                venues,
                years,
                statuses,
            )
        )
        listings = tuple(
            Listing(
                path,
                name,
                venue,
                year,
                fmt,
                tuple(
                    _entry_from(papers[row], paper_sources[row][0])
                    if isinstance(row, int)
                    else _entry_from(papers[row[0]], sources[row[1]])
                    if len(row) == 2
                    else Entry(row[0], sources[row[1]], *row[2:])
                    for row in entries
                ),
                tuple(Notice(*n) for n in notices),
            )
            for path, name, venue, year, fmt, entries, notices in raw_listings
        )
        return Catalog(listings, papers, tuple(Notice(*n) for n in raw_notices))
    except (ValueError, EOFError, TypeError, IndexError):
        return None
    finally:
        if enabled:
            gc.enable()


def _entry_from(paper: Paper, source: Source) -> Entry:
    return Entry(
        paper.abstract, source, paper.title, paper.authors, paper.url, paper.venue, paper.year, paper.status
    )


def _notice(notice: Notice) -> tuple[str, str, int | None]:
    return (notice.path, notice.message, notice.line)
