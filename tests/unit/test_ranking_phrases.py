"""A phrase is ranked by how often the paper writes the phrase (`FrequencyPhrase`), not by how often it writes
each of its words: the deliberate weighting that replaces Whoosh's for phrases (quoted, spaced compounds,
acronyms' long forms), with the same matches, and the same scores on the array path as on Whoosh's."""

from __future__ import annotations

import math

import pytest
from whoosh import query, scoring

from index.listings.identity import paper_id
from index.search.index import SearchIndex
from index.search.query import FrequencyPhrase, by_frequency
from index.search.ranking import rank
from tests.unit.search_fixtures import abstracts_index

ABSTRACTS = {
    # The phrase three times, its words nowhere else.
    "about": "Policy gradient methods are simple to state. We derive a policy gradient bound and a faster "
    "policy gradient estimator for continuous control of robots in simulation.",
    # The phrase once, its words many times apart: Whoosh's phrase score counts every `policy`.
    "mentions": "Policy gradient baseline. Gradient clipping, gradient noise, gradient norm; policy entropy, "
    "policy loss, policy size.",
    "apart": "The gradient of a policy is estimated; every policy update uses that gradient.",
    "unrelated": "Convex optimisation methods for sparse linear regression with a lasso penalty.",
}
NAMES = {paper_id(text): name for name, text in ABSTRACTS.items()}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    return abstracts_index(tmp_path_factory.mktemp("phrases"), ABSTRACTS.values())


def ranked(index: SearchIndex, typed: str) -> list[str]:
    return [NAMES[paper] for paper in index.search(typed, limit=None).ids]


def test_a_quoted_phrase_ranks_the_paper_that_writes_it_most_first(index: SearchIndex) -> None:
    assert ranked(index, '"policy gradient"') == ["about", "mentions"]


def test_whoosh_phrase_scoring_would_rank_them_the_other_way(index: SearchIndex) -> None:
    """What the weighting changes: Whoosh's own phrase ranks the paper with more of the words first."""
    searcher = index.maintenance.searcher
    plain = query.Phrase("abstract", ["polici", "gradient"])
    found = [NAMES[paper] for paper in rank(searcher, plain, index._ids_of).ids]
    assert found == ["mentions", "about"]


def test_the_score_is_bm25_of_the_phrase_count_with_the_words_summed_idf(index: SearchIndex) -> None:
    searcher = index.maintenance.searcher
    words = ["polici", "gradient"]
    result = rank(searcher, FrequencyPhrase("abstract", words, boost=2.0), index._ids_of)
    weighting = searcher.weighting
    idf = sum(searcher.idf("abstract", word) for word in words)
    average = searcher.avg_field_length("abstract")
    docnums = {paper: number for number, paper in enumerate(index._ids_of(range(searcher.doc_count_all())))}
    for paper, score in zip(result.ids, result.scores, strict=True):
        count = 3 if NAMES[paper] == "about" else 1
        length = searcher.doc_field_length(docnums[paper], "abstract")
        expected = 2.0 * scoring.bm25(idf, count, length, average, weighting.B, weighting.K1)
        assert math.isclose(score, expected, rel_tol=1e-12)


def test_the_array_ranker_gives_whooshs_scores_for_it(index: SearchIndex) -> None:
    """The array path steps the same matcher: the same ids and scores as Whoosh's collector."""
    searcher = index.maintenance.searcher
    typed = by_frequency(
        query.Or([query.Phrase("abstract", ["polici", "gradient"]), query.Term("abstract", "convex")])
    )
    fast = index._ranker.fast_ranker(searcher)
    assert fast is not None
    arrays = rank(searcher, typed, index._ids_of, fast=fast)
    whoosh = rank(searcher, typed, index._ids_of)
    assert arrays.ids == whoosh.ids
    assert arrays.scores == whoosh.scores
    assert len(arrays.ids) == 3


def test_every_phrase_a_query_makes_is_weighted_so(index: SearchIndex) -> None:
    parsed = index._ranker.parse(index.maintenance.searcher, '"policy gradient" lasso')
    phrases = [leaf for leaf in parsed.query.leaves() if isinstance(leaf, query.Phrase)]
    assert phrases
    assert all(type(leaf) is FrequencyPhrase for leaf in phrases)
