"""Stage 3b: an abstract's best candidates compared by a learned ranker, which reorders them.

The candidates stage scores each span on its own (the ROUGE its words are expected to earn, times how well
it is cut); the ranker looks at the best `POOL` of them side by side, with what that score leaves out:
where the span sits (which sentence, how far in, whether it states the contribution), how its words are
cased, how sure the word model is of its weakest word, how rare its words are, whether it repeats the
first sentence, and how it compares with the abstract's best. Its trees (`trees.py`) are fitted by
`train.py` with LambdaRank, each abstract's candidates labelled by their ROUGE-1 against the real title,
so it learns which of them comes closest to the title rather than how good each is alone.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from index.headline.analysis import CAPITALISED, CAPITALS, DIGITS, Analysis, name_words
from index.headline.candidates import Candidate, Pool, Scored, named_credit, word_forms
from index.headline.model import Model

POOL: Final = 24
"""Spans per abstract the ranker compares (plus their variants headed by the method's name)."""
FEATURES: Final = (
    "score",  # the candidates stage's score
    "score_of_best",  # ... over the abstract's best
    "rank",  # its place by that score
    "pool",  # how many candidates the abstract has
    "form",  # the phrase model's factor in the score
    "words",
    "characters",
    "chance_sum",  # the word model's chances that the title uses each word
    "chance_mean",
    "chance_least",
    "chance_most",
    "chance_first",
    "chance_last",
    "sentence",  # which sentence of the abstract
    "sentences",  # of how many
    "position",  # how far into the abstract it starts, as a fraction
    "offset_in_sentence",  # words of its sentence before it
    "of_sentence",  # the share of its sentence it covers
    "proposing",  # its sentence says "we propose ..."
    "after_proposal",  # it starts after the "we propose"
    "capitalised",  # share of its words capitalised mid-sentence or in capitals
    "digits",  # share of its words that are numbers
    "first_cased",
    "pause_before",  # punctuation or a sentence's start right before it
    "pause_after",
    "pauses_inside",  # commas and the like inside it
    "function_words",  # share of words no title ends on ("of", "the", "with")
    "in_first_sentence",  # share of its words the first sentence also uses
    "idf_mean",
    "idf_most",
    "repeats",  # how often the abstract uses its words, on average
    "consensus",  # how many of the abstract's candidates share its words, on average
    "holds_name",  # it spells the method's name
    "opens_with_ing",  # its first word ends in "ing" ("Learning ...", "Scaling ...")
    "named",  # headed by the method's name
    "has_name",  # the abstract names its method
    "name_credit",
    "abstract_words",
)
FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def ordered(spans: Scored, model: Model) -> list[Iterator[Candidate]]:
    """Each abstract's candidates, the one the ranker expects to come closest to the title first (made
    as they are asked for: most abstracts take their first); in the candidates stage's own order when
    the model has no ranker."""
    count = len(spans.rows) - 1
    if model.ranker is None:
        return [spans.ranked(number) for number in range(count)]
    pool = spans.pools(POOL)
    predicted = model.ranker.predict(features(spans, pool, model))
    # By abstract, then by what the trees predict (best first), then in the pool's own order.
    ranks = np.lexsort((-predicted, np.repeat(np.arange(count), pool.sizes))).tolist()
    bounds = np.concatenate(([0], np.cumsum(pool.sizes))).tolist()
    return [map(pool.candidate, ranks[start:stop]) for start, stop in itertools.pairwise(bounds)]


def features(spans: Scored, pool: Pool, model: Model) -> FloatArray:
    """One row of `FEATURES` per candidate of `pool`, each computed from its own abstract alone, so a
    row is the same in any batch."""
    analysis = spans.analysis
    sizes = pool.sizes
    if not sizes.sum():
        return np.zeros((0, len(FEATURES)))
    document = np.repeat(np.arange(len(sizes)), sizes)
    first, last, score = pool.first, pool.last, pool.score
    names = np.array([len(name) for name in pool.names], dtype=np.float64)
    rank = np.arange(len(first)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    best = np.maximum.reduceat(score, (np.cumsum(sizes) - sizes)[sizes > 0])
    best_of = np.repeat(best, sizes[sizes > 0])

    lengths = last - first + 1
    starts = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    inside = np.repeat(first - starts, lengths) + np.arange(int(lengths.sum()))
    per_span = _PerSpan(inside, starts, lengths)
    chances = spans.probabilities
    ids = spans.ids
    forms = word_forms(model.vocabulary)
    idf = model.vocabulary.idf[ids]
    cased = analysis.cased
    word_first = analysis.first_word[document]
    abstract_words = analysis.first_word[document + 1] - word_first
    sentence = analysis.sentence[first]
    sentence_start = np.searchsorted(analysis.sentence, sentence, side="left")
    sentence_stop = np.searchsorted(analysis.sentence, sentence, side="right")
    last_sentence = analysis.sentence[analysis.first_word[1:] - 1]
    opening = analysis.first_sentence
    repeats, in_first = _word_counts(spans)
    spelled = np.fromiter(map(hash, analysis.words), np.int64, len(analysis.words))
    shared, holds_name = _shared_words(spelled, document, inside, lengths, analysis, sizes)
    credits = np.array([named_credit(spans, number) for number in range(len(sizes))])
    columns = {
        "score": score,
        "score_of_best": score / np.maximum(best_of, 1e-9),
        "rank": rank,
        "pool": sizes[document],
        "form": pool.form,
        "words": lengths,
        "characters": analysis.chunk_end[last] - analysis.chunk_start[first] + names,
        "chance_sum": per_span.sum(chances),
        "chance_mean": per_span.sum(chances) / lengths,
        "chance_least": per_span.least(chances),
        "chance_most": per_span.most(chances),
        "chance_first": chances[first],
        "chance_last": chances[last],
        "sentence": sentence - opening[document],
        "sentences": last_sentence[document] - opening[document] + 1,
        "position": (first - word_first) / np.maximum(abstract_words, 1),
        "offset_in_sentence": first - sentence_start,
        "of_sentence": lengths / (sentence_stop - sentence_start),
        "proposing": analysis.proposing[sentence],
        "after_proposal": analysis.after_proposal[first],
        "capitalised": per_span.sum((cased == CAPITALISED) | (cased == CAPITALS)) / lengths,
        "digits": per_span.sum(cased == DIGITS) / lengths,
        "first_cased": cased[first],
        "pause_before": analysis.pause_before[first],
        "pause_after": analysis.pause_after[last],
        "pauses_inside": per_span.sum(analysis.pause_after) - analysis.pause_after[last],
        "function_words": per_span.sum(forms.cannot_end[ids]) / lengths,
        "in_first_sentence": per_span.sum(in_first) / lengths,
        "idf_mean": per_span.sum(idf) / lengths,
        "idf_most": per_span.most(idf),
        "repeats": per_span.sum(repeats) / lengths,
        "consensus": per_span.mean_of(shared),
        "holds_name": holds_name,
        "opens_with_ing": [analysis.words[word].endswith("ing") for word in first.tolist()],
        "named": names > 0,
        "has_name": np.array([bool(analysis.names[number]) for number in document.tolist()]),
        "name_credit": credits[document],
        "abstract_words": abstract_words,
    }
    return np.stack([np.asarray(columns[name], dtype=np.float64) for name in FEATURES], axis=1)


class _PerSpan:
    """Sums, minima and maxima of a per-word array over each span's words (`inside` lists them, span
    after span, from `starts`), each over the span's own values alone."""

    def __init__(self, inside: IntArray, starts: IntArray, lengths: IntArray) -> None:
        self.inside, self.starts, self.lengths = inside, starts, lengths

    def sum(self, values: npt.NDArray[np.generic]) -> FloatArray:
        summed: FloatArray = np.add.reduceat(values[self.inside].astype(np.float64), self.starts)
        return summed

    def mean_of(self, values: FloatArray) -> FloatArray:
        """The mean of `values`, given per word of each span in turn (as `inside` lists them)."""
        mean: FloatArray = np.add.reduceat(values, self.starts) / self.lengths
        return mean

    def least(self, values: FloatArray) -> FloatArray:
        found: FloatArray = np.minimum.reduceat(values[self.inside], self.starts)
        return found

    def most(self, values: FloatArray) -> FloatArray:
        found: FloatArray = np.maximum.reduceat(values[self.inside], self.starts)
        return found


def _word_counts(spans: Scored) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """By word of the batch: how many times its abstract uses it (once for a word the vocabulary lacks),
    and whether its abstract's first sentence uses it."""
    analysis = spans.analysis
    ids = spans.ids
    keys = analysis.document * (int(ids.max(initial=0)) + 1) + ids
    _, inverse, counts = np.unique(keys, return_inverse=True, return_counts=True)
    repeats = np.where(ids > 0, counts[inverse], 1).astype(np.float64)
    opening = analysis.sentence == analysis.first_sentence[analysis.document]
    in_first = np.isin(keys, keys[opening]) & (ids > 0)
    return repeats, in_first


def _shared_words(
    spelled: IntArray,
    document: IntArray,
    inside: IntArray,
    lengths: IntArray,
    analysis: Analysis,
    sizes: IntArray,
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """Per word of each candidate in turn: the share of its abstract's candidates that use it; and per
    candidate: whether it spells a word of the method's name. Words are told apart by `spelled`, one hash
    per spelling (within one batch, so that a rare word outside the vocabulary still counts)."""
    candidate = np.repeat(np.arange(len(lengths)), lengths)
    owner = document[candidate]
    key = _mixed(owner, spelled[inside])
    _, once = np.unique(_mixed(candidate, key), return_index=True)  # each word once per candidate
    found, counts = np.unique(key[once], return_counts=True)
    shared = counts[np.searchsorted(found, key)] / sizes[owner]
    named = [(number, hash(word)) for number, name in enumerate(analysis.names) for word in name_words(name)]
    pairs = np.array(named, dtype=np.int64).reshape(-1, 2)
    in_name = np.isin(key, _mixed(pairs[:, 0], pairs[:, 1]))
    holds = np.add.reduceat(in_name.astype(np.int64), np.concatenate(([0], np.cumsum(lengths)[:-1]))) > 0
    return shared.astype(np.float64), holds


MIX: Final = np.uint64(0x9E3779B97F4A7C15)


def _mixed(
    numbers: npt.NDArray[np.integer[Any]], hashes: npt.NDArray[np.integer[Any]]
) -> npt.NDArray[np.uint64]:
    """One key for a (number, hash) pair: the hash scrambled by the number."""
    mixed: npt.NDArray[np.uint64] = hashes.astype(np.uint64) ^ (
        (numbers.astype(np.uint64) + np.uint64(1)) * MIX
    )
    return mixed
