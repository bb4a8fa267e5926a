"""Word forms in headlines: a gerund only from a verb, no hedge, no sentence opener taken for a field.

Each case is a shape the whole-corpus headlines showed going wrong ("Thing best of our knowledge",
"Whatting extent", "Apply adversarialing", "thenning", "agenting", "Due: ..."), cut down to the phrase.
"""

from __future__ import annotations

import re

import pytest

from index.headline.compress import compressed
from index.headline.fit import fit
from index.headline.phrase import as_headline, base_form, gerund, unhedged
from index.headline.quality import normalize
from index.headline.synthesis import headline
from index.headline.topic import topic


@pytest.mark.parametrize(
    ("gist", "expected"),
    [
        ("to exploit sibling mentions", "exploiting sibling mentions"),
        ("to efficiently learn X", "efficiently learning X"),
        (
            "to apply adversarial techniques during inference",
            "applying adversarial techniques during inference",
        ),
        ("to rely on labeled real data", "relying on labeled real data"),
        ("to instead learn rich representations", "instead learning rich representations"),
        ("to what extent language models overcome it", "Extent to which language models overcome it"),
        ("to what degree models are sensitive", "Degree to which models are sensitive"),
        ("to which extent, and when, it can be achieved", "Extent to which, and when, it can be achieved"),
        ("to what extent can an adversary steal a model", "to what extent can an adversary steal a model"),
        ("to the users of a system", "Users of a system"),
        ("to learning symbolic abstractions", "Learning symbolic abstractions"),
    ],
)
def test_a_to_phrase_turns_into_a_gerund_only_when_a_verb_follows(gist: str, expected: str) -> None:
    assert as_headline(gist) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("To the best of our knowledge, this is the first work. Next.", "This is the first work. Next."),
        ("Our method is, to our knowledge, the first such.", "Our method is the first such."),
        ("It is new, to the best of our knowledge.", "It is new."),
        ("Some. To our knowledge this is new.", "Some. This is new."),
        (
            "we propose to our best knowledge the first dedicated approach",
            "we propose the first dedicated approach",
        ),
        ('the first, to the best of our knowledge, "in-the-wild" model', 'the first "in-the-wild" model'),
        ("RFTattoo to our knowledge is the first such system.", "RFTattoo is the first such system."),
        ("We add facts to our knowledge graph.", "We add facts to our knowledge graph."),  # no hedge
        ("causality (to our knowledge, the first such).", "causality (to our knowledge, the first such)."),
    ],
)
def test_the_hedge_to_our_knowledge_goes(text: str, expected: str) -> None:
    assert unhedged(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a model that learns disentangled representations of images", "model learning disentangled"),
        ("a framework which can better exploit labeled data and avoid problems", "framework exploiting"),
        ("a method that its effectiveness depends on two requirements", "that effectiveness depends"),
        ("we show that agents are better off under the mechanism", "that agents are better off"),
        ("an analysis revealing that outliers matter for quantization", "revealing that outliers matter"),
        ("a dataset that can then be used to train debiased models on many tasks", "that can then be used"),
        ("evidence from the fact that metrics disagree on rankings", "fact that metrics disagree"),
        ("an approach to determine which detectors to deploy on robots", "determine which detectors"),
        ("conditions under which kernels of dot product type are positive definite", "under which kernels"),
        ("Hypothesis that systems learning aspects of perception may benefit", "that systems learning"),
        ("a problem which can neither be solved nor approximated by known methods", "can neither be solved"),
        ("a formulation of continual learning which combines replay with distillation", "learning combining"),
    ],
)
def test_a_relative_clause_is_shortened_only_where_its_verb_is_a_verb(text: str, expected: str) -> None:
    assert expected in compressed(text, 40)


