"""Sentence shapes the headline rules of issue 12 (point 4) handle: each a short abstract built like one that
needed the rule, and the headline it must give."""

from __future__ import annotations

import pytest

from index.headline.doing import doing_line
from index.headline.fit import fit
from index.headline.synthesis import headline


@pytest.mark.parametrize(
    ("abstract", "expected"),
    [
        (  # "(Mr-BERT) model, which models X": what it does, not only its spelled-out name
            "Metaphors are hard for computers. We propose the Metaphor-relation BERT (Mr-BERT) model, which "
            "explicitly models the relation between a verb and its grammatical, sentential and semantic "
            "contexts. We evaluate our method on three datasets.",
            "Mr-BERT: model that explicitly models relation between verb and contexts",
        ),
        (  # "(GIST) algorithm to solve X": the kind and its purpose
            "Nonconvex penalties are common in sparse learning. We propose a General Iterative Shrinkage and "
            "Thresholding (GIST) algorithm to solve the nonconvex optimization problem for a large class of "
            "non-convex penalties. Experiments show that GIST is fast.",
            "GIST: algorithm to solve nonconvex optimization problem",
        ),
        (  # a name ending on a process ("... Alternating Back-propagation"): the process, then its purpose
            "Deep latent models are slow to train. We propose Hierarchical Initialized Alternating "
            "Back-propagation (HiABP) for efficient Bayesian inference. Experiments show that it is fast.",
            "HiABP: alternating back-propagation for efficient Bayesian inference",
        ),
        (  # "(HKT) that can capture X": the kind, doing X
            "Humor is multimodal. We propose Humor Knowledge enriched Transformer (HKT) that can capture the "
            "gist of a multimodal humorous expression by integrating the preceding context. It works well.",
            "HKT: transformer capturing gist of multimodal humorous expression",
        ),
    ],
)
def test_a_spelled_out_name_yields_to_what_it_does(abstract: str, expected: str) -> None:
    assert headline(abstract) == expected


def test_a_name_in_capitals_before_a_colon_is_kept_not_replaced_by_the_field() -> None:
    # "a new algorithm–Greedy Edge Pruning – with X": the name leads, the field does not take its place
    abstract = (
        "Graph sparsification is a problem where a learner removes edges from a graph. We present a new "
        "algorithm–Greedy Edge Pruning – with a runtime linear in the number of edges. Experiments confirm "
        "it."
    )
    assert headline(abstract) == "Greedy Edge Pruning: algorithm with a runtime linear in the number of edges"


def test_a_kind_before_a_spelled_out_name_says_what_it_aims_at() -> None:
    # "a framework, Long Name (LN), aiming to X": the lead's kind and its aim, not the name spelled out
    abstract = (
        "Speech emotion recognition is hard. In this paper, we propose a framework, Layered Acoustic and "
        "Prosodic Fusion (LAPF), aiming to align acoustic representations with prosodic cues. Results are "
        "good."
    )
    assert headline(abstract) == "LAPF: framework aiming to align acoustic representations with prosodic cues"


def test_a_kind_with_its_parts_keeps_what_it_is_for_said_with_to() -> None:
    # "a network with X and Y to recognize Z": the parts go when the line is short of room, the aim stays
    abstract = (
        "Entity typing matters in NLP. We propose a two-stage graph network with neighbourhood attention "
        "pooling and a margin ranking loss to incrementally recognize the unseen entity types with a few "
        "labelled mentions. Experiments show gains."
    )
    assert headline(abstract) == "Two-stage graph network to incrementally recognize unseen entity types"


def test_qualities_listed_before_a_noun_go_before_what_follows_it() -> None:
    # "a simple, provably sound, race-free and fully typed language based on X": the list grades the noun
    abstract = (
        "Accelerators are everywhere. To solve this issue, we contribute to a simple, provably sound, "
        "race-free and fully typed query language based on differential dataflow semantics. We then build "
        "a compiler."
    )
    assert headline(abstract) == "Query language based on differential dataflow semantics"


def test_the_task_a_paper_says_it_studies_is_its_field() -> None:
    # "We consider the X problem, where ...": the first sentence's subject is "we"; the field is the task
    abstract = (
        "We consider the online bin packing problem, where items arrive one at a time. We propose an "
        "algorithm that is simple."
    )
    assert headline(abstract) == "Online bin packing: algorithm that is simple"


def test_a_purpose_that_only_borrows_another_models_ability_yields_to_the_field() -> None:
    # "an approach called X (ACR) to leverage the ability of Y to Z": whose ability, not what it is for
    abstract = (
        "In this paper, we study the few-shot keyword spotting (FS-KWS) task, which detects unseen spoken "
        "words. Convolutions are local. To this end, we propose a Conformer-based approach called Dual-Path "
        "Audio Conformer (DPAC) to leverage the ability of Audio Transformers (AT) to model long contexts "
        "due to their attention mechanism. Results are good."
    )
    assert headline(abstract) == "DPAC: approach for few-shot keyword spotting"


def test_the_last_nouns_compound_modifier_stays_after_its_preposition() -> None:
    # "built atop [vision-language] models": dropped, the line would end on a bare "atop models"
    line = "Training-free aerial vision-and-language navigation framework built atop vision-language models"
    assert fit(line, 80, ellipsis=False) == (
        "Training-free aerial navigation framework built atop vision-language models"
    )


def test_a_name_spelled_out_with_commas_is_known_as_the_acronyms_expansion() -> None:
    # "Look, Listen, Act (LLA), a framework ...": the expansion crowds out the kind, so it goes
    abstract = (
        "We present Look, Listen, Act (LLA), a training-free indoor vision-and-language navigation (IVLN) "
        "framework built atop vision-language models (VLMs). LLA is capable of navigating to any goal in any "
        "kind of environment. LLA sets a new state of the art."
    )
    assert (
        headline(abstract)
        == "LLA: training-free indoor navigation framework built atop vision-language models"
    )


@pytest.mark.parametrize(
    ("label", "expansion", "description", "expected"),
    [
        (  # a clause saying what the thing does reads alone: "search that converts X" says less in more room
            "SLES",
            "Scalable Linear Ergodic Search",
            "+which converts a MOES problem into a weight space coverage problem.",
            "SLES: converts a MOES problem into a weight space coverage problem",
        ),
        (  # "Concatenation of Embeddings" names no process: "of embeddings to automate X" would be no kind
            "ACE",
            "Automated Concatenation of Embeddings",
            "+to automate the process of finding better concatenations of embeddings.",
            "",
        ),
        (  # "which can X" needs its kind: "FITN: can transmit X" has no subject
            "FITN",
            "Full Information Transmission Network",
            "+which can transmit both representation and interactive information together.",
            "FITN: network transmitting both representation and interactive information",
        ),
    ],
)
def test_what_a_named_thing_does_says_its_kind_only_where_the_name_gives_one(
    label: str, expansion: str, description: str, expected: str
) -> None:
    assert doing_line(label, expansion, description, 80) == expected
