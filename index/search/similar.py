"""More like this: the papers that share a paper's most distinctive terms, and which terms they share.

A paper's key terms are its words, each weighed by its term-frequency factor (1 + ln of its uses, plus
HEADLINE_EXTRA when the headline has it) times its idf, with stop words, numbers and the vocabulary every
abstract uses ("method", "propose", "results", "novel") left out. The `KEY_TERMS` heaviest are
looked up in the other papers: each scores, per shared term, the source's term-frequency factor times the
term's BM25 weight in its abstract (idf once, there), plus the same for its headline (HEADLINE_MATCH). The
terms a paper scored most with are the "why" shown with it.

Measured with bench/bench_similar.py (mean same-topic share of the top 5; tests/unit/test_similar.py keeps
it): seeds 0.42 -> 0.47, the 200-paper labelled sample 0.54 -> 0.75, the same 200 papers searched among all
56k (topic from the hits' titles) 0.42 -> 0.48, in ~80 ms instead of ~640 at 56k. Whoosh's `more_like` (Bo1
key terms over the abstract) picked "final", "level" or "confidence" as readily as "graph". Squaring idf
(idf in the query weights too) did worse (0.64 on the sample): it ranks by a few rare words shared by chance.
"""

from __future__ import annotations

import heapq
import math
from array import array
from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from index.search.highlight import WordTerms
from index.search.postings import K1, Postings
from index.search.schema import WORD_RE
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

# Words of any abstract whatever its topic: they say how a paper is written, not what it is about. Stemmed
# with the index's analyzer when used, so one entry covers its inflections ("propose" is "proposed" too).
# Keep domain words out of here even when common ("network", "graph", "policy", "state", "effect",
# "confidence", "training"): idf already weighs them down where they are common, and they carry topics. Mind
# the stems: "general" would drop "generative" and "generalization" (all "gener"), "prior" "priors",
# "important" "importance", "comprehensive" "comprehension", "consistently" "consistency", "critical"
# "critic", "powerful" "power", "additional" "additive", "namely" "named".
_GENERIC = """
    ability able accuracy accurate achieve achieves across address addresses aim aims al allow allows also
    analysis application applications applied apply approach art available based benchmark best better broad
    called case cases challenge challenges challenging com compare compared comparison competitive consider
    considered contribution contributions crucial current data dataset datasets decrease demonstrate
    demonstrated despite develop developed different due easily enable enables enhance enhanced enhances
    enhancing essential et etc evaluate evaluated evaluation even exhibit exhibiting exhibits existing
    experiment experimental experiments extensive extensively final finally find finding findings finds
    first focus focuses framework fundamental furthermore github given goal good great help high highly
    however http https idea improve improved improvement improvements including increase increased increases
    increasing inherent inherently insight introduce introduced introduces key lack lacks large larger lead
    learn learning level low make makes making many method methodology methods model models moreover much
    new notably novel number obtain offer often one outperform outperforms overall paper particular
    particularly perform performance popular possible present presents prevent prevents previous previously
    problem problems promising propose proposed provide provides publicly range real recent recently remain
    remains remarkable remarkably require requires research respectively result results reveal revealing
    reveals several show shows significant significantly simple small specifically still studies study
    substantial success successful successfully superior take takes taking task tasks technique techniques
    therefore three thus towards two typically use used using various via way well whether work works www
    yet
    """
# English function words beyond Whoosh's short stop list (which keeps "which", "their", "how", "under"). Not
# "no", "few", "off", "out", "next", "least": they start "no-regret", "few-shot", "off-policy",
# "out-of-distribution", "next-token", "least squares".
_FUNCTION = """
    about above after again against all almost alone along already although always am among another any
    anyone anything anyway are around back because become becomes been before behind being below beside
    besides between beyond both but cannot could did do does doing done down during each either else enough
    especially ever every except former further had has have having he hence her here hers herself him
    himself his how however i ie if indeed instead into its itself just latter less like likely made mainly
    me meanwhile might more most mostly must my myself neither never nevertheless none nor nothing now
    nowhere often once only onto other others otherwise our ours ourselves over own per perhaps quite rather
    same seem seemed seems shall she should since so some something sometimes somewhat such than their
    theirs them themselves then there thereby therein these they those though through throughout together
    too toward under unless until up upon very was were what whatever when where whereas whereby wherein
    which while who whom whose why within without would your
    """
GENERIC_WORDS = frozenset(_GENERIC.split()) | frozenset(_FUNCTION.split())


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

    def key_terms(self, reader: Any, headline: str, abstract: str, count: int | None = None) -> list[KeyTerm]:
        """The `count` most distinctive terms of a paper, best first.

        Args:
            reader: the index's reader, or anything with its `doc_count()` and `doc_frequency(field, term)`.
            headline: the paper's headline (with its title when it has one), as indexed.
            abstract: its rendered abstract, as indexed.
        """
        in_abstract, written = self._count(abstract)
        in_headline, headline_words = self._count(headline)
        for term, word in headline_words.items():
            written.setdefault(term, word)
        papers = max(reader.doc_count(), 1)
        found = []
        for term in written:
            if term in self._generic or term.isdigit():
                continue
            # This paper is one of them: a term no other paper has cannot find anything.
            frequency = max(reader.doc_frequency(field, term) for field in _FIELDS)
            if frequency <= 1 or frequency * 2 >= papers:
                continue
            uses = in_abstract.get(term, 0)
            tf = (1 + math.log(uses) if uses else 0.0) + (HEADLINE_EXTRA if term in in_headline else 0.0)
            found.append(KeyTerm(term, tf * math.log(papers / frequency), written[term], tf))
        found.sort(key=lambda key: (-key.weight, key.term))
        return found[: KEY_TERMS if count is None else count]

    def _count(self, text: str) -> tuple[Counter[str], dict[str, str]]:
        """Each term's count in `text`, and the first word (lowercased) it was written as."""
        counts: Counter[str] = Counter()
        written: dict[str, str] = {}
        term = self._words.term
        for match in WORD_RE.finditer(text):
            found = term(match.group())
            if found is not None:
                counts[found] += 1
                if found not in written:
                    written[found] = match.group().lower()
        return counts, written


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
        shared = tuple(word for share, word in shares if share > 0)
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
