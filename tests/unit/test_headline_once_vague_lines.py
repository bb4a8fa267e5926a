"""Sentence shapes that once gave vague headlines, each pinned by a short abstract built like the real one."""

from __future__ import annotations

import pytest

from index.headline.synthesis import headline
from index.headline.topic import topic

CASES = [
    pytest.param(
        "Bird song is built from repeated syllables. We analyse zebra finch recordings to gain a better "
        "understanding of syllable reuse and its timing in song learning. A hidden Markov model infers them.",
        "Analysing zebra finch recordings to understand syllable reuse and timing",
        id="analyse-material-to-purpose",
    ),
    pytest.param(
        "Sparse-view scene reconstruction has benefited from large image models, but is still limited by "
        "the amount of posed training data. Major challenges are label noise and cost. We present the "
        "GEO2 model and GEO-T distillation recipe, which address these challenges. GEO2 beats prior work.",
        "GEO2 model and GEO-T distillation recipe for sparse-view scene reconstruction",
        id="pointer-clause-gives-way-to-field",
    ),
    pytest.param(
        "How fast can sparse models be trained? We describe a network that jointly and "
        "efficiently combines pruned attention heads with dense feed-forward layers of pretrained models. "
        "It is fast.",
        "Network combining pruned attention heads with dense layers of pretrained models",
        id="grading-adverb-pair-goes-before-a-cut",
    ),
    pytest.param(
        "Most existing speech recognition models (SRMs) assume clean audio. We study their failures under "
        "overlapping talkers. We propose a separation front end that fixes them. Alongside our findings, we "
        "provide NoisyMix, a crowd-sourced, speaker-overlapped dataset to further encourage research in this "
        "direction.",
        "NoisyMix: speaker-overlapped dataset for speech recognition models",
        id="dataset-hoping-for-research-says-its-field",
    ),
    pytest.param(
        "We consider a fleet of delivery robots that share one warehouse, and we develop an approach to "
        "efficient joint task allocation that is suitable for warehouses of practical size. It is fast.",
        "Approach to joint task allocation suitable for warehouses of practical size",
        id="that-is-suitable-for",
    ),
    pytest.param(
        "Private learning is hard. In this work we consider, for the first time, the sample complexityof "
        "private learners. We prove tight bounds.",
        "Sample complexity of private learners",
        id="space-lost-before-of",
    ),
    pytest.param(
        "Speech recognition has long relied on clean audio. In this work, we study the benefits of employing "
        "multi-channel recordings on a wide range of far-field and noisy transcription tasks using recent "
        "advances in beamforming. Our results show gains.",
        "Benefits of multi-channel recordings on far-field and noisy transcription tasks",
        id="wordy-study-object-on-a-wide-range-of",
    ),
]


@pytest.mark.parametrize(("abstract", "expected"), CASES)
def test_a_once_vague_shape_gets_a_line_that_says_what(abstract: str, expected: str) -> None:
    assert headline(abstract) == expected


@pytest.mark.parametrize(
    ("sentence", "short", "expected"),
    [
        ("Most existing speech recognition models assume clean audio.", False, "Speech recognition models"),
        ("Most existing speech recognition models (SRMs) assume clean audio.", True, "SRMs"),
    ],
    ids=["determiners-before-the-field", "abbreviated-plural-subject"],
)
def test_the_field_is_the_subject_up_to_its_verb(sentence: str, short: bool, expected: str) -> None:
    assert topic(sentence, short=short) == expected
