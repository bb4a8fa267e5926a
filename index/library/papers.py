"""The papers of one set of listings, in listing order: found by id or by what a user typed, shown safely.

Both front ends read papers through this. When the search index is current its snapshot holds every paper
with the headline made at build time, so 56k papers open without reading a listing (a paper's record is
decoded only when it is asked for); otherwise the listings are parsed now and a headline is made when a
paper is first shown. Text coming out of here for display has been through `render` or `safe`, so no
listing byte reaches a terminal as an escape sequence.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, overload

from index.headline.contribution import contribution
from index.listings.catalog import headlines_on_demand, load_catalog, load_first_listings, no_headline
from index.listings.reader import expand_paths
from index.models import Catalog, Notice, Paper, Rendered
from index.render.abstract import render, to_plain
from index.render.pdf_glyphs import counts as glyph_counts
from index.render.sanitize import safe_url, sanitize
from index.search.answers import Highlight, MatchSpan
from index.search.index import IndexMaintenance, IndexUnavailable
from index.search.snapshot import Snapshot
from index.state.bibtex import citable
from index.state.transfer import Described, first_sentence
from index.views import places_in

MIN_PREFIX = 4
"""The shortest id prefix taken for a whole id: fewer hex digits match too many of 56k papers."""
FIRST_SCREEN = 2000
"""Paragraphs the reader reads before its first paint when there is no index to list papers from: pages of
rows, read in milliseconds; the rest follow in a worker (`Library.read_all_listings`)."""

Spans = Callable[[str, Highlight], tuple[MatchSpan, ...]]
"""Where a view's matched terms stand in one paper's rendered abstract (empty while there is no index)."""


class UnknownPaperId(LookupError):
    """An id or prefix that names no paper, or several; `str()` is the one line to show the user."""


@dataclass(frozen=True, slots=True)
class PaperPage:
    """One paper as a front end shows it: display-safe text, its link, and a view's matches marked."""

    paper: Paper
    title: str
    """The title with its LaTeX rendered ("{BERT}" -> "BERT"), else the headline."""
    synthesised: bool
    """True when the listing gave no title and the headline was made from the abstract."""
    rendered: Rendered
    link: str | None
    """The URL when a terminal may be handed it as a hyperlink (`safe_url`), else None: show it as text."""
    matches: tuple[MatchSpan, ...]


def safe(text: str) -> str:
    """A short listing string (headline, venue, author, path) made safe to print: no controls, one-spaced."""
    return sanitize(text)


