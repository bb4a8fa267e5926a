"""For you on a small hand-made catalog: which papers, why, the nearest seed, and `is:foryou` in views."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from index.search.index import SearchIndex
from index.search.profile import Profile
from index.search.whoosh_private import field_lengths, read_postings
from index.state.store import PaperState, StateStore
from index.views import compute_view, for_you
from tests.unit.search_fixtures import Row, built_index, listing_order, make_catalog, marked_state


def _row(paper_id: str, headline: str, abstract: str, venue: str = "NeurIPS", year: int = 2024) -> Row:
    return (paper_id, headline, abstract, (), venue, year)


GRAPH = "Message passing graph neural networks aggregate node features over edges of the graph"
BANDIT = "Regret bounds for stochastic multi armed bandit exploration with arms and regret"
SPEECH = "Speech recognition transcribes acoustic waveforms with phoneme and spectrogram encoders"
ROWS: list[Row] = [
    *(_row(f"graph{n}", f"Graph paper {n}", f"{GRAPH} variant {n} with pooling {n % 2}") for n in range(5)),
    *(_row(f"bandit{n}", f"Bandit paper {n}", f"{BANDIT} setting {n} with horizon") for n in range(5)),
    *(_row(f"speech{n}", f"Speech paper {n}", f"{SPEECH} corpus {n}", "ICASSP", 2020) for n in range(5)),
]
EVERY, POSITION = listing_order(ROWS)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    yield from built_index(tmp_path_factory, ROWS)


@pytest.fixture
def state(tmp_path: Path) -> Iterator[StateStore]:
    yield from marked_state(
        tmp_path / "data",
        [
            PaperState("graph0", starred=True, starred_at=1.0),
            PaperState("graph1", starred=True, starred_at=2.0),
            PaperState("graph2", read=True, read_at=3.0),
        ],
    )


def test_papers_like_the_seeds_come_first_with_why_and_nearest(index: SearchIndex) -> None:
    hits = index.for_you({"graph0", "graph1"}, limit=5)
    assert [hit.id for hit in hits][:3] == ["graph2", "graph3", "graph4"] or {h.id for h in hits[:3]} == {
        "graph2",
        "graph3",
        "graph4",
    }
    assert not {"graph0", "graph1"} & {hit.id for hit in hits}
    for hit in hits[:3]:
        assert hit.nearest_id in {"graph0", "graph1"}
        assert "graph" in hit.terms or "node" in hit.terms
        assert 0 < hit.score <= 1


def test_excluded_and_unknown_ids_and_no_seeds(index: SearchIndex) -> None:
    hits = index.for_you({"bandit0", "no-such-paper"}, exclude=frozenset({"bandit1", "bandit2"}), limit=20)
    ids = [hit.id for hit in hits]
    assert ids[:2] == ["bandit3", "bandit4"] or set(ids[:2]) == {"bandit3", "bandit4"}
    assert not {"bandit0", "bandit1", "bandit2"} & set(ids)
    assert all(hit.nearest_id == "bandit0" for hit in hits)
    assert index.for_you(set(), limit=5) == []
    assert index.for_you({"no-such-paper"}, limit=5) == []


def test_two_topics_of_seeds_bring_both(index: SearchIndex) -> None:
    hits = index.for_you({"graph0", "speech0"}, limit=8)
    ids = [hit.id for hit in hits]
    assert sum(paper_id.startswith("graph") for paper_id in ids[:8]) >= 3
    assert sum(paper_id.startswith("speech") for paper_id in ids[:8]) >= 3
    assert {hit.nearest_id for hit in hits if hit.id.startswith("speech")} == {"speech0"}


class _Stepping:
    """A matcher offering only the public one-posting-at-a-time calls."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def is_active(self) -> bool:
        return bool(self._inner.is_active())

    def id(self) -> int:
        return int(self._inner.id())

    def weight(self) -> float:
        return float(self._inner.weight())

    def next(self) -> None:
        self._inner.next()


