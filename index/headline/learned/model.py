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
from index.headline.learned.words import (
    ADVERB_ENDING,
    CANNOT_END,
    CANNOT_START,
    ENDS_BEFORE,
    NEVER_INSIDE,
    NOT_ADVERBS,
    OPENS_A_PHRASE,
    SUBJECTS,
)

WEIGHTS: Final = Path(__file__).with_name("model.npz")
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class WordScores:
    """What the model says about each word of one abstract, in word order."""

    probabilities: FloatArray
    """The chance that the title uses the word."""
    of_word: npt.NDArray[np.int64]
    """The index of the word's distinct type: equal for the same word."""
    may_start: BoolArray
    """The word is not one a title cannot start with (`words.CANNOT_START`)."""
    may_end: BoolArray
    first_in_sentence: BoolArray
    """The word's first use in its sentence."""
    forbidden: BoolArray
    """No headline may hold the word (`words.NEVER_INSIDE`)."""


@dataclass(frozen=True, slots=True)
class Model:
    """A vocabulary and the logistic regression over `features.word_rows` rows."""

    vocabulary: Vocabulary
    weights: FloatArray
    bias: float
    title_words: float
    """The typical title's length in words: what a headline's expected ROUGE is computed against."""
    cannot_start: BoolArray
    """By vocabulary id: the word is in `words.CANNOT_START` (every such word is in the vocabulary)."""
    cannot_end: BoolArray
    opens_a_phrase: BoolArray
    """By vocabulary id: the word is in `words.OPENS_A_PHRASE`."""
    ends_before: BoolArray
    """By vocabulary id: the word is in `words.ENDS_BEFORE`."""
    never_inside: BoolArray
    """By vocabulary id: the word is in `words.NEVER_INSIDE`."""
    subjects: BoolArray
    """By vocabulary id: the word is in `words.SUBJECTS`."""
    adverbs: BoolArray
    """By vocabulary id: the word ends in "ly" and is not in `words.NOT_ADVERBS`."""

    @classmethod
    def of(cls, vocabulary: Vocabulary, weights: FloatArray, bias: float, title_words: float) -> Model:
        def marked(words: frozenset[str]) -> BoolArray:
            mask = np.zeros(vocabulary.size, dtype=np.bool_)
            mask[[vocabulary.ids[word] for word in words if word in vocabulary.ids]] = True
            return mask

        return cls(
            vocabulary,
            weights,
            bias,
            title_words,
            marked(CANNOT_START),
            marked(CANNOT_END),
            marked(OPENS_A_PHRASE),
            marked(ENDS_BEFORE),
            marked(NEVER_INSIDE),
            marked(SUBJECTS),
            marked(frozenset(w for w in vocabulary.ids if w.endswith(ADVERB_ENDING)) - NOT_ADVERBS),
        )

    def scores(self, analysis: Analysis) -> WordScores:
        """For each word of the abstract, the chance the title uses it, and where a title may start or end."""
        found = word_rows(analysis, self.vocabulary)
        logits = sum((self.weights[column] for column in found.columns), np.full(len(found.ids), self.bias))
        by_type = 1.0 / (1.0 + np.exp(-logits))
        ids = found.ids[found.of_word]
        return WordScores(
            probabilities=by_type[found.of_word],
            of_word=found.of_word,
            may_start=~self.cannot_start[ids]
            & (analysis.pause_before | (_before(self.opens_a_phrase[ids]) & ~_before(self.subjects[ids]))),
            may_end=~self.cannot_end[ids]
            & ~self.adverbs[ids]
            & (analysis.pause_after | _after(self.ends_before[ids])),
            forbidden=self.never_inside[ids],
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


def _before(flags: BoolArray) -> BoolArray:
    """By word: the word before it has the flag (a phrase may start right after an opener)."""
    shifted = np.zeros_like(flags)
    shifted[1:] = flags[:-1]
    return shifted


def _after(flags: BoolArray) -> BoolArray:
    """By word: the word after it has the flag (a phrase may end right before an opener)."""
    shifted = np.zeros_like(flags)
    shifted[:-1] = flags[1:]
    return shifted


def load(path: Path) -> Model:
    with np.load(path) as stored:
        words = str(stored["words"]).split("\n")
        vocabulary = Vocabulary(
            ids={word: number for number, word in enumerate(words, start=1)},
            idf=stored["idf"].astype(np.float64),
        )
        return Model.of(
            vocabulary=vocabulary,
            weights=stored["weights"].astype(np.float64),
            bias=float(stored["bias"]),
            title_words=float(stored["title_words"]),
        )


@cache
def shipped() -> Model:
    """The model that ships with the package."""
    return load(WEIGHTS)