class Papers:
    """The papers of one library, in listing order, and the listing warnings that came with them.

    Args:
        source: a parsed catalog (headlines made when first asked for) or an index snapshot.
        notices: warnings about these listings, spelled as the user named the files.
        spans: finds a view's matches in a paper (the library passes its index's, once it is ready).
    """

    def __init__(self, source: Catalog | Snapshot, notices: Sequence[Notice], spans: Spans) -> None:
        self.source = source
        self.notices = tuple(notices)
        self._spans = spans
        if isinstance(source, Catalog):
            self._papers: Sequence[Paper] = headlines_on_demand(source.papers)
            self.ids: Sequence[str] = [paper.id for paper in source.papers]
            self._venues: Sequence[str | None] = [paper.venue for paper in source.papers]
            self._years: Sequence[int | None] = [paper.year for paper in source.papers]
        else:
            self._papers = source.papers
            self.ids = source.ids
            self._venues, self._years = source.venues, source.years
        where = set(zip(self._venues, self._years, strict=True))
        self.position = {paper_id: number for number, paper_id in enumerate(self.ids)}
        self.venue_years: frozenset[tuple[str | None, int | None]] = frozenset(where)
        """Every (venue, year) the papers come from: a front end sizes its venue column from these."""
        # Three files of one conference are one listing to a reader: show venue/year only when they differ.
        self.spans_several_listings = len(where) > 1
        self._rendered = lru_cache(maxsize=256)(self._render)
        self._catalog: Catalog | None = None
        self._places: dict[str, Mapping[str, int]] = {"listing": self.position}

    @property
    def from_index(self) -> bool:
        """Whether the papers came from the index's snapshot (with their headlines) rather than a parse."""
        return isinstance(self.source, Snapshot)

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self.position

    def __iter__(self) -> Iterator[Paper]:
        return iter(self._papers)

    @overload
    def __getitem__(self, number: int) -> Paper: ...
    @overload
    def __getitem__(self, number: slice) -> Sequence[Paper]: ...
    def __getitem__(self, number: int | slice) -> Paper | Sequence[Paper]:
        """Papers by their place in listing order (`paper` looks one up by id)."""
        return self._papers[number]

    def places(self, order: str) -> Mapping[str, int]:
        """Each paper's place in an order of `PLACED_ORDERS` ("newest": by year, then listing order), worked
        out once per order (some 60 ms at 56k papers) and kept: the reader's `o` and each search after it
        only look places up."""
        found = self._places.get(order)
        if found is None:
            numbers = places_in(order, self._venues, self._years)
            found = self._places[order] = dict(zip(self.ids, numbers, strict=True))
        return found

    def citable(self) -> Iterator[Paper]:
        """The papers BibTeX can cite (a title and an author), in listing order, without making a headline
        or decoding a stored paper that has neither."""
        source = self.source
        papers = source.papers if isinstance(source, Catalog) else source.with_title_and_authors()
        return (paper for paper in papers if citable(paper))

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id; raises KeyError for an id these listings do not have."""
        return self._papers[self.position[paper_id]]

    def resolve(self, key: str) -> str:
        """The id a user means: an exact id, or the only one starting with `key` (`MIN_PREFIX`+ digits).

        Raises:
            UnknownPaperId: no paper matches, or the prefix matches several (some of them are named).
        """
        wanted = key.strip().lower()
        if wanted in self.position:
            return wanted
        shown = safe(key)
        found = [paper_id for paper_id in self.ids if paper_id.startswith(wanted)]
        if len(wanted) >= MIN_PREFIX and len(found) == 1:
            return found[0]
        if len(wanted) >= MIN_PREFIX and found:
            some = ", ".join(found[:5]) + (", ..." if len(found) > 5 else "")
            raise UnknownPaperId(
                f"paper id prefix '{shown}' matches {len(found)} papers ({some}); type more of it"
            )
        raise UnknownPaperId(f"unknown paper id '{shown}' (see `papers list`)")

    def title(self, paper_id: str) -> str:
        """The paper's title as displayed, its LaTeX rendered ("{BERT}" -> "BERT"), else its headline."""
        paper = self.paper(paper_id)
        return (to_plain(paper.title) if paper.title else "") or paper.headline

    def rendered(self, paper_id: str) -> Rendered:
        """The abstract as display-safe text with style spans (cached: the detail pane asks repeatedly)."""
        return self._rendered(paper_id)

    def _render(self, paper_id: str) -> Rendered:
        return render(self.paper(paper_id).abstract)

    def described(self, paper_id: str, *, sentence: bool = True) -> Described:
        """What a person needs to recognise the paper in a list or an export: display-safe headline, venue
        and year, and (rendering the abstract, so only when asked) its first sentence."""
        paper = self.paper(paper_id)
        venue = safe(paper.venue) if paper.venue else None
        first = first_sentence(safe(self.rendered(paper_id).text)) if sentence else ""
        return Described(safe(paper.headline), venue, first, paper.year)

    def page(self, paper_id: str, highlight: Highlight | None = None) -> PaperPage:
        """Everything a detail view shows of one paper, with `highlight` (a view's terms) marked in it."""
        paper = self.paper(paper_id)
        matches = self._spans(paper_id, highlight) if highlight else ()
        link = safe_url(paper.url) if paper.url else None
        title = self.title(paper_id)
        return PaperPage(paper, title, not paper.title, self.rendered(paper_id), link, matches)

    def preview(self, paper_id: str, highlight: Highlight | None = None) -> tuple[str, tuple[MatchSpan, ...]]:
        """The clause of the abstract that states the paper's contribution ("we propose X, a ..."): the
        reader's preview line under a headline, display-safe, with `highlight`'s matches in it (offsets into
        the clause)."""
        text = self.rendered(paper_id).text  # the text `page`'s matches are offsets into
        start, end = contribution(text)
        matches = self._spans(paper_id, highlight) if highlight else ()
        inside = tuple(
            MatchSpan(match.start - start, match.end - start)
            for match in matches
            if start <= match.start and match.end <= end
        )
        return text[start:end], inside

    def rows(self) -> Iterator[tuple[str, str, str | None, int | None]]:
        """(id, headline, venue, year) of every paper, from the snapshot's columns when there is one: what
        `papers list` prints for 56k papers without decoding one record."""
        if isinstance(self.source, Snapshot):
            source = self.source
            return zip(source.ids, source.headlines, source.venues, source.years, strict=True)
        return ((paper.id, paper.headline, paper.venue, paper.year) for paper in self._papers)

    def catalog(self) -> Catalog:
        """Every listing and paper, decoded once (`papers stats` counts listings and paragraphs)."""
        if self._catalog is None:
            whole = self.source.catalog() if isinstance(self.source, Snapshot) else self.source
            self._catalog = replace(whole, notices=self.notices)
        return self._catalog

    def pdf_glyphs(self) -> tuple[int, int]:
        """`(cid:NNN)` artefacts of PDF-extracted abstracts: how many rendering puts back, and drops."""
        repaired = dropped = 0
        for paper in self.catalog().papers:
            if "(cid:" in paper.abstract:
                found = glyph_counts(paper.abstract)
                repaired, dropped = repaired + found[0], dropped + found[1]
        return repaired, dropped


