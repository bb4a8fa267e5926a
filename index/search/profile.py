"""For you: papers ranked by likeness to a set of seed papers (a user's stars, or one tag), and why.

Each seed is the vector of its key terms (`similar.Similarity.key_terms`: tf times idf, generic words out),
scaled to unit length. A paper's weight for a term is its BM25 weight in the abstract, read from the index's
posting lists (postings.py: only the seeds' terms are looked up, each list decoded once per generation).

A paper's score blends two similarities, each scaled so the best paper has 1:
- to the centroid (Rocchio): the seeds' vectors averaged, a term weighed up by the share of seeds that have
  it, cut to its `PROFILE_TERMS` heaviest terms: what the seeds have in common;
- to its nearest seed, on that seed's `OWN_TERMS` heaviest distinctive terms (max-sim), so a seed unlike
  the others still counts: a user who stars two topics gets both, not only the blur between them.
The list is then picked greedily, each paper's score discounted by `SPREAD` for every paper already picked
with the same nearest seed, so one seed's neighbours do not crowd out the rest.
Measured on the real corpus (tests/unit/test_foryou_corpus.py, bench/bench_foryou.py): with 10 stars of one
topic most of the top 20 are of that topic; with 5 + 5 stars of two topics both get about half.
"""

from __future__ import annotations

import heapq
import math
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from index.search.answers import ForYouHit
from index.search.postings import Postings, Seed
from index.search.similar import KeyTerm

__all__ = ["ForYouHit", "Profile", "Seed"]

SEED_TERMS = 60
"""Key terms asked of each seed paper (before the too-common ones are dropped)."""
MAX_SHARE = 0.1
"""Terms in more than this share of the papers are left out (as arxiv-sanity-lite's `max_df`): they barely
tell topics apart, and their long posting lists would cost most of the time."""
PROFILE_TERMS = 60
CONSENSUS = 0.5
"""A centroid term's weight is multiplied by (share of seeds having it) ** CONSENSUS."""
OWN_TERMS = 8
OWN_SHARE = 0.01
"""A seed's own terms are among those in at most this share of the papers: its distinctive ones."""
OWN_BEST = 3
"""Each seed's best few papers (on its own terms) are candidates whatever the centroid says."""
NEAREST_WEIGHT = 0.3
"""The share of a paper's score that is its nearest seed's similarity; the rest is the centroid's."""
SPREAD = 0.9
WHY_TERMS = 5
ANSWERS_KEPT = 4
"""For-you answers kept per index generation (by seeds, exclusions and limit)."""

Vector = dict[str, float]


@dataclass(frozen=True, slots=True)
class Scored:
    """One recommended document: its score, the seed it is most like (an index into the seeds) and why."""

    docnum: int
    score: float
    nearest: int
    words: tuple[str, ...]
    """The terms that scored most for it, best first, as the seeds wrote them."""


