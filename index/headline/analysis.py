"""Stage 1: abstracts as the arrays the later stages read (words, where they sit, how they are cased).

A word here is what ROUGE counts (a run of letters or digits, lowercased), so what the model learns to
predict is exactly what the yardstick measures. Each word also knows the whitespace-delimited chunk it sits
in ("Voxel-CRF," holds "voxel" and "crf"): a headline starts and ends on whole chunks, never inside one.

Abstracts are analysed in batches, joined into one text: every array then covers the whole
batch, so the cost of a numpy call is paid once per batch, not once per paper (the index build makes a
headline for every paper of a listing; the reader makes one at a time).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.words import COMMON_CAPITALS, NAMING, PROPOSING

WORD: Final = re.compile(r"[A-Za-z0-9]+")
NAME_SHAPE: Final = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*$")
"""A method's name, once a word of it has a second capital or a digit ("Voxel-CRF", "GraphSAGE", "T5X")."""
NAME_TRIM: Final = "()[]{},.;:!?\"'"

LOWER, CAPITALISED, CAPITALS, DIGITS = 0, 1, 2, 3
"""How a word is written, as `Analysis.cased` gives it (a sentence's first word counts as lower)."""

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


@dataclass(frozen=True, slots=True)
class Analysis:
    """A batch of abstracts' words, in order, with the facts every later stage needs about each."""

    text: str
    """The abstracts, one-spaced, joined by spaces."""
    first_word: IntArray
    """By abstract: the index of its first word; one more entry, the number of words."""
    words: list[str]
    """Lowercased words, as ROUGE counts them."""
    document: IntArray
    """By word: which abstract of the batch it is in."""
    chunk_start: IntArray
    """Offset in `text` where each word's chunk starts (a headline starting on this word starts here)."""
    chunk_end: IntArray
    """Offset where each word's chunk ends, trailing punctuation included."""
    opens: BoolArray
    """The word is its chunk's first: a headline may start on it."""
    closes: BoolArray
    """The word is its chunk's last: a headline may end on it."""
    sentence: IntArray
    """By word: its sentence's number in the batch (no sentence spans two abstracts)."""
    first_sentence: IntArray
    """By abstract: the number of its first sentence."""
    proposing: BoolArray
    """By sentence: it states what the paper does ("we propose ...")."""
    after_proposal: BoolArray
    """By word: it comes after the "we propose" of its sentence (what is proposed, not its setting)."""
    cased: IntArray
    """`LOWER`, `CAPITALISED`, `CAPITALS` or `DIGITS`, by word."""
    letters: IntArray
    """By word: how many letters and digits it has."""
    bracketed_chunk: BoolArray
    """By word: its chunk opens with a bracket ("(LLMs)"): an aside, which no headline starts with."""
    pause_before: BoolArray
    """By word: a sentence, a bracket or punctuation ends right before its chunk (a phrase may start here)."""
    pause_after: BoolArray
    """By word: its chunk ends a sentence or a clause, or a bracket opens after it (a phrase may end here)."""
    names: list[str]
    """By abstract: the name it gives its method ("Voxel-CRF"), or ""."""
    texts: list[str]
    """By abstract: its one-spaced text."""

    def __len__(self) -> int:
        return len(self.words)

    def words_of(self, number: int) -> tuple[int, int]:
        """The range of word indexes of abstract `number`."""
        return int(self.first_word[number]), int(self.first_word[number + 1])


