"""Words within a few typos by array arithmetic, against Whoosh's `terms_within` on one and two segments."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from whoosh.support.levenshtein import damerau_levenshtein, levenshtein

from index.listings.catalog import load_catalog
from index.models import Catalog
from index.render.abstract import to_plain
from index.search.index import SearchIndex
from index.search.nearwords import NearWords, edit_distances

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


def typos(words: list[str], count: int, seed: int) -> Iterator[str]:
    """Indexed words with a letter dropped, doubled, replaced or swapped with a neighbour, or as they are."""
    rng = random.Random(seed)
    for _ in range(count):
        word = rng.choice(words)
        at = rng.randrange(1, max(len(word), 2))
        yield rng.choice(
            [
                word,
                word[:at] + word[at + 1 :],
                word[:at] + word[at - 1 : at] + word[at:],
                word[:at] + "e" + word[at + 1 :],
                word[: at - 1] + word[at : at + 1] + word[at - 1 : at] + word[at + 1 :],
            ]
        )


def index_of(tmp_path: Path, catalog: Catalog, segments: int) -> SearchIndex:
    index = SearchIndex.open(tmp_path / f"ix{segments}")
    if segments == 1:
        index.maintenance.rebuild(catalog)
    else:  # a second segment: build without some papers, then add them
        index.maintenance.rebuild(Catalog(catalog.listings, catalog.papers[10:], catalog.notices))
        index.maintenance.update(catalog)
    return index


@pytest.mark.parametrize("segments", [1, 2])
def test_near_words_are_the_words_whoosh_finds(tmp_path: Path, segments: int) -> None:
    catalog = load_catalog([SEEDS])
    index = index_of(tmp_path, catalog, segments)
    try:
        reader = index.maintenance.searcher.reader()
        near = NearWords(reader, "abstract")
        # Whoosh's two ways: an automaton on one segment, Damerau-Levenshtein over several.
        assert near._swaps is (segments == 2)
        text = " ".join(to_plain(paper.abstract) for paper in catalog.papers)
        words = sorted({word.lower() for word in re.findall(r"[A-Za-z]{3,}", text)})
        for typed in typos(words, 400, seed=segments):
            for maxdist in (1, 2):
                expected = sorted(str(t) for t in reader.terms_within("abstract", typed, maxdist, prefix=1))
                assert sorted(near.within(typed, maxdist)) == expected, (typed, maxdist)
    finally:
        index.maintenance.close()


def test_edit_distances_are_whooshs_distances() -> None:
    rng = random.Random(3)
    letters = "abcde"
    for _ in range(200):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(1, 7)))
        others = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 9))) for _ in range(30)]
        width = max(len(other) for other in others)
        codes = np.full((len(others), width), -1, dtype=np.int32)
        for row, other in enumerate(others):
            codes[row, : len(other)] = [ord(char) for char in other]
        lengths = np.array([len(other) for other in others], dtype=np.int64)
        plain = edit_distances(word, codes, lengths, swaps=False).tolist()
        swapped = edit_distances(word, codes, lengths, swaps=True).tolist()
        assert plain == [levenshtein(other, word) for other in others]
        assert swapped == [damerau_levenshtein(other, word) for other in others]
