"""Trains the headline model from the corpus's real (abstract, title) pairs and writes what ships.

Run from a checkout: `.venv/bin/python -m index.headline.learned.train [--corpus DIR]` (default: the corpus's
JSONL beside the repository, `../shared/corpus/jsonl/`). It trains on every venue but `HELD_OUT`, with a
fixed seed, and writes `model.npz` (the weights) and `model.json` (how it was trained and how it does on
the held-out venues, which it never trains or tunes on) beside this file. Two runs write the same figures.

The model is `features.word_rows` rows and a logistic regression fitted by minibatch Adam; this file and
`features.py` are all there is to it.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from multiprocessing import Pool
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.learned.analysis import WORD, analyse
from index.headline.learned.features import Vocabulary, blocks, word_rows
from index.headline.learned.model import WEIGHTS, Model
from index.headline.learned.pipeline import BATCH, SCAN, headlines
from index.headline.learned.rouge import rouge_1, rouge_l, rouge_words
from index.render.abstract import to_plain

CORPUS: Final = Path(__file__).resolve().parents[4] / "shared" / "corpus" / "jsonl"
FIGURES: Final = WEIGHTS.with_name("model.json")
HELD_OUT: Final = ("iccv", "naacl", "uai")
"""Vision, NLP and ML: reported on, never trained or tuned on."""
DEVELOPMENT: Final = ("eccv", "emnlp", "aistats")
"""Vision, NLP and ML again, from the training venues: what `--development` tunes on."""
SEED: Final = 25
VOCABULARY: Final = 30000
LEAST_DOCUMENTS: Final = 5
STEPS: Final = 400
SAMPLES_PER_STEP: Final = 200_000
LEARNING_RATE: Final = 0.025
L2: Final = 1e-6

Pair = tuple[str, str]


def read_venue(path: Path) -> tuple[str, list[Pair]]:
    """(plain abstract, plain title) of every paper of one venue's JSONL that has both."""
    pairs = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            abstract, title = record.get("abstract") or "", record.get("title") or ""
            if abstract.strip() and title.strip():
                pairs.append((to_plain(abstract), to_plain(title)))
    return path.stem, pairs


def read_corpus(folder: Path) -> dict[str, list[Pair]]:
    with Pool(2) as pool:
        return dict(pool.map(read_venue, sorted(folder.glob("*.jsonl"))))


def vocabulary_of(abstracts: Sequence[str]) -> Vocabulary:
    """The commonest words of the training abstracts (in at least `LEAST_DOCUMENTS`) and every word's idf."""
    documents: Counter[str] = Counter()
    for abstract in abstracts:
        documents.update(set(WORD.findall(abstract[:SCAN].lower())))
    common = [word for word, seen in documents.most_common(VOCABULARY) if seen >= LEAST_DOCUMENTS]
    total = len(abstracts)
    idf = np.array(
        [math.log(total + 1), *(math.log((total + 1) / (documents[word] + 1)) for word in common)],
        dtype=np.float64,
    )
    return Vocabulary(ids={word: number for number, word in enumerate(common, start=1)}, idf=idf)


