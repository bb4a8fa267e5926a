"""The search index API on a small hand-made catalog: golden queries, syntax, highlights, similar."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index.render.abstract import to_plain
from index.search.index import SearchIndex, UnknownPaper
from index.search.query import QUERY_HELP
from index.views import keep
from tests.unit.search_fixtures import PAPERS, FakeState, make_catalog


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    opened = SearchIndex.open(tmp_path_factory.mktemp("ix") / "index")
    report = opened.maintenance.rebuild(make_catalog())
    assert report.rebuilt and report.added == len(PAPERS) and report.papers == len(PAPERS)
    yield opened
    opened.maintenance.close()


def ids(index: SearchIndex, query: str, marks: FakeState | None = None) -> list[str]:
    """What the query finds; with `marks`, after its `is:` filters over them (as `index.views` does)."""
    if marks is None:
        return list(index.search(query).ids)
    matched = index.match(query)
    return list(keep(marks, matched.ids, matched.filters))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("weak-to-strong", ["w2s"]),
        ("memorize", ["mem"]),  # stemming: memorize ~ memorization
        ('"influence functions"', ["gifs"]),  # the phrase, not "influence of activation functions"
        ("diffusion -images", ["diff-audio"]),
        ("diffusion NOT images", ["diff-audio"]),
        ("title:graph", ["gnn"]),  # "graph" is also in rl's abstract, but not its title
        ("headline:graph", ["gnn"]),  # a titled paper's list line is its title
        ("author:hopper", ["diff-img", "diff-audio"]),
        ("author:hopper author:dijkstra", ["diff-audio"]),
        ("venue:colt", ["latex"]),
        ("year:2019", ["gnn", "rl"]),
        ("id:mem", ["mem"]),
        (
            "optimal",
            ["latex", "rl"],
        ),  # LaTeX is indexed as rendered text: \textit{optimal} is the word optimal
        ("sharp", ["latex"]),
        ("listing:fixture graph", ["gnn", "rl"]),
        ("source:nowhere", []),
    ],
)
def test_golden_queries_find_exactly_the_expected_papers(
    index: SearchIndex, query: str, expected: list[str]
) -> None:
    result = index.search(query)
    assert sorted(result.ids) == sorted(expected)
    assert result.notice is None


def test_words_must_all_match_and_or_widens(index: SearchIndex) -> None:
    assert sorted(ids(index, "influence functions")) == ["act", "gifs"]
    assert ids(index, "influence molecules") == []
    assert sorted(ids(index, "molecules OR reward")) == ["gnn", "rl"]
    assert sorted(ids(index, "(molecules OR reward) agents")) == ["rl"]


def test_prefix_fuzzy_and_ranges(index: SearchIndex) -> None:
    assert sorted(ids(index, "diffu*")) == ["diff-audio", "diff-img"]
    assert sorted(ids(index, "difusion~")) == ["diff-audio", "diff-img"]
    assert sorted(ids(index, "year:[2020 TO 2022]")) == ["act", "diff-audio", "diff-img"]


def test_title_matches_outrank_abstract_matches(index: SearchIndex) -> None:
    # "graph" is in gnn's headline and only in rl's abstract.
    assert ids(index, "graph") == ["gnn", "rl"]
    assert ids(index, "reinforcement")[0] == "rl"


def test_empty_query_lists_every_paper_in_listing_order(index: SearchIndex) -> None:
    result = index.search("")
    assert list(result.ids) == [row[0] for row in PAPERS]
    assert result.notice is None


def test_limit_caps_ids_and_hits_but_none_returns_every_match(index: SearchIndex) -> None:
    assert len(index.search("", limit=3).ids) == 3
    every = index.search("diffusion OR graph OR influence", limit=None, highlight_top=1)
    assert len(every.ids) == 6
    assert every.hits[0].snippet is not None
    assert all(hit.snippet is None and hit.matches == () for hit in every.hits[1:])


@pytest.mark.parametrize(
    "query",
    [
        'unbalanced "quote',
        "(diffusion models",
        "diffusion)",
        "AND",
        "-",
        "title:",
        "diffusion AND",
        "foo:bar",
    ],
)
def test_malformed_queries_never_raise_and_say_so(index: SearchIndex, query: str) -> None:
    result = index.search(query)
    assert result.notice is not None and "plain words" in result.notice


def test_malformed_query_still_finds_its_words(index: SearchIndex) -> None:
    result = index.search('memorization "unbalanced')
    assert result.ids[0] == "mem"
    assert "unbalanced quote" in (result.notice or "")


def test_state_filters_use_the_lookup(index: SearchIndex) -> None:
    state = FakeState(starred={"gnn", "mem"}, read={"mem", "rl"})
    assert sorted(ids(index, "is:starred", state)) == ["gnn", "mem"]
    assert sorted(ids(index, "is:starred is:unread", state)) == ["gnn"]
    assert sorted(ids(index, "graph is:read", state)) == ["rl"]
    assert ids(index, "is:unread", state) == [p[0] for p in PAPERS if p[0] not in {"mem", "rl"}]
    without = index.search("is:starred")
    assert without.notice is not None and "is:" in without.notice
    unknown = index.match("is:bogus graph")
    assert "is:bogus" in (unknown.notice or "") and ids(index, "is:bogus graph", state) == ["gnn", "rl"]


def test_match_spans_point_into_the_rendered_abstract(index: SearchIndex) -> None:
    result = index.search("memorize")
    hit = result.hits[0]
    plain = to_plain(PAPERS[1][2])
    assert [plain[s.start : s.end] for s in hit.matches] == ["memorization"]
    assert hit.snippet is not None
    assert [hit.snippet.text[s.start : s.end] for s in hit.snippet.matches] == ["memorization"]
    assert [hit.headline[s.start : s.end] for s in hit.headline_matches] == ["Memorization"]
    assert index.spans("mem", index.match("memorize").highlight) == hit.matches


def test_spans_follow_rendering_of_latex(index: SearchIndex) -> None:
    plain = index.plain_abstract("latex")
    assert "\\textit" not in plain
    spans = index.spans("latex", index.match("optimal").highlight)
    assert [plain[s.start : s.end] for s in spans] == ["optimal"]


def test_excluded_words_are_not_highlighted(index: SearchIndex) -> None:
    hit = index.search("diffusion -images").hits[0]
    plain = index.plain_abstract(hit.id)
    assert {plain[s.start : s.end].lower() for s in hit.matches} == {"diffusion"}


def test_fuzzy_and_prefix_highlight_the_expanded_words(index: SearchIndex) -> None:
    for query in ("difusion~", "diffu*"):
        hit = index.search(query).hits[0]
        plain = index.plain_abstract(hit.id)
        assert {plain[s.start : s.end].lower() for s in hit.matches} == {"diffusion"}


def test_did_you_mean_offers_a_real_word(index: SearchIndex) -> None:
    result = index.search("difusion")
    assert result.ids == ()
    assert result.suggestion == "diffusion"
    assert index.search("diffusion").suggestion is None


def test_similar_papers_share_key_terms(index: SearchIndex) -> None:
    hits = index.similar("diff-img", limit=3)
    assert hits[0].id == "diff-audio"
    assert "diffusion" in hits[0].shared_terms
    assert all(hit.id != "diff-img" for hit in hits)
    with pytest.raises(UnknownPaper):
        index.similar("no-such-paper")


def test_snapshot_round_trips_the_catalog(index: SearchIndex) -> None:
    assert index.stored_catalog() == make_catalog()


def test_query_help_documents_the_syntax() -> None:
    for piece in (
        '"exact phrase"',
        "OR",
        "-word",
        "prefix" if False else "diffu*",
        "~",
        "title:",
        "year:[",
        "is:",
    ):
        assert piece in QUERY_HELP


def test_a_reader_picks_up_a_rebuild_by_someone_else(tmp_path: Path) -> None:
    writer = SearchIndex.open(tmp_path / "ix")
    writer.maintenance.rebuild(make_catalog(PAPERS[:3]))
    reader = SearchIndex.open(tmp_path / "ix")
    assert ids(reader, "influence") == []
    writer.maintenance.rebuild(make_catalog())
    assert sorted(ids(reader, "influence")) == ["act", "gifs"]
    writer.maintenance.update(make_catalog(PAPERS[:5]))
    assert ids(reader, "influence") == ["gifs"]


def test_stop_words_in_a_query_do_not_empty_the_result(index: SearchIndex) -> None:
    """`learning for` must find what `learning` finds: no default field may demand the token "for"."""
    plain = set(index.search("learning").ids)
    assert plain, "the fixture must contain the word"
    for query in ("learning for", "the learning", "models of learning"):
        with_stop = set(index.search(query).ids)
        assert with_stop, query
        assert with_stop <= plain | set(index.search(query.replace("learning", "")).ids)


@pytest.mark.parametrize("query", ["diffusion", "graph OR learning", "diffu*", "difusion~", "model", "the"])
def test_a_limited_search_gives_the_first_hits_of_the_full_ranking(index: SearchIndex, query: str) -> None:
    # A limited search ranks with a top-N heap; it must agree with the full ranking, highlights included.
    full = index.search(query, limit=None, highlight_top=20)
    reopened = SearchIndex.open(index.maintenance.index_dir)  # its own cache: the full ranking is not reused
    try:
        top = reopened.search(query, limit=5)
        assert top.ids == full.ids[:5]
        assert [hit.matches for hit in top.hits] == [hit.matches for hit in full.hits[:5]]
    finally:
        reopened.maintenance.close()
