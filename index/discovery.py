"""The discovering half of `Library`: "for you" and facet counts (a mixin, like organising.py).

For you ranks the unread papers by likeness to the user's starred papers, or to the papers of one tag, or
to any set of seed ids (index/search/profile.py says how); `is:foryou` in a query is the same list as a
filter (index/views.py). Facets count a view's papers per venue, year and track from the index snapshot's
list columns, and `narrow` adds the one chosen to the query (index/search/facets.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from index import views
from index.search.facets import FacetCounter, Facets
from index.search.facets import narrow as narrow_query
from index.search.models import ForYouHit
from index.search.snapshot import Snapshot
from index.views import View

if TYPE_CHECKING:
    from index.search.index import SearchIndex
    from index.state.store import StateStore

NO_FACETS = Facets((), (), (), 0)


class Discovering:
    """For you and facets, for `Library` to inherit."""

    index_ready: bool

    if TYPE_CHECKING:

        @property
        def index(self) -> SearchIndex: ...

        @property
        def state(self) -> StateStore: ...

    _facet_counter: tuple[Snapshot, FacetCounter] | None = None

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
        if not self.index_ready:
            return []
        chosen = frozenset(seeds) if seeds is not None else None
        if chosen is None and tag is not None:
            chosen = self.state.tagged_ids(tag)
        return views.for_you(self.index, self.state, chosen, limit)

    def facets(self, view_or_ids: View | Sequence[str]) -> Facets:
        """How many of these papers (a view, or ids) come from each venue, year and track/status.

        Counted from the index's snapshot, so nothing is decoded: cheap enough for every keystroke. Empty
        until the index is ready; ids the index does not have are not counted.
        """
        snapshot = self.index.load_view() if self.index_ready else None
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

    @staticmethod
    def narrow(query: str, field: str, value: str | int | None) -> str:
        """`query` with `venue:X` / `year:N` / `status:X` in place of any such clause (None: removed).

        Raises:
            ValueError: an unknown field, or a value with no word in it.
        """
        return narrow_query(query, field, value)
