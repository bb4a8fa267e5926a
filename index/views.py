"""What a list shows for a query, a filter and an order: the one answer the reader and `papers search` share.

The index says what a query matches; this module applies the user's marks to it, in one place (`keep`): the
query's own `is:`/`tag:`/`note:` words and the reader's 1-4 filter are the same kind of filter over the same
cached sets. The answer (`View`) carries everything a front end shows with the list: the matched terms to
highlight, the hits of a top-N answer, the count before a limit, and for a for-you list why each paper is in
it, so nothing above this parses a query again.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from itertools import compress, repeat

import numpy as np

from index.search.answers import ForYouHit, Highlight, Matched, SearchHit
from index.search.index import SUGGEST_BELOW, SearchIndex
from index.search.typed_query import ForYouFilter, IsFilter, MarkFilter, NoteFilter, TagFilter, read_query
from index.state.notes import note_matches, pattern_words
from index.state.store import StateLookup, StateStore
from index.state.tags import TagNameError

FILTERS = ("all", "unread", "starred", "foryou")
"""The reader's filters (keys 1, 2, 3, 4); each keeps what its `is:` word keeps (`is:foryou` for "foryou")."""
ORDERS = ("relevance", "newest", "oldest", "venue", "listing", "starred")
"""The orders, in the order the reader's `o` cycles through them: relevance, newest first (by year, then
listing order), oldest first, venue (A-Z, the newest year first within a venue), listing order, recently
starred first."""
PLACED_ORDERS = frozenset({"listing", "newest", "oldest", "venue"})
"""The orders that put every paper at a fixed place (`places`), whatever the query and the marks."""
Places = Callable[[str], Mapping[str, int]]
"""Each paper's place in one of `PLACED_ORDERS` (`Papers.places`): what sorting a list by that order reads."""
FOR_YOU_SIZE = 200
"""How many papers `is:foryou` keeps: the unread papers most like the user's starred ones."""


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
    highlight: Highlight = field(default_factory=dict)
    """The index terms the query matched: what to mark in any paper of the list (`Papers.page`)."""
    for_you: ForYouList | None = None
    """Set when the list is a for-you list: what it is like, and why each paper is in it."""
    matching: int | None = None
    """How many papers the answer holds before a `limit` cut it to `ids`; None when nothing was cut."""

    @property
    def total(self) -> int:
        """How many papers answer the question, however many of them `ids` lists."""
        return len(self.ids) if self.matching is None else self.matching


@dataclass(frozen=True, slots=True)
class ForYouList:
    """A for-you list's seeds and reasons: the papers it is like, and each listed paper's `ForYouHit`."""

    tag: str | None
    """The tag whose papers seed the list (`foryou:NAME`); None for the starred papers."""
    reasons: Mapping[str, ForYouHit]


@dataclass(frozen=True, slots=True)
class Asked:
    """The question `compute_view` was asked, passed whole to the answer it delegates to (`_for_you_view`)."""

    query: str
    filter: str
    order: str
    limit: int | None = None
    highlight_top: int = 0
    typing: bool = False
    cancelled: Callable[[], bool] | None = None


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
    typing: bool = False,
    places: Places | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> View:
    """Search, then the user's marks (the query's filters and the reader's), then the order.

    Args:
        index: the index to search; None while it is being built (every paper is listed, `waiting` set).
        state: the user's stars, read marks, tags and notes.
        every: every paper id in listing order; `position` maps each to its place in it.
        query: what the user typed; its `is:`, `tag:` and `note:` words are applied by `keep`.
        filter: one of FILTERS.
        order: one of ORDERS; relevance ranks, listing and starred leave the matches unscored.
        limit: at most this many ids, with the first ones as `hits`; only with filter "all", the views a
            top-N search answers (ranked for relevance, else the first `limit` in the order, unscored).
        highlight_top: how many of the hits carry match spans and a snippet.
        typing: the query is being typed, so its unfinished last word is a prefix (`SearchIndex.match`).
        places: each paper's place in an order of `PLACED_ORDERS`; without it only "listing" (`position`).
        cancelled: asked while the query runs; True stops it (`SearchIndex.match`).

    Raises:
        IndexUnavailable: the index cannot be searched (damaged, or gone since it was opened).
    """
    if limit is not None and filter != "all":
        raise ValueError("a limit needs filter 'all'")
    placed = _placed(position, places)
    if index is None:
        # Honest while indexing: every paper is listed, and the note says the query waits for the index.
        if filter == "foryou":
            return View(query, filter, tuple(every), waiting=True)  # it needs the index's term weights
        ids = keep(state, tuple(every), (filter,))
        ids = _ordered(ids, order, state, placed, listed=True)
        return View(query, filter, ids, waiting=bool(query.strip()))
    asked = Asked(query, filter, order, limit, highlight_top, typing, cancelled)
    if filter == "foryou" or read_query(query).asks_for_you:
        return _for_you_view(index, state, placed, asked)
    ranked = order == "relevance"
    matched = index.match(query, limit if ranked else None, ranked=ranked, typing=typing, cancelled=cancelled)
    ids, scores = matched.ids, matched.scores
    if matched.filters:
        mask = _kept(state, ids, matched.filters)
        ids, scores = tuple(compress(ids, mask)), tuple(compress(scores, mask))
    # "Did you mean" weighs what the query itself finds, whichever of the reader's filters is on.
    suggestion = index.suggest(matched) if len(ids) < SUGGEST_BELOW else None
    ids = keep(state, ids, (filter,))
    # A ranking cut to the best `limit` (possible only with no mark filter) leaves out matches it counted.
    matching = len(ids) + matched.total - len(matched.ids) if limit is not None else None
    # Unranked matches come in index order, which is listing order only for the empty query.
    ids = _ordered(ids, order, state, placed, listed=not query.strip())[:limit]
    hits = _hits(index, _shown(ids, limit, highlight_top), scores, matched, highlight_top)
    return View(
        query,
        filter,
        ids,
        matched.notice,
        suggestion,
        hits=hits,
        highlight=matched.highlight,
        matching=matching,
    )