@pytest.mark.parametrize(
    ("third_person", "expected"),
    [
        ("embeds", "embedding"),
        ("outputs", "outputting"),
        ("bootstraps", "bootstrapping"),
        ("goes", "going"),
        ("does", "doing"),
        ("mimics", "mimicking"),
        ("dies", "dying"),
        ("learns", "learning"),
        ("plans", "planning"),
    ],
)
def test_a_gerund_is_spelled_as_english_spells_it(third_person: str, expected: str) -> None:
    assert gerund(base_form(third_person)) == expected


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Active learning algorithm algorithm in boosting", "Active learning algorithm in boosting"),
        (
            "AttaNet: Attention-Augmented Network , to capture context",
            "AttaNet: Attention-Augmented Network, to capture context",
        ),
        ("DenseNet: which connects each layer", "DenseNet connects each layer"),
        (
            "Following natural question: can efficient algorithms weakly learn convex sets?",
            "Can efficient algorithms weakly learn convex sets?",
        ),
        ("Posing a basic question: when is active learning helpful?", "When is active learning helpful?"),
        ("Open question: what spans matter for X", "Open question: what spans matter for X"),  # no "?"
        ("Question: why?", "Question: why?"),  # too short to stand alone
        ("Proof that that bound is tight", "Proof that that bound is tight"),
        (
            "conditional game” to be played between two algorithms",
            "Conditional game to be played between two algorithms",
        ),
        (
            "Experience replay with an objective we call “anchoring",
            "Experience replay with an objective we call anchoring",
        ),
        ("The “onion” example", "The “onion” example"),
        (
            "Two techniques, 1) step ahead and 2) error averaging",
            "Two techniques, step ahead and error averaging",
        ),
        ("Model (1) with two steps", "Model (1) with two steps"),
        ("joint control variate that reduces variance", "Joint control variate that reduces variance"),
        ("f-MDP: feasibility MDP for learning", "f-MDP: feasibility MDP for learning"),
        ("iFusion: reconstruction from two views", "iFusion: reconstruction from two views"),
        ("HAVER: Head AVERaging, a algorithm for means", "HAVER: Head AVERaging, an algorithm for means"),
        ("A effective solution with a unified view", "An effective solution with a unified view"),
        ("A one-shot method when A is symmetric", "A one-shot method when A is symmetric"),
        (
            "Pengi, a Audio Language Model over a Euclidean ball",
            "Pengi, an Audio Language Model over a Euclidean ball",
        ),
        ("Two contributions: A efficient map", "Two contributions: An efficient map"),
    ],
)
def test_a_finished_line_loses_extraction_debris(line: str, expected: str) -> None:
    assert normalize(line) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "Due to the high cost of labels, semi-supervised learning is popular.",
        "Previous methods for image retrieval rely on labels.",
        "Thanks to deep learning, detection has improved.",
        "Typically, models are trained on clean data.",
    ],
)
def test_a_sentence_opener_is_no_field(sentence: str) -> None:
    assert topic(sentence) == ""


def test_a_noun_subject_is_still_a_field() -> None:
    assert topic("Diffusion models are the state of the art in image generation.") == "Diffusion models"


def test_no_headline_makes_a_gerund_of_a_noun_or_an_adverb() -> None:
    abstracts = [
        "Debiasing is hard. We propose to tackle this problem by generating a debiased version of a dataset, "
        "which can then be used to train a debiased, off-the-shelf model.",
        "Calibration matters. To the best of our knowledge, we are the first to study calibration of graph "
        "neural networks under distribution shift.",
        "Language models forget. We investigate to what extent various linguistic phenomena are forgotten.",
        "Calibration is hard to measure. We propose a framework through which we can compute the bias of a "
        "particular estimator for an evaluation data set of a given size.",
    ]
    made_up = re.compile(r"\b(?:thenn|alsoi|whatt|whichi|thi|oni|agenti|canni)ng\b", re.IGNORECASE)
    for abstract in abstracts:
        line = headline(abstract)
        assert made_up.search(line) is None, line
        assert "knowledge" not in line, line


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "Online video grows fast. In this paper, we have developed a multi-task deep visual-semantic "
            "embedding model for thumbnail selection.",
            "Multi-task deep visual-semantic embedding model for thumbnail selection",
        ),
        (
            "Analog circuits are cheap. We have designed, fabricated, and tested an analog VLSI chip which "
            "computes radial basis functions in parallel.",
            "Analog VLSI chip which computes radial basis functions in parallel",
        ),
        (
            "Analog circuits are cheap. We have designed and tested a single-chip analog VLSI sensor "
            "detecting imminent collisions.",
            "Single-chip analog VLSI sensor detecting imminent collisions",
        ),
        # "have" before no regular participle is no perfect of a contribution verb
        ("Analog circuits are cheap. We have access to many chips.", "Analog circuits are cheap"),
    ],
)
def test_a_claim_in_the_perfect_is_a_claim(abstract: str, expected: str) -> None:
    assert headline(abstract) == expected


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (
            "Visual correspondence is hard to label. In this paper, we focus on self-supervised learning of "
            "visual correspondence using unlabeled videos.",
            "Self-supervised learning of visual correspondence using unlabeled videos",
        ),
        (
            "Answer summarization is an important problem. In this paper, we deal with two problems in "
            "Japanese-English machine translation of news articles.",
            "Two problems in Japanese-English machine translation of news articles",
        ),
        (
            "Feature pyramids are common. In this paper, we begin by investigating current feature pyramid "
            "solutions.",
            "Investigating current feature pyramid solutions",
        ),
    ],
)
def test_a_phrasal_verb_leaves_no_particle_at_the_head(abstract: str, expected: str) -> None:
    assert headline(abstract) == expected


def test_a_question_fitted_to_the_line_ends_on_one_question_mark() -> None:
    # the shortened question keeps its own "?": fit adds one only where the cut took it
    question = "Can neural language models capture such discourse-level preferences in text generation?"
    assert (
        fit(question, 80, ellipsis=False)
        == "Can neural language models capture such preferences in text generation?"
    )