def test_block_reading_gives_what_stepping_gives(index: SearchIndex) -> None:
    index.search("graph")  # opens the searcher
    searcher = index.maintenance.searcher
    for term in ("graph", "regret", "speech", "variant"):
        for leaf, _offset in searcher.leaf_searchers():
            reader = leaf.reader()
            if ("abstract", term) in reader:
                fast = read_postings(reader.postings("abstract", term))
                slow = read_postings(_Stepping(reader.postings("abstract", term)))
                assert fast == slow and fast[0]


class _NoColumns:
    """A segment reader that answers lengths only document by document."""

    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def doc_count_all(self) -> int:
        return int(self._inner.doc_count_all())

    def doc_field_length(self, docnum: int, field: str) -> int | None:
        return self._inner.doc_field_length(docnum, field)  # type: ignore[no-any-return]


def test_lengths_read_whole_are_the_lengths_asked_one_by_one(index: SearchIndex) -> None:
    index.search("graph")
    for leaf, _offset in index.maintenance.searcher.leaf_searchers():
        reader = leaf.reader()
        for field in ("abstract", "headline", "venue", "authors"):  # no fixture paper has authors
            fast = field_lengths(reader, field)
            assert fast == field_lengths(_NoColumns(reader), field)
            assert len(fast) == reader.doc_count_all() and any(fast) == (field != "authors")


def test_a_new_generation_is_scored_afresh(tmp_path: Path) -> None:
    opened = SearchIndex.open(tmp_path / "index")
    opened.maintenance.rebuild(make_catalog(ROWS))
    assert {hit.id for hit in opened.for_you({"bandit0"}, limit=3)} <= {f"bandit{n}" for n in range(5)}
    extra = _row("bandit9", "Bandit paper 9", f"{BANDIT} regret regret exploration arms")
    opened.maintenance.update(make_catalog([*ROWS, extra]))
    assert "bandit9" in [hit.id for hit in opened.for_you({"bandit0"}, limit=5)]
    opened.maintenance.close()


def test_views_for_you_skips_starred_and_read(index: SearchIndex, state: StateStore) -> None:
    ids = [hit.id for hit in for_you(index, state, limit=20)]
    assert ids[:2] == ["graph3", "graph4"] or set(ids[:2]) == {"graph3", "graph4"}
    assert not {"graph0", "graph1", "graph2"} & set(ids)
    tagged = [hit.id for hit in for_you(index, state, seeds=frozenset({"speech0"}), limit=4)]
    assert set(tagged) == {"speech1", "speech2", "speech3", "speech4"}


def test_is_foryou_keeps_the_ranking_order_and_combines_with_words(
    index: SearchIndex, state: StateStore
) -> None:
    ranking = [hit.id for hit in for_you(index, state, limit=200)]
    view = compute_view(index, state, EVERY, POSITION, "is:foryou", "all", "relevance")
    assert list(view.ids) == ranking and view.notice is None
    worded = compute_view(index, state, EVERY, POSITION, "pooling is:foryou", "all", "relevance")
    assert list(worded.ids) == [paper_id for paper_id in ranking if paper_id.startswith("graph")]
    listed = compute_view(index, state, EVERY, POSITION, "is:ForYou", "all", "listing")
    assert list(listed.ids) == sorted(ranking, key=POSITION.__getitem__)
    limited = compute_view(
        index, state, EVERY, POSITION, "is:foryou", "all", "relevance", limit=2, highlight_top=2
    )
    assert list(limited.ids) == ranking[:2]
    assert [hit.id for hit in limited.hits] == ranking[:2]


