"""Asking Whoosh for the matches of one parsed query: best first (or a top-N heap), unscored, time-limited."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from whoosh import collectors
from whoosh.searching import TimeLimit

from index.search.bounds import Budget
from index.search.highlight import matched_terms
from index.search.prefix_query import share_expansions

if TYPE_CHECKING:  # numpy loads with the first fast ranker, not at import
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
