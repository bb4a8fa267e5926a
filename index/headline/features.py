"""What the model looks at: one row of features for each distinct word of an abstract.

The model predicts, for each word of an abstract, whether the paper's title uses it. A row is a list of
active one-hot features, one per block below, so the model is a table of weights summed along a row
(a logistic regression): `train.py` beside this file learns the table from real titles, `model.py` sums it.
Blocks are bucketed so that a linear model can still bend (a word said twice is not twice as likely).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.analysis import Analysis, name_words

CONTEXT_WORDS: Final = 300
"""The commonest words, by which the words right before and after a word are told apart; rarer ones share."""
COUNT_EDGES: Final = np.array([1, 2, 3, 4, 6, 9])
IDF_EDGES: Final = np.array([0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8])
SENTENCES: Final = 8
POSITIONS: Final = 10
LENGTHS: Final = 8
CASES: Final = 4


@dataclass(frozen=True, slots=True, eq=False)
class Vocabulary:
    """The words the model has a weight of their own for (the rest share one), and every word's idf."""

    ids: dict[str, int]
    """Word -> id from 1, commonest first; 0 is every other word."""
    idf: npt.NDArray[np.float64]
    """By id: log((documents + 1) / (documents with the word + 1)); id 0 gets the rarest value."""

    @property
    def size(self) -> int:
        return len(self.ids) + 1


def blocks(vocabulary: Vocabulary) -> dict[str, int]:
    """Each block's name and width, in row order: the model's weight table is these laid end to end."""
    idf_buckets = len(IDF_EDGES) + 1
    count_buckets = len(COUNT_EDGES) + 1
    return {
        "word": vocabulary.size,  # the word itself: some words make titles ("learning", "via"), most do not
        "word_in_first_sentence": vocabulary.size,  # the same, when the first sentence has it
        "word_in_proposing_sentence": vocabulary.size,  # the same, in a "we propose" sentence
        "count": count_buckets,  # times the abstract says it
        "idf": idf_buckets,  # how rare it is in the corpus
        "count_by_idf": count_buckets * idf_buckets,  # a rare word said often is the topic
        "first_sentence": SENTENCES,  # which sentence says it first
        "first_position": POSITIONS,  # how far into the abstract, in tenths
        "sentences": 6,  # in how many sentences
        "proposing": 2,  # whether a "we propose" sentence says it
        "cased": CASES,  # capitalised mid-sentence, capitals ("CRF"), digits
        "length": LENGTHS,  # letters
        "named": 2,  # part of the name the abstract gives its method
        "before": CONTEXT_WORDS + 1,  # the word right before its first use ("called X", "for X")
        "after": CONTEXT_WORDS + 1,  # the word right after it
    }


@dataclass(frozen=True, slots=True)
class WordRows:
    """The distinct words of each abstract of a batch and their feature rows."""

    spelled: list[str]
    """Every distinct word of the batch."""
    type_word: npt.NDArray[np.int64]
    """By type (a word of one abstract): its index in `spelled`."""
    type_document: npt.NDArray[np.int64]
    """By type: its abstract's number in the batch."""
    of_word: npt.NDArray[np.int64]
    """For each word of the batch, the index of its type."""
    ids: npt.NDArray[np.int64]
    """By type: its vocabulary id (0 for a word the vocabulary lacks)."""
    columns: list[npt.NDArray[np.int64]]
    """By block, by type: the index in the weight table of the block's active feature."""
    first_in_sentence: npt.NDArray[np.bool_]
    """By word: its first use in its sentence (ROUGE counts a word once, however often a span repeats it)."""

    @property
    def types(self) -> list[str]:
        """By type: the word."""
        return [self.spelled[number] for number in self.type_word.tolist()]

    @property
    def rows(self) -> npt.NDArray[np.int64]:
        """One row per type: the index in the weight table of each block's active feature."""
        return np.stack(self.columns, axis=1)