def _shown(ids: tuple[str, ...], limit: int | None, highlight_top: int) -> tuple[str, ...]:
    """The ids a view details as hits: all of a limited view, else the first `highlight_top`."""
    return ids if limit is not None else ids[:highlight_top]


def _hits(
    index: SearchIndex, shown: Sequence[str], scores: Sequence[float], matched: Matched, highlight_top: int
) -> tuple[SearchHit, ...]:
    """The shown ids as hits: the first `highlight_top` with match spans and a snippet."""
    top = index.hits(shown[:highlight_top], scores, matched.highlight)
    return top + index.hits(shown[highlight_top:], scores[highlight_top:], None)


def _placed(position: Mapping[str, int], places: Places | None) -> Places:
    """`places`, or for a caller that gave none, listing order alone (`position`)."""
    if places is not None:
        return places

    def listing_only(order: str) -> Mapping[str, int]:
        if order != "listing":
            raise ValueError(f"the order {order!r} needs each paper's places (`places`)")
        return position

    return listing_only


def _ordered(
    ids: tuple[str, ...], order: str, state: StateStore, places: Places, *, listed: bool
) -> tuple[str, ...]:
    """`ids` in `order`; `listed`: they are in listing order already (no query, or no index yet)."""
    if order == "relevance":
        return ids
    if order == "starred":
        return newest_starred_first(ids if listed else in_order(ids, places("listing")), state)
    if order == "listing" and listed:
        return ids
    return in_order(ids, places(order))


def keep(state: StateLookup, ids: tuple[str, ...], filters: Sequence[MarkFilter | str]) -> tuple[str, ...]:
    """The ids that pass every filter: the one place a user's marks decide what is listed.

    Filters are a query's (typed_query.py: `is:`, `tag:`, `note:`) or the reader's own, by name (FILTERS:
    "all" keeps everything). The sets are read once per call, not per id: a 56k-paper list is filtered with
    one cached set per filter.
    """
    typed = [IsFilter(found) if isinstance(found, str) else found for found in filters if found != "all"]
    if not typed:
        return ids
    return tuple(compress(ids, _kept(state, ids, typed)))


def _kept(state: StateLookup, ids: Sequence[str], filters: Sequence[MarkFilter]) -> list[bool]:
    kept: list[bool] | None = None
    for found in filters:
        without = getattr(found, "without", False)
        if found == IsFilter("unread", without):  # every paper but the read ones: never list 56k unread ids
            without, found = not without, IsFilter("read")
        wanted = _kept_ids(state, found)
        passed = [(paper_id in wanted) != without for paper_id in ids]
        kept = passed if kept is None else [a and b for a, b in zip(kept, passed, strict=True)]
    return kept if kept is not None else [True] * len(ids)


def _kept_ids(state: StateLookup, found: MarkFilter) -> AbstractSet[str]:
    """The ids one filter keeps (read for `is:unread`, whose complement it is; none for a for-you filter,
    which `_for_you_view` answers)."""
    if isinstance(found, IsFilter) and found.name == "starred":
        return state.starred_ids()
    if isinstance(found, IsFilter) and found.name == "read":
        return state.read_ids()
    if isinstance(found, TagFilter):
        try:
            return state.tagged_ids(found.name)
        except TagNameError:
            return frozenset()  # no tag can have this name, so no paper has it
    if isinstance(found, NoteFilter):
        wanted = pattern_words(found.words)
        return {paper_id for paper_id, note in state.notes().items() if note_matches(note, wanted)}
    return frozenset()


def in_order(ids: Sequence[str], places: Mapping[str, int]) -> tuple[str, ...]:
    """Matches by their places (ids the listings lack last: a stale index may have them)."""
    keys = np.fromiter(map(places.get, ids, repeat(len(places))), np.int64, len(ids))
    return tuple(map(ids.__getitem__, np.argsort(keys, kind="stable").tolist()))