class Profile:
    """Ranks documents against seed papers over one index generation (its postings cached meanwhile)."""

    def __init__(self) -> None:
        self._postings: Postings | None = None
        self._answers: OrderedDict[tuple[frozenset[str], frozenset[str], int], list[ForYouHit]] = (
            OrderedDict()
        )

    def postings(self, searcher: Any) -> Postings:
        """The posting cache of `searcher`'s generation (a new one after each commit)."""
        if self._postings is None or self._postings.reader is not searcher.reader():
            self._postings = Postings(searcher)
            self._answers.clear()
        return self._postings

    def recommend(
        self,
        searcher: Any,
        seed_ids: Iterable[str],
        texts: Callable[[str], tuple[str, str]],
        key_terms: Callable[[Any, str, str, int], Sequence[KeyTerm]],
        ids_of: Callable[[Sequence[int]], Sequence[str]],
        exclude: AbstractSet[str],
        limit: int,
    ) -> list[ForYouHit]:
        """`rank` by paper ids: seeds made from their ids (see `seeds`), `exclude` left out of the hits.

        The last few answers of a generation are kept: the reader's `4` filter and the reasons it shows per
        row ask the same question in two workers, and a new star or read mark is a new question.
        """
        key = (frozenset(seed_ids), frozenset(exclude), limit)
        self.postings(searcher)  # a new generation forgets the answers
        known = self._answers.get(key)
        if known is None:
            made = self.seeds(searcher, key[0], texts, key_terms)
            ranked = self.rank(
                searcher,
                [seed for _id, seed in made],
                lambda docnums: [paper_id not in key[1] for paper_id in ids_of(docnums)],
                limit,
            )
            ids = ids_of([scored.docnum for scored in ranked])
            known = self._answers[key] = [
                ForYouHit(paper_id, scored.score, scored.words, made[scored.nearest][0])
                for paper_id, scored in zip(ids, ranked, strict=True)
            ]
            if len(self._answers) > ANSWERS_KEPT:
                self._answers.popitem(last=False)
        return list(known)

    def seeds(
        self,
        searcher: Any,
        ids: Iterable[str],
        texts: Callable[[str], tuple[str, str]],
        key_terms: Callable[[Any, str, str, int], Sequence[KeyTerm]],
    ) -> list[tuple[str, Seed]]:
        """The seeds for these paper ids (made once per generation), in id order; ids not indexed are skipped.

        Args:
            searcher: the index's searcher.
            ids: the seed papers' ids.
            texts: a paper's headline and rendered abstract, as indexed (raises KeyError for an unknown id).
            key_terms: `Similarity.key_terms`.
        """
        postings = self.postings(searcher)
        made = []
        for paper_id in sorted(set(ids)):
            seed = postings.seeds.get(paper_id)
            if seed is None:
                docnum = searcher.document_number(id=paper_id)
                if docnum is None:
                    continue
                try:
                    headline, abstract = texts(paper_id)
                except KeyError:
                    continue
                keys = key_terms(postings.counts, headline, abstract, SEED_TERMS)
                terms = {key.term: key.weight for key in keys}
                seed = postings.seeds[paper_id] = Seed(docnum, terms, {key.term: key.word for key in keys})
            made.append((paper_id, seed))
        return made

    def rank(
        self,
        searcher: Any,
        seeds: Sequence[Seed],
        allowed: Callable[[Sequence[int]], Sequence[bool]],
        limit: int,
    ) -> list[Scored]:
        """The best `limit` documents for these seeds, best first.

        Args:
            searcher: the index's searcher.
            seeds: the seed papers (never returned themselves).
            allowed: for each document number, whether it may be returned (not read, not starred, ...).
            limit: at most this many.
        """
        postings = self.postings(searcher)
        vectors = [_unit(seed.terms, postings) for seed in seeds]
        if not any(vectors) or limit <= 0:
            return []
        profile = _centroid([vector for vector in vectors if vector])
        central = _dense(postings, profile)
        top = max(central) or 1.0
        rare = max(OWN_SHARE * postings.papers, 20)
        heaviest = [_heaviest(vector, postings, rare) for vector in vectors]
        own = [_accumulate(postings, vector) for vector in heaviest]
        tops = [max(scores.values(), default=0.0) or 1.0 for scores in own]
        for seed in seeds:
            central[seed.docnum] = -1.0
            for scores in own:
                scores.pop(seed.docnum, None)
        # Candidates: the centroid's best, and each seed's own best few (so an odd seed is heard too).
        pool = _best_allowed(central, allowed, max(3 * limit, 60))
        for scores in own:
            pool += _best_allowed(scores, allowed, OWN_BEST)
        scored: dict[int, float] = {}
        nearest: dict[int, int] = {}
        for docnum in dict.fromkeys(pool):
            sims = [scores.get(docnum, 0.0) / best for scores, best in zip(own, tops, strict=True)]
            number = max(range(len(sims)), key=lambda n: (sims[n], -n))
            if sims[number] <= 0:
                number = _nearest(postings, vectors, profile, docnum)
            nearest[docnum] = number
            scored[docnum] = (1 - NEAREST_WEIGHT) * central[docnum] / top + NEAREST_WEIGHT * sims[number]
        words: dict[str, str] = {}
        for seed in reversed(seeds):
            words.update(seed.words)
        return [
            Scored(
                docnum,
                scored[docnum],
                nearest[docnum],
                _why(postings, docnum, profile, heaviest[nearest[docnum]], words),
            )
            for docnum in _spread(scored, nearest, limit)
        ]


def _why(
    postings: Postings, docnum: int, centroid: Vector, own: Vector, words: Mapping[str, str]
) -> tuple[str, ...]:
    """The terms that weigh most in this document, of the centroid's and its nearest seed's own, as words."""
    weights = {
        term: (centroid.get(term, 0.0) + own.get(term, 0.0)) * postings.weight(term, docnum)
        for term in dict.fromkeys([*centroid, *own])
    }
    best = sorted((item for item in weights.items() if item[1] > 0), key=lambda item: -item[1])
    # Two terms of one compound ("zero", "shot") are one word shown ("zero-shot"): counted once.
    shown = dict.fromkeys(words.get(term, term) for term, _weight in best)
    return tuple(shown)[:WHY_TERMS]


