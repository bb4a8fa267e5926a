"""The training script trains from a corpus of venue JSONL files, never on the held-out venues, and gives
the same figures twice: on a small corpus cut from the real one, with few steps."""

from __future__ import annotations

from pathlib import Path

import pytest

from index.headline.learned.pipeline import headline
from index.headline.learned.train import DEVELOPMENT, HELD_OUT, train

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "jsonl"
VENUES = (*HELD_OUT, *DEVELOPMENT, "icml", "acl")


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not CORPUS.is_dir():
        pytest.skip(f"the shared corpus is not at {CORPUS}")
    folder = tmp_path_factory.mktemp("corpus")
    for venue in VENUES:
        lines = (CORPUS / f"{venue}.jsonl").read_text(encoding="utf-8").splitlines()[:120]
        (folder / f"{venue}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_training_leaves_the_held_out_venues_out_and_reports_on_them(small_corpus: Path) -> None:
    model, figures = train(small_corpus, steps=30, samples=20_000)
    assert set(figures["trained_on"]) == set(VENUES) - set(HELD_OUT)  # type: ignore[arg-type]
    assert set(figures["held_out"]) == set(HELD_OUT)  # type: ignore[arg-type]
    assert 0.1 < figures["held_out_rouge_1"] < 1  # type: ignore[operator]
    line = headline(
        "We propose StripeNet, a sparse attention scheme for long documents. StripeNet wins.", model=model
    )
    assert "StripeNet" in line


def test_training_twice_gives_the_same_figures(small_corpus: Path) -> None:
    _, first = train(small_corpus, steps=30, samples=20_000)
    _, second = train(small_corpus, steps=30, samples=20_000)
    first.pop("seconds")
    second.pop("seconds")
    assert first == second


def test_development_runs_leave_both_held_out_and_development_venues_out(small_corpus: Path) -> None:
    _, figures = train(small_corpus, development=True, steps=30, samples=20_000)
    assert set(figures["trained_on"]) == {"icml", "acl"}  # type: ignore[arg-type]
    assert set(figures["held_out"]) == set(DEVELOPMENT)  # type: ignore[arg-type]