class OpenedPapers(NamedTuple):
    """What `open_papers` found: the papers, one-line notices about the index, and whether it is ready."""

    papers: Papers
    notices: list[str]
    """About the index: damaged, or a shared one that lags the listings."""
    index_ready: bool
    """The papers came from the index, so it can be searched now."""
    complete: bool = True
    """Every listing file was read: False when the reader, with no index, read only the first files."""


def open_papers(
    index: IndexMaintenance, listing_paths: Sequence[Path], spans: Spans, *, reader: bool
) -> OpenedPapers:
    """The papers of `listing_paths`: from the index's snapshot when it is current, else parsed now.

    Args:
        reader: the reader also takes a shared (read-only) index that lags the listings, saying so in a
            notice, rather than parse 56k papers on every start, and an empty one; the command line parses
            the listings then, so that it can say what is wrong with them. With no usable index the reader
            gets only the first listing files (`FIRST_SCREEN`, `OpenedPapers.complete`).
    """
    notices: list[str] = []
    staleness = index.staleness(listing_paths)
    snapshot = _snapshot(index, notices) if staleness is None else None
    if snapshot is None and reader and index.read_only and index.exists and staleness is not None:
        snapshot = _snapshot(index, notices)
        if snapshot is not None:
            notices.append(f"the shared index in {index.index_dir} is older than the listings ({staleness})")
    if snapshot is None and reader:
        first, complete = load_first_listings(listing_paths, FIRST_SCREEN, no_headline)
        return OpenedPapers(Papers(first, first.notices, spans), notices, False, complete)
    if snapshot is None or not (reader or len(snapshot)):
        catalog = load_catalog(listing_paths, no_headline)
        return OpenedPapers(Papers(catalog, catalog.notices, spans), notices, False)
    listed = snapshot.notices if reader else _respelled(snapshot, listing_paths)
    return OpenedPapers(Papers(snapshot, listed, spans), notices, True)


def _snapshot(index: IndexMaintenance, notices: list[str]) -> Snapshot | None:
    """The index's snapshot, or None when it has none or it cannot be read (`notices` says why)."""
    try:
        return index.load_snapshot()
    except IndexUnavailable as error:  # damaged, or written by an older version
        notices.append(str(error))
        return None


def _respelled(snapshot: Snapshot, listing_paths: Sequence[Path]) -> tuple[Notice, ...]:
    """The stored warnings about these listings, spelled as the user named the files now.

    Stored warnings spell files as the build's paths did, and also cover the build's own paths (a missing
    one): keep those about these files, after these paths' own warnings.
    """
    files, path_notices = expand_paths(listing_paths)
    spelled = {os.path.realpath(path): str(path) for path in files}
    kept = [
        replace(notice, path=spelled[real])
        for notice in snapshot.notices
        if (real := os.path.realpath(notice.path)) in spelled
    ]
    return (*path_notices, *kept)
