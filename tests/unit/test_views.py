"""`views.compute_view`, the one answer to "which papers are shown", on the small hand-made catalog."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from index.search.index import SearchIndex
from index.state.store import PaperState, StateStore
from index.views import compute_view, places_in
from tests.unit.search_fixtures import EVERY, POSITION, built_index, marked_state


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    yield from built_index(tmp_path_factory)


@pytest.fixture
def state(tmp_path: Path) -> Iterator[StateStore]:
    yield from marked_state(
        tmp_path / "data",
        [
            PaperState("mem", read=True, read_at=100.0),
            PaperState("gnn", starred=True, starred_at=100.0),
            PaperState("rl", starred=True, starred_at=200.0, read=True, read_at=100.0),  # the newest star
        ],
    )


def ids(
    index: SearchIndex | None, state: StateStore, query: str, filter: str = "all", order: str = "relevance"
) -> list[str]:
    return list(compute_view(index, state, EVERY, POSITION, query, filter, order).ids)


def test_the_readers_filter_keeps_what_the_is_filter_keeps(index: SearchIndex, state: StateStore) -> None:
    for query in ("graph", ""):
        assert ids(index, state, query, "unread") == ids(index, state, f"{query} is:unread")
        assert ids(index, state, query, "starred") == ids(index, state, f"{query} is:starred")
    assert sorted(ids(index, state, "is:starred")) == ["gnn", "rl"]


def test_orders_rank_list_in_listing_order_or_put_the_newest_star_first(
    index: SearchIndex, state: StateStore
) -> None:
    assert ids(index, state, "graph") == ["gnn", "rl"]  # title matches outrank abstract matches
    assert ids(index, state, "graph", order="listing") == sorted(["gnn", "rl"], key=POSITION.__getitem__)
    assert ids(index, state, "", order="starred") == ["rl", "gnn"] + [
        p for p in EVERY if p not in {"gnn", "rl"}
    ]


def test_a_query_waits_while_the_index_builds_but_the_filter_applies(state: StateStore) -> None:
    waiting = compute_view(None, state, EVERY, POSITION, "graph", "unread", "relevance")
    assert waiting.waiting and list(waiting.ids) == [p for p in EVERY if p not in {"mem", "rl"}]
    assert not compute_view(None, state, EVERY, POSITION, "", "all", "relevance").waiting


def test_a_limit_gives_the_first_hits_with_highlights(index: SearchIndex, state: StateStore) -> None:
    view = compute_view(
        index, state, EVERY, POSITION, "diffusion", "all", "relevance", limit=1, highlight_top=1
    )
    assert len(view.ids) == len(view.hits) == 1 and view.hits[0].snippet is not None
    with pytest.raises(ValueError):
        compute_view(index, state, EVERY, POSITION, "diffusion", "unread", "relevance", limit=1)


def test_places_put_the_newest_first_keep_listing_order_in_a_tie_and_the_undated_last() -> None:
    years = [2023, None, 2025, 2023, 2024]
    venues = ["icml", "ICLR", None, "ICML", "COLT"]
    newest = places_in("newest", venues, years)
    assert sorted(range(5), key=newest.__getitem__) == [2, 4, 0, 3, 1]
    oldest = places_in("oldest", venues, years)
    assert sorted(range(5), key=oldest.__getitem__) == [0, 3, 4, 2, 1]
    venue = places_in("venue", venues, years)  # case folded; no venue last
    assert sorted(range(5), key=venue.__getitem__) == [4, 1, 0, 3, 2]
    with pytest.raises(ValueError):
        places_in("relevance", venues, years)


def test_an_order_by_year_needs_the_papers_places(index: SearchIndex, state: StateStore) -> None:
    with pytest.raises(ValueError):
        ids(index, state, "graph", order="newest")
    place = {paper_id: len(EVERY) - number for number, paper_id in enumerate(EVERY)}  # backwards
    backwards = compute_view(index, state, EVERY, POSITION, "", "all", "newest", places=lambda _: place)
    assert list(backwards.ids) == list(reversed(EVERY))
