"""No two papers of a set of listings show the same headline, after a full build, an update or a splice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from index.headline.distinct import distinct, key
from index.listings.catalog import load_catalog, made_headlines, no_headline
from index.models import Paper
from index.search.index import SearchIndex
from tests.conftest import CORPUS

SLICE = CORPUS / "listings" / "neurips2023.txt"
corpus = pytest.mark.skipif(not SLICE.is_file(), reason="the shared corpus is not here")


def _none(numbers: list[int]) -> list[list[str]]:
    return [[] for _ in numbers]


def test_a_shared_line_stays_with_the_smallest_id_and_the_others_are_marked_in_id_order() -> None:
    ids = ["c", "a", "b", "d"]
    lines = ["Offline RL", "Offline RL", "offline  RL", "Other"]
    assert distinct(ids, lines, _none) == {2: "offline RL (2)", 0: "Offline RL (3)"}


def test_a_paper_takes_its_next_line_that_no_paper_shows_before_a_mark() -> None:
    ids = ["a", "b", "c", "d"]
    lines = ["GANs", "GANs", "GANs", "Diffusion"]
    offered = {1: ["GANs", "Diffusion", "StyleGAN: GANs"], 2: ["GANs", "StyleGAN: GANs"]}
    assert distinct(ids, lines, lambda numbers: [offered[n] for n in numbers]) == {
        1: "StyleGAN: GANs",
        2: "GANs (2)",
    }


def test_a_mark_never_repeats_a_line_a_paper_has_and_fits_80_characters() -> None:
    long = "A " + "very " * 20 + "long line"
    lines = ["X", "X", "X (2)", long, long]
    shown = distinct(["1", "2", "3", "4", "5"], lines, _none)
    assert shown[1] == "X (3)"
    assert shown[4].endswith("… (2)") and len(shown[4]) <= 80
    assert len({key(line) for line in [shown.get(n, line) for n, line in enumerate(lines)]}) == len(lines)


def _shown(listings: Path, index_dir: Path) -> tuple[list[str], list[str]]:
    """After bringing the index in `index_dir` up to date: the lines shown, and each paper's own."""
    index = SearchIndex.open(index_dir)
    try:
        index.maintenance.ensure_current([listings])
        stored = index.maintenance.load_snapshot()
        assert stored is not None
        return list(stored.headlines), list(stored.made)
    finally:
        index.maintenance.close()


def _alike(lines: Sequence[str]) -> int:
    return sum(count for count in Counter(key(line) for line in lines).values() if count > 1)


@corpus
def test_500_corpus_papers_get_500_different_lines_from_a_build(tmp_path: Path) -> None:
    papers = load_catalog([SLICE], no_headline).papers[:500]
    listings = tmp_path / "listings"
    listings.mkdir()
    (listings / "slice.txt").write_text(
        "NeurIPS 2023 Papers\n\n" + "\n\n".join(paper.abstract for paper in papers) + "\n", encoding="utf-8"
    )
    shown, made = _shown(listings, tmp_path / "index")
    assert len(shown) == 500
    assert _alike(made) > 0, "the slice must hold papers the model gives one line, or this proves nothing"
    assert _alike(shown) == 0


def _a_shared_pair() -> tuple[Paper, Paper, list[Paper]]:
    papers = load_catalog([SLICE], no_headline).papers[:500]
    lines = made_headlines(papers)
    first: dict[str, int] = {}
    for number, line in enumerate(lines):
        if key(line) in first:
            pair = (papers[first[key(line)]], papers[number])
            return *pair, [p for p in papers[:40] if p not in pair]
        first[key(line)] = number
    raise AssertionError("no two of the slice's papers share a line")


def _write(path: Path, papers: Sequence[Paper]) -> None:
    path.write_text(
        "NeurIPS 2023 Papers\n\n" + "\n\n".join(paper.abstract for paper in papers) + "\n", encoding="utf-8"
    )


@corpus
def test_an_added_changed_or_removed_file_leaves_no_two_alike_and_the_lines_of_a_full_build(
    tmp_path: Path,
) -> None:
    one, other, rest = _a_shared_pair()
    listings = tmp_path / "listings"
    listings.mkdir()
    index_dir = tmp_path / "index"
    _write(listings / "a.txt", [one, *rest[:20]])
    shown, _ = _shown(listings, index_dir)
    assert _alike(shown) == 0
    steps = [
        lambda: _write(listings / "b.txt", [*rest[20:30], other]),  # added: the splice
        lambda: _write(listings / "b.txt", [rest[30], other, *rest[20:30]]),  # changed in place
        lambda: (listings / "a.txt").unlink(),  # removed: `other` shares its line with no one
    ]
    for number, step in enumerate(steps):
        step()
        shown, made = _shown(listings, index_dir)
        fresh, _ = _shown(listings, tmp_path / f"fresh-{number}")
        assert shown == fresh
        assert _alike(shown) == 0
        assert _alike(made) == (0 if number == 2 else 2)
