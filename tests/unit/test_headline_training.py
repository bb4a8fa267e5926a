"""The training script trains from a corpus of venue JSONL files, never on the held-out venues, and gives
the same figures twice: on a small corpus cut from the real one, with few steps."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from index.headline.analysis import analyse
from index.headline.features import Vocabulary
from index.headline.phrases import LENGTHS
from index.headline.pipeline import headline
from index.headline.title_phrases import phrase_ends, run_hash, span_hashes, title_phrases
from index.headline.train import DEVELOPMENT, HELD_OUT, train

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


def test_a_titles_phrases_run_from_a_phrase_start_to_a_phrase_end() -> None:
    phrases = [
        " ".join(words) for words in title_phrases("StripeNet: Sparse Attention for Long Document Retrieval")
    ]
    assert sorted(phrases) == ["long document retrieval", "sparse attention for long document retrieval"]
    assert title_phrases("On Learning") == []  # too short, and "on" starts no phrase


def test_a_span_of_an_abstract_hashes_as_the_same_words_of_a_title_do() -> None:
    analysis = analyse(["Results on long document retrieval improve. Long document retrieval is hard."])
    known: dict[str, int] = {}
    starts = np.array([analysis.words.index("long"), len(analysis.words) - 5])
    three = LENGTHS.tolist().index(3)
    hashes = span_hashes(analysis.words, starts, known)
    wanted = run_hash(["long", "document", "retrieval"], known)
    assert int(hashes[0, three]) == wanted == int(hashes[1, three])
    assert int(hashes[0, three + 1]) != wanted


def test_a_word_titles_put_only_before_their_noun_is_one_no_headline_ends_on() -> None:
    titles = [
        f"Large {noun} Models for {task}" for noun in ("Language", "Vision") for task in ("Code", "Math")
    ] * 6
    titles += ["Models That Are Large"]
    vocabulary = Vocabulary(ids={"large": 1, "models": 2, "language": 3}, idf=np.zeros(4))
    never = phrase_ends(titles, vocabulary)
    # "large" ends 1 of its 25 phrases; "models" ends 24; "language" ends none, but 12 titles are too few
    assert never.tolist() == [False, True, False, False]


def _train_script(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "index.headline.train", *arguments],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_wrong_corpus_or_out_path_is_one_line_before_any_training(tmp_path: Path) -> None:
    (tmp_path / "venues").mkdir()
    (tmp_path / "venues" / "iccv.jsonl").write_text("", encoding="utf-8")
    out = tmp_path / "new" / "weights" / "model.npz"
    done = _train_script("--corpus", str(tmp_path / "venues"), "--out", str(out))
    assert done.returncode == 2
    corpus = tmp_path / "venues"
    assert done.stderr.splitlines() == [
        f"train: {corpus}: no naacl.jsonl, uai.jsonl there; pass --corpus the corpus's JSONL folder"
    ]
    assert out.parent.is_dir()  # the folder for the weights is made first, so the run can write them

    (tmp_path / "a file").write_text("", encoding="utf-8")
    done = _train_script(
        "--corpus", str(tmp_path / "venues"), "--out", str(tmp_path / "a file" / "model.npz")
    )
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith(f"train: {tmp_path / 'a file'}: not a folder (") and "Traceback" not in done.stderr