def word_rows(analysis: Analysis, vocabulary: Vocabulary) -> WordRows:
    """Feature rows for the distinct words of each abstract of `analysis`."""
    words = analysis.words
    if not words:
        empty = np.zeros(0, dtype=np.int64)
        columns = [empty for _ in blocks(vocabulary)]
        return WordRows([], empty, empty, empty, empty, columns, np.zeros(0, dtype=np.bool_))
    spelled = list(dict.fromkeys(words))
    index = {word: number for number, word in enumerate(spelled)}
    word_index = np.fromiter(map(index.__getitem__, words), np.int64, len(words))
    document = analysis.document
    keys, first, of_word = np.unique(
        document * len(spelled) + word_index, return_index=True, return_inverse=True
    )
    of_word = of_word.reshape(-1)
    type_word = keys % len(spelled)
    type_document = keys // len(spelled)
    count = len(keys)
    ids = np.fromiter(map(vocabulary.ids.get, spelled, repeat(0, len(spelled))), np.int64, len(spelled))[
        type_word
    ]
    said = np.bincount(of_word, minlength=count)
    idf = vocabulary.idf[ids]
    sentence = analysis.sentence
    first_sentence = sentence[first] - analysis.first_sentence[type_document]
    proposing = np.bincount(of_word, weights=analysis.proposing[sentence], minlength=count) > 0
    cased = np.zeros(count, dtype=np.int64)
    np.maximum.at(cased, of_word, analysis.cased)
    # Words grouped by type, in order within each: a use opens a new (type, sentence) pair when the one
    # before it is of another type or in an earlier sentence.
    grouped = np.argsort(of_word, kind="stable")
    grouped_type, grouped_sentence = of_word[grouped], sentence[grouped]
    opening = np.ones(len(words), dtype=np.bool_)
    opening[1:] = (grouped_type[1:] != grouped_type[:-1]) | (grouped_sentence[1:] != grouped_sentence[:-1])
    first_in_sentence = np.zeros(len(words), dtype=np.bool_)
    first_in_sentence[grouped[opening]] = True
    sentences = np.bincount(grouped_type[opening], minlength=count)
    named = np.zeros(count, dtype=np.int64)
    for number, name in enumerate(analysis.names):
        if name:
            wanted = [number * len(spelled) + index[word] for word in name_words(name) if word in index]
            named[np.searchsorted(keys, wanted)] = 1
    context = np.where(ids <= CONTEXT_WORDS, ids, 0)
    word_context = context[of_word]
    start, stop = analysis.first_word[type_document], analysis.first_word[type_document + 1]
    previous = np.where(first > start, word_context[np.maximum(first - 1, 0)], 0)
    following = np.where(first + 1 < stop, word_context[np.minimum(first + 1, len(words) - 1)], 0)
    count_bucket = np.searchsorted(COUNT_EDGES, said, side="left")
    idf_bucket = np.searchsorted(IDF_EDGES, idf, side="left")
    lengths = analysis.letters[first]
    columns = [
        ids,
        np.where(first_sentence == 0, ids, 0),
        np.where(proposing, ids, 0),
        count_bucket,
        idf_bucket,
        count_bucket * (len(IDF_EDGES) + 1) + idf_bucket,
        np.minimum(first_sentence, SENTENCES - 1),
        np.minimum((first - start) * POSITIONS // np.maximum(stop - start, 1), POSITIONS - 1),
        np.minimum(sentences, 5),
        proposing.astype(np.int64),
        cased,
        np.minimum(lengths, LENGTHS - 1),
        named,
        previous,
        following,
    ]
    offsets = np.cumsum([0, *blocks(vocabulary).values()])[:-1].tolist()
    return WordRows(
        spelled=spelled,
        type_word=type_word,
        type_document=type_document,
        of_word=of_word,
        ids=ids,
        columns=[column + offset for column, offset in zip(columns, offsets, strict=True)],
        first_in_sentence=first_in_sentence,
    )
