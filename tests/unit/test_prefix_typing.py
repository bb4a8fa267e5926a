"""The last word of a query while it is being typed: a prefix, ranked so that the whole word comes first."""

from __future__ import annotations

import pytest

from index.search.index import SearchIndex
from index.search.typed_query import read_query
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
        ("year:2023", "year:2023"),  # a year is typed whole
        ("title:grap", "title:grap*"),  # a field's value matches as a prefix like any last word
        ("venue:neur", "venue:neur*"),
        ("id:ab1", "id:ab1"),  # so is an id
        ("graph OR", "graph OR"),  # an operator
        ("(graph)", "(graph)"),
        ("diffu*", "diffu*"),
        ("difusion~", "difusion~"),
        ("", ""),
    ],
)
def test_only_an_unfinished_plain_last_word_becomes_a_prefix(typed: str, searched: str) -> None:
    assert read_query(typed).as_prefix == searched


def _rows(words: list[str]) -> list[tuple[str, str, str, tuple[str, ...], str, int]]:
    filler = "we study a problem and report results on several benchmarks with careful ablations"
    return [(f"p{n}", f"Paper {n}", f"{filler} {word}.", (), "X", 2020) for n, word in enumerate(words)]


@pytest.fixture(scope="module")
def graphs(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    # "graph" is common (ten papers), "graphon" rare (one): by idf alone the rare completion would win.
    rows = _rows(["graph"] * 10 + ["graphon", "grapheme", "models", "model", "modelling", "nothing"])
    index = SearchIndex.open(tmp_path_factory.mktemp("ix") / "index")
    index.maintenance.rebuild(make_catalog(rows))
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


@pytest.fixture(scope="module")
def forms(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    rows = _rows(["diffusion", "diffusive", "learning", "studies", "discrete", "dip", "vision", "vivid"])
    index = SearchIndex.open(tmp_path_factory.mktemp("ix") / "index")
    index.maintenance.rebuild(make_catalog(rows))
    return index


def test_each_letter_of_a_word_keeps_the_papers_with_it(forms: SearchIndex) -> None:
    """Indexed terms are stems ("diffus"): `diffusi` and `diffusio` must not lose the diffusion paper."""
    for word, paper in (("diffusion", "p0"), ("learning", "p2"), ("studies", "p3"), ("vision", "p6")):
        for end in range(1, len(word) + 1):
            assert paper in forms.match(word[:end], typing=True).ids, word[:end]


def test_a_prefix_is_what_was_typed_not_its_stem(forms: SearchIndex) -> None:
    """The parser stemmed `dis*` to `di*` and `vis*` to `vi*`: every word starting so."""
    assert set(forms.match("dis", typing=True).ids) == {"p4"}
    assert set(forms.match("vis", typing=True).ids) == {"p6"}
    assert set(forms.match("visio*").ids) == {"p6"}