def _nearest(postings: Postings, vectors: list[Vector], profile: Vector, docnum: int) -> int:
    """The seed most like a document that has none of any seed's own terms, on the centroid's terms."""
    found = {term: value for term in profile if (value := postings.weight(term, docnum))}
    sims = [sum(w * vector.get(term, 0.0) for term, w in found.items()) for vector in vectors]
    return max(range(len(vectors)), key=lambda number: (sims[number], -number))


def _unit(terms: Mapping[str, float], postings: Postings) -> Vector:
    """A seed's terms that are not too common, scaled to unit length."""
    ceiling = max(MAX_SHARE * postings.papers, 50)
    kept = {
        term: weight for term, weight in terms.items() if weight > 0 and postings.frequency(term) <= ceiling
    }
    norm = math.sqrt(sum(weight * weight for weight in kept.values()))
    return {term: weight / norm for term, weight in kept.items()} if norm else {}


def _centroid(vectors: list[Vector]) -> Vector:
    """The mean of the seeds' vectors, each term weighed up by how many seeds share it, cut to its best."""
    total: Vector = {}
    having: dict[str, int] = {}
    for vector in vectors:
        for term, weight in vector.items():
            total[term] = total.get(term, 0.0) + weight / len(vectors)
            having[term] = having.get(term, 0) + 1
    shared = {term: weight * (having[term] / len(vectors)) ** CONSENSUS for term, weight in total.items()}
    return dict(heapq.nlargest(PROFILE_TERMS, shared.items(), key=lambda item: item[1]))


def _heaviest(vector: Vector, postings: Postings, ceiling: float) -> Vector:
    """A seed's `OWN_TERMS` heaviest terms among those in at most `ceiling` papers."""
    rare = ((weight, term) for term, weight in vector.items() if postings.frequency(term) <= ceiling)
    return {term: weight for weight, term in heapq.nlargest(OWN_TERMS, rare)}


def _accumulate(postings: Postings, vector: Vector) -> dict[int, float]:
    """Every document's dot product with `vector` (documents holding none of its terms left out)."""
    scores: dict[int, float] = {}
    get = scores.get
    for term, weight in vector.items():
        docnums, weights = postings.weights(term)
        for docnum, value in zip(docnums, weights, strict=True):
            scores[docnum] = get(docnum, 0.0) + weight * value
    return scores


def _dense(postings: Postings, vector: Vector) -> list[float]:
    """Every document's dot product with `vector`, in a list by document number (a third of the dict's cost
    for the centroid, which touches most documents)."""
    scores = [0.0] * postings.size
    for term, weight in vector.items():
        docnums, weights = postings.weights(term)
        for docnum, value in zip(docnums, weights, strict=True):
            scores[docnum] += weight * value
    return scores


def _spread(scores: dict[int, float], nearest: dict[int, int], limit: int) -> list[int]:
    """The best `limit` of `scores`, picked one at a time, each discounted by SPREAD for every paper already
    picked with the same nearest seed (lazily: a discount only lowers a score, so a popped paper whose
    discount is current is the best left)."""
    heap = [(-score, docnum, 0) for docnum, score in scores.items()]
    heapq.heapify(heap)
    picked: list[int] = []
    taken: dict[int, int] = {}
    while heap and len(picked) < limit:
        _score, docnum, seen = heapq.heappop(heap)
        now = taken.get(nearest[docnum], 0)
        if now != seen:
            heapq.heappush(heap, (-scores[docnum] * SPREAD**now, docnum, now))
            continue
        picked.append(docnum)
        taken[nearest[docnum]] = now + 1
    return picked


def _best_allowed(
    scores: list[float] | dict[int, float],
    allowed: Callable[[Sequence[int]], Sequence[bool]],
    count: int,
) -> list[int]:
    """The `count` best-scored documents (above 0) that `allowed` lets through, asking it about few."""
    ask = count
    while True:
        if isinstance(scores, dict):  # comparing tuples needs no key function: half the time
            pairs = zip(scores.values(), scores, strict=True)
            best = [docnum for value, docnum in heapq.nlargest(ask, pairs) if value > 0]
        else:
            dense = scores
            best = [d for d in heapq.nlargest(ask, range(len(dense)), key=dense.__getitem__) if dense[d] > 0]
        kept = [docnum for docnum, ok in zip(best, allowed(best), strict=True) if ok]
        if len(kept) >= count or len(best) < ask:
            return kept[:count]
        ask *= 4
