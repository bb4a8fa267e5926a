"""The "why" of similar papers and "for you": content words as the paper writes them, never a piece of a word.

The index stems words and splits them at hyphens, so "multi-armed" gives it "multi" and "armed", and an old
PDF's "ar- chitecture" gives "ar"; generic verbs such as "conduct" are as rare as topic words in a small
index. Each of those would have been shown as a reason; these tests show what is shown instead.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from index.listings.catalog import load_catalog
from index.listings.identity import paper_id
from index.search.highlight import WordTerms
from index.search.index import SearchIndex
from index.search.schema import stemming_analyzer
from index.search.similar import Similarity
from index.search.surface import Forms, is_fragment, shown_as

SOURCE = (
    "We conduct a study of multi-armed bandits for RL agents. We conduct ar- chitecture search with RL "
    "and conduct a regret analysis of the bandits."
)
ALIKE = (
    "We conduct experiments on multi-armed bandits with RL and prove regret bounds for the bandits; the "
    "ar- chitecture choices are conducted with care."
)
LESS_ALIKE = "We conduct ar- chitecture experiments for RL agents and conduct more of them."
OTHERS = [
    "Protein folding with graph networks.",
    "Image segmentation of cells under a microscope.",
    "Speech recognition for languages with few recordings.",
    "Machine translation of poems between languages.",
    "Weather forecasting with transformers over radar images.",
    "Molecule generation via diffusion over atoms.",
]


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SearchIndex]:
    folder = tmp_path_factory.mktemp("why")
    listing = folder / "why.txt"
    listing.write_text("Why Papers\n\n" + "\n\n".join([SOURCE, ALIKE, LESS_ALIKE, *OTHERS]) + "\n")
    built = SearchIndex.open(folder / "index")
    built.maintenance.rebuild(load_catalog([listing]))
    yield built
    built.maintenance.close()


def test_similar_papers_share_content_words_not_verbs_or_fragments(index: SearchIndex) -> None:
    hits = index.similar(paper_id(SOURCE), limit=2)
    assert [hit.id for hit in hits] == [paper_id(ALIKE), paper_id(LESS_ALIKE)]
    shared = hits[0].shared_terms
    assert {"multi-armed", "RL", "bandits", "regret"} <= set(shared)
    assert not {"conduct", "ar", "multi", "armed", "rl"} & set(shared)
    assert len(shared) == len(set(shared))  # "multi" and "armed" are one word shown once
    assert "conduct" not in hits[1].shared_terms and "ar" not in hits[1].shared_terms


def test_for_you_gives_the_same_kind_of_reasons(index: SearchIndex) -> None:
    hits = index.for_you([paper_id(SOURCE)], limit=2)
    assert hits[0].id == paper_id(ALIKE)
    for hit in hits:
        assert not {"conduct", "ar", "multi", "armed"} & set(hit.terms), hit.terms
        assert all(not is_fragment(word) for word in hit.terms)
    assert "multi-armed" in hits[0].terms


@pytest.fixture(scope="module")
def forms() -> Iterator[tuple[WordTerms, Similarity]]:
    words = WordTerms(stemming_analyzer())
    yield words, Similarity(words)


def _written(text: str, words: WordTerms, similarity: Similarity) -> dict[str, str | None]:
    found = Forms(text, words.term, similarity.filler)
    return {word: found.word(term) for word in re.findall(r"\w+", text) if (term := words.term(word))}


def test_a_term_is_shown_as_the_paper_writes_it_most(forms: tuple[WordTerms, Similarity]) -> None:
    words, generic = forms
    written = _written("Bandits and GNNs: a GNN for bandits, gnn bandit", words, generic)
    assert written["Bandits"] == "bandits"  # the commonest form, lower-cased
    assert written["GNNs"] == "GNNs"  # a capital past the first letter is an acronym: kept
    written = _written("self-supervised and supervised RL; k-means", words, generic)
    assert written["self"] == "self-supervised"  # never alone: its compound
    assert written["supervised"] == "supervised"  # alone once: the word
    assert written["means"] == "k-means"  # "k" is too short to index, but it is what the compound says


def test_compounds_that_say_nothing_more_and_web_addresses_give_no_word(
    forms: tuple[WordTerms, Similarity],
) -> None:
    words, generic = forms
    written = _written("state-of-the-art results on real-world data", words, generic)
    assert written["state"] is None and written["world"] is None
    found = Forms("code at https://x.github.io/foo-bar, see github.com/baz", words.term, lambda word: False)
    assert words.term("code") in found.terms()
    assert not {words.term(word) for word in ("github", "io", "foo", "bar", "baz")} & set(found.terms())


def test_shown_forms_and_fragments() -> None:
    assert [shown_as(word) for word in ("Bandits", "GNNs", "3D", "RL", "FFNet", "x")] == [
        "bandits",
        "GNNs",
        "3D",
        "RL",
        "FFNet",
        "x",
    ]
    fragments = [is_fragment(word) for word in ("ar", "io", "AR", "3D", "arm")]
    assert fragments == [True, True, False, False, False]
