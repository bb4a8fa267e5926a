"""Stage 3: every span of the abstract that could be a headline, ranked by the ROUGE it is expected to earn.

A candidate is a run of 3-12 words inside one sentence that starts and ends on whole chunks, neither on a
word a title cannot start or end with (`words.py`'s lists, and the words real titles never end a phrase
on, which training finds). Its score is the expected ROUGE-1 F1 against the unseen title,
2·Σp / (words + title words), where p is the word model's chance that the title uses each of its words (a
word repeated within a sentence counts once, as ROUGE clips repeats), times the phrase model's chance that
the span is a phrase a title would hold whole, to the power `PHRASE_WEIGHT`. One vectorised pass scores
every span of a batch; each abstract then keeps its best few.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from index.headline.analysis import Analysis, name_words
from index.headline.features import Vocabulary
from index.headline.model import Model, WordScores
from index.headline.phrases import LENGTHS
from index.headline.words import (
    ADVERB_ENDING,
    CANNOT_END,
    CANNOT_START,
    ENDS_BEFORE,
    NEVER_INSIDE,
    NOT_ADVERBS,
    OPENS_A_PHRASE,
    PRAISE,
    SUBJECTS,
)

KEPT: Final = 12
"""How many of the best spans go on to the later stages (most headlines take the first that reads well)."""
NAMED: Final = 6
"""How many of the best spans are also tried headed by the method's name."""
CREDIT_SCALE: Final = 1_000_000
PROPOSING_BONUS: Final = 0.15
"""How much more a span of a "we propose" sentence is worth: a title states the contribution, while the
background sentence before it often shares as many of the title's words ("Object counting is an important
task"). Set on the development venues (`train.py --development`): ROUGE-1 0.3736 -> 0.3730 there, and in 56
of 400 of their headlines a background sentence gave way to the contribution's."""
PHRASE_WEIGHT: Final = 0.1
"""How much the phrase model's say counts against the expected ROUGE: at 0 a span is chosen for the title
words it holds however it is cut. Set on the development venues (`train.py --development`), graded blind
there (60 papers each time, beside the real title, shuffled): before `words.NEVER_INSIDE` barred clauses,
0.2 against 0 took bad headlines from 20 to 11 (better in 15 papers, worse in 6) for ROUGE-1 0.3717 ->
0.3641; once it did, 0.1 graded 10 good / 17 bad against 0.2's 8 / 18, at ROUGE-1 0.3746 against 0.3674."""


BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class WordForms:
    """`words.py`'s lists as masks by vocabulary id (each of their words is in the vocabulary): what a span
    may start after, start on, end on, end before, and never hold."""

    cannot_start: BoolArray
    cannot_end: BoolArray
    opens_a_phrase: BoolArray
    ends_before: BoolArray
    never_inside: BoolArray
    subjects: BoolArray
    praise: BoolArray
    adverbs: BoolArray
    """Words ending in "ly" that are not in `words.NOT_ADVERBS`."""


@cache
def word_forms(vocabulary: Vocabulary) -> WordForms:
    """The masks for `vocabulary`, made once per model."""

    def marked(words: frozenset[str]) -> BoolArray:
        mask = np.zeros(vocabulary.size, dtype=np.bool_)
        mask[[vocabulary.ids[word] for word in words if word in vocabulary.ids]] = True
        return mask

    adverbs = frozenset(word for word in vocabulary.ids if word.endswith(ADVERB_ENDING)) - NOT_ADVERBS
    return WordForms(
        cannot_start=marked(CANNOT_START),
        cannot_end=marked(CANNOT_END),
        opens_a_phrase=marked(OPENS_A_PHRASE),
        ends_before=marked(ENDS_BEFORE),
        never_inside=marked(NEVER_INSIDE),
        subjects=marked(SUBJECTS),
        praise=marked(PRAISE),
        adverbs=marked(adverbs),
    )


@dataclass(frozen=True, slots=True)
class Candidate:
    """Words `first` to `last` (inclusive) of the batch, with `name` put before them when set."""

    first: int
    last: int
    score: float
    form: float = 1.0
    """The phrase model's factor in `score` (the rest is the expected ROUGE)."""
    name: str = ""

    def text(self, analysis: Analysis) -> str:
        span = analysis.text[analysis.chunk_start[self.first] : analysis.chunk_end[self.last]]
        if not self.name:
            return span
        if span[:1] == "(" and span.rstrip(".,;:")[-1:] == ")":  # "FOCUS: (Foundation ... Shift)": the
            span = span.rstrip(".,;:")[1:-1]  # name's spelling-out, its brackets no longer needed
        return f"{self.name}: {span}"


@dataclass(frozen=True, slots=True)
class Pool:
    """The best candidates of each abstract of a batch, abstract after abstract, best first: arrays that
    become `Candidate`s only when a line is made of them."""

    sizes: npt.NDArray[np.int64]
    """By abstract: how many candidates it has."""
    first: npt.NDArray[np.int64]
    last: npt.NDArray[np.int64]
    score: npt.NDArray[np.float64]
    form: npt.NDArray[np.float64]
    names: list[str]
    """By candidate: the name put before it, or ""."""

    def candidate(self, index: int) -> Candidate:
        return Candidate(
            int(self.first[index]),
            int(self.last[index]),
            float(self.score[index]),
            float(self.form[index]),
            self.names[index],
        )


