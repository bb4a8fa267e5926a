"""One index generation's queries ranked: parsed, matched by Whoosh or the array ranker, cached by text.

`SearchIndex` (index.py) makes a `QueryRanker` for every generation it reads and calls it under its lock, so
nothing here locks or outlives a generation: what is cached (rankings, the array ranker) is dropped with it.
`rank` asks for one parsed query's matches: fastrank.py scores whole posting lists with Whoosh's exact
results, and Whoosh's collector answers what it cannot reproduce (best first, a top-N heap, unscored, within
a time limit). A malformed query's near spellings are tried as a last resort.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple

from whoosh import collectors
from whoosh.searching import TimeLimit

from index.search.bounds import Budget
from index.search.highlight import matched_terms
from index.search.prefix_query import share_expansions
from index.search.query import ParsedQuery, QueryParsers
from index.search.vocabulary import Vocabulary

if TYPE_CHECKING:  # numpy (100-300 ms to import) loads with the first fast ranker, not at import
    from index.search.fastrank import FastRanker
    from index.search.termarrays import Docnums

TIME_LIMIT = 2.0
"""Seconds one search may take before it returns what it has (with a notice)."""

Terms = dict[str, frozenset[str]]
"""Matched index terms per field (`abstract`, `headline`, ...): what highlighting marks."""


class Ranked(NamedTuple):
    """One query's matches as paper ids, with their scores (empty when unscored) and matched terms."""

    ids: tuple[str, ...]
    scores: tuple[float, ...]
    terms: Terms
    timed_out: bool
    total: int
    """How many papers match: more than `ids` holds when only the best `top` were ranked."""

    def first(self, top: int) -> Ranked:
        """The best `top` of a full ranking: what a top-N heap would have given."""
        return Ranked(self.ids[:top], self.scores[:top], self.terms, self.timed_out, self.total)


def rank(
    searcher: Any,
    query: Any,
    ids_of: Callable[[Sequence[int] | Docnums], tuple[str, ...]],
    top: int | None = None,
    scored: bool = True,
    fast: FastRanker | None = None,
    budget: Budget | None = None,
) -> Ranked:
    """Every match of `query` (or the best `top`), best first, mapped to paper ids by `ids_of`.

    With `fast` (this generation's array ranker) the scores are computed over whole posting lists at once:
    the same hits, scores and order (tests compare them), at a fraction of the cost; a query it cannot
    reproduce, or a part of one that runs past the time limit, is searched by Whoosh.

    With `top`, Whoosh keeps a heap instead of sorting every match: the same first `top` hits in the same
    order (ties go to the lower document number either way). Unscored, the matches come in index order with
    no scores (BM25 is about half the cost of a common word), for callers that order them themselves.

    With `budget`, every expansion checks it and Whoosh's collector gets the time it has left.

    Raises:
        QueryStopped: an expansion ran past the budget, or stands for more words than a search can use.
    """
    share_expansions(query, budget)
    readers = [leaf.reader() for leaf, _offset in searcher.leaf_searchers()]
    if fast is not None:
        from index.search.fastrank import TooSlow
        from index.search.termarrays import Unsupported

        try:
            hits = fast.hits(query, scored, top, budget)
        except (Unsupported, TooSlow):
            pass
        else:
            return Ranked(
                ids_of(hits.docnums),
                tuple(hits.scores.tolist()),  # a tuple from a list: 2 ms at 146k hits
                matched_terms(query, readers),
                False,
                hits.total,
            )
    inner: Any
    if not scored:
        inner = _Unscored()
    elif top is None:
        inner = searcher.collector(limit=None)
    else:
        # No block-quality skipping and no matcher replacement: both prune by Whoosh's per-block score
        # bounds, which field boosts make inexact (`graph neural` lost 4 of its real top 20 at 56k).
        inner = collectors.TopCollector(top, usequality=False, replace=0)
    limit = TIME_LIMIT if budget is None else min(TIME_LIMIT, budget.remaining())
    capped = collectors.TimeLimitCollector(inner, timelimit=limit)
    timed_out = False
    try:
        searcher.search_with_collector(query, capped)
    except TimeLimit:
        timed_out = True
    best = capped.results().top_n
    total = inner.total if isinstance(inner, collectors.TopCollector) else len(best)  # it counts every match
    return Ranked(
        ids_of([docnum for _score, docnum in best]),
        tuple(float(score) for score, _docnum in best) if scored else (),
        matched_terms(query, readers),
        timed_out,
        total,
    )


