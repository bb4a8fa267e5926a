"""One index generation's queries ranked: parsed with its parsers, ranked once per query text, and a malformed
query's near spellings tried as a last resort.

`SearchIndex` (index.py) makes a `Matcher` on every (re)open and calls it under its lock, so nothing here
locks or outlives a generation: what is cached (rankings, the array ranker) is dropped with it. Ranking
itself is ranking.py's (fastrank.py scores whole posting lists per generation, with Whoosh's exact results;
Whoosh's collector answers what it cannot reproduce).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from index.search.bounds import Budget
from index.search.query import ParsedQuery, QueryParsers
from index.search.ranking import TIME_LIMIT, Ranked, rank

if TYPE_CHECKING:  # numpy (100-300 ms to import) loads on the first search, not before the first paint
    from index.search.fastrank import FastRanker
    from index.search.termarrays import Docnums

_CACHE_SIZE = 64


class Matcher:
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

    def parse(self, searcher: Any, text: str) -> ParsedQuery:
        """`text` parsed, each `word*` weighed by the index's document frequencies (never raises)."""
        assert self._parsers is not None

        def frequency(field: str, term: str) -> tuple[int, int]:
            return searcher.doc_frequency(field, term), searcher.doc_count_all()

        return self._parsers.parse(text, frequency)

    def ranked(
        self,
        searcher: Any,
        parsed: ParsedQuery,
        top: int | None = None,
        scored: bool = True,
        budget: Budget | None = None,
    ) -> Ranked:
        """`ranking.rank` for this query under `budget`, cached per query text until the next commit.

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
