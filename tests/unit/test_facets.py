"""Facet counts per venue, year and track, `narrow`, and the `papers foryou` and `papers facets` commands."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from index.library import Library
from index.listings.identity import paper_id
from index.models import Catalog
from index.search import snapshot, snapshot_encode
from index.search.facets import FacetCounter, Facets, chosen, narrow, toggle
from tests.conftest import run_papers
from tests.unit.search_fixtures import make_catalog

# (venue, year, status, words): one JSONL record each; the abstracts differ by their words.
RECORDS = [
    ("NeurIPS", 2023, "Oral", "graph neural networks message passing"),
    ("NeurIPS", 2023, "Poster", "graph attention over molecules"),
    ("NeurIPS", 2024, "Poster", "diffusion models for images"),
    ("ICML", 2024, "Spotlight", "diffusion schedules and noise"),
    ("ICML", 2024, "Poster", "bandit regret with graph feedback"),
    ("AutoML Conf", 2022, "", "hyperparameter search with graph surrogates"),
    ("AutoML Conf", 2022, "Poster", "neural architecture search benchmarks"),
]


def _abstract(words: str) -> str:
    return f"We study {words} in depth and report what we find on several benchmarks of {words}."


@pytest.fixture(scope="module")
def listing(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("listings") / "papers.jsonl"
    lines = [
        json.dumps({"title": words.title(), "abstract": _abstract(words), "venue": v, "year": y, "status": s})
        for v, y, s, words in RECORDS
    ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.fixture
def library(listing: Path, tmp_path: Path) -> Iterator[Library]:
    opened = Library.open([listing], tmp_path / "index", tmp_path / "data")
    opened.build_index()
    yield opened
    opened.close()


def test_counts_order_values_and_leave_out_missing_ones() -> None:
    ids = ["a", "b", "c", "d", "e", "f", "g"]
    venues = ["A", "B", "B", None, "", "A", "B"]
    years = [2020, 2021, 2021, None, 2019, -1, 2021]
    statuses = ["Oral", None, "Poster", "Poster", "", "Oral", "Oral"]
    counter = FacetCounter(ids, venues, years, statuses)
    everything = Facets(
        (("B", 3), ("A", 2)), ((2021, 3), (2020, 1), (2019, 1)), (("Oral", 3), ("Poster", 2)), 7
    )
    assert counter.count(ids) == everything == counter.every()
    assert counter.count(["b", "c", "no-such-id"]) == Facets((("B", 2),), ((2021, 2),), (("Poster", 1),), 2)
    assert counter.count([]) == Facets((), (), (), 0)


@pytest.mark.parametrize(
    ("query", "field", "value", "expected"),
    [
        ("diffusion", "venue", "NeurIPS", "diffusion venue:NeurIPS"),
        ("", "year", 2024, "year:2024"),
        ("diffusion venue:icml x", "venue", "NeurIPS", "diffusion x venue:NeurIPS"),
        ('a venue:"AutoML Conf" b', "venue", "ICML", "a b venue:ICML"),
        ("a", "venue", "AutoML Conf", 'a venue:"AutoML Conf"'),
        ("a", "venue", 'Odd "quoted" Name', 'a venue:"Odd quoted Name"'),
        ("a track:oral", "status", "Poster", "a status:Poster"),
        ("a -status:poster", "status", "Oral", "a status:Oral"),
        ("a year:[2020 TO 2022] b", "year", 2021, "a b year:2021"),
        ("a Year:2020", "year", None, "a"),
        ("(venue:a OR venue:b) c", "venue", "D", "(venue:a OR venue:b) c venue:D"),
        ('title:"venue:x" y', "venue", "Z", 'title:"venue:x" y venue:Z'),
    ],
)
def test_narrow_adds_or_replaces_one_clause(
    query: str, field: str, value: str | int | None, expected: str
) -> None:
    assert narrow(query, field, value) == expected


def test_narrow_refuses_other_fields_and_empty_values() -> None:
    with pytest.raises(ValueError):
        narrow("x", "author", "Hinton")
    with pytest.raises(ValueError):
        narrow("x", "venue", "&&")


@pytest.mark.parametrize(
    ("query", "field", "value", "expected"),
    [
        ("", "venue", "ICML", "venue:ICML"),
        ("a venue:ICML", "venue", "NeurIPS", "a venue:(ICML OR NeurIPS)"),
        ("venue:(ICML OR NeurIPS) b", "venue", "AutoML Conf", 'b venue:(ICML OR NeurIPS OR "AutoML Conf")'),
        ('venue:(ICML OR "AutoML Conf")', "venue", "automl  conf", "venue:ICML"),
        ("venue:icml x", "venue", "ICML", "x"),
        ("x -venue:ICML", "venue", "ICML", "x venue:ICML"),
        ("year:2024", "year", 2022, "year:(2024 OR 2022)"),
        ("track:Oral", "status", "Poster", "status:(Oral OR Poster)"),
        ("(venue:a OR venue:b) c", "venue", "D", "(venue:a OR venue:b) c venue:D"),
    ],
)
def test_toggle_adds_a_value_to_the_fields_clause_or_takes_it_out(
    query: str, field: str, value: str | int, expected: str
) -> None:
    assert toggle(query, field, value) == expected


def test_chosen_reads_back_what_narrow_and_toggle_write() -> None:
    assert chosen("", "venue") == ()
    assert chosen('a venue:(ICML OR "AutoML Conf") year:2024 -status:Oral', "venue") == (
        "ICML",
        "AutoML Conf",
    )
    assert chosen("a venue:ICML year:2024 -status:Oral", "year") == ("2024",)
    assert chosen("-status:Oral (status:Poster OR x)", "status") == ()  # negated, or inside a larger group
    assert chosen("track:Oral", "status") == ("Oral",)
    assert chosen("author:x", "author") == ()


def test_several_values_find_the_papers_of_any_of_them(library: Library) -> None:
    facets = library.discovery.facets(library.view(""))
    (first, first_count), (second, second_count) = facets.venue[:2]
    both = toggle(narrow("", "venue", first), "venue", second)
    assert library.view(both).total == first_count + second_count
    assert library.discovery.facets(library.view(both)).venue == (
        (first, first_count),
        (second, second_count),
    )


def test_facets_count_what_a_view_shows_and_narrowing_finds_that_many(library: Library) -> None:
    everything = library.discovery.facets(library.view(""))
    assert everything.total == len(RECORDS)
    assert dict(everything.venue) == Counter(v for v, _y, _s, _w in RECORDS)
    assert dict(everything.year) == Counter(y for _v, y, _s, _w in RECORDS)
    assert dict(everything.status) == Counter(s for _v, _y, s, _w in RECORDS if s)
    graph = library.view("graph")
    facets = library.discovery.facets(graph)
    assert facets.total == graph.total == 4
    for field, values in (("venue", facets.venue), ("year", facets.year), ("status", facets.status)):
        for value, papers in values:
            narrowed = library.discovery.narrow("graph", field, value)
            assert library.view(narrowed).total == papers, (field, value)
    assert library.discovery.facets(["no-such-id", *graph.ids]).total == 4


def test_statuses_are_a_list_column_of_the_snapshot() -> None:
    catalog = make_catalog()
    papers = tuple(replace(paper, status="Oral" if n % 2 else None) for n, paper in enumerate(catalog.papers))
    changed = Catalog(catalog.listings, papers, catalog.notices)
    opened = snapshot.Snapshot.open(snapshot_encode.encode(changed))
    assert opened is not None
    assert list(opened.statuses) == [paper.status for paper in papers]
    assert opened.paper(1).status == "Oral" and opened.paper(0).status is None
    assert snapshot.Snapshot.from_catalog(changed).statuses == [paper.status for paper in papers]
    older = (3).to_bytes(8, "little") + snapshot_encode.encode(changed)[8:]  # format 3 had no status column
    assert snapshot.Snapshot.open(older) is None and snapshot.format_of(older) == 3 < snapshot_encode.FORMAT


def test_cli_foryou_and_facets(listing: Path, tmp_path: Path) -> None:
    where = [
        "--listings",
        str(listing),
        "--index-dir",
        str(tmp_path / "ix"),
        "--data-dir",
        str(tmp_path / "d"),
    ]
    nothing = run_papers(*where, "foryou")
    assert nothing.returncode == 1 and "star" in nothing.stderr
    star = paper_id(_abstract(RECORDS[0][3]))
    assert run_papers(*where, "star", star).returncode == 0
    result = run_papers(*where, "foryou", "--json", "--limit", "3")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows and rows[0]["nearest"]["id"] == star and rows[0]["terms"]
    assert star not in {row["id"] for row in rows}
    assert run_papers(*where, "tag", paper_id(_abstract(RECORDS[2][3])), "gen").returncode == 0
    tagged = json.loads(run_papers(*where, "foryou", "--tag", "gen", "--json").stdout)
    assert tagged[0]["headline"] == "Diffusion Schedules And Noise"
    assert run_papers(*where, "foryou", "--tag", "nobody").returncode == 1
    facets = run_papers(*where, "facets", "graph", "--json")
    assert facets.returncode == 0, facets.stderr
    assert json.loads(facets.stdout)["venue"][0] == {"value": "NeurIPS", "papers": 2}
    shown = run_papers(*where, "search", "is:foryou", "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)[0]["id"] == rows[0]["id"]
