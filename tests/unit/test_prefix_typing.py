"""The last word of a query while it is being typed: a prefix, ranked so that the whole word comes first."""

from __future__ import annotations

import pytest

from index.search.index import SearchIndex
from index.search.query import last_word_as_prefix
from tests.unit.search_fixtures import make_catalog


@pytest.mark.parametrize(
    ("typed", "searched"),
    [
        ("grap", "grap*"),
        ("graph neu", "graph neu*"),
        ("-grap", "-grap*"),
        ("(a OR grap", "(a OR grap*"),
        ("graph ", "graph "),  # finished: a space after it
        ('"graph neu', '"graph neu'),  # inside a phrase
        ('"graph neural"', '"graph neural"'),
        ("year:2023", "year:2023"),  # a field's value
        ("title:grap", "title:grap"),
        ("graph OR", "graph OR"),  # an operator
        ("(graph)", "(graph)"),
        ("diffu*", "diffu*"),
        ("difusion~", "difusion~"),
        ("", ""),
    ],
)
def test_only_an_unfinished_plain_last_word_becomes_a_prefix(typed: str, searched: str) -> None:
    assert last_word_as_prefix(typed) == searched


def _rows(words: list[str]) -> list[tuple[str, str, str, tuple[str, ...], str, int]]:
    filler = "we study a problem and report results on several benchmarks with careful ablations"
    return [(f"p{n}", f"Paper {n}", f"{filler} {word}.", (), "X", 2020) for n, word in enumerate(words)]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    # "graph" is common (ten papers), "graphon" rare (one): by idf alone the rare completion would win.
    rows = _rows(["graph"] * 10 + ["graphon", "grapheme", "models", "model", "modelling", "nothing"])
    index = SearchIndex.open(tmp_path_factory.mktemp("ix") / "index")
    index.rebuild(make_catalog(rows))
    return index


def test_a_prefix_finds_the_word_its_forms_and_its_completions(graphs: SearchIndex) -> None:
    assert set(graphs.match("grap", typing=True).ids) == {f"p{n}" for n in range(12)}
    assert set(graphs.match("models", typing=True).ids) == {"p12", "p13", "p14"}, "the word's forms, stemmed"
    assert graphs.match("grap", typing=False).ids == (), "a finished word matches whole"


def test_the_whole_word_ranks_no_lower_than_a_completion(graphs: SearchIndex) -> None:
    ranked = graphs.match("graph", typing=True).ids
    assert set(ranked[:10]) == {f"p{n}" for n in range(10)}, ranked
    assert set(ranked[10:]) == {"p10", "p11"}


def test_typing_a_word_searches_what_an_explicit_star_does(graphs: SearchIndex) -> None:
    for word in ("g", "gr", "grap", "graph", "graphon", "mod", "models"):
        typed, starred = graphs.match(word, typing=True), graphs.match(f"{word}*")
        assert typed.ids == starred.ids and typed.scores == starred.scores, word
