"""The search index: what a query matches, hits with highlights, "did you mean" and papers like one.

`SearchIndex(maintenance)` searches the directory an `IndexMaintenance` (maintenance.py) keeps open and
current; opening, freshness, building and updating are the maintenance's, and whoever builds or updates holds
it (`Library`, `papers index`), not this. `match(query)` gives every matching id with the query's mark
filters left for the caller (the index holds no marks: `index.views` applies them), `hits(ids, ...)` the
details of the ones shown, `suggest` a corrected query, `spans` where a query's terms stand in one paper,
`similar` and `for_you` papers like others (likeness.py). Parsing and ranking a query, cached per
generation, are the `QueryRanker`'s (ranking.py, over fastrank.py); "did you mean" suggest.py's, which asks
`terms_within` (nearwords.py) per word so that it suggests words, not stems. A SearchIndex is shared by the
reader's threads (its search worker, the warm-up, the discovery workers, the detail pane), so every call
that reads the index holds the maintenance's lock (`reading`; `fresh` also picks up a new generation first):
Whoosh's readers seek and read shared file handles. Another process may update the same directory meanwhile.
"""

from __future__ import annotations

import functools
import pickle
import string
import struct
import time
import zlib
from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from index.models import Catalog, Paper
from index.render.abstract import to_plain
from index.search import snapshot, whoosh_private
from index.search.answers import (
    Highlight,
    Matched,
    MatchSpan,
    SearchHit,
    SearchResult,
    SimilarHit,
    UnknownPaper,
)
from index.search.bounds import Budget, QueryStopped
from index.search.highlight import WordTerms, snippet
from index.search.likeness import Likeness
from index.search.maintenance import IndexMaintenance, IndexUnavailable, IndexWriteFailed
from index.search.profile import ForYouHit
from index.search.query import QUERY_HELP
from index.search.ranking import TIME_LIMIT, QueryRanker, Terms
from index.search.schema import stemming_analyzer
from index.search.snapshot import Snapshot
from index.search.suggest import suggest
from index.search.typed_query import read_query

if TYPE_CHECKING:  # numpy (100-300 ms to import) loads on the first search, not before the first paint
    from index.search.idcolumn import DocIds
    from index.search.nearwords import NearWords
    from index.search.termarrays import Docnums

__all__ = [
    "QUERY_HELP",
    "SUGGEST_BELOW",
    "IndexMaintenance",
    "IndexUnavailable",
    "IndexWriteFailed",
    "SearchIndex",
    "UnknownPaper",
]

SUGGEST_BELOW = 5
"""A query with fewer results than this (after `is:` filters) gets a "did you mean" check."""


UNREADABLE = (
    OSError,
    EOFError,
    struct.error,
    zlib.error,
    UnicodeDecodeError,
    pickle.UnpicklingError,
    whoosh_private.CORRUPT,
)
"""What reading a damaged index file raises (a bad segment, a truncated posting list, a garbled column)."""

_P = ParamSpec("_P")
_R = TypeVar("_R")


