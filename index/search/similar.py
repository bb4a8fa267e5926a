"""More like this: the papers that share a paper's most distinctive terms, and which terms they share.

A paper's key terms are its words, each weighed by its term-frequency factor (1 + ln of its uses, plus
HEADLINE_EXTRA when the headline has it) times its idf, with stop words, numbers, the vocabulary every
abstract uses ("method", "propose", "conduct", "results": generic_words.py) and words shorter than 3 letters
that are not acronyms left out; each is shown as the paper writes it (surface.py: "GNNs", "multi-armed",
not "gnn", "multi"). The `KEY_TERMS` heaviest are
looked up in the other papers: each scores, per shared term, the source's term-frequency factor times the
term's BM25 weight in its abstract (idf once, there), plus the same for its headline (HEADLINE_MATCH). The
terms a paper scored most with are the "why" shown with it.

Why not Whoosh's `more_like`: its Bo1 key terms over the abstract pick "final", "level" or "confidence" as
readily as "graph", and it runs an OR query through Whoosh's matchers, several times slower at 56k. Why idf
only once: squared (idf in the query weights too), a few rare words shared by chance decide the ranking.
bench/bench_similar.py measures the mean same-topic share of the top 5 (tests/unit/test_similar.py holds a
floor under it).
"""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from whoosh.analysis import STOP_WORDS

from index.search.generic_words import GENERIC_WORDS
from index.search.highlight import WordTerms
from index.search.postings import K1, Postings
from index.search.surface import Forms, is_fragment
from index.search.whoosh_private import read_postings, unfiltered

KEY_TERMS = 40
"""Key terms looked up per paper: on the sample / among 56k, 25 gave 0.70 / 0.46, 40 0.75 / 0.48, 60 0.76 /
0.48 (and less on the seeds) at a third more time."""
HEADLINE_EXTRA = 1.0
"""What a word of the source's headline adds to its term-frequency factor."""
HEADLINE_MATCH = 1.0
"""A key term in another paper's headline scores this times its idf and saturated count there (more or less
than 1 did worse: the corpus's headlines are made from the abstracts, so they repeat abstract words)."""
COMMON_SHARE, COMMON_FLOOR = 0.05, 1000
"""A key term in more than this share of the papers, and more than this many, is a common one (see `rank`)."""
POOL = 200
"""Documents the common key terms are added for."""
SHARED_SHOWN = 10
"""At most this many shared terms are given with a hit: the ones it scored most with."""
_FIELDS = ("headline", "abstract")


@dataclass(frozen=True, slots=True)
class KeyTerm:
    """One indexed term of the source paper, its weight, and the word it was written as (to show users)."""

    term: str
    weight: float
    """How distinctive the term is of the paper: `tf` times idf."""
    word: str
    tf: float = 1.0
    """The term-frequency factor alone: what a similar paper's match on the term is multiplied by."""


class Similarity:
    """Key terms for one index's analyzer (the generic words stemmed once)."""

    def __init__(self, words: WordTerms) -> None:
        self._words = words
        self._generic = frozenset(term for word in GENERIC_WORDS if (term := words.term(word)) is not None)

    def filler(self, word: str) -> bool:
        """Whether a word adds nothing to a compound: a stop word ("of" in "state-of-the-art") or a generic
        word ("real" in "real-world"), not a letter ("k" in "k-means")."""
        term = self._words.term(word)
        return word.lower() in STOP_WORDS if term is None else term in self._generic

    def key_terms(self, reader: Any, headline: str, abstract: str, count: int | None = None) -> list[KeyTerm]:
        """The `count` most distinctive terms of a paper, best first.

        Args:
            reader: the index's reader, or anything with its `doc_count()` and `doc_frequency(field, term)`.
            headline: the paper's headline (with its title when it has one), as indexed.
            abstract: its rendered abstract, as indexed.
        """
        in_abstract = Forms(abstract, self._words.term, self.filler)
        in_headline = Forms(headline, self._words.term, self.filler)
        papers = max(reader.doc_count(), 1)
        found = []
        for term in dict.fromkeys([*in_abstract.terms(), *in_headline.terms()]):
            word = in_abstract.word(term) or in_headline.word(term)
            if word is None or term in self._generic or term.isdigit() or is_fragment(word):
                continue
            # This paper is one of them: a term no other paper has cannot find anything.
            frequency = max(reader.doc_frequency(field, term) for field in _FIELDS)
            if frequency <= 1 or frequency * 2 >= papers:
                continue
            uses, titled = in_abstract.counts.get(term, 0), term in in_headline.counts
            tf = (1 + math.log(uses) if uses else 0.0) + (HEADLINE_EXTRA if titled else 0.0)
            found.append(KeyTerm(term, tf * math.log(papers / frequency), word, tf))
        found.sort(key=lambda key: (-key.weight, key.term))
        return found[: KEY_TERMS if count is None else count]