class _Unscored(collectors.UnsortedCollector):  # type: ignore[misc]
    """Matches without scores, stepped through in order.

    Whoosh's own unscored path asks the matcher for `all_ids()`, which intersects an And as two full sets:
    `diffusion models` takes twice as long as scoring it. Stepping keeps the skip_to intersection.
    """

    def matches(self) -> Iterator[int]:
        matcher = self.matcher  # the current segment's, set by `set_subsearcher`
        while matcher.is_active():
            yield matcher.id()
            matcher.next()


_CACHE_SIZE = 64
"""Rankings a generation keeps, by query text (the newest ones)."""


class QueryRanker:
    """Query text to ranked paper ids for one generation, each ranking cached until the next commit.

    Args:
        schema: the generation's schema; None when the directory holds no index yet (nothing is parsed).
        analyzer: the stemming analyzer a malformed query's near spellings are looked up with.
        ids_of: paper ids of Whoosh documents (`SearchIndex`'s id column, shared with its other callers).
    """

    def __init__(
        self,
        schema: Any | None,
        analyzer: Any,
        ids_of: Callable[[Sequence[int] | Docnums], tuple[str, ...]],
    ) -> None:
        self._parsers: QueryParsers | None = QueryParsers(schema) if schema is not None else None
        self._analyzer = analyzer
        self._ids_of = ids_of
        self._cache: OrderedDict[str, Ranked] = OrderedDict()
        self._fast: tuple[Any, FastRanker | None] | None = None
        self._vocabulary: tuple[Any, Vocabulary] | None = None

    def parse(self, searcher: Any, text: str) -> ParsedQuery:
        """`text` parsed, each `word*` weighed by the index's document frequencies (never raises)."""
        assert self._parsers is not None

        def frequency(field: str, term: str) -> tuple[int, int]:
            return searcher.doc_frequency(field, term), searcher.doc_count_all()

        return self._parsers.parse(text, frequency, self.vocabulary(searcher))

    def vocabulary(self, searcher: Any) -> Vocabulary:
        """This generation's compounds and acronyms (vocabulary.py), read from the index once."""
        if self._vocabulary is None or self._vocabulary[0] is not searcher:
            self._vocabulary = (searcher, Vocabulary.read(searcher.reader()))
        return self._vocabulary[1]

    def ranked(
        self,
        searcher: Any,
        parsed: ParsedQuery,
        top: int | None = None,
        scored: bool = True,
        budget: Budget | None = None,
    ) -> Ranked:
        """`rank` for this query under `budget`, cached per query text until the next commit.

        A full scored ranking also answers any `top` later asked of the same text. A query stopped by its
        budget raises `QueryStopped` and is not cached: asked again, it runs again.
        """
        every = self._cache.get(parsed.text)
        if every is not None:
            self._cache.move_to_end(parsed.text)
            return every if top is None else every.first(top)
        key = parsed.text if scored and top is None else f"{parsed.text}\x00{top if scored else 'unscored'}"
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        ranked = rank(searcher, parsed.query, self._ids_of, top, scored, self.fast_ranker(searcher), budget)
        self._cache[key] = ranked
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return ranked

    def fast_ranker(self, searcher: Any) -> FastRanker | None:
        """This generation's array ranker (posting lists read once, kept), or None if it cannot be exact."""
        if self._fast is None or self._fast[0] is not searcher:
            from index.search.fastrank import FastRanker
            from index.search.termarrays import Unsupported

            try:
                ranker: FastRanker | None = FastRanker(searcher, TIME_LIMIT / 2)
            except Unsupported:
                ranker = None
            self._fast = (searcher, ranker)
        return self._fast[1]

    def near_spellings(
        self,
        searcher: Any,
        parsed: ParsedQuery,
        ranked: bool,
        notices: list[str],
        budget: Budget | None = None,
    ) -> Ranked:
        """A malformed query whose plain words found nothing: its words within two typos, as a last resort."""
        assert self._parsers is not None
        near = self._parsers.near_words(parsed.text, self._analyzer)
        if near is None:
            return Ranked((), (), {}, False, 0)
        near_parsed = replace(parsed, text=f"\x00near:{parsed.text}", query=near)
        notices[0] = (parsed.notice or "").replace("as plain words", "as plain words and near spellings")
        return self.ranked(searcher, near_parsed, None, ranked, budget)
