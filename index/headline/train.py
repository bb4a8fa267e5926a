"""Trains the headline model from the corpus's real (abstract, title) pairs and writes what ships.

Run from a checkout: `.venv/bin/python -m index.headline.train [--corpus DIR]` (default: the corpus's
JSONL beside the repository, `../shared/corpus/jsonl/`). It trains on every venue but `HELD_OUT`, with a
fixed seed, and writes `model.npz` (the weights) and `model.json` (how it was trained and how it does on
the held-out venues, which it never trains or tunes on) beside this file. Two runs write the same figures.

The model is two logistic regressions fitted by minibatch Adam: the word model over `features.word_rows`
rows (is this word in the title?) and the phrase model over `phrases.span_rows` rows (is this span a phrase
the title holds whole?); and a ranker, gradient-boosted trees fitted by LightGBM's LambdaRank (the `[train]`
extra) over `ranking.features` rows (which of an abstract's candidates comes closest to its title?),
exported as arrays so that the reader needs only numpy. `model.json` compares the model on the held-out
venues with the same word and phrase models without the ranker and with the lead-sentence baselines.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.analysis import WORD, analyse
from index.headline.candidates import scored
from index.headline.check import problems
from index.headline.features import Vocabulary, blocks, word_rows
from index.headline.model import WEIGHTS, Model
from index.headline.phrases import (
    LENGTHS,
    MOST_WORDS,
    phrase_ids,
    phrase_offsets,
    phrase_width,
    span_rows,
)
from index.headline.pipeline import BATCH, SCAN, headlines
from index.headline.rerank import FEATURES, POOL, features
from index.headline.rouge import lead_sentence, proposing_sentence, rouge_1, rouge_l, rouge_words
from index.headline.title_phrases import MASK, phrase_ends, run_hash, span_hashes, title_phrases
from index.headline.trees import Trees, from_lightgbm
from index.headline.width import as_headline
from index.render.abstract import to_plain

CORPUS: Final = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "jsonl"
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
PHRASE_STEPS: Final = 300
PHRASE_SAMPLES_PER_STEP: Final = 100_000
PHRASE_LEARNING_RATE: Final = 0.05
ANY_LENGTH: Final = 10_000
"""Characters a training span may run to: a phrase is learned from, however wide it is."""
RANKER_PAPERS: Final = 12_000
"""Abstracts per fold whose candidates the ranker learns from (of some 25,000): enough for its few
thousand leaves, and the run stays within minutes on one core."""
GRADES: Final = 20
"""ROUGE-1 steps a candidate's grade is rounded to (LambdaRank wants whole grades)."""
RANKER: Final = {
    "objective": "lambdarank",
    "lambdarank_truncation_level": 10,
    "eval_at": [1],
    "num_iterations": 150,
    "learning_rate": 0.1,
    "num_leaves": 31,
    "max_depth": 5,
    "min_data_in_leaf": 100,
    "feature_fraction": 0.9,
    "use_missing": False,
    "num_threads": 1,
    "deterministic": True,
    "force_row_wise": True,
    "seed": SEED,
    "verbosity": -1,
}
"""LightGBM's settings: one thread and `deterministic`, so the same corpus gives the same trees. Chosen on
the development venues (`--development`, top-1 ROUGE-1 of the candidates stage's order 0.3735): 300 trees of
depth 8 at rate 0.05 reach 0.3836, 200 of depth 5 at 0.1 0.3840, 100 of them 0.3823; the run-time cost grows
with trees times depth, so 150 of depth 5."""
LONGEST: Final = 80
"""The longest headline, as the reader asks for it (`pipeline.headline`'s default)."""
BEST_OTHERS: Final = 30
"""Non-phrases per abstract taken from its best-scoring spans: the ones the phrase model must tell apart."""
RANDOM_OTHERS: Final = 20
"""... and at random, so that it also sees the plain run of an abstract's spans."""

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
    values: npt.NDArray[np.float64] | None = None,
    learning_rate: float = LEARNING_RATE,
) -> tuple[npt.NDArray[np.float64], float]:
    """Logistic regression by minibatch Adam: a weight per feature and a bias. Each row lists its active
    features; `values` (the same shape) weighs them, 1 for all when not given."""
    rng = np.random.default_rng(SEED)
    weights = np.zeros(width + 1)  # the last is the bias, active in every row
    moment, second = np.zeros_like(weights), np.zeros_like(weights)
    for step in range(1, steps + 1):
        chosen = rng.integers(0, len(labels), samples)
        batch = np.concatenate([rows[chosen], np.full((samples, 1), width)], axis=1)
        if values is None:
            logits = weights[batch].sum(axis=1)
            error = (1.0 / (1.0 + np.exp(-logits)) - labels[chosen]) / samples
            summed = np.bincount(batch.ravel(), np.repeat(error, batch.shape[1]), minlength=width + 1)
        else:
            weighed = np.concatenate([values[chosen], np.ones((samples, 1))], axis=1)
            logits = (weights[batch] * weighed).sum(axis=1)
            error = (1.0 / (1.0 + np.exp(-logits)) - labels[chosen]) / samples
            summed = np.bincount(batch.ravel(), (error[:, None] * weighed).ravel(), minlength=width + 1)
        gradient = summed.astype(np.float64) + L2 * weights
        moment = 0.9 * moment + 0.1 * gradient
        second = 0.999 * second + 0.001 * gradient**2
        weights -= learning_rate * (moment / (1 - 0.9**step)) / (np.sqrt(second / (1 - 0.999**step)) + 1e-8)
    return weights[:-1], float(weights[-1])


