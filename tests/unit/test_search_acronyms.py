"""Acronyms learned from the abstracts (issue 39): an acronym finds its spelled-out form and the reverse,
below the exact matches; a paper's own definition wins over the corpus-wide one."""

from __future__ import annotations

import pytest

from index.listings.identity import paper_id
from index.search.acronyms import definitions, used
from index.search.index import SearchIndex
from tests.unit.search_fixtures import abstracts_index

ABSTRACTS = {
    "gnn-defined": "Graph neural networks (GNNs) learn node representations by passing messages along edges.",
    "gnn-defined-2": "We pretrain graph neural networks (GNN) on millions of unlabelled molecules first.",
    "gnn-used": "Our GNN scales to billion-edge graphs with neighbourhood sampling and caching.",
    "gnn-spelled": "Message passing graph neural networks overfit small molecular property datasets.",
    "rl-defined": "Deep reinforcement learning (RL) agents explore with curiosity bonuses in mazes.",
    "rl-defined-2": "Offline reinforcement learning (RL) from logged data needs conservative values.",
    "rl-used": "RL agents in a crafting game learn to build tools from raw pixels alone.",
    "rl-spelled": "Reinforcement learning for chip placement with sparse rewards and long horizons.",
    "rl-other": "Representation learning (RL) of images with masked autoencoders; RL of text is future work.",
    "unrelated": "A survey of convex optimisation methods for sparse linear regression problems.",
}
NAMES = {paper_id(text): name for name, text in ABSTRACTS.items()}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    return abstracts_index(tmp_path_factory.mktemp("acronyms"), ABSTRACTS.values())


def ranked(index: SearchIndex, typed: str) -> list[str]:
    return [NAMES[paper] for paper in index.search(typed, limit=None).ids]


def test_definitions_are_found_by_their_letters() -> None:
    text = "We study deep reinforcement learning (RL) and graph neural networks (GNNs; see below)."
    assert list(definitions(text)) == [
        ("RL", ["reinforcement", "learning"]),
        ("GNNs", ["graph", "neural", "networks"]),
    ]
    assert list(definitions("Results (AUC) improve. Nothing (here) or (XYZ) matches.")) == []
    assert used("GNNs beat MLPs and ImageNet models; RL too") == {"GNNs", "MLPs", "RL"}


def test_an_acronym_finds_papers_that_only_spell_it_out_below_the_exact_ones(index: SearchIndex) -> None:
    found = ranked(index, "GNN")
    assert set(found) == {"gnn-defined", "gnn-defined-2", "gnn-used", "gnn-spelled"}
    assert found[-1] == "gnn-spelled"


def test_a_long_form_finds_papers_that_use_only_the_acronym_below_the_exact_ones(index: SearchIndex) -> None:
    found = ranked(index, "graph neural networks")
    assert set(found) == {"gnn-defined", "gnn-defined-2", "gnn-spelled", "gnn-used"}
    assert found[-1] == "gnn-used"
    assert ranked(index, '"graph neural networks"')[-1] == "gnn-used"


def test_a_papers_own_definition_wins_over_the_corpus_wide_one(index: SearchIndex) -> None:
    found = ranked(index, "reinforcement learning")
    assert "rl-used" in found
    assert "rl-other" not in found  # its RL is representation learning
    assert found[-1] == "rl-used"
    acronym = ranked(index, "RL")
    assert {"rl-defined", "rl-defined-2", "rl-used", "rl-other", "rl-spelled"} == set(acronym)
    assert acronym[-1] == "rl-spelled"


def test_the_table_is_stored_with_the_index(index: SearchIndex) -> None:
    # A fresh process's view: the table comes from the index directory, not from anything kept in memory.
    reopened = SearchIndex.open(index.maintenance.index_dir)
    assert [NAMES[paper] for paper in reopened.search("GNN", limit=None).ids][-1] == "gnn-spelled"
    reopened.maintenance.close()
