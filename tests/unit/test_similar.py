"""More like this: same-topic share on the seeds and on a labelled corpus sample, and what "why" says.

The sample (tests/data/similar_labelled.tsv, its abstracts in tests/data/listings_similar/) is 8 topics of 25
corpus papers each, labelled by title rules (bench/make_similar_sample.py); the index holds the abstracts
only, so no title gives a label away. The thresholds sit a little below what bench/bench_similar.py
measured when they were set (seeds 0.474, sample 0.748; Whoosh's `more_like` gave 0.423 and 0.544).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest

from index.listings.catalog import load_catalog
from index.search import similar
from index.search.highlight import WordTerms
from index.search.index import SearchIndex
from index.search.schema import stemming_analyzer
from index.search.surface import is_fragment

DATA = Path(__file__).resolve().parent.parent / "data"
SEEDS = Path(__file__).resolve().parent.parent.parent / "seeds"
TOP = 5
GNN_CALIBRATION, PROCRUSTES = "5af2512cd2db", "dfe065276c90"


def read_labels(path: Path) -> dict[str, frozenset[str]]:
    labels = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            paper_id, topics, *_ = line.split("\t")
            labels[paper_id] = frozenset(topics.split(","))
    return labels


def same_topic_share(index: SearchIndex, labels: dict[str, frozenset[str]]) -> float:
    """Mean share of the top 5 similar papers sharing a topic with the paper (papers with no peer skipped)."""
    shares = []
    for paper_id, topics in labels.items():
        if any(topics & other for key, other in labels.items() if key != paper_id):
            hits = index.similar(paper_id, limit=TOP)
            shares.append(sum(1 for hit in hits if labels.get(hit.id, frozenset()) & topics) / TOP)
    return statistics.fmean(shares)


def _built(path: Path, listings: Path) -> SearchIndex:
    index = SearchIndex.open(path)
    index.maintenance.rebuild(load_catalog([listings]))
    return index


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    index = _built(tmp_path_factory.mktemp("sample") / "index", DATA / "listings_similar" / "sample.txt")
    yield index
    index.maintenance.close()


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    index = _built(tmp_path_factory.mktemp("seeds") / "index", SEEDS)
    yield index
    index.maintenance.close()


def test_labelled_sample_mostly_finds_its_own_topic(sample: SearchIndex) -> None:
    labels = read_labels(DATA / "similar_labelled.tsv")
    assert len(labels) == 200 and all(sample.resolve_id(paper_id) == paper_id for paper_id in labels)
    assert same_topic_share(sample, labels) >= 0.72


def test_seeds_share_and_the_gnn_calibration_paper_finds_graph_papers(seeds: SearchIndex) -> None:
    labels = read_labels(DATA / "seed_topics.tsv")
    assert set(labels) == set(seeds.maintenance.load_snapshot().ids)  # type: ignore[union-attr]
    assert same_topic_share(seeds, labels) >= 0.45
    hits = seeds.similar(GNN_CALIBRATION, limit=TOP)
    assert hits[0].id != PROCRUSTES
    assert "graph" in labels[hits[0].id]
    assert "graph" in hits[0].shared_terms


def test_shared_terms_are_distinctive_words_both_papers_use(sample: SearchIndex) -> None:
    words = WordTerms(stemming_analyzer())
    generic = {words.term(word) for word in similar.GENERIC_WORDS}
    for paper_id in list(read_labels(DATA / "similar_labelled.tsv"))[:20]:
        source = words.terms_of(sample.plain_abstract(paper_id))
        for hit in sample.similar(paper_id, limit=TOP):
            assert hit.id != paper_id
            assert 0 < len(hit.shared_terms) <= similar.SHARED_SHOWN
            other = words.terms_of(f"{hit.headline}\n{sample.plain_abstract(hit.id)}")
            for word in hit.shared_terms:
                # A term the paper writes only in a compound is shown as it ("multi-armed"): one of its terms.
                shared = {term for term in words.terms_of(word) if term in source and term in other}
                assert shared - generic, (paper_id, hit.id, word)
                assert not word.isdigit() and not is_fragment(word)


def test_common_terms_scored_for_the_pool_alone_add_exactly_what_they_would_everywhere(
    sample: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    paper_id = "0017192e8696"  # multilingual machine translation: "translation" is in 25+ of the papers
    exact = {hit.id: hit for hit in sample.similar(paper_id, limit=200)}  # no term is common at 200 papers
    monkeypatch.setattr(similar, "COMMON_SHARE", 0.05)
    monkeypatch.setattr(similar, "COMMON_FLOOR", 0)
    pooled = sample.similar(paper_id, limit=10)
    assert len(pooled) == 10
    for hit in pooled:
        assert hit.score == pytest.approx(exact[hit.id].score)
        assert hit.shared_terms == exact[hit.id].shared_terms
    assert [hit.score for hit in pooled] == sorted((hit.score for hit in pooled), reverse=True)


class _Counts:
    """Document counts as an index would give them: `doc_count()` and `doc_frequency(field, term)`."""

    def __init__(self, papers: int, frequencies: dict[str, int]) -> None:
        self.papers, self.frequencies = papers, frequencies

    def doc_count(self) -> int:
        return self.papers

    def doc_frequency(self, field: str, term: str) -> int:
        return self.frequencies.get(term, 300)


def test_key_terms_leave_generic_words_out_and_weigh_rare_and_headline_words_up() -> None:
    words = WordTerms(stemming_analyzer())
    keys = similar.Similarity(words).key_terms(
        _Counts(1000, {"graph": 50, "calibr": 50, "confid": 50, "neural": 400, "uniqu": 1}),
        "Graph calibration",
        "We propose a novel method that improves the confidence of graph neural networks: results show "
        "calibration helps. A unique word, 2024 and 10 are not key terms.",
    )
    terms = [key.term for key in keys]
    assert not {"propos", "novel", "method", "result", "show", "improv"} & set(terms)
    assert "uniqu" not in terms and "2024" not in terms  # no other paper has it; a number
    assert set(terms[:2]) == {"graph", "calibr"}  # in the headline too
    assert terms.index("confid") < terms.index("neural")  # as often, rarer
    assert {keys[0].word, keys[1].word} == {"graph", "calibration"} and keys[0].weight > keys[-1].weight
