"""What the phrase model looks at: each candidate span's edges and the words inside it.

The word model (`features.py`) says which words a title uses; it cannot tell a phrase from a clause cut
in two ("an efficient algorithm for neural filtering of motion-inconsistent"). The phrase model is a second
logistic regression, over spans: the chance that a span is a phrase a title would hold whole. `train.py`
labels it from the corpus: a span of an abstract that a real title repeats word for word, from one of the
title's phrase starts (its first word, or the word after a colon or a preposition) to one of its phrase
ends, is a phrase; the best-scoring other spans of the same abstract, and a few at random, are not.

A span's row is the weights of its first and last word, the words just outside it, the punctuation at its
edges and inside, its sentence, its casing, and the mean weight of the words inside it (a mean, so that
the phrase model has no opinion on length: the expected ROUGE already has one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.analysis import Analysis

PHRASE_WORDS: Final = 10_000
"""The commonest words, by vocabulary id, that have edge and inside weights of their own; rarer ones share."""
EDGE: Final = PHRASE_WORDS + 1
"""The id of "no word": a span's edge is its sentence's."""
FEWEST_WORDS: Final = 3
MOST_WORDS: Final = 12
LENGTHS: Final = np.arange(FEWEST_WORDS, MOST_WORDS + 1)
"""Every span length the candidates stage scores, in words."""
PAUSES_INSIDE: Final = 3
"""Pauses (a comma, a bracket) inside a span are counted 0, 1, or 2 and more."""

IntArray = npt.NDArray[np.int64]


def phrase_blocks() -> dict[str, int]:
    """Each block's name and width, in row order: the phrase model's weight table laid end to end."""
    return {
        "inside": PHRASE_WORDS + 1,  # the words inside, averaged ("which", "we", "are" rarely are)
        "first": PHRASE_WORDS + 1,  # the word it starts on ("novel", "the" rarely start a title)
        "last": PHRASE_WORDS + 1,  # the word it ends on ("thanks", "empowers" never end one)
        "before": PHRASE_WORDS + 2,  # the word right before it, or the sentence's start
        "after": PHRASE_WORDS + 2,  # the word right after it ("for", "that" end a phrase before them)
        "pause_before": 2,  # punctuation or a bracket right before it
        "pause_after": 2,  # ... right after it
        "pauses_inside": PAUSES_INSIDE,  # a comma inside is often two phrases run together
        "proposing": 2,  # in a "we propose" sentence
        "after_proposal": 2,  # ... after its "we propose": what is proposed, not its setting
        "first_cased": 4,  # how its first word is written (a name, capitals)
    }


def phrase_width() -> int:
    return sum(phrase_blocks().values())


def phrase_offsets() -> dict[str, int]:
    """Each block's first index in the weight table."""
    return dict(zip(phrase_blocks(), np.cumsum([0, *phrase_blocks().values()])[:-1].tolist(), strict=True))


@dataclass(frozen=True, slots=True)
class SpanRows:
    """The phrase features of the spans of a batch, kept where they vary: a span's start features by its
    start, its end features by its last word, so that each is looked up once however many spans share it.
    A span is a cell: a row (its start, one of `starts`) and a column (its length, one of `LENGTHS`). Every
    feature is an index into the weight table (block offsets added)."""

    starts: IntArray
    by_start: list[IntArray]
    """Per start: "first", "before", "pause_before", "proposing", "after_proposal", "first_cased"."""
    by_last_word: list[IntArray]
    """Per word of the batch, as a span's last: "last", "after", "pause_after"."""
    paused: IntArray
    """Per word, and one more: how many pauses come after the words before it (a running count)."""
    inside: IntArray
    """Per word of the batch: its "inside" feature."""

    def last(self, rows: IntArray, columns: IntArray) -> IntArray:
        """The index of each cell's last word (a span past the batch's end stops at its last word: the
        candidates stage marks it invalid anyway)."""
        ends: IntArray = np.minimum(self.starts[rows] + LENGTHS[columns] - 1, len(self.inside) - 1)
        return ends

    def pauses_inside(self, rows: IntArray, columns: IntArray) -> IntArray:
        inside = self.paused[self.last(rows, columns)] - self.paused[self.starts[rows]]
        found: IntArray = np.minimum(inside, PAUSES_INSIDE - 1) + phrase_offsets()["pauses_inside"]
        return found

    def rows(self, rows: IntArray, columns: IntArray) -> IntArray:
        """The active features but "inside" of each cell, one row each: what training reads."""
        last = self.last(rows, columns)
        return np.stack(
            [
                *(values[rows] for values in self.by_start),
                *(values[last] for values in self.by_last_word),
                self.pauses_inside(rows, columns),
            ],
            axis=1,
        )


def phrase_ids(ids: IntArray) -> IntArray:
    """Vocabulary ids as the phrase model's: the commonest `PHRASE_WORDS` keep theirs, the rest share 0."""
    return np.where(ids <= PHRASE_WORDS, ids, 0)


def span_rows(analysis: Analysis, ids: IntArray, starts: IntArray) -> SpanRows:
    """Features of the spans of every length in `LENGTHS` from each of `starts` (word indexes of the batch,
    with `ids` their vocabulary ids)."""
    offsets = phrase_offsets()
    count = len(ids)
    words = phrase_ids(ids)
    sentence = analysis.sentence
    opening = (starts > 0) & (sentence[np.maximum(starts - 1, 0)] == sentence[starts])
    before = np.where(opening, words[np.maximum(starts - 1, 0)], EDGE)
    following = np.minimum(np.arange(1, count + 1), count - 1)
    closing = (np.arange(count) + 1 < count) & (sentence[following] == sentence)
    after = np.where(closing, words[following], EDGE)
    by_start = {
        "first": words[starts],
        "before": before,
        "pause_before": analysis.pause_before[starts].astype(np.int64),
        "proposing": analysis.proposing[sentence[starts]].astype(np.int64),
        "after_proposal": analysis.after_proposal[starts].astype(np.int64),
        "first_cased": analysis.cased[starts],
    }
    by_last_word = {"last": words, "after": after, "pause_after": analysis.pause_after.astype(np.int64)}
    return SpanRows(
        starts=starts,
        by_start=[values + offsets[name] for name, values in by_start.items()],
        by_last_word=[values + offsets[name] for name, values in by_last_word.items()],
        paused=np.concatenate(([0], np.cumsum(analysis.pause_after))),
        inside=words + offsets["inside"],
    )