@dataclass(frozen=True, slots=True)
class Similar:
    """One document like the source: its number, its score and the key words it shares, heaviest first."""

    docnum: int
    score: float
    shared: tuple[str, ...]


def rank(
    postings: Postings, heads: HeadlinePostings, key_terms: Sequence[KeyTerm], source: int, limit: int
) -> list[Similar]:
    """The `limit` documents that best match the key terms (`source` left out), best first.

    The abstract weights come from the generation's posting cache (postings.py, shared with For you), the
    headline ones from `heads`. Summing them here costs ~0.3 µs a posting, where an OR query through Whoosh's
    union matchers cost ~8 µs. Terms in more than COMMON_SHARE of the papers (at 56k: "image", "network",
    "graph") still count, but only for the best POOL documents of the other terms: their posting lists are
    most of the postings (~100k of 40 terms), and they reorder those documents without bringing in others
    (on the 56k labelled measure the share stayed 0.47-0.48, at half the time).
    """
    cap = max(COMMON_SHARE * postings.papers, COMMON_FLOOR)
    rare = [key for key in key_terms if postings.frequency(key.term) <= cap]
    common = [key for key in key_terms if postings.frequency(key.term) > cap]
    boosts = {
        key.term: key.tf * _idf(postings.papers, postings.frequency(key.term)) * HEADLINE_MATCH
        for key in key_terms
    }

    def score_of(key: KeyTerm, docnum: int) -> float:
        return key.tf * postings.weight(key.term, docnum) + boosts[key.term] * _weight_of(
            heads.weights(key.term), docnum
        )

    # A dense list indexed by document number: cheaper per posting than a dict, and 56k floats are 0.4 MB.
    scores = [0.0] * postings.size
    for key in rare:
        for (docnums, weights), factor in (
            (postings.weights(key.term), key.tf),
            (heads.weights(key.term), boosts[key.term]),
        ):
            for docnum, weight in zip(docnums, weights, strict=True):
                scores[docnum] += factor * weight
    scores[source] = 0.0
    # The pool's lowest score found in C, then the documents reaching it.
    pool = POOL if common else limit
    floor = min(heapq.nlargest(pool, scores), default=0.0)
    found = {docnum: score for docnum, score in enumerate(scores) if score >= floor and score > 0}
    for docnum in found:
        found[docnum] += sum(score_of(key, docnum) for key in common)
    best = sorted(found.items(), key=lambda item: (-item[1], item[0]))[:limit]
    similar = []
    for docnum, score in best:
        shares = sorted(((score_of(key, docnum), key.word) for key in key_terms), key=lambda s: -s[0])
        # Two terms of one compound ("zero", "shot") are shown as it once ("zero-shot").
        shared = tuple(dict.fromkeys(word for share, word in shares if share > 0))
        similar.append(Similar(docnum, score, shared[:SHARED_SHOWN]))
    return similar


class HeadlinePostings:
    """Per term, the documents whose headline holds it and its saturated count there (K1 as in BM25; no length
    normalisation: headlines are a few words each), read once per index generation and kept (all of them
    are ~8 postings a paper)."""

    def __init__(self, searcher: Any) -> None:
        self.reader = searcher.reader()
        self._leaves = [(leaf.reader(), offset) for leaf, offset in searcher.leaf_searchers()]
        self._kept: dict[str, tuple[array[int], array[float]]] = {}

    def weights(self, term: str) -> tuple[array[int], array[float]]:
        kept = self._kept.get(term)
        if kept is not None:
            return kept
        docnums: array[int] = array("i")
        weights: array[float] = array("d")
        for reader, offset in self._leaves:
            if ("headline", term) not in reader:
                continue
            deleted = reader.is_deleted if reader.has_deletions() else None
            # Deleted documents are skipped below: read the codec's matcher under Whoosh's filter, whose
            # one-call-per-posting stepping costs several times the block reads `read_postings` does.
            ids, counts = read_postings(unfiltered(reader, reader.postings("headline", term)))
            for docnum, count in zip(ids, counts, strict=True):
                if deleted is None or not deleted(docnum):
                    docnums.append(docnum + offset)
                    weights.append(count * (K1 + 1) / (count + K1))
        self._kept[term] = (docnums, weights)
        return docnums, weights


def _weight_of(postings_of: tuple[array[int], array[float]], docnum: int) -> float:
    docnums, weights = postings_of
    at = bisect_left(docnums, docnum)
    return weights[at] if at < len(docnums) and docnums[at] == docnum else 0.0


def _idf(papers: int, frequency: int) -> float:
    """BM25's idf, as postings.py weighs the abstracts with."""
    return math.log(1 + (papers - frequency + 0.5) / (frequency + 0.5))
