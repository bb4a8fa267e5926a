"""`Library`: one user's view of one set of listings, the one door both front ends go through.

It exists so no UI decides anything about storage or freshness. It opens what a call needs when it first
needs it (the index, the store, the papers), answers the one question of the query path itself (`view`), and
hands out capabilities that do the rest: `papers` (reading), `marks` (stars and read marks), `organiser`
(tags, notes, saved searches), `discovery` (for you, facets, more like this), `exports` and `session` (the
reader's remembered place).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from index import views
from index.config import Config, load_config, resolve_data_dir, resolve_index_dir, resolve_listings
from index.library.discovery import Discovery
from index.library.exports import Exports
from index.library.marks import Marks
from index.library.organiser import Organiser
from index.library.papers import Papers, open_papers
from index.library.session_memory import SessionMemory
from index.listings.catalog import load_catalog, no_headline
from index.listings.reader import expand_paths
from index.search import layout
from index.search import sets as index_sets
from index.search.answers import Highlight, MatchSpan, UpdateReport
from index.search.index import QUERY_HELP, IndexMaintenance, IndexUnavailable, IndexWriteFailed, SearchIndex
from index.state.store import StateStore
from index.views import View

Progress = Callable[[int, int], None]


_FOLLOW_ATTEMPTS = 3
"""How many updates by another process a command's query follows before it gives up (`_current_papers`)."""


class IndexReplaced(IndexUnavailable):
    """Another process built or updated the index since the papers were read from it: read it again."""


