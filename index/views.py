"""What a list shows for a query, a filter and an order: the parts `Library.view` puts together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress

from index.search.index import SearchIndex
from index.search.models import MarkFilter, SearchHit, SearchResult
from index.state.store import StateLookup, StateStore

FILTERS = ("all", "unread", "starred")
"""The reader's filters (keys 1, 2, 3); unread and starred keep what `is:unread` and `is:starred` keep."""
ORDERS = ("listing", "relevance", "starred")
"""The orders the reader cycles through: listing order, relevance, recently starred first."""


@dataclass(frozen=True, slots=True)
class View:
    """One answer as a list shows it: the ids after every filter and the order, and what to tell the user."""

    query: str
    filter: str
    ids: tuple[str, ...]
    notice: str | None = None
    """One line when the query was not taken as written (malformed, `is:` without marks, timed out)."""
    suggestion: str | None = None
    """A corrected query ("did you mean") when a word looks misspelled and the query found little."""
    waiting: bool = False
    """True when the query could not run yet because the index is still being built."""
    hits: tuple[SearchHit, ...] = ()
    """Scores, snippets and match spans of the first ids, when the caller asked for a limit."""

    @property
    def total(self) -> int:
        return len(self.ids)


def compute_view(
    index: SearchIndex | None,
    state: StateStore,
    every: Sequence[str],
    position: Mapping[str, int],
    query: str,
    filter: str,
    order: str,
    *,
    limit: int | None = None,
    highlight_top: int = 0,
) -> View:
    """Search, then the query's `is:` filters, the reader's filter and the order, all with this user's marks.

    Args:
        index: the index to search; None while it is being built (every paper is listed, `waiting` set).
        state: the user's stars and read marks.
        every: every paper id in listing order; `position` maps each to its place in it.
        query: what the user typed; its `is:` filters are applied by `marked(state)`.
        filter: one of FILTERS.
        order: one of ORDERS; relevance ranks, listing and starred leave the matches unscored.
        limit: at most this many ids, with the first ones as `hits`; only with filter "all" and order
            "relevance", the one view a top-N search answers.
        highlight_top: how many of the hits carry match spans and a snippet.

    Raises:
        IndexUnavailable: the index cannot be searched (damaged, or gone since it was opened).
    """
    if limit is not None and (filter != "all" or order != "relevance"):
        raise ValueError("a limit needs filter 'all' and order 'relevance'")
    marks = marked(state)
    result: SearchResult | None = None
    if index is None:
        # Honest while indexing: every paper is listed, and the note says the query waits for the index.
        ids = tuple(every)
    else:
        result = index.search(query, limit, highlight_top, ranked=order == "relevance", marks=marks)
        ids = result.ids
        if order != "relevance" and query.strip():
            ids = in_listing_order(ids, position)
    ids = only(ids, filter, marks)
    if order == "starred":
        ids = newest_starred_first(ids, state)
    if result is None:
        return View(query, filter, ids, waiting=bool(query.strip()))
    return View(query, filter, ids, result.notice, result.suggestion, hits=result.hits)


def marked(state: StateLookup) -> MarkFilter:
    """The `is:starred` / `is:read` / `is:unread` filters over this user's marks (and the reader's filter).

    The sets are read once per call, not per id: a 56k-paper list is filtered with two queries at most.
    """

    def keep(ids: Sequence[str], filters: Sequence[str]) -> list[bool]:
        kept: list[bool] | None = None
        for name in filters:
            if name == "unread":
                read = state.read_ids()
                passed = [paper_id not in read for paper_id in ids]
            else:
                wanted = state.starred_ids() if name == "starred" else state.read_ids()
                passed = [paper_id in wanted for paper_id in ids]
            kept = passed if kept is None else [a and b for a, b in zip(kept, passed, strict=True)]
        return kept if kept is not None else [True] * len(ids)

    return keep


def only(ids: tuple[str, ...], filter: str, marks: MarkFilter) -> tuple[str, ...]:
    """The ids the reader's filter keeps (all of them for "all")."""
    return ids if filter == "all" else tuple(compress(ids, marks(ids, (filter,))))


def in_listing_order(ids: Sequence[str], position: Mapping[str, int]) -> tuple[str, ...]:
    """Matches in the order of the listings (ids the listings lack last: a stale index may have them)."""
    return tuple(sorted(ids, key=lambda paper_id: position.get(paper_id, len(position))))


def newest_starred_first(ids: Sequence[str], state: StateStore) -> tuple[str, ...]:
    """Starred papers by the time they were starred, newest first; the rest after them, in their order."""
    starred = state.starred_ids()  # only starred papers have a time worth asking for
    stamps = {
        paper_id: mark.starred_at or 0.0
        for paper_id, mark in state.states(paper_id for paper_id in ids if paper_id in starred).items()
        if mark.starred
    }
    return tuple(sorted(ids, key=lambda paper_id: -stamps.get(paper_id, 0.0)))