def analyse(texts: Sequence[str]) -> Analysis:
    """The arrays of `texts` (abstracts rendered by `render.to_plain`)."""
    texts = [" ".join(text.split()) if _unevenly_spaced(text) else text for text in texts]
    texts = [text.translate(LIGATURES) if _has_ligature(text) else text for text in texts]
    text = " ".join(texts)  # where one abstract ends and the next starts is in `document_start`
    points = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
    kind = KINDS[np.minimum(points, 128)]
    in_word = kind >= LOWER_LETTER
    edges = np.diff(np.concatenate(([False], in_word, [False])).astype(np.int8))
    starts = np.flatnonzero(edges == 1).astype(np.int64)
    ends = np.flatnonzero(edges == -1).astype(np.int64)
    count = len(starts)
    spaces = np.flatnonzero(kind == SPACE_CHARACTER)
    # A chunk runs from just after the space before a word to the space after it: "Voxel-CRF," holds two
    # words, and a headline may start only on a chunk's first word and end only on its last.
    before = np.searchsorted(spaces, starts) - 1
    chunk_start = np.where(before >= 0, spaces[np.maximum(before, 0)] + 1, 0) if len(spaces) else starts * 0
    after = np.searchsorted(spaces, ends)
    chunk_end = (
        np.where(after < len(spaces), spaces[np.minimum(after, len(spaces) - 1)], len(text))
        if len(spaces)
        else np.full(count, len(text), dtype=np.int64)
    )
    opens = np.ones(count, dtype=np.bool_)
    opens[1:] = chunk_start[1:] != chunk_start[:-1]
    closes = np.ones(count, dtype=np.bool_)
    closes[:-1] = opens[1:]
    lengths = np.array(list(map(len, texts)), dtype=np.int64)
    document_start = np.concatenate(([0], np.cumsum(lengths + 1)[:-1]))
    document = np.searchsorted(document_start, starts, side="right") - 1
    first_word = np.searchsorted(document, np.arange(len(texts) + 1), side="left").astype(np.int64)
    boundaries = np.union1d(_sentence_ends(points, kind), document_start[1:])
    sentence = np.searchsorted(boundaries, starts, side="right").astype(np.int64)
    lowered = text.lower()
    proposing = np.zeros(len(boundaries) + 1, dtype=np.bool_)
    said = np.array([match.span() for match in PROPOSING.finditer(lowered)], dtype=np.int64).reshape(-1, 2)
    proposed_in = np.searchsorted(boundaries, said[:, 0], side="right")
    proposing[proposed_in] = True
    proposal_at = np.full(len(boundaries) + 1, len(text), dtype=np.int64)  # where its "we propose" ends
    np.minimum.at(proposal_at, proposed_in, said[:, 1])
    cased = _casing(kind, starts, ends, sentence)
    bracketed = (
        points[np.minimum(chunk_start, len(points) - 1)] == ord("(") if count else np.zeros(0, dtype=np.bool_)
    )
    pause_after, pause_before = _pauses(points, chunk_end, bracketed, opens, closes, sentence)
    analysis = Analysis(
        text=text,
        first_word=first_word,
        words=_lowered_words(text, lowered, starts, ends),
        document=document,
        chunk_start=chunk_start,
        chunk_end=chunk_end,
        opens=opens,
        closes=closes,
        sentence=sentence,
        first_sentence=np.searchsorted(boundaries, document_start, side="right").astype(np.int64),
        proposing=proposing,
        after_proposal=chunk_start >= proposal_at[sentence],
        cased=cased,
        letters=ends - starts,
        bracketed_chunk=bracketed,
        pause_before=pause_before,
        pause_after=pause_after,
        names=[],
        texts=texts,
    )
    analysis.names.extend(_given_names(analysis, lowered))
    return analysis


def _pauses(
    points: npt.NDArray[np.uint32],
    chunk_end: IntArray,
    first_mark: BoolArray,
    opens: BoolArray,
    closes: BoolArray,
    sentence: IntArray,
) -> tuple[BoolArray, BoolArray]:
    """Where punctuation, a bracket (`first_mark`: the word's chunk opens with one) or a sentence's end
    separates a word's chunk from the next one."""
    count = len(chunk_end)
    if not count:
        empty = np.zeros(0, dtype=np.bool_)
        return empty, empty
    last_mark = np.isin(points[chunk_end - 1], PAUSES)
    pause_after = closes & last_mark
    pause_after[-1] = True
    pause_after[:-1] |= closes[:-1] & (first_mark[1:] | (sentence[1:] != sentence[:-1]))
    pause_before = np.zeros(count, dtype=np.bool_)
    pause_before[0] = True
    pause_before[1:] = opens[1:] & pause_after[:-1]
    pause_before |= opens & first_mark
    return pause_after, pause_before


PAUSES: Final = np.array([ord(mark) for mark in ",.;:!?)]"], dtype=np.uint32)


def _kinds() -> npt.NDArray[np.int8]:
    """By code point (128: everything past ASCII): what `analyse` tells apart."""
    kinds = np.zeros(129, dtype=np.int8)
    kinds[ord(" ")] = SPACE_CHARACTER
    for mark in ".!?":
        kinds[ord(mark)] = SENTENCE_MARK
    for opener in "$\\(":
        kinds[ord(opener)] = SENTENCE_OPENER
    kinds[ord("a") : ord("z") + 1] = LOWER_LETTER
    kinds[ord("A") : ord("Z") + 1] = UPPER_LETTER
    kinds[ord("0") : ord("9") + 1] = DIGIT
    return kinds


OTHER, SPACE_CHARACTER, SENTENCE_MARK, SENTENCE_OPENER, LOWER_LETTER, UPPER_LETTER, DIGIT = range(7)
KINDS: Final = _kinds()


def _sentence_ends(points: npt.NDArray[np.uint32], kind: npt.NDArray[np.int8]) -> IntArray:
    """Offsets where a sentence starts: after ". ", "! " or "? " before a capital, digit, "$", "\\" or "("."""
    if len(points) < 3:
        return np.zeros(0, dtype=np.int64)
    opener = kind[2:]
    ends = (
        (kind[:-2] == SENTENCE_MARK)
        & (kind[1:-1] == SPACE_CHARACTER)
        & ((opener == UPPER_LETTER) | (opener == DIGIT) | (opener == SENTENCE_OPENER))
    )
    found: IntArray = np.flatnonzero(ends).astype(np.int64) + 2
    return found


