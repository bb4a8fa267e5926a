"""What to read next: "for you", more like this and facet counts (`library.discovery`).

For you ranks the unread papers by likeness to the user's starred papers, or to the papers of one tag, or
to any set of seed ids (index/search/profile.py says how); `is:foryou` in a query is the same list as a
filter (index/views.py). Facets count a view's papers per venue, year and track from the index snapshot's
list columns; `narrow` puts the one chosen in the query and `toggle` adds or takes out one of several
(index/search/facets.py).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence

from index import views
from index.search.answers import ForYouHit, SimilarHit
from index.search.facets import FIELDS as FACET_FIELDS
from index.search.facets import FacetCounter, Facets
from index.search.facets import chosen as chosen_values
from index.search.facets import narrow as narrow_query
from index.search.facets import toggle as toggle_value
from index.search.index import IndexUnavailable, SearchIndex
from index.search.snapshot import Snapshot
from index.state.store import StateStore
from index.views import View

NO_FACETS = Facets((), (), (), 0)


class Discovery:
    """For you and facets over one `Library`'s index and the user's marks.

    It is given callables rather than the library: the index is only searched once it is ready (None
    before), and the store opens on first use.
    """

    def __init__(
        self,
        ready_index: Callable[[], SearchIndex | None],
        state: Callable[[], StateStore],
        view: Callable[[str, str], View],
    ) -> None:
        self._ready_index = ready_index
        self._state = state
        self._view = view
        self._facet_counter: tuple[Snapshot, FacetCounter] | None = None
        self.warmed_for: frozenset[str] | None = None
        """The stars the for-you list was last ranked for by `warm` (None: not yet)."""

    def for_you(
        self, limit: int = 20, seeds: Iterable[str] | None = None, *, tag: str | None = None
    ) -> list[ForYouHit]:
        """Unread papers most like the starred ones, best first, each with why (shared key terms, nearest
        seed); none starred or read. Empty until the index is ready, or with no seeds.

        Args:
            limit: at most this many.
            seeds: paper ids to be like instead of the starred papers.
            tag: be like the papers with this tag instead (ignored when `seeds` is given).

        Raises:
            TagNameError: `tag` is not a name any tag can have.
            IndexUnavailable: the index cannot be read.
        """
        index = self._ready_index()
        if index is None:
            return []
        state = self._state()
        chosen = frozenset(seeds) if seeds is not None else None
        if chosen is None and tag is not None:
            chosen = state.tagged_ids(tag)
        return views.for_you(index, state, chosen, limit)

    def warm(self) -> None:
        """Rank the for-you list once, in a worker, so its cold first call (which reads every term weight of
        the index) never sits on a keystroke."""
        if self._ready_index() is not None:
            starred = self._state().starred_ids()
            self.for_you(views.FOR_YOU_SIZE)
            self.warmed_for = starred

    def similar(self, paper_id: str, limit: int = 20) -> list[SimilarHit]:
        """Papers like this one, best first, each with the key terms it shares with it (and those terms as
        a highlight for its abstract).

        Raises:
            UnknownPaper: the index does not have this paper.
            IndexUnavailable: there is no index yet, or it cannot be read.
        """
        index = self._ready_index()
        if index is None:
            raise IndexUnavailable("more like this needs the search index; it is still being built")
        return index.similar(paper_id, limit)

    def facets(self, view_or_ids: View | Sequence[str]) -> Facets:
        """How many of these papers (a view, or ids) come from each venue, year and track/status.

        Counted from the index's snapshot, so nothing is decoded: cheap enough for every keystroke. Empty
        until the index is ready; ids the index does not have are not counted.
        """
        index = self._ready_index()
        snapshot = index.maintenance.load_snapshot() if index is not None else None
        if snapshot is None:
            return NO_FACETS
        if self._facet_counter is None or self._facet_counter[0] is not snapshot:
            counter = FacetCounter(snapshot.ids, snapshot.venues, snapshot.years, snapshot.statuses)
            self._facet_counter = (snapshot, counter)
        counter = self._facet_counter[1]
        ids = view_or_ids.ids if isinstance(view_or_ids, View) else view_or_ids
        if isinstance(view_or_ids, View) and not view_or_ids.query.strip() and view_or_ids.filter == "all":
            return counter.every()  # the empty query: every paper, counted once per snapshot
        return counter.count(ids)

    def facets_to_choose(self, view: View) -> Facets:
        """Counts for picking several values of a facet: a facet the query narrows is counted over what the
        query finds without that facet's clause (with ICML chosen, NeurIPS is still listed, with the papers
        it would add); the other facets and the total over `view` itself, as `facets` counts them."""
        counted = self.facets(view)
        wider: dict[str, tuple[tuple[str | int, int], ...]] = {}
        for field in FACET_FIELDS:
            if chosen_values(view.query, field):
                others = self._view(narrow_query(view.query, field, None), view.filter)
                wider[field] = getattr(self.facets(others), field)
        return dataclasses.replace(counted, **wider) if wider else counted  # type: ignore[arg-type]

    @staticmethod
    def narrow(query: str, field: str, value: str | int | None) -> str:
        """`query` with `venue:X` / `year:N` / `status:X` in place of any such clause (None: removed).

        Raises:
            ValueError: an unknown field, or a value with no word in it.
        """
        return narrow_query(query, field, value)

    @staticmethod
    def toggle(query: str, field: str, value: str | int) -> str:
        """`query` narrowed to one more value of `field` (`venue:(ICML OR NeurIPS)`), or one fewer when it
        holds that value already.

        Raises:
            ValueError: an unknown field, or a value with no word in it.
        """
        return toggle_value(query, field, value)

    @staticmethod
    def chosen(query: str, field: str) -> tuple[str, ...]:
        """The values `query` narrows `field` to, as written (none: the field is not narrowed)."""
        return chosen_values(query, field)
