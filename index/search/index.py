"""The search index: build, update and open it, search it, highlight, suggest, and find similar papers.

API (stable; bench/ and the reader code against it): `SearchIndex.open(index_dir)`, `.ensure_current(paths)`,
`.update(catalog, progress=None) -> UpdateReport`, `.rebuild(catalog, progress=None) -> UpdateReport`,
`.search(query, limit=None, state=None, highlight_top=20) -> SearchResult`, `.spans(paper_id, query)`,
`.similar(paper_id, limit=10) -> list[SimilarHit]`, `.load_view() -> Snapshot | None` (papers decoded on use),
`.load_snapshot() -> Catalog | None` (everything decoded), `.close()`.
Deviations from the first sketch: `SearchResult.ids` always holds every match (capped by `limit`), while
`hits` carries details only for the first `limit` (or `highlight_top` when `limit` is None); "did you mean"
uses Whoosh's `terms_within` per word instead of `correct_query`, so it suggests words, not stems.
One SearchIndex is meant for one thread at a time (the reader searches from one worker thread); another
process may build or update the same directory meanwhile, which the next search picks up.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from whoosh import collectors
from whoosh.searching import TimeLimit

from index.models import Catalog, Paper
from index.search import snapshot
from index.search import store as index_store
from index.search.highlight import matched_terms, snippet
from index.search.maintenance import IndexMaintenance, IndexUnavailable
from index.search.models import MatchSpan, SearchHit, SearchResult, SimilarHit
from index.search.query import QUERY_HELP, ParsedQuery, share_expansions
from index.search.schema import title_text
from index.search.snapshot import Snapshot
from index.state.store import StateLookup

__all__ = ["QUERY_HELP", "IndexUnavailable", "SearchIndex", "UnknownPaper"]

TIME_LIMIT = 2.0
"""Seconds one search may take before it returns what it has (with a notice)."""
SUGGEST_BELOW = 5
RARE_DF = 5
COMMON_FACTOR = 20
_CACHE_SIZE = 64
_LOOKUP_MAX = 2000
"""Up to this many hits are mapped to ids by column lookups; more read the whole id column once."""
_Terms = dict[str, frozenset[str]]


class UnknownPaper(KeyError):
    """The paper id is not in the index."""


class SearchIndex(IndexMaintenance):
    """An index directory to search: ranked ids, highlights, suggestions and similar papers."""

    # ----- reading ---------------------------------------------------------------------------------------

    def _refresh(self) -> None:
        """Pick up a rebuild (`current` moved) or another process's commit: one readlink + one listdir."""
        if index_store.current_token(self.index_dir) != self._token:
            self._reopen()
        elif self._searcher is not None and not self._searcher.up_to_date():
            # A fresh searcher, not searcher.refresh(): refresh() reuses segment readers and can miss
            # deletions committed to an existing segment (an update that removed papers).
            self._reopen()
        if self._ix is None:
            raise IndexUnavailable(
                f"no usable search index in {self.index_dir}"
                + (f" ({self._broken})" if self._broken else "")
                + "; run `papers index`"
            )

    def load_view(self) -> Snapshot | None:
        """This generation's papers without reading a listing: the list columns now, each paper on first use.

        None when there is no index; raises IndexUnavailable when the stored snapshot is damaged or of an
        older format (`staleness` reports that, and `ensure_current` re-encodes it).
        """
        if self._snapshot is None and self._build is not None and self._ix is not None:
            manifest = self._manifest()
            data = index_store.map_snapshot(self._build, manifest.generation) if manifest else None
            self._snapshot = snapshot.Snapshot.open(data) if data is not None else None
            if self._snapshot is None:
                raise IndexUnavailable(
                    f"the search index in {self.index_dir} is damaged; rebuild it: papers index --rebuild"
                )
        return self._snapshot

    def load_snapshot(self) -> Catalog | None:
        """The whole catalog this generation was built from (every paper decoded: prefer `load_view`)."""
        view = self.load_view()
        if view is None:
            return None
        try:
            return view.catalog()
        except snapshot.SnapshotDamaged:
            raise IndexUnavailable(
                f"the search index in {self.index_dir} is damaged; rebuild it: papers index --rebuild"
            ) from None

    def _paper(self, paper_id: str) -> Paper:
        view = self.load_view()
        if view is None:
            raise UnknownPaper(paper_id)
        if self._position is None:
            self._position = {paper_id: number for number, paper_id in enumerate(view.ids)}
        number = self._position.get(paper_id)
        if number is None:
            raise UnknownPaper(paper_id)
        try:
            return view.paper(number)
        except snapshot.SnapshotDamaged:
            raise IndexUnavailable(
                f"the search index in {self.index_dir} is damaged; rebuild it: papers index --rebuild"
            ) from None

    def paper(self, paper_id: str) -> Paper:
        """One paper from the snapshot; raises UnknownPaper."""
        self._refresh()
        return self._paper(paper_id)

    def resolve_id(self, key: str) -> str | None:
        """`key` as an exact id or a unique id prefix (what `papers show` accepts), else None."""
        self._refresh()
        view = self.load_view()
        ids = view.ids if view else []
        if key in ids:
            return key
        matches = [paper_id for paper_id in ids if paper_id.startswith(key)]
        return matches[0] if len(matches) == 1 else None

    def plain_abstract(self, paper_id: str) -> str:
        """The rendered abstract that match spans index into."""
        return str(self._plain(self._paper(paper_id).abstract))

    def _ids_of(self, docnums: Sequence[int]) -> tuple[str, ...]:
        """Paper ids of Whoosh documents: a few are looked up in the id column, many read it whole (once).

        Reading all 56k ids costs 40-110 ms, a lookup about 5 µs: the first top-20 search of a fresh
        reader should not pay for the whole column, a search listing every hit should not pay per hit.
        """
        if not docnums:
            return ()
        if self._docids is None and len(docnums) <= _LOOKUP_MAX:
            if self._id_column is None:
                self._id_column = self._searcher.reader().column_reader("id")
            column = self._id_column
            return tuple(_text(column[docnum]) for docnum in docnums)
        docids = self._ids_by_docnum()
        return tuple(docids[docnum] for docnum in docnums)

    def _ids_by_docnum(self) -> list[str]:
        if self._docids is None:
            reader = self._searcher.reader()
            if reader.doc_count_all() == 0:  # an empty index has no columns at all
                self._docids = []
                return self._docids
            self._docids = [_text(value) for value in reader.column_reader("id")]
        return self._docids

    def _parse(self, text: str) -> ParsedQuery:
        assert self._parsers is not None
        return self._parsers.parse(text)

    def _ranked(
        self, parsed: ParsedQuery, top: int | None = None, scored: bool = True
    ) -> tuple[tuple[str, ...], tuple[float, ...], _Terms, bool]:
        """Every match (or the best `top`), best first, with the matched terms; cached per query text
        until the next commit.

        With `top`, Whoosh keeps a heap instead of sorting every match: the same first `top` hits in the
        same order (ties go to the lower document number either way). Unscored, the matches come in
        index order with no scores (BM25 is about half the cost of a common word), for callers that
        order them themselves.
        """
        every = self._cache.get(parsed.text)
        if every is not None:
            self._cache.move_to_end(parsed.text)
            return every if top is None else (every[0][:top], every[1][:top], every[2], every[3])
        key = parsed.text if scored and top is None else f"{parsed.text}\x00{top if scored else 'unscored'}"
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        searcher = self._searcher
        share_expansions(parsed.query)
        inner: Any
        if not scored:
            inner = _Unscored()
        elif top is None:
            inner = searcher.collector(limit=None)
        else:
            # No block-quality skipping and no matcher replacement: both prune by Whoosh's per-block score
            # bounds, which field boosts make inexact (`graph neural` lost 4 of its real top 20 at 56k).
            inner = collectors.TopCollector(top, usequality=False, replace=0)
        capped = collectors.TimeLimitCollector(inner, timelimit=TIME_LIMIT)
        timed_out = False
        try:
            searcher.search_with_collector(parsed.query, capped)
        except TimeLimit:
            timed_out = True
        results = capped.results()
        best = results.top_n
        ranked = (
            self._ids_of([docnum for _score, docnum in best]),
            tuple(float(score) for score, _docnum in best) if scored else (),
            matched_terms(parsed.query, [leaf.reader() for leaf, _offset in searcher.leaf_searchers()]),
            timed_out,
        )
        self._cache[key] = ranked
        if len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return ranked

    def search(
        self,
        query: str,
        limit: int | None = None,
        state: StateLookup | None = None,
        highlight_top: int = 20,
        *,
        ranked: bool = True,
    ) -> SearchResult:
        """Search; never raises on a bad query (it is searched as plain words and `notice` says so).

        Args:
            query: what the user typed (see QUERY_HELP); empty lists every paper in listing order.
            limit: at most this many ids (None: every match, which stays cheap: no highlighting past the top).
            state: where `is:starred` / `is:unread` / `is:read` look; without it those filters are ignored.
            highlight_top: how many of the first hits get match spans and a snippet.
            ranked: False gives the matches in index order with no scores, for a caller that sorts them
                its own way (cheaper: nothing is scored); `limit` then cuts that order, not the best.
        """
        self._refresh()
        parsed = self._parse(query)
        notices = [parsed.notice] if parsed.notice else []
        terms: _Terms = {}
        scores: tuple[float, ...] = ()
        if parsed.query is None:
            view = self.load_view()
            ids: tuple[str, ...] = tuple(view.ids) if view else ()
        else:
            # Only the best `limit` are asked for: let Whoosh keep a heap, unless state filters will drop
            # some of them or the "did you mean" check needs to know whether there are SUGGEST_BELOW hits.
            top = limit if limit is not None and limit >= SUGGEST_BELOW and not parsed.filters else None
            ids, scores, terms, timed_out = self._ranked(parsed, top, ranked)
            if parsed.fallback and not ids:
                assert self._parsers is not None
                near = self._parsers.near_words(parsed.text, self._analyzer)
                if near is not None:
                    near_parsed = replace(parsed, text=f"\x00near:{parsed.text}", query=near)
                    ids, scores, terms, timed_out = self._ranked(near_parsed, None, ranked)
                    notices[0] = (parsed.notice or "").replace(
                        "as plain words", "as plain words and near spellings"
                    )
            if timed_out:
                notices.append(f"search stopped after {TIME_LIMIT:g} s; results are incomplete")
        if parsed.filters:
            if state is None:
                notices.append("is: filters need your stars and read marks, which are not available here")
            else:
                ids, scores = _filter(ids, scores, parsed.filters, state)
        suggestion = self._suggest(query, parsed) if parsed.words and len(ids) < SUGGEST_BELOW else None
        if limit is not None:
            ids = ids[:limit]
        shown = ids[: limit if limit is not None else highlight_top]
        hits = tuple(
            self._hit(
                paper_id, scores[rank] if rank < len(scores) else 0.0, terms if rank < highlight_top else None
            )
            for rank, paper_id in enumerate(shown)
        )
        return SearchResult(query, ids, hits, "; ".join(notices) or None, suggestion)

    def _hit(self, paper_id: str, score: float, terms: _Terms | None) -> SearchHit:
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
        )

    def spans(self, paper_id: str, query: str) -> tuple[MatchSpan, ...]:
        """Matched words of `query` in one paper's rendered abstract (the reader highlights one paper)."""
        self._refresh()
        parsed = self._parse(query)
        if parsed.query is None:
            return ()
        terms = self._ranked(parsed)[2]
        return self._words.spans(self.plain_abstract(paper_id), terms.get("abstract", frozenset()))

    def _suggest(self, typed: str, parsed: ParsedQuery) -> str | None:
        """Replace rare words with a far more frequent indexed word one or two typos away ("did you mean").

        A word counts as misspelled when at most RARE_DF abstracts use it and a neighbour is used by at least
        COMMON_FACTOR times as many: a 56k corpus has typos of its own, so "never seen" is too strict.
        """
        key = f"\x00suggest:{typed}"
        if key in self._suggestions:
            return self._suggestions[key]
        reader = self._searcher.reader()
        suggestion = typed
        for word in parsed.words:
            term = self._words.term(word.lower())
            if term is None:
                continue
            seen = reader.doc_frequency("abstract", term) + reader.doc_frequency("headline", term)
            if seen > RARE_DF:
                continue
            typos = 1 if len(term) <= 4 else 2
            candidates = [t for t in reader.terms_within("abstract", term, typos, prefix=1) if t != term]
            if not candidates:
                continue
            best = max(candidates, key=lambda t: (reader.doc_frequency("abstract", t), t))
            if reader.doc_frequency("abstract", best) < max(COMMON_FACTOR * seen, 2):
                continue
            surface = self._surface(reader, best, word)
            suggestion = re.sub(rf"(?<!\w){re.escape(word)}(?!\w)", surface, suggestion, count=1)
        result = suggestion if suggestion != typed else None
        self._suggestions[key] = result
        return result

    def _surface(self, reader: Any, term: str, typed: str) -> str:
        """The written form of an indexed stem closest to what was typed (`transform` -> transformer, not
        transformation), from the first few abstracts that use it."""
        forms: set[str] = set()
        docnums = list(itertools.islice(reader.postings("abstract", term).all_ids(), 5))
        for paper_id in self._ids_of(docnums):
            forms.update(self._words.forms(self.plain_abstract(paper_id), term))
        close = difflib.get_close_matches(typed.lower(), sorted(forms), n=1, cutoff=0)
        return close[0] if close else term

    def similar(self, paper_id: str, limit: int = 10) -> list[SimilarHit]:
        """Papers sharing the most distinctive terms of this one, with those terms (as words) to say why."""
        self._refresh()
        paper = self._paper(paper_id)
        searcher = self._searcher
        docnum = searcher.document_number(id=paper_id)
        if docnum is None:
            raise UnknownPaper(paper_id)
        text = f"{title_text(paper)}\n{self.plain_abstract(paper_id)}"
        key_terms = [term for term, _weight in searcher.key_terms_from_text("abstract", text, numterms=15)]
        results = searcher.more_like(docnum, "abstract", text=text, top=limit, numterms=15)
        words = self._words.surface_words(text, key_terms)
        hits = []
        for hit, other_id in zip(results, self._ids_of([hit.docnum for hit in results]), strict=True):
            other = self._paper(other_id)
            other_terms = self._words.terms_of(f"{title_text(other)}\n{self.plain_abstract(other.id)}")
            shared = tuple(words.get(term, term) for term in key_terms if term in other_terms)
            hits.append(
                SimilarHit(other.id, other.headline, float(hit.score), other.venue, other.year, shared)
            )
        return hits


class _Unscored(collectors.UnsortedCollector):  # type: ignore[misc]
    """Matches without scores, stepped through in order.

    Whoosh's own unscored path asks the matcher for `all_ids()`, which intersects an And as two full sets:
    `diffusion models` took twice as long as scoring it. Stepping keeps the skip_to intersection.
    """

    def matches(self) -> Any:
        return self._step_through_matches()


def _text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def _filter(
    ids: tuple[str, ...], scores: tuple[float, ...], filters: tuple[str, ...], state: StateLookup
) -> tuple[tuple[str, ...], tuple[float, ...]]:
    keep = [True] * len(ids)
    for name in filters:
        wanted = state.starred_ids() if name == "starred" else state.read_ids()
        positive = name != "unread"
        keep = [k and ((paper_id in wanted) == positive) for k, paper_id in zip(keep, ids, strict=True)]
    kept_ids = tuple(paper_id for k, paper_id in zip(keep, ids, strict=True) if k)
    kept_scores = tuple(score for k, score in zip(keep, scores, strict=False) if k) if scores else ()
    return kept_ids, kept_scores
