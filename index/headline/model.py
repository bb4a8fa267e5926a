"""Stage 2: how likely each word of an abstract is to be in the paper's title, by the learned weights.

The weights ship as `model.npz` beside this file (written by `train.py`, figures in `model.json`); they are
read once, when the first headline is made, so a reader that shows only real titles never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from index.headline.analysis import Analysis
from index.headline.features import Vocabulary, word_rows
from index.headline.phrases import span_rows
from index.headline.trees import Trees, from_arrays

WEIGHTS: Final = Path(__file__).with_name("model.npz")
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
MICROS: Final = 1_000_000
"""Inside weights are summed in whole millionths: a running sum over the batch is then exact, so a span
scores the same whatever else is in its batch."""


@dataclass(frozen=True, slots=True)
class WordScores:
    """What the model says about each word of a batch, in word order."""

    probabilities: FloatArray
    """The chance that the title uses the word."""
    ids: npt.NDArray[np.int64]
    """The word's vocabulary id (0 for a word the vocabulary lacks)."""
    first_in_sentence: BoolArray
    """The word's first use in its sentence."""


@dataclass(frozen=True, slots=True, eq=False)
class Model:
    """A vocabulary, the word model (a logistic regression over `features.word_rows` rows), the phrase
    model (one over `phrases.span_rows` rows) and the ranker (trees over `ranking.features` rows)."""

    vocabulary: Vocabulary
    weights: FloatArray
    bias: float
    title_words: float
    """The typical title's length in words: what a headline's expected ROUGE is computed against."""
    phrase_weights: FloatArray
    phrase_bias: float
    never_ends: BoolArray
    """By vocabulary id: the word almost never ends a phrase of a real title ("large", "deep", "complex"),
    so a span ending on it has been cut before its noun."""
    ranker: Trees | None = None
    """The trees that reorder each abstract's best candidates (`rerank.py`); without them the candidates
    stage's own order stands."""

    def scores(self, analysis: Analysis) -> WordScores:
        """For each word of the batch, the chance its paper's title uses it."""
        found = word_rows(analysis, self.vocabulary)
        logits = sum((self.weights[column] for column in found.columns), np.full(len(found.ids), self.bias))
        by_type = 1.0 / (1.0 + np.exp(-logits))
        return WordScores(
            probabilities=by_type[found.of_word],
            ids=found.ids[found.of_word],
            first_in_sentence=found.first_in_sentence,
        )

    def phrase_logits(
        self,
        analysis: Analysis,
        ids: npt.NDArray[np.int64],
        starts: npt.NDArray[np.int64],
        rows: npt.NDArray[np.int64],
        columns: npt.NDArray[np.int64],
    ) -> FloatArray:
        """For each span (`starts[rows[k]]`, `phrases.LENGTHS[columns[k]]` words), the log-odds that it is a
        phrase a title would hold whole."""
        found = span_rows(analysis, ids, starts)
        weights = self.phrase_weights
        by_start = sum((weights[column] for column in found.by_start), np.full(len(starts), self.phrase_bias))
        by_last_word = sum((weights[column] for column in found.by_last_word), np.zeros(len(ids)))
        last = found.last(rows, columns)
        micros = np.concatenate(([0], np.cumsum(np.rint(weights[found.inside] * MICROS).astype(np.int64))))
        inside = (micros[last + 1] - micros[starts[rows]]) / MICROS / (last + 1 - starts[rows])
        logits: FloatArray = (
            by_start[rows] + by_last_word[last] + weights[found.pauses_inside(rows, columns)] + inside
        )
        return logits

    def save(self, path: Path) -> None:
        words = sorted(self.vocabulary.ids, key=self.vocabulary.ids.__getitem__)
        arrays: dict[str, npt.NDArray[Any]] = {
            "words": np.array("\n".join(words)),
            "idf": self.vocabulary.idf.astype(np.float32),
            "weights": self.weights.astype(np.float32),
            "bias": np.array(self.bias),
            "title_words": np.array(self.title_words),
            "phrase_weights": self.phrase_weights.astype(np.float32),
            "phrase_bias": np.array(self.phrase_bias),
            "never_ends": np.flatnonzero(self.never_ends),
            **(self.ranker.arrays() if self.ranker is not None else {}),
        }
        # numpy types the keyword arguments as its own options; these are the arrays to store.
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


def load(path: Path) -> Model:
    with np.load(path) as stored:
        words = str(stored["words"]).split("\n")
        vocabulary = Vocabulary(
            ids={word: number for number, word in enumerate(words, start=1)},
            idf=stored["idf"].astype(np.float64),
        )
        return Model(
            vocabulary=vocabulary,
            weights=stored["weights"].astype(np.float64),
            bias=float(stored["bias"]),
            title_words=float(stored["title_words"]),
            phrase_weights=stored["phrase_weights"].astype(np.float64),
            phrase_bias=float(stored["phrase_bias"]),
            never_ends=np.isin(np.arange(vocabulary.size), stored["never_ends"]),
            ranker=from_arrays(stored) if "tree_count" in stored else None,
        )


@cache
def shipped() -> Model:
    """The model that ships with the package."""
    return load(WEIGHTS)