def reading(method: Callable[Concatenate[SearchIndex, _P], _R]) -> Callable[Concatenate[SearchIndex, _P], _R]:
    """One thread at a time in the index: the call holds the maintenance's lock, which reopens take too, so a
    search never reads a handle another thread is seeking or a reopen is closing. Re-entrant: `search`
    calls `match`."""

    @functools.wraps(method)
    def locked(self: SearchIndex, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.maintenance.lock:
            try:
                return method(self, *args, **kwargs)
            except UNREADABLE as error:  # a damaged file: say so, and never search it again until rebuilt
                raise self.maintenance.unreadable(error) from error

    return locked


def fresh(method: Callable[Concatenate[SearchIndex, _P], _R]) -> Callable[Concatenate[SearchIndex, _P], _R]:
    """`reading`, on the newest generation: a rebuild or another process's commit is picked up first
    (`IndexMaintenance.refresh`, which raises IndexUnavailable when there is no usable index)."""

    guarded = reading(method)

    @functools.wraps(method)
    def refreshed(self: SearchIndex, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        with self.maintenance.lock:
            self.maintenance.refresh()
            return guarded(self, *args, **kwargs)

    return refreshed


class SearchIndex:
    """An index directory to search: ranked ids, highlights, suggestions and similar papers."""

    def __init__(self, maintenance: IndexMaintenance) -> None:
        self.maintenance = maintenance
        """The directory this searches: its lock, its open generation, and its building and updating."""
        self._analyzer = stemming_analyzer()
        self._words = WordTerms(self._analyzer)
        self._likeness = Likeness(self._words, self._paper, self.plain_abstract, self._ids_of)
        self._forget_generation()
        maintenance.on_reopen(self._forget_generation)

    @classmethod
    def open(cls, index_dir: Path) -> SearchIndex:
        """Search whatever index `index_dir` holds (possibly none yet: see `IndexMaintenance.ensure_current`,
        through `maintenance`); never writes."""
        return cls(IndexMaintenance.open(index_dir))

    def _forget_generation(self) -> None:
        """Drop what was cached for the previous generation: the maintenance calls this on every reopen."""
        ix = self.maintenance.ix
        self._ranker = QueryRanker(ix.schema if ix is not None else None, self._analyzer, self._ids_of)
        self._position: dict[str, int] | None = None
        self._docids: DocIds | None = None
        self._plain = lru_cache(maxsize=2048)(to_plain)
        self._suggestions: dict[str, str | None] = {}
        self._near: NearWords | None = None

    # ----- papers ----------------------------------------------------------------------------------------

    @reading
    def stored_catalog(self) -> Catalog | None:
        """The whole catalog this generation was built from (every paper decoded: prefer `load_snapshot`)."""
        view = self.maintenance.load_snapshot()
        if view is None:
            return None
        try:
            return view.catalog()
        except snapshot.SnapshotDamaged:
            raise self.maintenance.damaged() from None

    def _paper(self, paper_id: str) -> Paper:
        view = self.maintenance.load_snapshot()
        if view is None:
            raise UnknownPaper(paper_id)
        number = self._positions(view).get(paper_id)
        if number is None:
            raise UnknownPaper(paper_id)
        try:
            return view.paper(number)
        except snapshot.SnapshotDamaged:
            raise self.maintenance.damaged() from None

    def _positions(self, view: Snapshot) -> dict[str, int]:
        if self._position is None:
            self._position = {paper_id: number for number, paper_id in enumerate(view.ids)}
        return self._position

    def warm(self, pause: float = 0.0) -> None:
        """Read now what the first search of a generation would otherwise read on a keystroke: numpy, the
        array ranker, the field lengths, the id column, the ids' positions (~0.14 s at 56k), then the near
        spellings "did you mean" looks in (~0.2 s), sleeping `pause` s after each letter so that the UI
        thread of the reader, which calls this in a worker, keeps getting the GIL and a search the lock."""
        searcher = self._warm_generation()
        if searcher is None:
            return
        for letter in string.ascii_lowercase:
            with self.maintenance.lock:
                if self.maintenance.searcher is not searcher:
                    return  # reopened meanwhile: the new generation warms on its own first use
                self._near_words().warm(letter)
            time.sleep(pause)

    @fresh
    def _warm_generation(self) -> Any:
        """`warm`'s first step, in one hold of the lock: the searcher it warmed (None: nothing to warm)."""
        searcher = self.maintenance.searcher
        view = self.maintenance.load_snapshot()
        if searcher is None or view is None:
            return None
        self._positions(view)
        self._ids_of(())
        ranker = self._ranker.fast_ranker(searcher)
        if ranker is not None:
            ranker.warm()
        self._ranker.vocabulary(searcher)
        return searcher

    @fresh
    def paper(self, paper_id: str) -> Paper:
        """One paper from the snapshot; raises UnknownPaper."""
        return self._paper(paper_id)

    @fresh
    def resolve_id(self, key: str) -> str | None:
        """`key` as an exact id or a unique id prefix (what `papers show` accepts), else None."""
        view = self.maintenance.load_snapshot()
        ids = view.ids if view else []
        if key in ids:
            return key
        matches = [paper_id for paper_id in ids if paper_id.startswith(key)]
        return matches[0] if len(matches) == 1 else None

    @reading
    def plain_abstract(self, paper_id: str) -> str:
        """The rendered abstract that match spans index into."""
        return str(self._plain(self._paper(paper_id).abstract))

    def _ids_of(self, docnums: Sequence[int] | Docnums) -> tuple[str, ...]:
        """Paper ids of Whoosh documents (idcolumn.DocIds: a few looked up, many picked from the column)."""
        if self._docids is None:
            from index.search.idcolumn import DocIds  # numpy: on the first search, not at startup

            self._docids = DocIds(self.maintenance.searcher)
        return self._docids(docnums)

    def _abstracts(self, docnums: Sequence[int]) -> list[str]:
        return [self.plain_abstract(paper_id) for paper_id in self._ids_of(docnums)]

    # ----- searching -------------------------------------------------------------------------------------

    @fresh
    def match(
        self,
        query: str,
        limit: int | None = None,
        *,
        ranked: bool = True,
        typing: bool = False,
        cancelled: Callable[[], bool] | None = None,
    ) -> Matched:
        """Every paper `query` matches, best first, with what highlighting and filtering need; never raises on
        a bad query (it is searched as plain words and `notice` says so).

        The index holds no stars, tags or notes: the query's `is:`/`tag:`/`note:` words come back as
        `filters` for whoever holds the marks to apply (`index.views`), so this never calls back up.

        Args:
            query: what the user typed (see QUERY_HELP); empty lists every paper in index order.
            limit: the caller keeps at most this many; when the query has no mark filters that could drop
                some, only the best `limit` are ranked (a heap), provided enough remain for "did you mean".
            ranked: False gives the matches in index order with no scores, for a caller that sorts them
                its own way (cheaper: nothing is scored).
            typing: the query is being typed (the reader): its last word, unless finished, is a prefix
                (`TypedQuery.as_prefix`), the same query as typing that word with a `*`.
            cancelled: asked while the query runs; True stops it (an empty answer, with a notice).

        Every query runs under a `Budget` (bounds.py): one that runs past it, or whose wildcard stands for
        more words than a search can use, answers nothing and says why.
        """
        budget = Budget(cancelled=cancelled)  # from here: a long query's parse is part of what it spends
        searcher = self.maintenance.searcher
        searched = read_query(query).as_prefix if typing else query
        parsed = self._ranker.parse(searcher, searched)
        notices = [parsed.notice] if parsed.notice else []
        terms: Terms = {}
        scores: tuple[float, ...] = ()
        if parsed.query is None:
            view = self.maintenance.load_snapshot()
            ids: tuple[str, ...] = tuple(view.ids) if view else ()
            total = len(ids)
        else:
            top = limit if limit is not None and limit >= SUGGEST_BELOW and not parsed.filters else None
            try:
                ids, scores, terms, timed_out, total = self._ranker.ranked(
                    searcher, parsed, top, ranked, budget
                )
                if parsed.fallback and not ids:
                    ids, scores, terms, timed_out, total = self._ranker.near_spellings(
                        searcher, parsed, ranked, notices, budget
                    )
            except QueryStopped as stopped:
                ids, scores, terms, timed_out, total = (), (), {}, False, 0
                notices.append(f"search stopped: {stopped.reason}")
                searched = query  # nothing was searched: no "did you mean" either
                parsed = replace(parsed, words=())
            if timed_out:
                notices.append(f"search stopped after {TIME_LIMIT:g} s; results are incomplete")
        notice = "; ".join(notices) or None
        # "Did you mean" leaves alone a word still being typed, unless even its completions find nothing.
        words = read_query(query).plain_words if searched != query and not ids else parsed.words
        return Matched(query, ids, scores, terms, parsed.filters, words, notice, total)

    @fresh
    def hits(
        self, ids: Sequence[str], scores: Sequence[float], highlight: Highlight | None
    ) -> tuple[SearchHit, ...]:
        """The papers `ids` as hits with their `scores` (0 past the end); with `highlight`, each with its
        match spans and a snippet."""
        scored = tuple(scores) + (0.0,) * (len(ids) - len(scores))
        return tuple(self._hit(paper_id, scored[number], highlight) for number, paper_id in enumerate(ids))

    def suggest(self, matched: Matched) -> str | None:
        """ "Did you mean": `matched.query` with its misspelled-looking words corrected, or None."""
        return self._suggest(matched.query, matched.words) if matched.words else None

    @reading
    def search(self, query: str, limit: int | None = None, highlight_top: int = 20) -> SearchResult:
        """`match`, then hits for the first ones, for callers with no marks (benchmarks, tests): a query's
        `is:` words are ignored, with a notice. `index.views` is what the library and the reader use.

        Args:
            limit: at most this many ids (None: every match).
            highlight_top: how many of the first hits get match spans and a snippet.
        """
        matched = self.match(query, limit)
        notice = matched.notice
        if matched.filters:
            lacking = "is: filters need your stars and read marks, which are not available here"
            notice = f"{notice}; {lacking}" if notice else lacking
        ids = matched.ids
        suggestion = self.suggest(matched) if len(ids) < SUGGEST_BELOW else None
        ids = ids if limit is None else ids[:limit]
        shown = ids[: limit if limit is not None else highlight_top]
        top = self.hits(shown[:highlight_top], matched.scores, matched.highlight)
        rest = self.hits(shown[highlight_top:], matched.scores[highlight_top:], None)
        return SearchResult(query, ids, top + rest, notice, suggestion)

    def _hit(self, paper_id: str, score: float, terms: Highlight | None) -> SearchHit:
        paper = self._paper(paper_id)
        matches: tuple[MatchSpan, ...] = ()
        headline_matches: tuple[MatchSpan, ...] = ()
        snip = None
        if terms is not None:
            plain = self.plain_abstract(paper_id)
            matches = self._words.spans(plain, terms.get("abstract", frozenset()))
            headline_matches = self._words.spans(paper.headline, terms.get("headline", frozenset()))
            snip = snippet(plain, matches)
        return SearchHit(
            paper.id,
            paper.headline,
            score,
            paper.venue,
            paper.year,
            paper.sources,
            matches,
            snip,
            headline_matches,
            paper.title,
        )

    @fresh
    def spans(self, paper_id: str, highlight: Highlight) -> tuple[MatchSpan, ...]:
        """Where the matched terms of a view (`Matched.highlight`) stand in one paper's rendered abstract: the
        reader highlights the paper it shows without parsing the query again."""
        return self._words.spans(self.plain_abstract(paper_id), highlight.get("abstract", frozenset()))

    @fresh
    def _suggest(self, typed: str, words: Sequence[str]) -> str | None:
        """`suggest.suggest` for this query, cached until the next commit."""
        if typed not in self._suggestions:
            near = self._near_words()
            found = suggest(near.reader, self._words, typed, words, self._abstracts, near)
            self._suggestions[typed] = found
        return self._suggestions[typed]

    def _near_words(self) -> NearWords:
        reader = self.maintenance.searcher.reader()
        if self._near is None or self._near.reader is not reader:
            from index.search.nearwords import NearWords

            self._near = NearWords(reader, "abstract")
        return self._near

    @fresh
    def similar(self, paper_id: str, limit: int = 10) -> list[SimilarHit]:
        """Papers sharing the most distinctive terms of this one, with those terms (as words) to say why
        (likeness.py)."""
        return self._likeness.similar(self.maintenance.searcher, paper_id, limit)

    @fresh
    def for_you(
        self, seeds: Iterable[str], exclude: AbstractSet[str] = frozenset(), limit: int = 20
    ) -> list[ForYouHit]:
        """Papers most like the `seeds` (paper ids; ones not indexed are ignored), none of `exclude` nor the
        seeds themselves, in pick order, each with the shared key terms and its nearest seed (likeness.py)."""
        return self._likeness.for_you(self.maintenance.searcher, seeds, exclude, limit)
