"""Small hand-made catalogs for the search tests: each paper makes one query's answer unambiguous."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import pytest

from index.listings.catalog import load_catalog
from index.models import Catalog, Entry, Listing, Paper, Source
from index.search.index import SearchIndex
from index.state.store import PaperState, StateStore

Row = tuple[str, str, str, tuple[str, ...], str, int]
"""One paper of a fixture catalog: (id, headline, abstract, authors, venue, year)."""


@dataclass
class FakeState:
    """Stars and read marks as plain sets: the `StateLookup` protocol `index.views.keep` takes."""

    starred: set[str] = field(default_factory=set)
    read: set[str] = field(default_factory=set)

    def starred_ids(self) -> set[str]:
        return set(self.starred)

    def read_ids(self) -> set[str]:
        return set(self.read)


PAPERS: list[Row] = [
    (
        "w2s",
        "Validity-adjusted correction for weak-to-strong generalization",
        "Weak-to-strong generalization lets a strong student surpass the weak teacher that labels its data.",
        ("Ada Lovelace",),
        "NeurIPS",
        2026,
    ),
    (
        "mem",
        "Memorization in language models",
        "We measure memorization of training data by large language models and how it grows with scale.",
        ("Geoffrey Hinton", "Alan Turing"),
        "ICML",
        2023,
    ),
    (
        "diff-img",
        "Denoising diffusion for images",
        "Diffusion models generate images by learning to reverse a gradual noising process on pixels.",
        ("Grace Hopper",),
        "NeurIPS",
        2022,
    ),
    (
        "diff-audio",
        "Score-based diffusion for audio",
        "A score-based diffusion model with stochastic differential equations synthesises audio waveforms; "
        "the diffusion process runs in a learned latent space.",
        ("Grace Hopper", "Edsger Dijkstra"),
        "ICLR",
        2021,
    ),
    (
        "gifs",
        "Generalized influence functions",
        "Influence functions estimate the effect of removing a training point on a trained model's "
        "predictions.",
        ("Barbara Liskov",),
        "NeurIPS",
        2024,
    ),
    (
        "act",
        "How activation choice shapes training",
        "The influence of activation functions on optimisation speed is measured across many architectures.",
        ("John McCarthy",),
        "AAAI",
        2020,
    ),
    (
        "gnn",
        "Graph neural networks for molecules",
        "Message passing networks predict molecular properties from atoms and bonds.",
        ("Donald Knuth",),
        "ICML",
        2019,
    ),
    (
        "rl",
        "Reward shaping in reinforcement learning",
        "Potential-based reward shaping speeds up reinforcement learning agents without changing the optimal "
        "policy; we also study graph structured environments.",
        ("Richard Sutton",),
        "ICML",
        2019,
    ),
    (
        "latex",
        "Bounds with \\emph{sharp} constants",
        "We prove the \\textit{optimal} rate $O(1/\\sqrt{n})$ for convex losses using a transformer-free "
        "argument.",
        ("Leslie Lamport",),
        "COLT",
        2018,
    ),
]


def make_catalog(
    rows: list[Row] | None = None,
    listing_path: Path | None = None,
    listing_name: str = "Fixture 2026 Papers",
) -> Catalog:
    """One listing holding `rows` (default PAPERS), in order."""
    path = str(listing_path or Path("/nonexistent/fixture.txt"))
    papers = []
    entries = []
    for number, (paper_id, headline, abstract, authors, venue, year) in enumerate(
        PAPERS if rows is None else rows, 1
    ):
        source = Source(path, number, 3 + 2 * number, listing_name)
        papers.append(
            Paper(
                paper_id,
                headline,
                abstract,
                (source,),
                title=headline,
                authors=authors,
                venue=venue,
                year=year,
            )
        )
        entries.append(Entry(abstract, source, title=headline, authors=authors, venue=venue, year=year))
    listing = Listing(path, listing_name, None, None, "text", tuple(entries))
    return Catalog((listing,), tuple(papers))


def listing_order(rows: list[Row]) -> tuple[list[str], dict[str, int]]:
    """Every id of `rows` in listing order, and each id's place in it: what `views.compute_view` is given."""
    every = [row[0] for row in rows]
    return every, {paper_id: number for number, paper_id in enumerate(every)}


EVERY, POSITION = listing_order(PAPERS)


def built_index(
    tmp_path_factory: pytest.TempPathFactory, rows: list[Row] | None = None
) -> Iterator[SearchIndex]:
    """The body of a module-scoped `index` fixture: an index over `make_catalog(rows)`, closed afterwards.

    Tests only read it, so a module builds it once.
    """
    opened = SearchIndex.open(tmp_path_factory.mktemp("ix") / "index")
    opened.maintenance.rebuild(make_catalog(rows))
    yield opened
    opened.maintenance.close()


def marked_state(data_dir: Path, marks: Iterable[PaperState]) -> Iterator[StateStore]:
    """The body of a `state` fixture: a fresh store in `data_dir` holding `marks` (merged, so their times are
    kept as given), closed afterwards."""
    with StateStore.open(data_dir) as store:
        store.merge(list(marks))
        yield store


def merge_catalogs(*catalogs: Catalog) -> Catalog:
    """Several listings; a paper id seen twice keeps its first fields and gains the second source."""
    by_id: dict[str, Paper] = {}
    for catalog in catalogs:
        for paper in catalog.papers:
            first = by_id.get(paper.id)
            if first is None:
                by_id[paper.id] = paper
            else:
                by_id[paper.id] = replace(first, sources=first.sources + paper.sources)
    listings = tuple(listing for catalog in catalogs for listing in catalog.listings)
    return Catalog(listings, tuple(by_id.values()))


def abstracts_index(root: Path, abstracts: Iterable[str]) -> SearchIndex:
    """An index of one title-less listing in `root` of `abstracts`, one paper each, built as a user's is."""
    listing = root / "listing.txt"
    listing.write_text("Test 2024 Papers\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    built = SearchIndex.open(root / "ix")
    built.maintenance.rebuild(load_catalog([listing]))
    return built
