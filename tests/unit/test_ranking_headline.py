"""The headline's count of a word is not scaled by the headline's length (`schema.weighting`, B 0 for the
headline): a long headline holding the word counts as much as a short one, and the abstract decides."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from whoosh import scoring

from index.search.index import SearchIndex
from index.search.schema import HEADLINE_BOOST, weighting
from tests.unit.search_fixtures import Row, built_index

ROWS: list[Row] = [
    # A short headline, the word once in the abstract.
    (
        "short",
        "Sparse autoencoders",
        "We train sparse autoencoders on activations of a small model.",
        (),
        "",
        0,
    ),
    # A long headline, the word twice in an abstract of the same length.
    (
        "long",
        "Scaling sparse autoencoders to every layer of a large pretrained model",
        "Sparse autoencoders on every layer: sparse autoencoders scale to large models.",
        (),
        "",
        0,
    ),
    (
        "other",
        "Convex relaxations of sparse regression",
        "A lasso study of sparse linear models today.",
        (),
        "",
        0,
    ),
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    yield from built_index(tmp_path_factory, ROWS)


def test_the_index_ranks_with_the_headline_unnormalised(index: SearchIndex) -> None:
    searcher = index.maintenance.searcher
    assert type(searcher.weighting) is scoring.BM25F
    assert searcher.weighting._field_B == {"headline": 0.0}
    assert searcher.weighting.B == weighting().B  # every other field as Whoosh's BM25F


def test_a_long_headline_holding_the_word_counts_as_much_as_a_short_one(index: SearchIndex) -> None:
    """The abstract that writes the word more often decides; with the headline's length normalised (Whoosh's
    B 0.75), the short headline's match outweighed it."""
    assert list(index.search("autoencoders", limit=None).ids) == ["long", "short"]
    searcher = index.maintenance.searcher
    idf = searcher.idf("headline", "autoencod")
    average = searcher.avg_field_length("headline")
    short, long = (searcher.doc_field_length(number, "headline") for number in (0, 1))
    assert short < average < long

    def headline_score(length: int, b: float) -> float:
        return float(scoring.bm25(idf, HEADLINE_BOOST, length, average, b, 1.2))

    assert headline_score(short, 0.0) == headline_score(long, 0.0)
    assert headline_score(short, 0.75) > headline_score(long, 0.75)