def examples(
    pairs: Sequence[Pair], vocabulary: Vocabulary
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """Every distinct word of every abstract as a feature row, labelled 1 when the title uses it."""
    rows, labels = [], []
    for start in range(0, len(pairs), BATCH):
        batch = pairs[start : start + BATCH]
        found = word_rows(analyse([abstract[:SCAN] for abstract, _ in batch]), vocabulary)
        in_title = [set(rouge_words(title)) for _, title in batch]
        rows.append(found.rows)
        labels.append(
            np.fromiter(
                (
                    word in in_title[number]
                    for word, number in zip(found.types, found.type_document.tolist(), strict=True)
                ),
                np.float64,
                len(found.types),
            )
        )
    return np.concatenate(rows), np.concatenate(labels)


def fit(
    rows: npt.NDArray[np.int64],
    labels: npt.NDArray[np.float64],
    width: int,
    steps: int = STEPS,
    samples: int = SAMPLES_PER_STEP,
) -> tuple[npt.NDArray[np.float64], float]:
    """Logistic regression over one-hot rows by minibatch Adam: a weight per feature and a bias."""
    rng = np.random.default_rng(SEED)
    weights = np.zeros(width + 1)  # the last is the bias, active in every row
    moment, second = np.zeros_like(weights), np.zeros_like(weights)
    for step in range(1, steps + 1):
        chosen = rng.integers(0, len(labels), samples)
        batch = np.concatenate([rows[chosen], np.full((samples, 1), width)], axis=1)
        logits = weights[batch].sum(axis=1)
        error = (1.0 / (1.0 + np.exp(-logits)) - labels[chosen]) / samples
        summed = np.bincount(batch.ravel(), np.repeat(error, batch.shape[1]), minlength=width + 1)
        gradient = summed.astype(np.float64) + L2 * weights
        moment = 0.9 * moment + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient**2
        weights -= LEARNING_RATE * (moment / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
    return weights[:-1], float(weights[-1])


def venue_figures(
    model: Model, by_venue: dict[str, list[Pair]], venues: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Mean ROUGE-1 and ROUGE-L of the model's headlines against the real titles, by venue."""
    figures = {}
    for venue in venues:
        ones, ells = [], []
        made_all = headlines([abstract for abstract, _ in by_venue[venue]], model=model)
        for line, (_, title) in zip(made_all, by_venue[venue], strict=True):
            made, reference = rouge_words(line), rouge_words(title)
            ones.append(rouge_1(made, reference))
            ells.append(rouge_l(made, reference))
        figures[venue] = {
            "papers": len(ones),
            "rouge_1": statistics.fmean(ones),
            "rouge_l": statistics.fmean(ells),
        }
    return figures


def train(
    corpus: Path, *, development: bool = False, steps: int = STEPS, samples: int = SAMPLES_PER_STEP
) -> tuple[Model, dict[str, object]]:
    """The model trained on every venue but the held-out ones and its figures; with `development`, trained
    on fewer venues still and measured on `DEVELOPMENT` instead (how every choice in this package was made,
    so that the held-out venues judge it without having shaped it)."""
    started = time.monotonic()
    by_venue = read_corpus(corpus)
    reported = DEVELOPMENT if development else HELD_OUT
    left_out = {*HELD_OUT, *DEVELOPMENT} if development else set(HELD_OUT)
    training = [pair for venue in sorted(by_venue) if venue not in left_out for pair in by_venue[venue]]
    vocabulary = vocabulary_of([abstract for abstract, _ in training])
    rows, labels = examples(training, vocabulary)
    weights, bias = fit(rows, labels, sum(blocks(vocabulary).values()), steps, samples)
    title_words = statistics.fmean(len(rouge_words(title)) for _, title in training)
    model = Model(vocabulary=vocabulary, weights=weights, bias=bias, title_words=title_words)
    held_out = venue_figures(model, by_venue, reported)
    papers = sum(figure["papers"] for figure in held_out.values())
    figures: dict[str, object] = {
        "seed": SEED,
        "steps": steps,
        "samples_per_step": samples,
        "trained_on": {venue: len(by_venue[venue]) for venue in sorted(by_venue) if venue not in left_out},
        "training_papers": len(training),
        "word_examples": len(labels),
        "vocabulary": len(vocabulary.ids),
        "title_words": round(title_words, 3),
        "held_out": held_out,
        "held_out_rouge_1": sum(f["rouge_1"] * f["papers"] for f in held_out.values()) / papers,
        "held_out_rouge_l": sum(f["rouge_l"] * f["papers"] for f in held_out.values()) / papers,
        "seconds": round(time.monotonic() - started, 1),
    }
    return model, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="folder of venue JSONL files")
    parser.add_argument("--out", type=Path, default=WEIGHTS, help="where the weights go (model.json beside)")
    parser.add_argument(
        "--development",
        action="store_true",
        help="train without the development venues, report on them, write nothing",
    )
    args = parser.parse_args()
    model, figures = train(args.corpus, development=args.development)
    label = "development" if args.development else "held-out"
    print(f"{label} ROUGE-1 {figures['held_out_rouge_1']:.4f}, ROUGE-L {figures['held_out_rouge_l']:.4f}")
    if args.development:
        print(json.dumps(figures["held_out"]))
        return
    model.save(args.out)
    args.out.with_name("model.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out} and model.json in {figures['seconds']} s")


if __name__ == "__main__":
    main()