DOCUMENT_MIX: Final = 0x9E3779B97F4A7C15
"""Multiplies an abstract's number into its spans' hashes, so that one batch's abstracts never match each
other's titles."""


def phrase_examples(
    pairs: Sequence[Pair], model: Model
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Spans of the training abstracts as phrase rows, with their values and labels: 1 for a span a title
    repeats as one of its phrases, 0 for the abstract's best-scoring other spans and a few at random."""
    rng = np.random.default_rng(SEED)
    known: dict[str, int] = {}
    offsets = phrase_offsets()
    rows, values, labels = [], [], []
    for start in range(0, len(pairs), BATCH):
        batch = pairs[start : start + BATCH]
        analysis = analyse([abstract[:SCAN] for abstract, _ in batch])
        scores = model.scores(analysis)
        spans = scored(analysis, scores, model, ANY_LENGTH)
        starts = spans.starts
        keys = (
            span_hashes(analysis.words, starts, known)
            ^ ((analysis.document[starts].astype(np.uint64) + np.uint64(1)) * np.uint64(DOCUMENT_MIX))[
                :, None
            ]
        )
        wanted = np.array(
            [
                (run_hash(phrase, known) ^ ((number + 1) * DOCUMENT_MIX)) & MASK
                for number, (_, title) in enumerate(batch)
                for phrase in title_phrases(title)
            ],
            dtype=np.uint64,
        )
        valid = spans.scores >= 0
        phrase = valid & np.isin(keys, wanted)
        found = span_rows(analysis, scores.ids, starts)
        words = phrase_ids(scores.ids) + offsets["inside"]
        for number in range(len(batch)):
            first, stop = spans.rows[number], spans.rows[number + 1]
            flat = spans.scores[first:stop].ravel()
            candidates = np.flatnonzero(flat >= 0)
            if not candidates.size:
                continue
            positive = np.flatnonzero(phrase[first:stop].ravel())
            best = candidates[np.argsort(-flat[candidates], kind="stable")[:BEST_OTHERS]]
            drawn = rng.choice(candidates, size=min(RANDOM_OTHERS, candidates.size), replace=False)
            chosen = np.unique(np.concatenate([positive, best, drawn]))
            row, column = first + chosen // LENGTHS.size, chosen % LENGTHS.size
            lengths = LENGTHS[column]
            inside = np.zeros((chosen.size, MOST_WORDS), dtype=np.int64)
            weighed = np.zeros((chosen.size, MOST_WORDS))
            for line, (span_start, length) in enumerate(
                zip(starts[row].tolist(), lengths.tolist(), strict=True)
            ):
                inside[line, :length] = words[span_start : span_start + length]
                weighed[line, :length] = 1.0 / length
            edges = found.rows(row, column)
            rows.append(np.concatenate([edges, inside], axis=1))
            values.append(np.concatenate([np.ones(edges.shape), weighed], axis=1))
            labels.append(np.isin(chosen, positive).astype(np.float64))
    return np.concatenate(rows), np.concatenate(values), np.concatenate(labels)


def venue_figures(
    model: Model, by_venue: dict[str, list[Pair]], venues: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Mean ROUGE-1 and ROUGE-L of the model's headlines against the real titles, by venue."""
    return baseline_figures(lambda abstracts: headlines(abstracts, model=model), by_venue, venues)


def baseline_figures(
    make: Callable[[list[str]], list[str]], by_venue: dict[str, list[Pair]], venues: Sequence[str]
) -> dict[str, dict[str, float]]:
    """Mean ROUGE-1 and ROUGE-L against the real titles, by venue, of the lines `make` makes for each
    venue's abstracts (`make` takes them all and returns a line each)."""
    figures = {}
    for venue in venues:
        ones, ells = [], []
        made_all = make([abstract for abstract, _ in by_venue[venue]])
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


def scoring_model(
    training: Sequence[Pair], steps: int, samples: int, counts: dict[str, int] | None = None
) -> Model:
    """The word and phrase models fitted on `training` (no ranker); `counts` gathers how many examples
    each had."""
    vocabulary = vocabulary_of([abstract for abstract, _ in training])
    rows, labels = examples(training, vocabulary)
    weights, bias = fit(rows, labels, sum(blocks(vocabulary).values()), steps, samples)
    title_words = statistics.fmean(len(rouge_words(title)) for _, title in training)
    never_ends = phrase_ends([title for _, title in training], vocabulary)
    words_only = Model(vocabulary, weights, bias, title_words, np.zeros(phrase_width()), 0.0, never_ends)
    span_rows_, span_values, span_labels = phrase_examples(training, words_only)
    phrase_weights, phrase_bias = fit(
        span_rows_,
        span_labels,
        phrase_width(),
        PHRASE_STEPS,
        PHRASE_SAMPLES_PER_STEP,
        span_values,
        PHRASE_LEARNING_RATE,
    )
    if counts is not None:
        counts["word_examples"] = len(labels)
        counts["span_examples"] = len(span_labels)
        counts["phrase_examples"] = int(span_labels.sum())
    return Model(vocabulary, weights, bias, title_words, phrase_weights, phrase_bias, never_ends)


def train(
    corpus: Path,
    *,
    development: bool = False,
    steps: int = STEPS,
    samples: int = SAMPLES_PER_STEP,
    ranker_papers: int = RANKER_PAPERS,
) -> tuple[Model, dict[str, object]]:
    """The model trained on every venue but the held-out ones and its figures; with `development`, trained
    on fewer venues still and measured on `DEVELOPMENT` instead (how every choice in this package was made,
    so that the held-out venues judge it without having shaped it)."""
    started = time.monotonic()
    by_venue = read_corpus(corpus)
    reported = DEVELOPMENT if development else HELD_OUT
    left_out = {*HELD_OUT, *DEVELOPMENT} if development else set(HELD_OUT)
    venues = [venue for venue in sorted(by_venue) if venue not in left_out]
    training = [pair for venue in venues for pair in by_venue[venue]]
    counts: dict[str, int] = {}
    scoring = scoring_model(training, steps, samples, counts)
    ranker, ranker_figures = train_ranker(by_venue, venues, steps, samples, ranker_papers)
    model = replace(scoring, ranker=ranker)
    held_out = venue_figures(model, by_venue, reported)
    compared = {
        "model": _overall(held_out),
        "without the ranker (the previous model's design, retrained)": _overall(
            venue_figures(scoring, by_venue, reported)
        ),
        "lead sentence, 90 characters": _overall(
            baseline_figures(lambda abstracts: list(map(lead_sentence, abstracts)), by_venue, reported)
        ),
        '"we propose" sentence, 90 characters': _overall(
            baseline_figures(lambda abstracts: list(map(proposing_sentence, abstracts)), by_venue, reported)
        ),
    }
    figures: dict[str, object] = {
        "seed": SEED,
        "steps": steps,
        "samples_per_step": samples,
        "trained_on": {venue: len(by_venue[venue]) for venue in venues},
        "training_papers": len(training),
        **counts,
        "words_that_never_end": int(scoring.never_ends.sum()),
        "vocabulary": len(scoring.vocabulary.ids),
        "title_words": round(scoring.title_words, 3),
        "ranker": ranker_figures,
        "held_out": held_out,
        "held_out_rouge_1": compared["model"]["rouge_1"],
        "held_out_rouge_l": compared["model"]["rouge_l"],
        "held_out_compared": compared,
        "seconds": round(time.monotonic() - started, 1),
    }
    return model, figures


def train_ranker(
    by_venue: dict[str, list[Pair]], venues: Sequence[str], steps: int, samples: int, papers: int
) -> tuple[Trees, dict[str, object]]:
    """The ranker's trees, fitted on candidates scored by word and phrase models that never saw their
    abstracts: the venues split in two folds, each fold's abstracts (`papers` of them at most, drawn with
    the seed) scored by models fitted on the other fold, so the ranker learns how far to trust the
    models' chances as they are on unseen abstracts, not as they are on their own training data."""
    rng = np.random.default_rng(SEED)
    folds = [list(venues[0::2]), list(venues[1::2])]
    rows, labels, groups = [], [], []
    for fold, others in ((folds[0], folds[1]), (folds[1], folds[0])):
        fitted = scoring_model([pair for venue in others for pair in by_venue[venue]], steps, samples)
        pairs = [pair for venue in fold for pair in by_venue[venue]]
        drawn = sorted(rng.choice(len(pairs), size=min(papers, len(pairs)), replace=False).tolist())
        found = ranking_examples([pairs[number] for number in drawn], fitted)
        rows.append(found[0])
        labels.append(found[1])
        groups.append(found[2])
    return fit_ranker(np.concatenate(rows), np.concatenate(labels), np.concatenate(groups))


def ranking_examples(
    pairs: Sequence[Pair], model: Model
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.int64]]:
    """Each abstract's pool of candidates as `ranking.features` rows, labelled by the ROUGE-1 of its line
    against the real title, with the number of rows per abstract. Only candidates whose line reads as a
    title are kept: the pipeline skips the others whatever their rank."""
    rows, labels, groups = [], [], []
    for start in range(0, len(pairs), BATCH):
        batch = pairs[start : start + BATCH]
        analysis = analyse([abstract[:SCAN] for abstract, _ in batch])
        spans = scored(analysis, model.scores(analysis), model, LONGEST + 1)
        pool = spans.pools(POOL)
        every = features(spans, pool, model)
        at = 0
        for size, (_, title) in zip(pool.sizes.tolist(), batch, strict=True):
            reference = rouge_words(title)
            kept, rouges = [], []
            for index in range(at, at + size):
                line = as_headline(pool.candidate(index).text(analysis))
                if not problems(line, LONGEST):
                    kept.append(index)
                    rouges.append(rouge_1(rouge_words(line), reference))
            at += size
            if len(kept) > 1 and max(rouges) > min(rouges):
                rows.append(every[kept])
                labels.extend(rouges)
                groups.append(len(kept))
    return np.concatenate(rows), np.array(labels), np.array(groups, dtype=np.int64)


def fit_ranker(
    rows: npt.NDArray[np.float64], labels: npt.NDArray[np.float64], groups: npt.NDArray[np.int64]
) -> tuple[Trees, dict[str, object]]:
    """LambdaRank trees over `rows` grouped by abstract, graded by ROUGE-1 in `GRADES` steps with a gain
    linear in the grade (the ROUGE a headline earns is what counts, not its square)."""
    import lightgbm  # the [train] extra: the reader itself never needs it

    grades = np.rint(labels * GRADES).astype(np.int64)
    data = lightgbm.Dataset(
        rows, grades, group=groups, feature_name=list(FEATURES), params={"verbosity": -1}, free_raw_data=False
    )
    booster = lightgbm.train({**RANKER, "label_gain": list(range(GRADES + 1))}, data)
    trees = from_lightgbm(booster.dump_model())
    sample = rows[:: max(1, len(rows) // 20000)]
    drift = float(np.abs(trees.predict(sample) - booster.predict(sample)).max())
    if drift > 1e-6:
        raise RuntimeError(f"the exported trees predict {drift} away from LightGBM's")
    importance = booster.feature_importance("gain")
    return trees, {
        "abstracts": len(groups),
        "candidates": len(rows),
        "trees": trees.count,
        "depth": trees.depth,
        "parameters": RANKER,
        "features_by_gain": [
            name for _, name in sorted(zip(importance.tolist(), FEATURES, strict=True), reverse=True)
        ],
    }


def _overall(by_venue: dict[str, dict[str, float]]) -> dict[str, float]:
    """ROUGE-1 and ROUGE-L over the papers of every venue of `by_venue` together."""
    papers = sum(figure["papers"] for figure in by_venue.values())
    return {
        kind: sum(figure[kind] * figure["papers"] for figure in by_venue.values()) / papers
        for kind in ("rouge_1", "rouge_l")
    }


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
    # Both checked before the two minutes of training, so a mistyped path costs a second, not the run.
    if not args.development:
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            parser.exit(2, f"train: {args.out.parent}: not a folder ({error.strerror}); pass another --out\n")
    wanted = (*HELD_OUT, *DEVELOPMENT) if args.development else HELD_OUT
    missing = [venue for venue in wanted if not (args.corpus / f"{venue}.jsonl").is_file()]
    if missing:
        names = ", ".join(f"{venue}.jsonl" for venue in missing)
        parser.exit(2, f"train: {args.corpus}: no {names} there; pass --corpus the corpus's JSONL folder\n")
    model, figures = train(args.corpus, development=args.development)
    label = "development" if args.development else "held-out"
    print(f"{label} ROUGE-1 {figures['held_out_rouge_1']:.4f}, ROUGE-L {figures['held_out_rouge_l']:.4f}")
    if args.development:
        print(json.dumps({"by_venue": figures["held_out"], "compared": figures["held_out_compared"]}))
        return
    model.save(args.out)
    args.out.with_name("model.json").write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out} and model.json in {figures['seconds']} s")


if __name__ == "__main__":
    main()