@dataclass(frozen=True, slots=True)
class Scored:
    """Every span of a batch that starts where a headline may, scored (-1 where it may not be one)."""

    analysis: Analysis
    starts: npt.NDArray[np.int64]
    """The words a headline may start on, in order."""
    scores: npt.NDArray[np.float64]
    """Shape (starts, spans' lengths): the span of `LENGTHS[column]` words from the row's start."""
    forms: npt.NDArray[np.float64]
    """The same shape: the phrase model's factor in each score."""
    probabilities: npt.NDArray[np.float64]
    ids: npt.NDArray[np.int64]
    """By word: its vocabulary id."""
    title_words: float
    longest: int
    """Characters a span may have: a named variant must fit in them too."""
    rows: list[int]
    """By abstract: its first row of `scores`; one more entry, the number of rows."""

    def ranked(self, number: int) -> Iterator[Candidate]:
        """Abstract `number`'s best spans, best first, with named variants among them when it names its
        method. Lazily: most abstracts take their first."""
        first, stop = self.rows[number], self.rows[number + 1]
        flat = self.scores[first:stop].ravel()
        if not flat.size:
            return
        named = bool(self.analysis.names[number])
        best = int(np.argmax(flat))
        if flat[best] <= 0:
            return
        if not named:
            yield self._candidate(first, best, flat)
        kept = min(KEPT, flat.size)
        chosen = np.argpartition(-flat, kept - 1)[:kept]
        chosen = chosen[np.argsort(-flat[chosen], kind="stable")].tolist()
        if named:
            best_few = [self._candidate(first, index, flat) for index in chosen[:NAMED] if flat[index] > 0]
            yield from _with_name(self, number, best_few)
        for index in chosen[NAMED if named else 0 :]:
            if flat[index] > 0 and (named or index != best):
                yield self._candidate(first, index, flat)

    def pools(self, size: int) -> Pool:
        """Each abstract's best `size` spans, and the best `NAMED` of them headed by the method's name when
        it names one, by score: what the ranker compares."""
        parts: list[tuple[npt.NDArray[Any], ...]] = []
        names: list[str] = []
        best_of = self._best(size)
        for number in range(len(self.rows) - 1):
            first, stop = self.rows[number], self.rows[number + 1]
            flat = self.scores[first:stop].ravel()
            kept = best_of[number]
            row, column = first + kept // LENGTHS.size, kept % LENGTHS.size
            starts = self.starts[row]
            found = (starts, starts + LENGTHS[column] - 1, flat[kept], self.forms[row, column])
            if not kept.size or not self.analysis.names[number]:
                parts.append(found)
                names.extend([""] * kept.size)
                continue
            best = [self._candidate(first, int(index), flat) for index in kept[:NAMED]]
            named = [candidate for candidate in _with_name(self, number, best) if candidate.name]
            # In the order the candidates stage ranks them: the best few, their named variants, the rest.
            joined = [
                np.concatenate([part[:NAMED], extra, part[NAMED:]])
                for part, extra in zip(
                    found,
                    (
                        [candidate.first for candidate in named],
                        [candidate.last for candidate in named],
                        [candidate.score for candidate in named],
                        [candidate.form for candidate in named],
                    ),
                    strict=True,
                )
            ]
            spelled = (
                [""] * min(NAMED, kept.size) + [c.name for c in named] + [""] * max(kept.size - NAMED, 0)
            )
            order = np.argsort(-joined[2], kind="stable")
            parts.append(tuple(part[order] for part in joined))
            names.extend(spelled[index] for index in order.tolist())
        return Pool(
            sizes=np.array([len(part[0]) for part in parts], dtype=np.int64),
            first=np.concatenate([part[0] for part in parts]).astype(np.int64),
            last=np.concatenate([part[1] for part in parts]).astype(np.int64),
            score=np.concatenate([part[2] for part in parts]).astype(np.float64),
            form=np.concatenate([part[3] for part in parts]).astype(np.float64),
            names=names,
        )

    def _best(self, size: int) -> list[npt.NDArray[np.int64]]:
        """By abstract: the cells (in its rows' flattened `scores`) of its best `size` spans, best first,
        ties in cell order. One sort for the batch."""
        flat = self.scores.ravel()
        cells = np.flatnonzero(flat > 0)
        width = LENGTHS.size
        abstract = np.searchsorted(self.rows, cells // width, side="right") - 1
        sorted_ = np.lexsort((cells, -flat[cells], abstract))
        owner = abstract[sorted_]
        local = cells[sorted_] - np.asarray(self.rows[:-1], dtype=np.int64)[owner] * width
        starts = np.searchsorted(owner, np.arange(len(self.rows) - 1))
        stops = np.searchsorted(owner, np.arange(len(self.rows) - 1), side="right")
        return [local[start : min(stop, start + size)] for start, stop in zip(starts, stops, strict=True)]

    def _candidate(self, first: int, index: int, flat: npt.NDArray[np.float64]) -> Candidate:
        row, column = first + index // LENGTHS.size, index % LENGTHS.size
        start = int(self.starts[row])
        return Candidate(
            start, start + int(LENGTHS[column]) - 1, float(flat[index]), form=float(self.forms[row, column])
        )


def scored(analysis: Analysis, scores: WordScores, model: Model, longest: int) -> Scored:
    """Every span of at most `longest` characters of every abstract of the batch, scored."""
    forms = word_forms(model.vocabulary)
    ids = scores.ids
    may_start = ~forms.cannot_start[ids] & (
        analysis.pause_before
        | (_before(forms.opens_a_phrase[ids]) & ~_before(forms.subjects[ids]))
        | _before(forms.praise[ids])
    )
    may_end = (
        ~forms.cannot_end[ids]
        & ~forms.adverbs[ids]
        & ~model.never_ends[ids]
        & (analysis.pause_after | _after(forms.ends_before[ids]))
    )
    # In whole millionths: a running sum over the batch is then exact, so a span scores the same whatever
    # else is in its batch (a float sum's rounding would depend on it, and flip near-ties).
    credit = np.where(scores.first_in_sentence, np.rint(scores.probabilities * CREDIT_SCALE), 0).astype(
        np.int64
    )
    summed = np.concatenate(([0], np.cumsum(credit)))
    forbidden = np.concatenate(([0], np.cumsum(forms.never_inside[ids])))
    starts = np.flatnonzero(analysis.opens & may_start & ~analysis.bracketed_chunk)
    sentence_last = (np.cumsum(np.bincount(analysis.sentence)) - 1)[analysis.sentence[starts]][:, None]
    last = starts[:, None] + LENGTHS[None, :] - 1
    ends = np.minimum(last, sentence_last)  # a span never runs past its sentence: those are marked invalid
    valid = (
        (last <= sentence_last)
        & (forbidden[ends + 1] == forbidden[starts][:, None])
        & (analysis.closes & may_end)[ends]
        & (analysis.chunk_end[ends] - analysis.chunk_start[starts][:, None] <= longest)
    )
    # Only the spans that may be headlines are scored: a fraction of them all.
    cells = np.flatnonzero(valid)
    row, column = cells // LENGTHS.size, cells % LENGTHS.size
    gained = (summed[ends.ravel()[cells] + 1] - summed[starts[row]]) / CREDIT_SCALE
    expected = 2 * gained / (LENGTHS[column] + model.title_words)
    bonus = np.where(analysis.proposing[analysis.sentence[starts[row]]], 1.0 + PROPOSING_BONUS, 1.0)
    # sigmoid(logit) ** weight, in logs: -weight * log(1 + e^-logit)
    factor = np.exp(
        -PHRASE_WEIGHT * np.logaddexp(0.0, -model.phrase_logits(analysis, ids, starts, row, column))
    )
    phrase = np.ones(valid.shape)
    phrase.ravel()[cells] = factor
    values = np.full(valid.shape, -1.0)
    values.ravel()[cells] = expected * bonus * factor
    rows = np.searchsorted(starts, analysis.first_word).tolist()
    return Scored(
        analysis, starts, values, phrase, scores.probabilities, ids, model.title_words, longest, rows
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


def _with_name(scored: Scored, number: int, found: list[Candidate]) -> list[Candidate]:
    """`found` plus, for each span that lacks it, the span headed by the method's name ("Voxel-CRF: ..."),
    scored the same way: a title usually leads with the name, so the model's chance for it decides."""
    analysis = scored.analysis
    name = analysis.names[number]
    words_of_name = set(name_words(name))
    name_credit = named_credit(scored, number)
    named: list[Candidate] = []
    for candidate in found:
        span = candidate.text(analysis)
        if name in span or len(span) + len(name) + 2 > scored.longest:
            continue
        span_words = candidate.last - candidate.first + 1
        before = candidate.score / candidate.form * (span_words + scored.title_words) / 2
        expected = 2 * (before + name_credit) / (span_words + len(words_of_name) + scored.title_words)
        named.append(
            Candidate(candidate.first, candidate.last, expected * candidate.form, candidate.form, name)
        )
    return sorted([*found, *named], key=lambda candidate: -candidate.score)


def named_credit(scored: Scored, number: int) -> float:
    """The word model's summed chances for the words of abstract `number`'s method name (0 with none)."""
    analysis = scored.analysis
    first, stop = analysis.words_of(number)
    credit = 0.0
    for word in set(name_words(analysis.names[number])):
        try:
            credit += float(scored.probabilities[analysis.words.index(word, first, stop)])
        except ValueError:  # a name word the abstract never spells on its own ("GraphSAGE" is one)
            continue
    return credit
