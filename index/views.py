"""What a list shows for a query, a filter and an order: the parts `Library.view` puts together."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from itertools import compress

from index.search.index import SearchIndex
from index.search.models import ForYouHit, MarkFilter, SearchHit, SearchResult
from index.search.query import FOR_YOU_TAG_FILTER, NOTE_FILTER, TAG_FILTER, mark_filters
from index.state.notes import note_matches, pattern_words
from index.state.store import StateLookup, StateStore
from index.state.tags import TagNameError

FILTERS = ("all", "unread", "starred", "foryou")
"""The reader's filters (keys 1, 2, 3, 4); each keeps what its `is:` word keeps (`is:foryou` for "foryou")."""
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


@dataclass(frozen=True, slots=True)
class Asked:
    """The question `compute_view` was asked, passed whole to the answer it delegates to (`for_you_view`),
    so those arguments are declared once, in `compute_view`'s signature, rather than repeated."""

    query: str
    filter: str
    order: str
    limit: int | None = None
    highlight_top: int = 0


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
    """Search, then the query's mark filters, the reader's filter and the order, all with this user's marks.

    Args:
        index: the index to search; None while it is being built (every paper is listed, `waiting` set).
        state: the user's stars and read marks.
        every: every paper id in listing order; `position` maps each to its place in it.
        query: what the user typed; its `is:`, `tag:` and `note:` filters are applied by `marked(state)`.
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
    if index is None and filter == "foryou":
        return View(query, filter, tuple(every), waiting=True)  # for you needs the index's term weights
    if index is not None and (filter == "foryou" or FOR_YOU_RE.search(query) or for_you_tag(query)):
        return for_you_view(index, state, position, Asked(query, filter, order, limit, highlight_top))
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
    """The `is:`, `tag:` and `note:` filters over this user's marks (and the reader's filter).

    The sets are read once per call, not per id: a 56k-paper list is filtered with one cached set per filter.
    """

    def keep(ids: Sequence[str], filters: Sequence[str]) -> list[bool]:
        kept: list[bool] | None = None
        for name in filters:
            without = name.startswith("-")
            base = name[1:] if without else name
            if base == "unread":  # every paper but the read ones: never list the 56k unread ids
                without, base = not without, "read"
            wanted = _kept_ids(state, base)
            passed = [(paper_id in wanted) != without for paper_id in ids]
            kept = passed if kept is None else [a and b for a, b in zip(kept, passed, strict=True)]
        return kept if kept is not None else [True] * len(ids)

    return keep


def _kept_ids(state: StateLookup, name: str) -> AbstractSet[str]:
    """The ids one filter keeps: "starred", "read", "tag:NAME" or "note:WORDS"."""
    if name == "starred":
        return state.starred_ids()
    if name == "read":
        return state.read_ids()
    if name.startswith(TAG_FILTER):
        try:
            return state.tagged_ids(name[len(TAG_FILTER) :])
        except TagNameError:
            return frozenset()  # no tag can have this name, so no paper has it
    if name.startswith(NOTE_FILTER):
        wanted = pattern_words(name[len(NOTE_FILTER) :])
        return {paper_id for paper_id, note in state.notes().items() if note_matches(note, wanted)}
    return frozenset()


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


FOR_YOU_SIZE = 200
"""How many papers `is:foryou` keeps: the unread papers most like the user's starred ones."""
FOR_YOU_RE = re.compile(r"(?<!\S)is:(?i:foryou)(?!\S)")  # as the parser takes `is:` filters


def for_you_tag(query: str) -> str | None:
    """The tag a query's `foryou:NAME` seeds its for-you list with (the last one wins), or None."""
    tags = [
        found[len(FOR_YOU_TAG_FILTER) :]
        for found in mark_filters(query)
        if found.startswith(FOR_YOU_TAG_FILTER)
    ]
    return tags[-1] if tags else None


def for_you(
    index: SearchIndex, state: StateLookup, seeds: AbstractSet[str] | None = None, limit: int = 20
) -> list[ForYouHit]:
    """Unread papers most like `seeds` (default: the starred papers), none starred or read, best first."""
    starred = state.starred_ids()
    chosen = starred if seeds is None else frozenset(seeds)
    return index.for_you(chosen, starred | state.read_ids() | chosen, limit)


def for_you_view(index: SearchIndex, state: StateStore, position: Mapping[str, int], asked: Asked) -> View:
    """`compute_view` for a query with `is:foryou` or `foryou:NAME`: its matches among the `FOR_YOU_SIZE`
    papers `for_you` ranks (like the starred papers, or like the papers tagged NAME), in that ranking's order
    for the relevance order (there is no other relevance to it)."""
    tag = for_you_tag(asked.query)  # `foryou:NAME`: like the papers with that tag, not the starred ones
    try:
        seeds = None if tag is None else state.tagged_ids(tag)
    except TagNameError:
        seeds = frozenset()  # no tag can have this name, so no paper has it
    ranking = {hit.id: n for n, hit in enumerate(for_you(index, state, seeds, limit=FOR_YOU_SIZE))}
    base = marked(state)

    def marks(ids: Sequence[str], filters: Sequence[str]) -> list[bool]:
        kept = base(ids, [f for f in filters if f != "foryou" and not f.startswith(FOR_YOU_TAG_FILTER)])
        return [ok and paper_id in ranking for ok, paper_id in zip(kept, ids, strict=True)]

    # Every match, unscored (at most FOR_YOU_SIZE pass); the hits of a limited view are picked afterwards.
    highlight = FOR_YOU_SIZE if asked.limit else asked.highlight_top
    result = index.search(asked.query, None, highlight, ranked=False, marks=marks)
    ids = only(result.ids, asked.filter, marks)
    if asked.order == "starred":
        ids = newest_starred_first(ids, state)
    else:
        ids = in_listing_order(ids, position if asked.order == "listing" else ranking)
    ids = ids if asked.limit is None else ids[: asked.limit]
    hits = {hit.id: hit for hit in result.hits}
    notice = result.notice
    if not ranking:
        if tag is not None:
            why = f"foryou:{tag} finds papers like your papers tagged {tag}: tag a few first"
        else:
            lists = "is:foryou finds" if FOR_YOU_RE.search(asked.query) else "for you lists"
            why = f"{lists} papers like your starred ones: star a few first"
        notice = f"{notice}; {why}" if notice else why
    shown = tuple(hits[i] for i in ids if i in hits)
    return View(asked.query, asked.filter, ids, notice, result.suggestion, hits=shown)