def _lowered_words(text: str, lowered: str, starts: IntArray, ends: IntArray) -> list[str]:
    """The words at `starts`..`ends`, lowercased: one regex pass over the lowered text, unless lowering
    moved or made letters (a Kelvin sign, a dotted capital I), when each word is cut out on its own."""
    words = WORD.findall(lowered)
    if len(words) == len(starts) and len(lowered) == len(text):
        return words
    return [text[start:end].lower() for start, end in zip(starts.tolist(), ends.tolist(), strict=True)]


LIGATURES: Final = str.maketrans(
    {"ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st"}
)
"""Typographic ligatures PDF-to-text tools leave in ("ﬂexible"): a word, for ROUGE and for the reader."""


LIGATURE: Final = re.compile("[\ufb00-\ufb06]")


def _has_ligature(text: str) -> bool:
    return not text.isascii() and LIGATURE.search(text) is not None


def _unevenly_spaced(text: str) -> bool:
    return "\n" in text or "\t" in text or "  " in text or "\r" in text


def _casing(kind: npt.NDArray[np.int8], starts: IntArray, ends: IntArray, sentence: IntArray) -> IntArray:
    """`LOWER`, `CAPITALISED`, `CAPITALS` or `DIGITS` for each word, from its letters' kinds."""
    if not len(starts):
        return np.zeros(0, dtype=np.int64)
    upper = np.add.reduceat((kind == UPPER_LETTER).astype(np.int64), starts)[: len(starts)]
    lower = np.add.reduceat((kind == LOWER_LETTER).astype(np.int64), starts)[: len(starts)]
    first_upper = kind[starts] == UPPER_LETTER
    starts_sentence = np.ones(len(starts), dtype=np.bool_)
    starts_sentence[1:] = sentence[1:] != sentence[:-1]
    single = ends - starts == 1
    capitalised = first_upper & (upper == 1) & ((lower > 0) | single)
    cased = np.full(len(starts), CAPITALS, dtype=np.int64)
    cased[upper == 0] = LOWER
    cased[(upper == 0) & (lower == 0)] = DIGITS
    cased[capitalised & ~starts_sentence] = CAPITALISED
    cased[capitalised & starts_sentence] = LOWER
    return cased


def name_words(name: str) -> list[str]:
    """The words of a method's name as ROUGE counts them ("Voxel-CRF" -> "voxel", "crf")."""
    return [word.lower() for word in WORD.findall(name)]


def _after_naming(lowered: str) -> Iterator[int]:
    """Offsets right after each "called ", "dubbed ", ... that starts a word."""
    for word in NAMING:
        found = lowered.find(word)
        while found >= 0:
            if found == 0 or not lowered[found - 1].isalnum():
                yield found + len(word)
            found = lowered.find(word, found + 1)


def _given_names(analysis: Analysis, lowered: str) -> list[str]:
    """By abstract, the name it gives what it proposes: a name-shaped chunk ("Voxel-CRF", "GraphSAGE") in
    a proposing sentence or right after "called"/"dubbed", said at least twice, and not one of a field's
    common tools ("CNN", "RGB-D")."""
    text = analysis.text
    named_at = np.array(sorted(_after_naming(lowered)), dtype=np.int64)
    found = np.minimum(np.searchsorted(named_at, analysis.chunk_start), max(len(named_at) - 1, 0))
    named = (
        named_at[found] == analysis.chunk_start if len(named_at) else np.zeros(len(analysis), dtype=np.bool_)
    )
    offered = (analysis.cased == CAPITALS) & (analysis.proposing[analysis.sentence] | named)
    seen: dict[int, dict[str, int]] = {}
    starts = np.cumsum([0] + [len(each) + 1 for each in analysis.texts]).tolist()
    for number in np.flatnonzero(offered).tolist():
        name = text[analysis.chunk_start[number] : analysis.chunk_end[number]].strip(NAME_TRIM)
        document = int(analysis.document[number])
        if len(name) >= 3 and name not in COMMON_CAPITALS and NAME_SHAPE.match(name):
            if _said_before(analysis, document, name, int(analysis.chunk_start[number]) - starts[document]):
                continue
            counted = seen.setdefault(document, {})
            counted[name] = max(counted.get(name, 0), 1 + bool(named[number]))
    names = [""] * len(analysis.texts)
    for document, counted in seen.items():
        said = {name: bonus + analysis.texts[document].count(name) - 1 for name, bonus in counted.items()}
        name, count = max(said.items(), key=lambda item: item[1])
        names[document] = name if count >= 2 else ""
    return names


def _said_before(analysis: Analysis, document: int, name: str, offset: int) -> bool:
    """Whether the abstract uses `name` in a sentence before the one that offers it at `offset`: a name the
    background already uses ("Unsupervised domain adaptation (UDA) seeks ...") is the field's, not the
    paper's."""
    text = analysis.texts[document]
    first = text.find(name)
    return 0 <= first < offset and _SENTENCE_END.search(text, first, offset) is not None


_SENTENCE_END: Final = re.compile(r"[.!?] (?=[A-Z0-9$\\(])")
