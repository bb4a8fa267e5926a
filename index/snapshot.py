"""The catalog as one marshal blob of plain tuples, so a reader opens 56k papers without re-parsing listings.

Dataclass pickles cost a `__setstate__` call per object; marshal of tuples and strings loads at C speed, and
an `Entry` that only repeats its paper's fields (nearly all of them) is stored as two integers.
"""

from __future__ import annotations

import marshal
from typing import Any

from index.models import Catalog, Entry, Listing, Notice, Paper, Source

FORMAT = 1
_MARSHAL_VERSION = 4


def encode(catalog: Catalog) -> bytes:
    """Serialise `catalog`; `decode(encode(c)) == c`."""
    source_index: dict[Source, int] = {}
    sources: list[tuple[Any, ...]] = []

    def source_ref(source: Source) -> int:
        ref = source_index.get(source)
        if ref is None:
            ref = source_index[source] = len(sources)
            sources.append((source.path, source.paragraph, source.line, source.listing))
        return ref

    papers = []
    owner: dict[Source, int] = {}
    for number, paper in enumerate(catalog.papers):
        refs = tuple(source_ref(source) for source in paper.sources)
        for source in paper.sources:
            owner.setdefault(source, number)
        papers.append(
            (
                paper.id,
                paper.headline,
                paper.abstract,
                refs,
                paper.title,
                paper.authors,
                paper.url,
                paper.venue,
                paper.year,
                paper.status,
            )
        )
    listings = []
    for listing in catalog.listings:
        entries: list[Any] = []
        for entry in listing.entries:
            number = owner.get(entry.source, -1)
            if number >= 0 and entry == _entry_from(catalog.papers[number], entry.source):
                entries.append((number, source_ref(entry.source)))
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
    body = (FORMAT, sources, papers, listings, [_notice(n) for n in catalog.notices])
    return marshal.dumps(body, _MARSHAL_VERSION)


def decode(data: bytes) -> Catalog | None:
    """The catalog `encode` wrote, or None for another format version or damaged data (caller rebuilds)."""
    try:
        version, raw_sources, raw_papers, raw_listings, raw_notices = marshal.loads(data)
        if version != FORMAT:
            return None
        sources = [Source(*row) for row in raw_sources]
        papers = tuple(
            [
                Paper(
                    pid,
                    headline,
                    abstract,
                    tuple([sources[i] for i in refs]),
                    title,
                    authors,
                    url,
                    venue,
                    yr,
                    st,
                )
                for pid, headline, abstract, refs, title, authors, url, venue, yr, st in raw_papers
            ]
        )
        listings = tuple(
            Listing(
                path,
                name,
                venue,
                year,
                fmt,
                tuple(
                    _entry_from(papers[row[0]], sources[row[1]])
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


def _entry_from(paper: Paper, source: Source) -> Entry:
    return Entry(
        paper.abstract, source, paper.title, paper.authors, paper.url, paper.venue, paper.year, paper.status
    )


def _notice(notice: Notice) -> tuple[str, str, int | None]:
    return (notice.path, notice.message, notice.line)
