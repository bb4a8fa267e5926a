"""The array ranker against Whoosh's own collector: the same hits, bit-identical scores, the same order.

Queries are made from each corpus's own words (typed prefixes, pairs, ORs, prefixes*, fuzzy~, phrases,
fields, year ranges, NOT), over the bundled seeds with a second segment and deleted documents, and over a
sample of the real corpus large enough (segments over 5,000 papers) for Whoosh to build its trees of unions
instead of the array it uses on small segments.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from whoosh.reading import SegmentReader

from index.listings.catalog import load_catalog
from index.models import Catalog
from index.render.abstract import to_plain
from index.search import ranking, termarrays
from index.search.fastrank import FastRanker, TooSlow
from index.search.idcolumn import paper_ids
from index.search.index import SearchIndex
from index.search.ranking import TIME_LIMIT, rank
from index.search.termarrays import Unsupported, decode
from index.search.whoosh_private import read_postings, unfiltered

REPO = Path(__file__).resolve().parents[2]
SEEDS = REPO / "seeds"
CORPUS = REPO.parent / "shared" / "corpus" / "listings"
SAMPLE = ("neurips2023.txt", "cvpr2019.txt", "iccv2019.txt", "eccv2022.txt", "eccv2020.txt", "aaai2021.txt")
"""10,606 real papers: segments over Whoosh's 5,000-document threshold for trees of unions (a build may
write two)."""
_WORD = re.compile(r"[A-Za-z]{3,}")


def queries(catalog: Catalog, count: int, seed: int) -> list[str]:
    """`count` queries of every shape the reader's syntax offers, from the catalog's own words."""
    rng = random.Random(seed)
    texts = [to_plain(paper.abstract) for paper in catalog.papers]
    words = sorted({word.lower() for text in texts for word in _WORD.findall(text)})
    authors = sorted({name.split()[-1] for paper in catalog.papers for name in paper.authors})
    made: list[str] = []
    while len(made) < count:
        a, b, c = rng.choice(words), rng.choice(words), rng.choice(words)
        text = rng.choice(texts)
        run = _WORD.findall(text)
        at = rng.randrange(max(len(run) - 1, 1))
        near = " ".join(run[at : at + 2]).lower()
        made += [
            a,
            a[: rng.randint(2, max(len(a), 2))],  # a word being typed
            f"{a} {b}",
            f"{near} {c[:3]}",
            f"{a} OR {b}",
            f"({a} OR {b}) {c}",
            f"{a[:4]}*",
            f"{a}~",
            f'"{near}"',
            f"title:{a}",
            f"year:[2015 TO 2022] {b}",
            f"{a} NOT {b}",
            f"{a} -{b}",
            near,
        ]
        if authors:
            made.append(f"author:{rng.choice(authors).lower()} {c}")
    return made[:count]


def check(index: SearchIndex, typed: list[str]) -> int:
    """Assert every query ranks the same both ways; returns how many the array ranker answered itself.

    Whoosh's answers are the reference, so they get all the time they need: on a loaded machine the reader's
    own limit cut one short (7 of 510 unscored hits), and a partial answer is no reference.
    """
    searcher = index.maintenance.searcher
    fast = FastRanker(searcher, TIME_LIMIT)
    answered = 0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ranking, "TIME_LIMIT", 3600.0)
        for text in typed:
            parsed = index._ranker.parse(searcher, text).query
            if parsed is None:
                continue
            whoosh_full = rank(searcher, index._ranker.parse(searcher, text).query, index._ids_of)
            assert not whoosh_full.timed_out, text
            try:
                full = fast.hits(parsed)
                top = fast.hits(index._ranker.parse(searcher, text).query, top=20)
                unscored = fast.hits(index._ranker.parse(searcher, text).query, scored=False)
            except (Unsupported, TooSlow):
                continue  # Whoosh answers these in the reader too
            answered += 1
            assert index._ids_of(full.docnums) == whoosh_full.ids, text
            assert tuple(full.scores.tolist()) == whoosh_full.scores, text  # bit for bit, not approximately
            whoosh_top = rank(searcher, index._ranker.parse(searcher, text).query, index._ids_of, top=20)
            assert not whoosh_top.timed_out and index._ids_of(top.docnums) == whoosh_top.ids, text
            counts = (full.total, top.total, whoosh_full.total, whoosh_top.total)
            assert counts == (len(full.docnums),) * 4, (text, counts)  # a top-N answer counts every match
            whoosh_unscored = rank(
                searcher, index._ranker.parse(searcher, text).query, index._ids_of, scored=False
            )
            assert not whoosh_unscored.timed_out, text
            assert index._ids_of(unscored.docnums) == whoosh_unscored.ids, text
    return answered


@pytest.fixture(scope="module")
def seeds_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    """The seeds in two segments, with deleted documents: built without a few papers, then updated without
    a few others (an update deletes and appends)."""
    catalog = load_catalog([SEEDS])
    index = SearchIndex.open(tmp_path_factory.mktemp("seeds") / "index")
    first = Catalog(catalog.listings, catalog.papers[5:], catalog.notices)
    index.maintenance.rebuild(first)
    second = Catalog(catalog.listings, catalog.papers[:-4], catalog.notices)
    index.maintenance.update(second)
    yield index
    index.maintenance.close()


def test_the_seeds_rank_the_same_both_ways(seeds_index: SearchIndex) -> None:
    catalog = load_catalog([SEEDS])
    typed = queries(catalog, 600, seed=1)
    answered = check(seeds_index, typed)
    assert answered > len(typed) * 0.8  # only AndNot (a `-word`) is left to Whoosh


def test_a_multi_segment_index_with_deletions_is_what_the_seeds_test_covers(seeds_index: SearchIndex) -> None:
    searcher = seeds_index.maintenance.searcher
    assert searcher.reader().has_deletions() or len(searcher.leaf_searchers()) > 1


def test_typed_prefixes_keep_the_ranking_in_the_search_api(seeds_index: SearchIndex) -> None:
    """Through SearchIndex.search, as the reader asks: every prefix of a typed query, all hits ranked."""
    reference = SearchIndex.open(seeds_index.maintenance.index_dir)
    reference._ranker.fast_ranker = lambda searcher: None  # type: ignore[method-assign]
    try:
        for typed in ("diffusion models for images", "graph neural networks", "reinforcement learning"):
            for end in range(1, len(typed) + 1):
                fast, slow = seeds_index.search(typed[:end], None, 0), reference.search(typed[:end], None, 0)
                assert fast.ids == slow.ids, typed[:end]
                assert [hit.score for hit in fast.hits] == [hit.score for hit in slow.hits]
    finally:
        reference.maintenance.close()


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared corpus is not on this machine")
def test_a_corpus_sample_ranks_the_same_both_ways(tmp_path: Path) -> None:
    catalog = load_catalog([CORPUS / name for name in SAMPLE])
    index = SearchIndex.open(tmp_path / "index")
    try:
        index.maintenance.rebuild(catalog)
        sizes = [leaf.doc_count_all() for leaf, _offset in index.maintenance.searcher.leaf_searchers()]
        assert max(sizes) > 5000  # Whoosh's unions are trees here, not arrays
        typed = queries(catalog, 300, seed=2)
        answered = check(index, typed)
        assert answered > len(typed) * 0.8
    finally:
        index.maintenance.close()


def test_decoding_whole_blocks_reads_what_stepping_reads(seeds_index: SearchIndex) -> None:
    for leaf, _offset in seeds_index.maintenance.searcher.leaf_searchers():
        reader: Any = leaf.reader()
        for field in ("headline", "abstract"):
            for btext in list(reader.lexicon(field))[:200]:
                docnums, weights = decode(reader, field, btext)
                ids, counts = read_postings(unfiltered(reader, reader.postings(field, btext)))
                assert docnums.tolist() == ids
                assert np.array_equal(weights, np.asarray(counts, dtype=np.float64))


def test_the_id_column_read_whole_is_the_column_read_value_by_value(seeds_index: SearchIndex) -> None:
    searcher = seeds_index.maintenance.searcher
    expected = [
        value.decode("utf-8") if isinstance(value, bytes) else value
        for value in searcher.reader().column_reader("id")
    ]
    assert paper_ids(searcher).tolist() == expected


def test_warming_reads_up_front_what_the_first_search_would_and_changes_no_result(
    seeds_index: SearchIndex, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader warms a ready index in a worker at start, so its first keystroke reads no field lengths."""
    typed = ("diffusion", "graph neural networks", "reinforcement learning")
    expected = [seeds_index.search(text, None, 0).ids for text in typed]
    warmed = SearchIndex.open(seeds_index.maintenance.index_dir)
    try:
        warmed.warm()
        decoded: list[str] = []
        real = termarrays.field_lengths
        monkeypatch.setattr(
            termarrays, "field_lengths", lambda leaf, field: decoded.append(field) or real(leaf, field)
        )
        expanded: list[str] = []
        real_expand = SegmentReader.expand_prefix
        monkeypatch.setattr(
            SegmentReader, "expand_prefix", lambda self, *a: expanded.append(a[1]) or real_expand(self, *a)
        )
        assert [warmed.search(text, None, 0).ids for text in typed] == expected
        assert all(expected) and decoded == []
        assert warmed.search("difusion").suggestion == "diffusion" and expanded == []  # "did you mean"
    finally:
        warmed.maintenance.close()
