"""Ranking every match of a query with numpy, giving exactly the scores and order Whoosh's collector gives.

Whoosh builds a tree of matchers per segment and asks it for one document and one score at a time; for a
common word at 56k papers that is most of a keystroke's budget. Here the same tree is walked once per
segment with whole arrays: the leaves are `SegmentArrays` posting lists (read once per generation), and each
inner node does what its Whoosh matcher does to every document at once (a union adds the scores of the sides
that match, an intersection adds both, and so on). Whoosh picks the shape of the tree (which two children are
added first) from document counts; floating-point addition is not associative, so the shape is rebuilt with
the same rules (`_weighted_tree`, `_binary_tree`) rather than assumed.

A query part this module has no array form for (phrases, numeric ranges, coordinated ORs...) is evaluated by
stepping Whoosh's own matcher for that part alone, which is exact by construction (a parent only adds its
children's scores), and kept for the generation: typing more words after a phrase reuses it.
"""

from __future__ import annotations

import time
from bisect import insort
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from whoosh import query as wq

from index.search.bounds import Budget
from index.search.prefixes import PrefixTerm
from index.search.termarrays import Docnums, Mask, Scores, SegmentArrays, Unsupported
from index.search.whoosh_private import expansion, seed_expansion

_STEPPED_KEPT = 128
"""Query parts evaluated by Whoosh and kept per segment (phrases, ranges)."""
_EXPANSIONS_KEPT = 512
"""Prefix, wildcard and fuzzy expansions kept per segment."""


class TooSlow(Exception):
    """A part evaluated by Whoosh ran past the time limit: let the time-limited Whoosh search answer."""


class Matches(NamedTuple):
    """One segment's matches as dense arrays over its documents: who matches, and with what score."""

    mask: Mask
    scores: Scores


class Hits(NamedTuple):
    """Every match of a query over the whole index: global document numbers and scores, best first."""

    docnums: Docnums
    scores: Scores
    total: int
    """How many papers match: more than `docnums` holds when only the best `top` were asked for."""


class FastRanker:
    """Ranks queries over one searcher (one index generation) with arrays; keeps what it read for the next.

    Args:
        searcher: the top-level Whoosh searcher of the generation.
        time_limit: seconds a part evaluated by Whoosh may take before `TooSlow` is raised.
    """

    def __init__(self, searcher: Any, time_limit: float) -> None:
        self.searcher = searcher
        self._time_limit = time_limit
        # Segments in document-number order: their offsets are the running totals of their sizes, so
        # concatenating per-segment arrays gives arrays over the global document numbers.
        self._segments = [SegmentArrays(leaf) for leaf, _offset in searcher.leaf_searchers()]
        self._stepped: OrderedDict[tuple[int, Any], tuple[Docnums, Scores]] = OrderedDict()
        self._expansions: OrderedDict[tuple[int, Any], list[bytes]] = OrderedDict()

    def warm(self) -> None:
        """Decode every segment's lengths of every scored field now, as the first query would."""
        scored = [name for name, field in self.searcher.schema.items() if field.scorable]
        for segment in self._segments:
            for name in scored:
                segment.lengths(name)

    def hits(
        self, query: Any, scored: bool = True, top: int | None = None, budget: Budget | None = None
    ) -> Hits:
        """Every match of `query` best first (ties: lower document number first, as Whoosh orders them), or
        in document order when not `scored`; with `top`, only the best `top` (the same first ones).

        Raises:
            Unsupported: the index holds something the arrays cannot reproduce; search with Whoosh.
            TooSlow: a part only Whoosh evaluates ran past the time limit.
            QueryStopped: the query ran past `budget` (checked a term at a time).
        """
        started = time.perf_counter()
        context = self.searcher.context()  # what search_with_collector gives the collector
        masks: list[Mask] = []
        scores: list[Scores] = []
        for number, segment in enumerate(self._segments):
            walk = _Walk(self, number, segment, context, started, budget=budget)
            found = walk.node(query)
            masks.append(found.mask)
            scores.append(found.scores)
        if not masks:
            return Hits(np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float64), 0)
        mask = np.concatenate(masks)
        docnums = np.flatnonzero(mask)
        found_scores = np.concatenate(scores)[docnums]
        if not scored:
            return Hits(docnums, np.empty(0, dtype=np.float64), len(docnums))
        total = len(docnums)
        if top is not None and top < total:
            # Only scores at least the top-th best can be among the first `top`: sort just those.
            threshold = np.partition(found_scores, len(found_scores) - top)[len(found_scores) - top]
            keep = found_scores >= threshold
            docnums, found_scores = docnums[keep], found_scores[keep]
        order = np.argsort(-found_scores, kind="stable")  # docnums ascend already: ties keep that order
        if top is not None:
            order = order[:top]
        return Hits(docnums[order], found_scores[order], total)

    def stepped(
        self, number: int, key: Any, compute: Callable[[], tuple[Docnums, Scores]]
    ) -> tuple[Docnums, Scores]:
        """A part's matches in one segment as Whoosh gives them (`compute`), kept for the generation."""
        known = self._stepped.get((number, key))
        if known is None:
            known = self._stepped[number, key] = compute()
            if len(self._stepped) > _STEPPED_KEPT:
                self._stepped.popitem(last=False)
        else:
            self._stepped.move_to_end((number, key))
        return known

    def expansion(self, number: int, leaf: Any, reader: Any) -> list[bytes]:
        """The terms a prefix, wildcard or fuzzy leaf expands to in one segment (kept per generation)."""
        key = (number, _key(leaf))
        known = self._expansions.get(key)
        if known is None:
            known = self._expansions[key] = [word for word in expansion(leaf, reader) if word]
            if len(self._expansions) > _EXPANSIONS_KEPT:
                self._expansions.popitem(last=False)
        else:
            self._expansions.move_to_end(key)
            seed_expansion(leaf, reader, known)  # highlighting asks the leaf again: spare it the walk
        return known


