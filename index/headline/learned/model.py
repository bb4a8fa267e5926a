"""Stage 2: how likely each word of an abstract is to be in the paper's title, by the learned weights.

The weights ship as `model.npz` beside this file (written by `train.py`, figures in `model.json`); they are
read once, when the first headline is made, so a reader that shows only real titles never loads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.learned.analysis import Analysis
from index.headline.learned.features import Vocabulary, word_rows

WEIGHTS: Final = Path(__file__).with_name("model.npz")
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


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
    """A vocabulary and the logistic regression over `features.word_rows` rows."""

    vocabulary: Vocabulary
    weights: FloatArray
    bias: float
    title_words: float
    """The typical title's length in words: what a headline's expected ROUGE is computed against."""

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

    def save(self, path: Path) -> None:
        words = sorted(self.vocabulary.ids, key=self.vocabulary.ids.__getitem__)
        np.savez_compressed(
            path,
            words=np.array("\n".join(words)),
            idf=self.vocabulary.idf.astype(np.float32),
            weights=self.weights.astype(np.float32),
            bias=np.array(self.bias),
            title_words=np.array(self.title_words),
        )


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
        )


@cache
def shipped() -> Model:
    """The model that ships with the package."""
    return load(WEIGHTS)
