"""The facade the reader and the command line call: listings, the search index and the user's state together.

It exists so no UI decides anything about storage or freshness: they ask for papers, views and changes, and
this module picks the fast path (a current index's snapshot, no listing parsed) or the slow one (parse the
listings now, build the index when the UI runs `build_index` in a worker).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from index import views
from index.config import Config, load_config, resolve_data_dir, resolve_index_dir, resolve_listings
from index.discovery import Discovery
from index.listings.catalog import headline_for, headlines_on_demand, load_catalog, no_headline
from index.listings.reader import expand_paths
from index.models import Catalog, Entry, Notice, Paper, Rendered
from index.organising import Organiser
from index.render.abstract import render, to_plain
from index.search import store as index_store
from index.search.index import QUERY_HELP, IndexUnavailable, SearchIndex
from index.search.models import SimilarHit, UpdateReport
from index.search.snapshot import Snapshot
from index.session_memory import SessionMemory
from index.state.changes import InputError
from index.state.notes import NoteError
from index.state.searches import SavedSearch, SavedSearchError
from index.state.store import Applied, PaperState, StateReadOnlyError, StateStore
from index.state.tags import TagNameError
from index.views import View

Progress = Callable[[int, int], None]

__all__ = [
    "InputError",
    "Library",
    "NoteError",
    "SavedSearchError",
    "StateReadOnlyError",
    "TagNameError",
    "View",
]


class Library:
    """One user's view of one set of listings: papers in listing order, search, and the user's marks.

    Tags, notes and saved searches are `organiser`'s, for you and facets `discovery`'s, the reader's
    remembered place `session`'s: collaborators it owns, each given only what it needs.

    The index and the state store open on first use, so a command that only prints listings touches
    neither; `Library.open` (the reader) opens both and takes the papers from a current index at once.
    """

    def __init__(
        self, listing_paths: Sequence[Path], index_dir: Path, data_dir: Path, *, config: Config
    ) -> None:
        self.listing_paths = list(listing_paths)
        self.index_dir = index_dir
        self.data_dir = data_dir
        self.config = config
        self.notices: list[str] = []
        self.query_help = QUERY_HELP
        self.index_ready = False
        self._index: SearchIndex | None = None
        self._state: StateStore | None = None
        self._lock = threading.Lock()
        self._set_papers(Catalog((), ()), lazy=False)
        self.organiser = Organiser(self._open_state, self._unread_view)
        self.discovery = Discovery(self._ready_index, self._open_state)
        self.session = SessionMemory(self._open_state, self.listing_paths, config)

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
        """Open for the reader, quickly: a current index gives the papers without reading a listing; never
        builds the index.

        Args:
            listings: files or directories; None means `$PAPERS_LISTINGS`, the config, else the bundled seeds.
            index_dir: None means `$PAPERS_INDEX_DIR`, the config, else the user cache dir.
            data_dir: None means `$PAPERS_DATA_DIR`, the config, else the user data dir.
            config: the merged config files (read here when not given); its warnings join `notices`.
        """
        config = config if config is not None else load_config()
        library = cls(
            resolve_listings(listings, config),
            resolve_index_dir(index_dir, config),
            resolve_data_dir(data_dir, config),
            config=config,
        )
        library.notices += [str(notice) for notice in config.notices]
        library._load_papers()
        return library

    def _load_papers(self) -> None:
        """The snapshot of a current index (or of a shared one that lags), else the listings parsed now."""
        index, _state = self.index, self.state  # both opened now, in this order: the reader needs both
        staleness = index.staleness(self.listing_paths)
        # Only the list columns are read here: each paper is decoded when it is shown or found.
        view = index.load_view() if staleness is None else None
        ready = view is not None
        if view is None and index.read_only and index.exists:
            # A shared index the user cannot update: use it as it is, and say that it lags the listings.
            try:
                view = index.load_view()
            except IndexUnavailable as error:  # damaged, or written by an older version
                self.notices.append(str(error))
            ready = view is not None
            if ready:
                self.notices.append(
                    f"the shared index in {index.index_dir} is older than the listings ({staleness})"
                )
        papers: Catalog | Snapshot = (
            view if view is not None else load_catalog(self.listing_paths, no_headline)
        )
        self.notices += [str(notice) for notice in papers.notices]
        self.notices += index.take_notices()
        self._set_papers(papers, lazy=not ready)
        self.index_ready = ready

    @property
    def index(self) -> SearchIndex:
        """The search index, opened on first use."""
        if self._index is None:
            self._index = SearchIndex.open(self.index_dir)
        return self._index

    @property
    def state(self) -> StateStore:
        """The user's stars and read marks, opened on first use (its warnings join `notices`)."""
        if self._state is None:
            self._state = StateStore.open(self.data_dir)
            self.notices += [str(notice) for notice in self._state.notices]
        return self._state

    def _open_state(self) -> StateStore:
        return self.state

    def _ready_index(self) -> SearchIndex | None:
        """The index once it can be searched; None while it is being built (queries then wait)."""
        return self.index if self.index_ready else None

    def _set_papers(self, papers: Catalog | Snapshot, *, lazy: bool) -> None:
        """Take the papers from a parsed catalog (headlines made lazily) or from the index's snapshot."""
        if isinstance(papers, Catalog):
            self.papers: Sequence[Paper] = headlines_on_demand(papers.papers) if lazy else papers.papers
            self.ids: Sequence[str] = [paper.id for paper in papers.papers]
            where = {(paper.venue, paper.year) for paper in papers.papers}
        else:
            self.papers = papers.papers
            self.ids = papers.ids
            where = set(zip(papers.venues, papers.years, strict=True))
        self._position = {paper_id: number for number, paper_id in enumerate(self.ids)}
        # Three files of one conference are one listing to a reader: show venue/year only when they differ.
        self.spans_several_listings = len(where) > 1
        self._rendered = lru_cache(maxsize=256)(self._render)

    def read_listings(self, headlines: Callable[[Entry], str] = headline_for) -> Catalog:
        """Parse every listing now, whatever the index holds (`papers list`, `show`, `stats`, `starred`)."""
        return load_catalog(self.listing_paths, headlines)

    def indexed_listings(self) -> tuple[Snapshot, tuple[Notice, ...]] | None:
        """What `read_listings()` gives, from a current index instead of parsing: its snapshot (the list
        columns at once, `.catalog()` for everything) and the listing warnings for these paths: `papers list`
        at 56k takes ~1 s instead of 25 (the headlines were made by the same code when the index was built).

        None, so the caller parses, when the index is missing, damaged, empty or behind these listings.
        """
        try:
            if self.index.staleness(self.listing_paths) is not None:
                return None
            view = self.index.load_view()
        except IndexUnavailable:
            return None
        if view is None or not len(view):
            return None
        files, path_notices = expand_paths(self.listing_paths)
        # Stored warnings spell files as the build's paths did, and also cover the build's own paths (a
        # missing one): keep those about these files, spelled as now, after these paths' own warnings.
        spelled = {os.path.realpath(path): str(path) for path in files}
        kept = [
            replace(notice, path=spelled[real])
            for notice in view.notices
            if (real := os.path.realpath(notice.path)) in spelled
        ]
        return view, (*path_notices, *kept)

    def build_index(self, progress: Progress | None = None) -> str:
        """Bring the index up to date (blocking: run it in a worker); returns a one-line summary."""
        try:
            report = self.index.ensure_current(self.listing_paths, progress)
        except IndexUnavailable as error:
            self.notices.append(str(error))
            return str(error)
        view = self.index.load_view()  # from now on the papers come from the index's snapshot
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

    def update_index(self, progress: Progress | None = None, *, rebuild: bool = False) -> UpdateReport | None:
        """Bring the index up to date, or build it afresh; None when it already was current (for commands).

        Unlike `build_index` this leaves `papers` as they are: a command reads from the index (56k papers'
        lookup tables cost more than its search). A rebuild reads no headline: the build makes them itself.

        Raises:
            IndexUnavailable: no usable index and none can be built here; the message says why.
        """
        if rebuild:
            catalog = load_catalog(self.listing_paths, no_headline)
            self.notices += [str(notice) for notice in catalog.notices]
            report: UpdateReport | None = self.index.rebuild(catalog, progress)
        else:
            report = self.index.ensure_current(self.listing_paths, progress)
        self.index_ready = self.index.exists
        return report

    def indexed(self) -> int:
        """How many papers the index holds."""
        view = self.index.load_view()
        return len(view) if view else 0

    def publish_index(self) -> None:
        """Make the index readable, and not writable, by every user of a shared server (`--shared`)."""
        index_store.publish(self.index_dir)

    def take_notices(self) -> list[str]:
        """Warnings gathered so far (listings, index, state), then cleared: the command line prints them."""
        taken = self.notices + (self._index.take_notices() if self._index is not None else [])
        self.notices = []
        return taken

    def close(self) -> None:
        if self._index is not None:
            self._index.close()
        if self._state is not None:
            self._state.close()

    # ---- papers -------------------------------------------------------------------------------------------

    def paper(self, paper_id: str) -> Paper:
        """The paper with this id; raises KeyError for an id the listings do not have."""
        return self.papers[self._position[paper_id]]

    def title(self, paper_id: str) -> str:
        """The paper's title as displayed, its LaTeX rendered ("{BERT}" -> "BERT"), else its headline."""
        paper = self.paper(paper_id)
        return (to_plain(paper.title) if paper.title else "") or paper.headline

    def rendered(self, paper_id: str) -> Rendered:
        """The abstract as display-safe text with style spans (cached: the detail pane asks repeatedly)."""
        return self._rendered(paper_id)

    def _render(self, paper_id: str) -> Rendered:
        return render(self.paper(paper_id).abstract)

    # ---- views and search ---------------------------------------------------------------------------------

    def warm_search(self, pause: float = 0.0) -> None:
        """Read what the first search needs (see `SearchIndex.warm`), so the first keystroke does not wait."""
        index = self._ready_index()
        if index is not None:
            index.warm(pause)

    def view(
        self,
        query: str = "",
        filter: str = "all",
        order: str = "relevance",
        *,
        limit: int | None = None,
        highlight_top: int = 0,
    ) -> View:
        """Which papers to show for a query, a filter and an order, and what to tell the user: the one
        answer the reader and `papers search` share (see `views.compute_view`). Safe in a worker thread.
        """
        return views.compute_view(
            self._ready_index(),
            self.state,
            self.ids,
            self._position,
            query,
            filter,
            order,
            limit=limit,
            highlight_top=highlight_top,
        )

    def _unread_view(self, query: str) -> View:
        return self.view(query, "unread", "listing")  # listing order: nothing is scored

    def search(self, query: str, *, order: str = "relevance") -> View:
        """Every match of `query` in this order, with no reader filter: `view(query, order=order)`."""
        return self.view(query, order=order)

    def matches(self, paper_id: str, query: str) -> list[tuple[int, int]]:
        """Where `query` matched in `rendered(paper_id).text`, for highlighting the paper on screen."""
        if not query.strip() or not self.index_ready:
            return []
        try:
            return [(span.start, span.end) for span in self.index.spans(paper_id, query)]
        except (KeyError, IndexUnavailable):
            return []

    def resolve_id(self, key: str) -> str | None:
        """`key` as an indexed paper's id or unique id prefix, else None."""
        return self.index.resolve_id(key)

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

    def star(self, ids: Iterable[str]) -> Applied:
        return self.state.star(ids)

    def unstar(self, ids: Iterable[str]) -> Applied:
        return self.state.unstar(ids)

    def mark_read(self, ids: Iterable[str]) -> Applied:
        """Mark papers read as one undo step (so `R` on 500 papers is undone by one `u`)."""
        return self.state.mark_read(ids)

    def mark_unread(self, ids: Iterable[str]) -> Applied:
        return self.state.mark_unread(ids)

    def undo(self) -> list[str] | None:
        return self.state.undo()

    def counts(self) -> tuple[int, int, int]:
        """Papers, unread and starred among the papers of these listings."""
        ids = self._position
        read = sum(1 for paper_id in self.state.read_ids() if paper_id in ids)
        starred = sum(1 for paper_id in self.state.starred_ids() if paper_id in ids)
        return len(ids), len(ids) - read, starred

    def starred(self) -> list[tuple[str, float]]:
        """Starred papers as (id, time starred), newest first."""
        return self.state.starred()

    def records(self) -> list[PaperState]:
        """Every stored mark (tags and notes too), tombstones included: what an export carries."""
        return self.state.records()

    def search_records(self) -> list[SavedSearch]:
        """Every saved search, deletions included: what an export carries."""
        return self.state.search_records()

    def merge(self, records: Iterable[PaperState], label: str, saved: Iterable[SavedSearch] = ()) -> Applied:
        """Merge imported marks and saved searches: per paper and slot, per search name, the newest wins."""
        return self.state.merge(records, label, saved)

    # ---- whole sets, so a list of 50k ids is filtered and drawn with one query each ----------------------

    def starred_ids(self) -> frozenset[str]:
        """Every starred id (one query): the reader filters and draws rows from this, not per-id lookups."""
        return self.state.starred_ids()

    def read_ids(self) -> frozenset[str]:
        """Every read id (one query), for the same reason as `starred_ids`."""
        return self.state.read_ids()