class Library:
    """One user's view of one set of listings: papers in listing order, search, and the user's marks.

    The index, the store and the papers open on first use, so a command that only changes a star never
    parses a listing when the index is current; `Library.open` (the reader) opens all three at once.
    """

    def __init__(
        self, listing_paths: Sequence[Path], index_dir: Path, data_dir: Path, *, config: Config
    ) -> None:
        self.listing_paths = list(listing_paths)
        self.index_dir = index_dir
        """The index root as named (flag, environment, config or cache dir): every set's index is in it."""
        self.set_index_dir = index_sets.set_dir(index_dir, self.listing_paths)
        """This set of listings' own index directory under the root (see index/search/sets.py)."""
        self._set_use: index_sets.SetUse | None = None
        self.data_dir = data_dir
        self.config = config
        self.notices: list[str] = []
        self.query_help = QUERY_HELP
        self.index_ready = False
        self.index_format_changed = False
        """The index was written by another version: the reader's first build rebuilds it (and says so)."""
        self.papers_complete = True
        """False while the reader shows only the first listing files (no index yet): `read_all_listings`."""
        self._maintenance: IndexMaintenance | None = None
        self._index: SearchIndex | None = None
        self._state: StateStore | None = None
        self._papers: Papers | None = None
        self._papers_opened = 0
        """The index's `opened` count when the papers were read: another means they may not be what it
        holds now (`_still_current`)."""
        self._lock = threading.Lock()
        self.follow_index = False
        """When another process updates the index under a query, read the papers again and answer from the
        new index (a command), rather than raise `IndexReplaced` (the reader, which reloads in view)."""
        self.marks = Marks(self._open_state, self._loaded_papers)
        self.organiser = Organiser(self._open_state, self._unread_view)
        self.discovery = Discovery(
            self._ready_index, self._open_state, lambda query, kept: self.view(query, kept)
        )
        self.exports = Exports(self._open_state, self._loaded_papers)
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
        reader: bool = True,
    ) -> Library:
        """The library these settings name.

        For the reader (`reader`, the default) it opens quickly: a current index gives the papers without
        reading a listing, and it never builds the index (the reader runs `build_index` in a worker). For a
        command (`reader=False`) nothing is opened until a call needs it.

        Args:
            listings: files or directories; None means `$PAPERS_LISTINGS`, the config, else the bundled seeds.
            index_dir: None means `$PAPERS_INDEX_DIR`, the config, else the user cache dir.
            data_dir: None means `$PAPERS_DATA_DIR`, the config, else the user data dir.
            config: the merged config files, read here when not given. Its warnings join `notices` when read
                here, and always for the reader, which shows them all.
        """
        loaded = config is None
        config = load_config() if config is None else config
        library = cls(
            resolve_listings(listings, config),
            resolve_index_dir(index_dir, config),
            resolve_data_dir(data_dir, config),
            config=config,
        )
        library.follow_index = not reader
        if loaded or reader:
            library.notices += [str(notice) for notice in config.notices]
        if reader:
            library._state_store()  # the reader needs both; in this order, so their notices come in order
            library._load_papers(reader=True)
        return library

    def listing_files(self) -> tuple[list[Path], list[str]]:
        """The listing files these listings name (folders as the files in them, nothing read yet), and why
        a named path gives none (missing, or a folder without listing files)."""
        files, notices = expand_paths(self.listing_paths)
        return files, [str(notice) for notice in notices]

    def _load_papers(self, *, reader: bool) -> Papers:
        opened = open_papers(self._index_maintenance(), self.listing_paths, self._spans, reader=reader)
        self.notices += opened.notices
        self.notices += [str(notice) for notice in opened.papers.notices]
        self.notices += self._index_maintenance().take_notices()
        self._papers = opened.papers
        self._papers_opened = self._index_maintenance().opened
        self.index_ready = self.index_ready or opened.index_ready
        self.index_format_changed = not self.index_ready and self._index_maintenance().format_changed()
        self.papers_complete = opened.complete
        return opened.papers

    def read_all_listings(self) -> list[str]:
        """Read every listing when the reader opened with only the first files (blocking: the reader calls
        this in its build worker, after the first paint); the warnings about the files read now.

        The first papers keep their places: the whole catalog begins with them, in the same order.
        """
        if self.papers_complete:
            return []
        catalog = load_catalog(self.listing_paths, no_headline)
        papers = Papers(catalog, catalog.notices, self._spans)
        shown = set(self.notices)
        fresh = [text for notice in papers.notices if (text := str(notice)) not in shown]
        with self._lock:
            if not self.index_ready:  # papers from a finished index are newer still
                self._papers = papers
            self.papers_complete = True
            self.notices += fresh
        return fresh

    @property
    def papers(self) -> Papers:
        """The papers of these listings, from a current index, else parsed now (see `open_papers`)."""
        papers = self._papers
        return papers if papers is not None else self._load_papers(reader=False)

    def _loaded_papers(self) -> Papers:
        return self.papers

    def _index_maintenance(self) -> IndexMaintenance:
        """This set's index directory, opened on first use (and held in use: `SetUse`): what builds and
        updates it, and what `SearchIndex` reads through."""
        if self._maintenance is None:
            self._set_use = index_sets.SetUse.enter(self.set_index_dir, self.listing_paths)
            self._maintenance = IndexMaintenance.open(self.set_index_dir)
        return self._maintenance

    def _search_index(self) -> SearchIndex:
        if self._index is None:
            self._index = SearchIndex(self._index_maintenance())
        return self._index

    def _state_store(self) -> StateStore:
        """The user's store, opened on first use (its warnings join `notices`)."""
        if self._state is None:
            self._state = StateStore.open(self.data_dir)
            self.notices += [str(notice) for notice in self._state.notices]
        return self._state

    def _open_state(self) -> StateStore:
        return self._state_store()

    def _ready_index(self) -> SearchIndex | None:
        """The index once it can be searched; None while it is being built (queries then wait)."""
        return self._search_index() if self.index_ready else None

    def _spans(self, paper_id: str, highlight: Highlight) -> tuple[MatchSpan, ...]:
        index = self._ready_index()
        if index is None:
            return ()
        try:
            return index.spans(paper_id, highlight)
        except (KeyError, IndexUnavailable):  # a paper the index does not have (yet), or a damaged index
            return ()

    def take_notices(self) -> list[str]:
        """Warnings gathered so far (listings, index, state), then cleared: the command line prints them."""
        taken = self.notices + (self._maintenance.take_notices() if self._maintenance is not None else [])
        self.notices = []
        return taken

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._maintenance is not None:
            self._maintenance.close()
        if self._state is not None:
            self._state.close()
        if self._set_use is not None:
            self._set_use.release()

    # ---- the index ----------------------------------------------------------------------------------------

    @property
    def index_read_only(self) -> bool:
        """Whether this user cannot update the index (a shared one): it is searched as it is."""
        return self._index_maintenance().read_only

    def build_index(self, progress: Progress | None = None) -> str:
        """Bring the index up to date (blocking: the reader runs it in a worker); a one-line summary.

        From then on the papers come from the index's snapshot, with their headlines.
        """
        maintenance = self._index_maintenance()
        try:
            report = maintenance.ensure_current(self.listing_paths, progress)
        except IndexUnavailable as error:
            self.notices.append(str(error))
            if isinstance(error, IndexWriteFailed) and error.kept:
                with self._lock:  # the previous index answers these papers until there is room for a new one
                    self._papers_opened = maintenance.opened
                    self.index_ready = True
            return str(error)
        self._papers_from_index(maintenance)
        self.notices += maintenance.take_notices()
        if report is None:
            return "index is current"
        self._evict()
        verb = "built" if report.rebuilt else "updated"
        return (
            f"index {verb}: {report.added} added, {report.updated} updated, {report.removed} removed "
            f"in {report.seconds:.1f} s"
        )

    def _papers_from_index(self, maintenance: IndexMaintenance) -> bool:
        """The papers from the open generation's snapshot (however the listings stand now: another process
        may be updating the index from them), and the index ready; False when there is none."""
        snapshot = maintenance.load_snapshot()
        with self._lock:
            if snapshot is not None:
                self._papers = Papers(snapshot, snapshot.notices, self._spans)
                self._papers_opened = maintenance.opened
            self.index_ready = snapshot is not None
        return snapshot is not None

    def update_index(self, progress: Progress | None = None, *, rebuild: bool = False) -> UpdateReport | None:
        """Bring the index up to date, or build it afresh; None when it already was current (for commands).

        A rebuild reads no headline: the build makes them itself.

        Raises:
            IndexUnavailable: no usable index and none can be built here; the message says why.
        """
        maintenance = self._index_maintenance()
        try:
            if rebuild:
                catalog = load_catalog(self.listing_paths, no_headline)
                self.notices += [str(notice) for notice in catalog.notices]
                report: UpdateReport | None = maintenance.rebuild(catalog, progress)
            else:
                report = maintenance.ensure_current(self.listing_paths, progress)
        except IndexWriteFailed as error:
            self.index_ready = error.kept  # the previous index answers until there is room for a new one
            raise
        self.index_ready = maintenance.exists
        if report is not None:
            self._evict()
        if self._papers is not None and (report is not None or not self._papers.from_index):
            self._papers = None  # parsed before the build, or older: the index's snapshot is the truth now
        return report

    def _evict(self) -> None:
        """After a write: the least recently used other sets' indexes go while all are over the budget."""
        budget = int(self.config.index_budget_gb * 1024**3)
        index_sets.evict(self.index_dir, self.set_index_dir, budget)

    def indexed(self) -> int:
        """How many papers the index holds."""
        view = self._index_maintenance().load_snapshot()
        return len(view) if view else 0

    def publish_index(self) -> None:
        """Make the index readable, and not writable, by every user of a shared server (`--shared`)."""
        layout.publish(self.index_dir)

    def warm_search(self, pause: float = 0.0) -> None:
        """Read what the first search needs (see `SearchIndex.warm`), so the first keystroke does not wait."""
        index = self._ready_index()
        if index is not None:
            index.warm(pause)
            self.discovery.warm()

    # ---- the query path -----------------------------------------------------------------------------------

    def view(
        self,
        query: str = "",
        filter: str = "all",
        order: str = "relevance",
        *,
        limit: int | None = None,
        highlight_top: int = 0,
        typing: bool = False,
        cancelled: Callable[[], bool] | None = None,
    ) -> View:
        """Which papers to show for a query, a filter and an order, and what to tell the user: the one
        answer the reader and `papers search` share (see `views.compute_view`). Safe in a worker thread.

        `typing`: the reader's query, whose unfinished last word matches as a prefix (`graph neu` finds
        graph neural networks); `papers search` asks for that with an explicit `neu*`. `cancelled`: asked
        while the query runs; True stops it early (its worker was cancelled by a newer search or a quit).
        """
        papers = self.papers
        index = self._ready_index()
        for attempt in range(1, _FOLLOW_ATTEMPTS + 1):
            if index is not None:
                papers = self._current_papers(index, papers)
            answer = views.compute_view(
                index,
                self._state_store(),
                papers.ids,
                papers.position,
                query,
                filter,
                order,
                limit=limit,
                highlight_top=highlight_top,
                typing=typing,
                places=papers.places,
                cancelled=cancelled,
            )
            if index is None:
                break
            # The query itself picks up a generation another process committed since the check above
            # (`@fresh`), whose hits may be papers these are not: checked again, so an answer is always from
            # the papers' own generation (a command asks again; the reader is told, and reads it again).
            try:
                self._still_current(index)
                break
            except IndexReplaced:
                if not self.follow_index or attempt == _FOLLOW_ATTEMPTS:
                    raise
        return answer

    def _current_papers(self, index: SearchIndex, papers: Papers) -> Papers:
        """`papers` when the index is still the one they were read from; with `follow_index`, else the
        papers read again from the index another process just updated (a few times at most: each time is
        a whole update by that process)."""
        for _attempt in range(_FOLLOW_ATTEMPTS):
            try:
                self._still_current(index)
                return papers
            except IndexReplaced:
                if not self.follow_index:
                    raise
            if not self._papers_from_index(index.maintenance):
                raise IndexUnavailable(f"no usable search index in {index.maintenance.index_dir}")
            papers = self.papers
        self._still_current(index)
        return papers

    def _still_current(self, index: SearchIndex) -> None:
        """Before a query: the index is still the one the papers were read from, readable, and unchanged in
        place. Otherwise every query would answer from an index that is not these papers' (nothing at all,
        or the wrong papers) without a word: the index is no longer ready, and the error says why (the
        reader rebuilds it with `build_index`; a command says to run `papers index`).

        Raises:
            IndexReplaced: another process built or updated the index since the papers were read.
            IndexUnavailable: the index cannot be read (damaged, changed in place, gone).
        """
        try:
            with index.maintenance.lock:
                index.maintenance.refresh()
                opened = index.maintenance.opened
        except IndexUnavailable as error:
            self.index_ready = False
            raise IndexUnavailable(f"the search index stopped answering: {error}") from None
        if opened != self._papers_opened:
            self.index_ready = False
            raise IndexReplaced(
                f"the search index in {index.maintenance.index_dir} was rebuilt or updated by another process"
            )

    def _unread_view(self, query: str) -> View:
        return self.view(query, "unread", "listing")  # listing order: nothing is scored
