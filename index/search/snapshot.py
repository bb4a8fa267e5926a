"""The snapshot stored beside the index, read: the list columns at once, a paper or the listings on demand.

`snapshot_encode.py` writes it and holds its layout; this side only reads it, so opening 56k papers decodes
none of them until one is asked for.
"""

from __future__ import annotations

import gc
import marshal
import operator
import struct
from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from index.models import Catalog, Entry, LazyPapers, Listing, Notice, Paper, Source, metadata_keywords
from index.search.snapshot_encode import FORMAT, HEADER, Where

HEAD_SIZE = HEADER.size
"""How many leading bytes `format_of` needs."""


class SnapshotDamaged(ValueError):
    """A record could not be decoded although the snapshot's frame was intact: the caller rebuilds."""


def format_of(head: bytes) -> int | None:
    """The format number in a stored snapshot's first `HEAD_SIZE` bytes, None if too short."""
    return int(HEADER.unpack_from(head)[0]) if len(head) >= HEADER.size else None


def decode(data: bytes | memoryview) -> Catalog | None:
    """The whole catalog `snapshot_encode.encode` wrote; None for another format or damaged data (the caller
    rebuilds)."""
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
        shown: Mapping[int, str] | None = None,
    ) -> None:
        self.ids = ids
        self.made = headlines
        """Each paper's own line (what an update carries over and the search index holds)."""
        self.headlines: Sequence[str] = headlines
        """The lines shown: `made` but where another paper's is alike (`snapshot_encode.shown_lines`)."""
        if shown:
            shown_list = list(headlines)
            for number, line in shown.items():
                shown_list[number] = line
            self.headlines = shown_list
        self.venues = venues
        self.years = years
        self.statuses = statuses
        self.notices = notices
        self._papers: list[Paper | None] = [None] * len(ids)
        self._catalog: Catalog | None = None
        self._data: memoryview | None = None
        self._wheres: list[Where] = []
        self._offsets: array[int] = array("q")
        self._records_at = 0
        self._rest: tuple[int, int] = (0, 0)
        self.papers: Sequence[Paper] = LazyPapers(len(ids), self.paper)

    @classmethod
    def from_catalog(cls, catalog: Catalog, shown: Mapping[int, str] | None = None) -> Snapshot:
        """A snapshot of a catalog already in memory (just built or updated): nothing left to decode but
        the papers whose shown line is not their own (`shown`, as `snapshot_encode.shown_lines`)."""
        papers = catalog.papers
        made = cls(
            [paper.id for paper in papers],
            [paper.headline for paper in papers],
            [paper.venue for paper in papers],
            [paper.year for paper in papers],
            [paper.status for paper in papers],
            catalog.notices,
            shown,
        )
        if shown:
            papers = tuple(
                replace(paper, headline=shown[number]) if number in shown else paper
                for number, paper in enumerate(papers)
            )
            catalog = replace(catalog, papers=papers)
        made._papers = list(papers)
        made._catalog = catalog
        return made

    @classmethod
    def open(cls, data: bytes | memoryview) -> Snapshot | None:
        """Read the list part of `data` (bytes or a mapped file); None for another format or a bad frame."""
        view = memoryview(data)
        try:
            version, light_len, records_len, rest_len = HEADER.unpack_from(view)
            if version != FORMAT or HEADER.size + light_len + records_len + rest_len != len(view):
                return None
            start = HEADER.size
            ids, headlines, venues, years, statuses, wheres, offsets, notices, shown = marshal.loads(
                view[start : start + light_len]
            )
            made = cls(
                ids, headlines, venues, years, statuses, tuple(Notice(*n) for n in notices), dict(shown)
            )
            made._offsets.frombytes(offsets)
            if (
                len(made._offsets) != len(ids) + 1
                or made._offsets[-1] != records_len
                or len(statuses) != len(ids)
            ):
                return None
        except (ValueError, EOFError, TypeError, IndexError, struct.error):
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
    def wheres(self) -> list[Where]:
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
        """The listings part as `snapshot_encode.encode_parts` laid it out: entries as paper numbers or
        tuples."""
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
