"""The facade the reader calls: listings, the search index and the user's state behind one small object.

It exists so the UI never decides anything about storage or freshness: it asks for papers, searches and
toggles, and this module picks the fast path (a current index's snapshot, no listing parsed) or the slow one
(parse the listings now, build the index when the UI runs `build_index` in a worker).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, overload

from index.config import Config, load_config, resolve_data_dir, resolve_index_dir, resolve_listings
from index.listings.catalog import load_catalog, no_headline, paper_headline
from index.models import Catalog, Paper, Rendered
from index.render.abstract import render
from index.search.index import QUERY_HELP, IndexUnavailable, SearchIndex
from index.search.models import SearchResult, SimilarHit
from index.search.snapshot import Snapshot
from index.state.store import StateReadOnlyError, StateStore

Progress = Callable[[int, int], None]

__all__ = ["Library", "StateReadOnlyError"]


class LazyPapers(Sequence[Paper]):
    """Papers whose headlines are made on first access.

    Synthesizing 56k headlines takes tens of seconds, but a virtual list only ever shows a screenful, so
    when the listings had to be parsed (no current index) the first screen must not wait for all of them.
    """

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = list(papers)

    def __len__(self) -> int:
        return len(self._papers)

    @overload
    def __getitem__(self, index: int) -> Paper: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Paper]: ...
    def __getitem__(self, index: int | slice) -> Paper | Sequence[Paper]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self._papers)))]
        paper = self._papers[index]
        if not paper.headline:
            paper = _with_headline(paper)
            self._papers[index] = paper
        return paper

    def __iter__(self) -> Iterator[Paper]:
        for i in range(len(self._papers)):
            yield self[i]


def _with_headline(paper: Paper) -> Paper:
    from dataclasses import replace

    return replace(paper, headline=paper_headline(paper.abstract, paper.title))


class Library:
    """One user's view of one set of listings: papers in listing order, search, stars and read marks."""

    def __init__(
        self,
        listing_paths: Sequence[Path],
        index: SearchIndex,
        state: StateStore,
        papers: Catalog | Snapshot,
        *,
        index_ready: bool,
        notices: Sequence[str],
        config: Config,
    ) -> None:
        self.listing_paths = list(listing_paths)
        self.index = index
        self.state = state
        self.config = config
        self.notices: list[str] = list(notices)
        self.query_help = QUERY_HELP
        self._lock = threading.Lock()
        self._set_papers(papers, lazy=not index_ready)
        self.index_ready = index_ready

    # ---- opening ------------------------------------------------------------------------------------------

    @classmethod
    def open(
        cls,
        listings: Sequence[Path] | None = None,
        index_dir: Path | None = None,
        data_dir: Path | None = None,
        *,
        config: Config | None = None,
    ) -> Library:
        """Open quickly: a current index gives the papers without reading a listing; never builds the index.

        Args:
            listings: files or directories; None means `$PAPERS_LISTINGS`, the config, else the bundled seeds.
            index_dir: None means `$PAPERS_INDEX_DIR`, the config, else the user cache dir.
            data_dir: None means `$PAPERS_DATA_DIR`, the config, else the user data dir.
            config: the merged config files (read here when not given).
        """
        config = config if config is not None else load_config()
        notices = [str(notice) for notice in config.notices]
        paths = resolve_listings(listings, config)
        index = SearchIndex.open(resolve_index_dir(index_dir, config))
        state = StateStore.open(resolve_data_dir(data_dir, config))
        notices += [str(notice) for notice in state.notices]
        staleness = index.staleness(paths)
        # Only the list columns are read here: each paper is decoded when it is shown or found.
        view = index.load_view() if staleness is None else None
        ready = view is not None
        if view is None and index.read_only and index.exists:
            # A shared index the user cannot update: use it as it is, and say that it lags the listings.
            try:
                view = index.load_view()
            except IndexUnavailable as error:  # damaged, or written by an older version
                notices.append(str(error))
            ready = view is not None
            if ready:
                notices.append(
                    f"the shared index in {index.index_dir} is older than the listings ({staleness})"
                )
        papers: Catalog | Snapshot = view if view is not None else load_catalog(paths, no_headline)
        notices += [str(notice) for notice in papers.notices]
        notices += index.take_notices()
        return cls(paths, index, state, papers, index_ready=ready, notices=notices, config=config)

    def _set_papers(self, papers: Catalog | Snapshot, *, lazy: bool) -> None:
        """Take the papers from a parsed catalog (headlines made lazily) or from the index's snapshot."""
        self._snapshot: Snapshot | None = None
        if isinstance(papers, Catalog):
            self._catalog: Catalog | None = papers
            self.papers: Sequence[Paper] = LazyPapers(papers.papers) if lazy else papers.papers
            self.ids: Sequence[str] = [paper.id for paper in papers.papers]
            where = {(paper.venue, paper.year) for paper in papers.papers}
        else:
            self._catalog = None
            self._snapshot = papers
            self.papers = papers.papers
            self.ids = papers.ids
            where = set(zip(papers.venues, papers.years, strict=True))
        self._position = {paper_id: number for number, paper_id in enumerate(self.ids)}
        # Three files of one conference are one listing to a reader: show venue/year only when they differ.
        self.spans_several_listings = len(where) > 1
        self._rendered = lru_cache(maxsize=256)(self._render)

    @property
    def catalog(self) -> Catalog:
        """Every listing and paper (from the snapshot this decodes every paper: the reader never needs it)."""
        if self._catalog is None:
            assert self._snapshot is not None
            self._catalog = self._snapshot.catalog()
        return self._catalog

    def build_index(self, progress: Progress | None = None) -> str:
        """Bring the index up to date (blocking: run it in a worker); returns a one-line summary."""
        try:
            report = self.index.ensure_current(self.listing_paths, progress)
        except IndexUnavailable as error:
            self.notices.append(str(error))
            return str(error)
        view = self.index.load_view()
        with self._lock:
            if view is not None:
                self._set_papers(view, lazy=False)
            self.index_ready = view is not None
        self.notices += self.index.take_notices()
        if report is None:
            return "index is current"
        verb = "built" if report.rebuilt else "updated"
        return (
            f"index {verb}: {report.added} added, {report.updated} updated, {report.removed} removed "
            f"in {report.seconds:.1f} s"
        )

    def close(self) -> None:
        self.index.close()
        self.state.close()

    # ---- papers -------------------------------------------------------------------------------------------

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id; raises KeyError for an id the listings do not have."""
        return self.papers[self._position[paper_id]]

    def rendered(self, paper_id: str) -> Rendered:
        """The abstract as display-safe text with style spans (cached: the detail pane asks repeatedly)."""
        return self._rendered(paper_id)

    def _render(self, paper_id: str) -> Rendered:
        return render(self.paper(paper_id).abstract)

    # ---- search -------------------------------------------------------------------------------------------

    def search(self, query: str, *, order: str = "relevance") -> SearchResult:
        """Every match, ranked (or in listing order); an empty query lists all papers in listing order."""
        listing = order == "listing"
        result = self.index.search(query, limit=None, state=self.state, highlight_top=0, ranked=not listing)
        if listing and query.strip():
            position = self._position
            ids = tuple(sorted(result.ids, key=lambda paper_id: position.get(paper_id, len(position))))
            return SearchResult(result.query, ids, result.hits, result.notice, result.suggestion)
        return result

    def matches(self, paper_id: str, query: str) -> list[tuple[int, int]]:
        """Where `query` matched in `rendered(paper_id).text`, for highlighting the paper on screen."""
        if not query.strip() or not self.index_ready:
            return []
        try:
            return [(span.start, span.end) for span in self.index.spans(paper_id, query)]
        except (KeyError, IndexUnavailable):
            return []

    def similar(self, paper_id: str, limit: int = 20) -> list[SimilarHit]:
        return self.index.similar(paper_id, limit)

    # ---- state --------------------------------------------------------------------------------------------

    @property
    def state_read_only(self) -> bool:
        return self.state.read_only

    def is_starred(self, paper_id: str) -> bool:
        return paper_id in self.state.starred_ids()

    def is_read(self, paper_id: str) -> bool:
        return paper_id in self.state.read_ids()

    def toggle_star(self, paper_id: str) -> bool:
        return self.state.toggle_star(paper_id)

    def toggle_read(self, paper_id: str) -> bool:
        return self.state.toggle_read(paper_id)

    def mark_read(self, ids: Sequence[str]) -> None:
        """Mark papers read as one undo step (so `R` on 500 papers is undone by one `u`)."""
        self.state.mark_read(ids)

    def undo(self) -> list[str] | None:
        return self.state.undo()

    def counts(self) -> tuple[int, int, int]:
        """Papers, unread and starred among the papers of these listings."""
        ids = self._position
        read = sum(1 for paper_id in self.state.read_ids() if paper_id in ids)
        starred = sum(1 for paper_id in self.state.starred_ids() if paper_id in ids)
        return len(ids), len(ids) - read, starred

    def starred_at(self, paper_id: str) -> float | None:
        state = self.state.state(paper_id)
        return state.starred_at if state.starred else None

    def session_get(self, key: str, default: Any = None) -> Any:
        return self.state.get_session(key, default)

    def session_set(self, key: str, value: Any) -> None:
        # A read-only store keeps the value in memory for this run rather than interrupting the reader.
        self.state.set_session(key, value)

    # ---- added for the reader (tui): whole sets, so a list of 50k ids is filtered with one query ----------

    def starred_ids(self) -> frozenset[str]:
        """Every starred id (one query): the reader filters and draws rows from this, not per-id lookups."""
        return self.state.starred_ids()

    def read_ids(self) -> frozenset[str]:
        """Every read id (one query), for the same reason as `starred_ids`."""
        return self.state.read_ids()
