"""What a word is (issue 39): every spelling of a term finds the others, through a real index of a listing."""

from __future__ import annotations

import pytest

from index.listings.identity import paper_id
from index.search.index import SearchIndex
from index.search.schema import WordAnalyzer
from tests.unit.search_fixtures import abstracts_index

ABSTRACTS = {
    "hyphen": "We revisit deep Q-learning for control of simulated robot arms with sparse rewards.",
    "spaced": "A Q learning scheme with linear function approximation converges for every stepsize.",
    "joined": "Qlearning agents in partially observed games need memory of their past observations.",
    "plain": "Learning to learn by gradient descent, with a recurrent optimiser trained on tasks.",
    "nonconvex-hyphen": "Escaping saddle points of non-convex objectives with perturbed gradient steps.",
    "nonconvex-joined": "Nonconvex matrix sensing has no spurious local minima under restricted isometry.",
    "nonconvex-spaced": "The non convex landscape of shallow networks is benign for wide enough layers.",
    "knn-hyphen": "A k-NN classifier over learned embeddings is consistent as the sample grows.",
    "knn-joined": "Approximate kNN graphs speed up retrieval in billion-scale vector databases.",
    "cpp": "We port a C++ physics engine to the browser and compare it against Rust code.",
    "csharp": "Static typing for C# scripts in a game engine catches most runtime errors early.",
    "fsharp": "Units of measure in F# prevent dimension mistakes in scientific programs.",
    "c-alone": "A C compiler that verifies memory safety for embedded firmware written by hand.",
    "epsilon-greek": "An ε-greedy exploration schedule decays too fast for sparse reward tasks.",
    "epsilon-latex": "Bandits with $\\epsilon$-greedy arms pulled in rounds of doubling length.",
    "epsilon-name": "Epsilon-greedy policies are a strong baseline for contextual recommendation.",
    "alpha-greek": "Variational inference with the α-divergence interpolates between two bounds.",
    "alpha-name": "Alpha divergence minimisation for expectation propagation in deep models.",
    "accent": "Schrödinger bridges between image distributions with entropic transport.",
    "no-accent": "Solving the Schrodinger equation with neural network wavefunctions at scale.",
    "ell-script": "Sparse recovery by $\\ell_1$ minimisation when the sensing matrix is random.",
    "ell-plain": "L1 penalties select too many variables when features are strongly correlated.",
    "fullwidth": "ＢＥＲＴ embeddings of clinical notes predict readmission within thirty days.",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> SearchIndex:
    return abstracts_index(tmp_path_factory.mktemp("wordforms"), ABSTRACTS.values())


NAMES = {paper_id(text): name for name, text in ABSTRACTS.items()}


def found(index: SearchIndex, typed: str) -> set[str]:
    return {NAMES[paper] for paper in index.search(typed, limit=None).ids}


@pytest.mark.parametrize("typed", ["Q-learning", "Qlearning", "Q learning", "q‐learning"])
def test_every_spelling_of_a_hyphenated_term_finds_every_other(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"hyphen", "spaced", "joined"}


@pytest.mark.parametrize("typed", ["non-convex", "nonconvex", "non convex", "NONCONVEX"])
def test_a_prefix_compound_is_found_however_it_is_joined(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"nonconvex-hyphen", "nonconvex-joined", "nonconvex-spaced"}


@pytest.mark.parametrize("typed", ["k-NN", "kNN", "KNN"])
def test_one_letter_parts_are_kept(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"knn-hyphen", "knn-joined"}


def test_a_one_letter_word_is_a_word(index: SearchIndex) -> None:
    assert {"hyphen", "spaced"} <= found(index, "q")
    assert "c-alone" in found(index, "C compiler")


@pytest.mark.parametrize(("typed", "paper"), [("C++", "cpp"), ("c#", "csharp"), ("F#", "fsharp")])
def test_language_names_are_kept_as_written(index: SearchIndex, typed: str, paper: str) -> None:
    assert found(index, typed) == {paper}


def test_phrases_work_across_the_forms(index: SearchIndex) -> None:
    assert found(index, '"deep Q-learning"') == {"hyphen"}
    assert found(index, '"deep Q learning"') == {"hyphen"}
    assert found(index, '"Qlearning agents"') == {"joined"}
    assert found(index, '"Q-learning agents"') == {"joined"}
    assert found(index, '"Q-learning scheme"') == {"spaced"}
    assert found(index, '"non-convex objectives"') == {"nonconvex-hyphen"}
    assert found(index, '"learning scheme"~2') == {"spaced"}


@pytest.mark.parametrize("typed", ["ε-greedy", "ϵ-greedy", "epsilon-greedy", "Epsilon greedy"])
def test_greek_letters_fold_to_their_names(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"epsilon-greek", "epsilon-latex", "epsilon-name"}


@pytest.mark.parametrize("typed", ["α-divergence", "alpha-divergence", "alpha divergence"])
def test_alpha_is_alpha(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"alpha-greek", "alpha-name"}


@pytest.mark.parametrize("typed", ["Schrödinger", "Schrodinger", "SCHRÖDINGER", "schro\u0308dinger"])
def test_accents_fold(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"accent", "no-accent"}


@pytest.mark.parametrize("typed", ["ℓ1", "l1", "L1", "ℓ₁", "Ｌ１"])
def test_ell_one_is_l1(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"ell-script", "ell-plain"}


@pytest.mark.parametrize("typed", ["BERT", "ＢＥＲＴ", "bert"])
def test_compatibility_forms_fold(index: SearchIndex, typed: str) -> None:
    assert found(index, typed) == {"fullwidth"}


def test_a_prefix_typed_across_a_hyphen_completes_the_compound(index: SearchIndex) -> None:
    assert {"hyphen", "joined"} <= found(index, "Q-lea*")
    assert found(index, "non-con*") >= {"nonconvex-hyphen", "nonconvex-joined"}


def test_parts_and_the_joined_word_share_positions() -> None:
    analyzer = WordAnalyzer()
    assert analyzer.positions("deep Q-learning works") == {
        "deep": [0],
        "q": [1],
        "-qlearn": [1],
        "learn": [2],
        "work": [3],
    }
    # A possessive's s and the t of a contraction are not words; stop words inside a compound leave no gap.
    assert analyzer.positions("GPT-4's state-of-the-art") == {
        "gpt": [0],
        "4": [1],
        "-gpt4": [0],
        "state": [2],
        "art": [3],
        "-stateoftheart": [2],
    }


def test_a_compound_of_a_stop_word_keeps_it() -> None:
    analyzer = WordAnalyzer()
    assert analyzer.positions("on-policy and off-policy") == {
        "on": [0],
        "polici": [1, 3],
        "-onpolici": [0],
        "off": [2],
        "-offpolici": [2],
    }