def test_foryou_tag_ranks_like_the_tagged_papers_and_combines_with_words(
    index: SearchIndex, state: StateStore
) -> None:
    """`foryou:NAME` is for you seeded by a tag, not the stars: speech papers, though graphs are starred."""
    state.tag(["speech0", "speech1"], ["Listen"])
    ranking = [hit.id for hit in for_you(index, state, seeds=state.tagged_ids("listen"), limit=200)]
    assert set(ranking[:3]) == {"speech2", "speech3", "speech4"}
    view = compute_view(index, state, EVERY, POSITION, "foryou:listen", "all", "relevance")
    assert list(view.ids) == ranking and view.notice is None
    assert compute_view(index, state, EVERY, POSITION, "FORYOU:Listen", "all", "relevance").ids == view.ids
    worded = compute_view(index, state, EVERY, POSITION, "corpus foryou:listen", "all", "relevance")
    assert list(worded.ids) == [paper_id for paper_id in ranking if paper_id.startswith("speech")]
    assert len(worded.ids) == 3
    keyed = compute_view(index, state, EVERY, POSITION, "foryou:listen", "foryou", "relevance")
    assert keyed.ids == view.ids  # key 4 keeps what the tag's list keeps, not the stars' list
    starred = compute_view(index, state, EVERY, POSITION, "is:foryou", "all", "relevance")
    assert starred.ids[0].startswith("graph")


def test_foryou_tag_without_tagged_papers_or_name_says_what_to_do(
    index: SearchIndex, state: StateStore
) -> None:
    empty = compute_view(index, state, EVERY, POSITION, "foryou:nothing", "all", "relevance")
    assert empty.ids == ()
    assert empty.notice == "foryou:nothing finds papers like your papers tagged nothing: tag a few first"
    bare = compute_view(index, state, EVERY, POSITION, "foryou:", "all", "relevance")
    assert bare.notice is not None and "foryou: needs a tag name after it" in bare.notice
    assert len(bare.ids) == len(EVERY)  # ignored: the empty query lists every paper
    negated = compute_view(index, state, EVERY, POSITION, "graph -foryou:listen", "all", "relevance")
    assert negated.notice is not None and "-foryou: has no meaning" in negated.notice
    assert {paper_id[:5] for paper_id in negated.ids} == {"graph"}


def test_is_foryou_without_stars_says_why(index: SearchIndex, tmp_path: Path) -> None:
    store = StateStore.open(tmp_path / "empty")
    view = compute_view(index, store, EVERY, POSITION, "is:foryou", "all", "relevance")
    store.close()
    assert view.ids == ()
    assert view.notice is not None and "star" in view.notice


def test_the_same_question_is_answered_once_per_generation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader's `4` filter and its per-row reasons ask the same for-you question in two workers."""
    opened = SearchIndex.open(tmp_path / "index")
    opened.maintenance.rebuild(make_catalog(ROWS))
    computed: list[int] = []  # the limit of each ranking really run
    real = Profile.rank
    monkeypatch.setattr(
        Profile,
        "rank",
        lambda self, s, seeds, keep, limit: computed.append(limit) or real(self, s, seeds, keep, limit),
    )
    first = opened.for_you({"bandit0"}, {"bandit1"}, limit=3)
    assert opened.for_you({"bandit0"}, {"bandit1"}, limit=3) == first and len(computed) == 1
    first.clear()  # a caller's list is its own
    assert opened.for_you({"bandit0"}, {"bandit1"}, limit=3) and len(computed) == 1
    opened.for_you({"bandit0", "bandit2"}, {"bandit1"}, limit=3)  # a new star
    opened.for_you({"bandit0"}, {"bandit1", "bandit3"}, limit=3)  # a new read mark
    assert len(computed) == 3
    more = make_catalog([*ROWS, _row("bandit9", "Bandit paper 9", f"{BANDIT} regret arms")])
    opened.maintenance.update(more)
    assert "bandit9" in [hit.id for hit in opened.for_you({"bandit0"}, {"bandit1"}, limit=5)]
    assert len(computed) == 4
    opened.maintenance.close()