def places_in(order: str, venues: Sequence[str | None], years: Sequence[int | None]) -> list[int]:
    """For papers in listing order with these venues and years, each paper's place in `order`
    ("newest", "oldest", "venue": A-Z, newest first within one): ties keep listing order, and papers with
    no year or venue come last."""
    if order not in ("newest", "oldest", "venue"):
        raise ValueError(f"no places for the order {order!r}")
    count = len(years)
    year = np.fromiter((-1 if y is None else y for y in years), np.int64, count)
    undated = year < 0
    keys = [np.arange(count), year if order == "oldest" else -year, undated]  # the last key sorts first
    if order == "venue":
        folded = [name.casefold() if name else "" for name in venues]  # "icml" is ICML
        code = {name: number for number, name in enumerate(sorted(set(folded) - {""}))}
        keys.append(np.fromiter((code.get(name, len(code)) for name in folded), np.int64, count))
    ranked = np.lexsort(keys)
    places = np.empty(count, np.int64)
    places[ranked] = np.arange(count)
    return places.tolist()


def newest_starred_first(ids: Sequence[str], state: StateStore) -> tuple[str, ...]:
    """Starred papers by the time they were starred, newest first; the rest after them, in their order."""
    starred = state.starred_ids()  # only starred papers have a time worth asking for
    stamps = {
        paper_id: mark.starred_at or 0.0
        for paper_id, mark in state.states(paper_id for paper_id in ids if paper_id in starred).items()
        if mark.starred
    }
    return tuple(sorted(ids, key=lambda paper_id: -stamps.get(paper_id, 0.0)))


def for_you(
    index: SearchIndex, state: StateLookup, seeds: AbstractSet[str] | None = None, limit: int = 20
) -> list[ForYouHit]:
    """Unread papers most like `seeds` (default: the starred papers), none starred or read, best first."""
    starred = state.starred_ids()
    chosen = starred if seeds is None else frozenset(seeds)
    return index.for_you(chosen, starred | state.read_ids() | chosen, limit)


def _for_you_view(index: SearchIndex, state: StateStore, places: Places, asked: Asked) -> View:
    """`compute_view` for a for-you list (filter "foryou", `is:foryou` or `foryou:NAME`): the query's matches
    among the `FOR_YOU_SIZE` papers `for_you` ranks (like the starred papers, or like the papers tagged NAME),
    in that ranking's order for the relevance order (there is no other relevance to it)."""
    tag = read_query(asked.query).for_you_tag  # like the papers with that tag, not the starred ones
    try:
        seeds = None if tag is None else state.tagged_ids(tag)
    except TagNameError:
        seeds = frozenset()  # no tag can have this name, so no paper has it
    picked = for_you(index, state, seeds, limit=FOR_YOU_SIZE)
    ranking = {hit.id: n for n, hit in enumerate(picked)}
    # Every match, unscored (at most FOR_YOU_SIZE pass); the hits of a limited view are picked afterwards.
    matched = index.match(asked.query, ranked=False, typing=asked.typing, cancelled=asked.cancelled)
    query_filters = [name for name in matched.filters if not _is_for_you(name)]
    pool = matched.ids
    if len(query_filters) < len(matched.filters):  # the query itself asks for the for-you list
        pool = tuple(paper_id for paper_id in pool if paper_id in ranking)
    found = keep(state, pool, query_filters)
    suggestion = index.suggest(matched) if len(found) < SUGGEST_BELOW else None
    listed = tuple(paper_id for paper_id in found if paper_id in ranking)
    ids = keep(state, listed, () if _is_for_you(asked.filter) else (asked.filter,))
    if asked.order == "starred":
        ids = newest_starred_first(ids, state)
    else:
        ids = in_order(ids, places(asked.order) if asked.order in PLACED_ORDERS else ranking)
    matching = len(ids) if asked.limit is not None else None
    ids = ids[: asked.limit]
    hits = _hits(index, _shown(ids, asked.limit, asked.highlight_top), (), matched, FOR_YOU_SIZE)
    return View(
        asked.query,
        asked.filter,
        ids,
        _for_you_notice(matched.notice, tag, bool(ranking), asked.query),
        suggestion,
        hits=hits,
        highlight=matched.highlight,
        for_you=ForYouList(tag, {hit.id: hit for hit in picked}),
        matching=matching,
    )


def _is_for_you(found: MarkFilter | str) -> bool:
    """Whether a filter asks for the for-you list (`is:foryou`, `foryou:NAME`, the reader's 4)."""
    return found in ("foryou", IsFilter("foryou")) or isinstance(found, ForYouFilter)


def _for_you_notice(notice: str | None, tag: str | None, found: bool, query: str) -> str | None:
    """The query's notice, and when the list is empty for want of seeds, how to give it some."""
    if found:
        return notice
    if tag is not None:
        why = f"foryou:{tag} finds papers like your papers tagged {tag}: tag a few first"
    else:
        lists = "is:foryou finds" if IsFilter("foryou") in read_query(query).filters else "for you lists"
        why = f"{lists} papers like your starred ones: star a few first"
    return f"{notice}; {why}" if notice else why
