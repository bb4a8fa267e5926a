"""A framing move is no contribution: the headline is what the move leads to.

Each case is a sentence shape from the corpus whose headline said only the move ("Taking step towards ...",
"Taking an alternative route", "Trading position of PAD and ..."), cut down to a short abstract.
"""

from __future__ import annotations

import pytest

from index.headline.fit import fit
from index.headline.framing import unframed
from index.headline.phrase import base_form
from index.headline.quality import problems
from index.headline.synthesis import headline
from index.headline.topic import about, topic

_OPENING = "Deep networks are hard to analyse in practice. "


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (
            "In this paper, we take a step towards extending convergence guarantees to TD learning.",
            "Extending convergence guarantees to TD learning",
        ),
        (
            "In this paper, we take a step toward closing this gap by drawing inspiration from graph theory.",
            "Drawing inspiration from graph theory",
        ),
        (
            "In this paper, we go one step further to study adversarial attacks for embodied agents.",
            "Studying adversarial attacks for embodied agents",
        ),
        (
            "In this paper, we take a step back and question the importance of this debate.",
            "Questioning the importance of this debate",
        ),
        (
            "In this paper, we take one step further and model spatio-temporal relations between actors.",
            "Modeling spatio-temporal relations between actors",
        ),
    ],
)
def test_a_step_taken_by_we_gives_way_to_what_it_leads_to(claim: str, expected: str) -> None:
    assert headline(_OPENING + claim) == expected


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (
            "This paper takes a first step towards understanding the properties of post-processing.",
            "Understanding the properties of post-processing",
        ),
        (
            "This paper takes a look into the automated generation of adaptive training samples from a 3D "
            "morphable face model.",
            "Automated generation of adaptive training samples from a 3D morphable face model",
        ),
        (
            "This work takes one step forward by exploring a radically different approach of word "
            "identification.",
            "Exploring a radically different approach of word identification",
        ),
        (
            "To mitigate this issue, we propose to take an alternative route and leverage text-to-image "
            "foundation models to obtain meaningful data for robot learning.",
            "Leveraging text-to-image foundation models to obtain meaningful data",
        ),
        (
            "This paper takes a step forward in this direction and focuses on ensuring machine learning "
            "models deliver fair decisions.",
            "Focusing on ensuring machine learning models deliver fair decisions",
        ),
        (
            "This paper takes a first step and proves that minimizing a basic margin-bound is NP-hard.",
            "Minimizing a basic margin-bound is NP-hard",
        ),
        (
            "This paper takes a step in this direction, with the introduction of Charades-Ego, a large-scale "
            "dataset of paired first-person and third-person videos.",
            "Charades-Ego: large-scale dataset of paired first-person and third-person videos",
        ),
        (
            "Inspired by this, we propose to trade position of PAD and face related work in a face system "
            "and apply the prior knowledge from face related tasks to solve face PAD.",
            "Applying the prior knowledge from face related tasks to solve face PAD",
        ),
    ],
)
def test_a_framing_move_gives_way_to_what_it_leads_to(claim: str, expected: str) -> None:
    line = headline(_OPENING + claim)
    assert line == expected
    assert problems(line) == [], line


@pytest.mark.parametrize(
    "gist",
    [
        "to take a Bayesian approach to model selection",  # the approach is what is done
        "taking the manifold assumption into consideration",
        "to take advantage of unlabeled data",
        "to trade off accuracy and fairness",  # a trade-off is a contribution, no swap of positions
        "to reverse the roles of the generator and the discriminator",  # a swap with no means after it
        "to take a step",  # a move leading nowhere is left as it is
        "a step towards this question",  # what the step leads to is elsewhere
        "a first step and show that by relaxing X we gain Y",  # a condition is no finding
    ],
)
def test_a_move_with_content_of_its_own_stays(gist: str) -> None:
    assert unframed(gist) == gist


def test_focuses_is_the_third_person_of_focus() -> None:
    assert base_form("focuses") == "focus"


def test_a_coined_name_before_a_colon_is_kept_rather_than_replaced_by_the_field() -> None:
    first = "Several theories in cognitive neuroscience suggest that people simulate interactions."
    gist = "Charades-Ego: large-scale dataset of paired first-person and third-person videos"
    assert about(first, gist) == gist


@pytest.mark.parametrize(
    ("first_sentence", "field"),
    [
        ("Motivated by applications like elections, we study the recovery of permutations.", "Elections"),
        ("Motivated by problems of anomaly detection, this paper uses a paradigm.", "Anomaly detection"),
        ("Relying on reduced models, we propose an approach to incorporate constraints.", "Reduced models"),
        ("Motivated by the fact that humans like novelty, we introduce a bandit problem.", ""),
        ("Building on the recent success of large language models, we propose X.", ""),
        ("Following the seminal work of Nesterov, accelerated methods have been used widely.", ""),
        ("Building dialogue systems is hard.", "Building dialogue systems"),  # an activity is a field
    ],
)
def test_what_motivated_a_paper_is_its_field_only_where_it_names_one(first_sentence: str, field: str) -> None:
    assert topic(first_sentence) == field


@pytest.mark.parametrize("place", ["inside", "beyond", "behind", "around"])
def test_a_cut_line_never_ends_on_a_preposition_of_place(place: str) -> None:
    line = f"Reduced models: approach to incorporate feasibility constraints {place} trajectory optimization"
    assert fit(line, 80, ellipsis=False) == "Reduced models: approach to incorporate feasibility constraints"


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        (
            "This paper aims to fill this gap by studying the theory for sparse deep learning with dependent "
            "data.",
            "Studying the theory for sparse deep learning with dependent data",
        ),
        (
            "This paper aims at learning such 3D keypoints in an unsupervised manner.",
            "Learning such 3D keypoints in an unsupervised manner",
        ),
        (  # "these" is part of what is done, not a pointer to a problem the aim addresses
            "This paper aims to distill these large models into smaller ones for faster inference.",
            "Distilling these large models into smaller ones for faster inference",
        ),
        (
            "This work seeks to bridge the gap between network architecture design and continual learning.",
            "Bridging the gap between network architecture design and continual learning",
        ),
    ],
)
def test_a_paper_that_aims_to_do_x_is_headed_by_x(claim: str, expected: str) -> None:
    assert headline(_OPENING + claim) == expected
