"""The preview line's clause: where an abstract says what it contributes."""

from __future__ import annotations

import pytest

from index.headline.contribution import contribution


@pytest.mark.parametrize(
    ("abstract", "clause"),
    [
        (
            "Graphs oversmooth. In this paper, we propose GRAND, a diffusion model of graphs. It works.",
            "we propose GRAND, a diffusion model of graphs",
        ),
        (
            "Prior work is slow. This paper introduces a faster solver (e.g. 3.5x). Results follow.",
            "This paper introduces a faster solver (e.g. 3.5x)",
        ),
        ("We first show that SGD converges. Then more.", "We first show that SGD converges"),
        ("  Retrieval helps language models. Results on five benchmarks.", "Retrieval helps language models"),
        ("A two-word abstract", "A two-word abstract"),
    ],
)
def test_the_clause_runs_from_the_claim_to_the_end_of_its_sentence(abstract: str, clause: str) -> None:
    start, end = contribution(abstract)
    assert abstract[start:end] == clause