class _Walk:
    """One query over one segment: `node` mirrors each query class's `matcher()` with arrays."""

    def __init__(
        self,
        ranker: FastRanker,
        number: int,
        segment: SegmentArrays,
        context: Any,
        started: float,
        universe: Docnums | None = None,
        budget: Budget | None = None,
    ) -> None:
        self.ranker = ranker
        self.number = number
        self.segment = segment
        self.searcher = segment.searcher
        self.reader = segment.reader
        self.context = context
        self.started = started
        self.universe = universe
        """The documents this walk's arrays stand for (ascending), when not the whole segment."""
        self.budget = budget

    def empty(self) -> Matches:
        size = self.segment.size if self.universe is None else len(self.universe)
        return Matches(np.zeros(size, dtype=np.bool_), np.zeros(size, dtype=np.float64))

    def node(self, q: Any, context: Any = None) -> Matches:
        context = context or self.context
        kind = type(q)
        if q is wq.NullQuery or isinstance(q, type(wq.NullQuery)):
            return self.empty()
        if kind is wq.Term or kind is PrefixTerm:
            return self.term(q.fieldname, q.text, q.boost, q.minquality)
        if kind in (wq.Prefix, wq.Wildcard, wq.FuzzyTerm):
            return self.multiterm(q, context)
        if kind is wq.And:
            return self.compound(q, context, self.intersect, lambda s: 0 - s.estimate_size(self.reader))
        if kind is wq.Or and q.matcher_type == wq.Or.AUTO_MATCHER and not q.minmatch:
            return self.either(q, context)
        if kind is wq.AndNot:
            # Whoosh's collector lets a few excluded papers through (a replaced AndNotMatcher does not
            # re-check its current match), and which ones depends on the collector: only Whoosh can agree.
            raise Unsupported("AndNot")
        if kind is wq.Not and q.boost == 1.0:
            child = self.node(q.query, self.searcher.boolean_context())
            mask = ~child.mask & self.segment.live
            return Matches(mask, mask.astype(np.float64))  # InverseMatcher scores every match 1.0
        return self.step(q, context)

    def term(self, field: str, text: Any, boost: float, minquality: Any) -> Matches:
        """Term.matcher: the posting list scored by BM25F, times the boost."""
        if minquality:
            raise Unsupported("a term with a minimum quality")
        if field not in self.searcher.schema:
            return self.empty()
        try:
            btext = self.searcher.schema[field].to_bytes(text)
        except ValueError:
            return self.empty()
        if self.budget is not None:
            self.budget.check("ranking")  # a prefix of thousands of words: Whoosh would be slower still
        elif time.perf_counter() - self.started > self.ranker._time_limit:
            raise TooSlow  # a prefix of thousands of words: Whoosh's time-limited search answers
        docnums, scores = self.segment.term(field, btext)
        if self.universe is not None:
            docnums = np.searchsorted(self.universe, docnums)
        found = self.empty()
        found.mask[docnums] = True
        found.scores[docnums] = scores if boost == 1.0 else scores * boost
        return found

    def multiterm(self, q: Any, context: Any) -> Matches:
        """MultiTerm.matcher: one term as itself, several as an Or of terms carrying the leaf's boost."""
        words = self.ranker.expansion(self.number, q, self.reader)
        field = q.field()
        if not words:
            return self.empty()
        terms = [wq.Term(field, word, boost=q.boost) for word in words]
        if len(terms) == 1:
            return self.node(terms[0], context)
        if q.constantscore:
            context = context.set(weighting=None)
        # Dozens of rare words: the union tree runs over just the documents holding one of them, not over
        # every document of the segment (at 250k, a few ms for `diffu*` where the full walk takes ~70 ms), and
        # is spread out once.
        holding: list[Docnums] = []
        for word in words:
            if self.budget is not None and not len(holding) % 64:
                self.budget.check("ranking")
            holding.append(self.segment.term(field, self.searcher.schema[field].to_bytes(word))[0])
        universe = np.unique(np.concatenate(holding))
        within = _Walk(
            self.ranker, self.number, self.segment, self.context, self.started, universe, self.budget
        )
        found = within.either(wq.Or(terms), context)
        spread = self.empty()
        spread.mask[universe] = found.mask
        spread.scores[universe] = found.scores
        return spread

    def either(self, q: Any, context: Any) -> Matches:
        """Or.matcher's automatic choice between a tree of unions and one array of summed scores."""
        subs = q.subqueries
        if not subs:
            return self.empty()
        if len(subs) == 1:
            return self.node(subs[0], context)
        tree = len(subs) < q.TOO_MANY_CLAUSES and (
            context.needs_current or q.scale or len(subs) == 2 or self.searcher.doc_count_all() > 5000
        )
        if not tree:
            return self.preloaded(subs, q.boost, context)
        if q.scale:
            raise Unsupported("a coordinated Or")  # CoordMatcher: never built by our parsers
        return self.compound(q, context, self.union, lambda s: s.estimate_size(self.reader))

    def compound(
        self,
        q: Any,
        context: Any,
        join: Callable[[Matches, Matches], Matches],
        weight: Callable[[Any], int],
    ) -> Matches:
        """CompoundQuery.matcher and _tree_matcher: children joined in Whoosh's weighted tree, boosted."""
        subs = q.subqueries
        if not subs:
            return self.empty()
        if len(subs) == 1:
            return self.node(subs[0], context)
        parts = []
        for sub in subs:
            part = self.node(sub, context)  # first: it seeds a fuzzy leaf's expansion that weight() asks for
            parts.append((weight(sub), part))
        found = _weighted_tree(join, parts)
        return found if q.boost == 1.0 else Matches(found.mask, found.scores * q.boost)

    def preloaded(self, subs: Sequence[Any], boost: float, context: Any) -> Matches:
        """ArrayUnionMatcher: scores added child by child (in order), or 1 when the context is unscored."""
        scored = context.weighting is not None
        found = self.empty()
        for sub in subs:
            part = self.node(sub, context)
            found.mask[part.mask] = True
            if scored:
                found.scores[part.mask] += part.scores[part.mask] * boost
        if not scored:
            found.scores[found.mask] = 1.0
        # ArrayUnionMatcher only reports documents whose summed score is above zero.
        return Matches(found.mask & (found.scores > 0), found.scores)

    @staticmethod
    def union(a: Matches, b: Matches) -> Matches:
        return Matches(a.mask | b.mask, a.scores + b.scores)

    @staticmethod
    def intersect(a: Matches, b: Matches) -> Matches:
        return Matches(a.mask & b.mask, a.scores + b.scores)

    def step(self, q: Any, context: Any) -> Matches:
        """A part with no array form: Whoosh's own matcher for it, stepped once, kept for the generation."""
        key = (_key(q), context.needs_current, context.weighting is None)
        docnums, scores = self.ranker.stepped(self.number, key, lambda: self._step(q, context))
        found = self.empty()
        found.mask[docnums] = True
        found.scores[docnums] = scores
        return found

    def _step(self, q: Any, context: Any) -> tuple[Docnums, Scores]:
        matcher = q.matcher(self.searcher, context)
        ids: list[int] = []
        scores: list[float] = []
        limit = self.ranker._time_limit
        while matcher.is_active():
            ids.append(matcher.id())
            scores.append(matcher.score())
            matcher.next()
            if not len(ids) % 512 and time.perf_counter() - self.started > limit:
                raise TooSlow
        return np.asarray(ids, dtype=np.int64), np.asarray(scores, dtype=np.float64)


def _weighted_tree(join: Callable[[Matches, Matches], Matches], items: list[tuple[int, Matches]]) -> Matches:
    """whoosh.util.make_weighted_tree: the two lightest first, the sum re-inserted after its equals.

    Whoosh sorts (weight, matcher) pairs, and its matchers compare neither less nor greater whenever the
    weights tie, so ties keep their order (a stable sort and a rightmost insert by weight alone).
    """
    pending = sorted(items, key=_weight)
    while len(pending) > 1:
        a = pending.pop(0)
        b = pending.pop(0)
        insort(pending, (a[0] + b[0], join(a[1], b[1])), key=_weight)
    return pending[0][1]


def _weight(item: tuple[int, Matches]) -> int:
    return item[0]


def _key(q: Any) -> str:
    """A query part's identity for the caches: its repr and every public attribute (a phrase's `degrade`
    flag, a fuzzy term's distance), since Whoosh's equality leaves some of them out."""
    public = sorted((name, repr(value)) for name, value in vars(q).items() if not name.startswith("_"))
    return f"{type(q).__name__}:{q!r}:{public}"
