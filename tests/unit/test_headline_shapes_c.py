"""Sentence shapes that once gave vague headlines, each pinned by a short abstract built like the real one."""

from __future__ import annotations

import pytest

from index.headline.synthesis import headline

CASES = [
    pytest.param(
        "Bird song is built from repeated syllables. We analyse zebra finch recordings to gain a better "
        "understanding of syllable reuse and its timing in song learning. A hidden Markov model infers them.",
        "Analysing zebra finch recordings to understand syllable reuse and timing",
        id="analyse-material-to-purpose",
    ),
]


@pytest.mark.parametrize(("abstract", "expected"), CASES)
def test_shape(abstract: str, expected: str) -> None:
    assert headline(abstract) == expected
