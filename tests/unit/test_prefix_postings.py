"""Stored prefixes (`index/search/prefixes.py`): `w*` of 1-3 letters finds exactly what expanding it finds,
in every segment an index ever has (first build, an update, a merge)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from whoosh import query as wq

from index.listings.catalog import load_catalog
from index.search.index import SearchIndex
from index.search.prefixes import PREFIX_FIELD
from index.search.schema import DEFAULT_FIELDS
from tests.conftest import SEEDS
from tests.unit.search_fixtures import make_catalog


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    index = SearchIndex.open(tmp_path_factory.mktemp("ix") / "index")
    index.maintenance.rebuild(load_catalog([SEEDS]))
    yield index
    index.maintenance.close()


def _ids(index: SearchIndex, q: wq.Query) -> set[str]:
    searcher = index.maintenance.searcher
    return {hit["id"] for hit in searcher.search(q, limit=None)}


def _expanded(prefix: str) -> wq.Query:
    return wq.Or([wq.Prefix(field, prefix) for field in DEFAULT_FIELDS])


def _stored_prefixes(index: SearchIndex) -> list[str]:
    reader = index.maintenance.searcher.reader()
    return [term.decode("utf-8") for term in reader.lexicon(PREFIX_FIELD)]


def test_every_stored_prefix_holds_exactly_the_papers_its_expansion_finds(seeds: SearchIndex) -> None:
    prefixes = _stored_prefixes(seeds)
    assert {"g", "gr", "gra", "d", "di", "dif"} <= set(prefixes)
    assert all(1 <= len(prefix) <= 3 for prefix in prefixes)
    for prefix in prefixes:
        assert _ids(seeds, wq.Term(PREFIX_FIELD, prefix)) == _ids(seeds, _expanded(prefix)), prefix


@pytest.mark.parametrize("typed", ["g", "gr", "gra", "d", "re", "lan", "graph n", "diffusion mo"])
def test_a_short_prefix_typed_finds_what_its_expansion_finds(seeds: SearchIndex, typed: str) -> None:
    """The reader's keystroke (stored prefixes) against Whoosh expanding the same prefix word by word."""
    *finished, last = typed.split()
    expected = _expanded(last)
    if finished:
        schema = seeds.maintenance.ix.schema
        wholes = [
            wq.Or(
                [
                    wq.Term(field, token.text)
                    for field in DEFAULT_FIELDS
                    for token in schema[field].analyzer(word)
                ]
            )
            for word in finished
        ]
        expected = wq.And([*wholes, expected])
    found = set(seeds.match(typed, typing=True).ids)
    assert found and found == _ids(seeds, expected), typed


def test_a_short_whole_word_ranks_above_its_completions(tmp_path: Path) -> None:
    """`gan` typed: the papers with the word GAN come before those with only `ganglion` or `gantry`."""
    filler = "we study a problem and report results on several benchmarks with careful ablations"
    words = ["ganglion", "gantry", "ganglion gantry", "gan", "gan", "gangs"]
    rows = [(f"p{n}", f"Paper {n}", f"{filler} {word}.", (), "X", 2020) for n, word in enumerate(words)]
    index = SearchIndex.open(tmp_path / "index")
    index.maintenance.rebuild(make_catalog(rows))
    ranked = index.match("gan", typing=True).ids
    assert set(ranked) == {f"p{n}" for n in range(6)}
    assert set(ranked[:2]) == {"p3", "p4"}, ranked
    index.maintenance.close()


def test_an_update_writes_the_prefixes_of_the_papers_it_adds(tmp_path: Path) -> None:
    index = SearchIndex.open(tmp_path / "index")
    first = [("p1", "Graph models", "We study graph models of data.", (), "X", 2020)]
    index.maintenance.rebuild(make_catalog(first))
    assert index.match("zy", typing=True).ids == ()
    more = [*first, ("p2", "Zymurgy", "Zymurgy of zygotes, measured.", ("Zed Zane",), "X", 2021)]
    index.maintenance.update(make_catalog(more))
    assert index.match("zy", typing=True).ids == ("p2",)
    assert set(index.match("z", typing=True).ids) == {"p2"}
    assert set(index.match("g", typing=True).ids) == {"p1"}
    index.maintenance.update(make_catalog(more[1:]))  # p1 removed: its prefixes no longer find it
    assert index.match("g", typing=True).ids == ()
    assert index.match("zy", typing=True).ids == ("p2",)
    index.maintenance.close()


def test_a_short_prefix_highlights_the_words_it_begins(seeds: SearchIndex) -> None:
    matched = seeds.match("gra", typing=True)
    for paper_id in matched.ids[:10]:
        text = seeds.plain_abstract(paper_id)
        words = [text[span.start : span.end].lower() for span in seeds.spans(paper_id, matched.highlight)]
        assert all(word.startswith("gra") for word in words), words
        expected = [word for word in re.findall(r"\w+", text.lower()) if word.startswith("gra")]
        assert len(words) == len(expected), (paper_id, words, expected)
