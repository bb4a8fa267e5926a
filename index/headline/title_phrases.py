"""What a real title's phrases are, and how a span of an abstract is matched to one: the labels the
phrase model (`phrases.py`) and the never-ends table are trained from (`train.py`).

A title's phrases run between its prepositions and colons ("Dynamic Filtering | with | Large Sampling
Field | for | ConvNets"); a span of an abstract is a phrase when a title repeats it word for word, which
`span_hashes` and `run_hash` find by hashing both the same way.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from index.headline.features import Vocabulary
from index.headline.phrases import LENGTHS, MOST_WORDS
from index.headline.rouge import rouge_words
from index.headline.words import DANGLING

FEWEST_TITLE_USES: Final = 20
"""Title phrases a word must be in before `phrase_ends` judges it: a rarer word says nothing."""
RAREST_END: Final = 0.05
"""A word ending fewer than this share of the title phrases it is in never ends a headline's phrase."""


def phrase_ends(titles: Sequence[str], vocabulary: Vocabulary) -> npt.NDArray[np.bool_]:
    """By vocabulary id: the word is in at least `FEWEST_TITLE_USES` phrases of the titles, and ends fewer
    than `RAREST_END` of them: a word titles only ever put before their noun ("large", "deep", "complex").
    A phrase of a title ends where the title or its part ends, or before a preposition."""
    ends, uses = Counter[str](), Counter[str]()
    for title in titles:
        for words in _title_parts(title):
            for number in _phrase_words(words):
                uses[words[number]] += 1
                ends[words[number]] += _ends_phrase(words, number)
    never = np.zeros(vocabulary.size, dtype=np.bool_)
    for word, used in uses.items():
        if used >= FEWEST_TITLE_USES and ends[word] < RAREST_END * used and word in vocabulary.ids:
            never[vocabulary.ids[word]] = True
    return never


def title_phrases(title: str) -> list[list[str]]:
    """The runs of a title's words that are phrases: from a phrase start (the title's first word, or one
    after a colon or a preposition) to a phrase end (its last word, or one before a colon or a
    preposition), of 3 to `MOST_WORDS` words, neither edge a preposition itself."""
    found = []
    for words in _title_parts(title):
        starts = [n for n in _phrase_words(words) if n == 0 or words[n - 1] in DANGLING]
        ends = [n for n in _phrase_words(words) if _ends_phrase(words, n)]
        found += [
            words[start : end + 1] for start in starts for end in ends if 3 <= end - start + 1 <= MOST_WORDS
        ]
    return found


def _title_parts(title: str) -> list[list[str]]:
    """A title's words, part by part: a colon or a dash ends a part, as "Name: what it is" has two."""
    return [rouge_words(part) for part in title.replace("\u2014", ":").split(":")]


def _phrase_words(words: Sequence[str]) -> list[int]:
    """The indexes of a title part's words that can be a phrase's edge: all but its prepositions."""
    return [number for number, word in enumerate(words) if word not in DANGLING]


def _ends_phrase(words: Sequence[str], number: int) -> bool:
    """Whether word `number` of a title part ends a phrase: the part ends, or a preposition comes next."""
    return number + 1 == len(words) or words[number + 1] in DANGLING


MASK: Final = (1 << 64) - 1
"""Python's integers do not wrap: `run_hash` masks to 64 bits, as numpy's uint64 in `span_hashes` wraps."""
HASH_BASE: Final = 1_000_003
HASH_INVERSE: Final = pow(HASH_BASE, -1, 1 << 64)
"""Odd, so invertible mod 2^64: a span's hash is a difference of prefix sums scaled back by base^start."""


def word_hash(word: str, known: dict[str, int]) -> int:
    """A word's 64-bit hash, the same in every run (Python's `hash` of a str is salted per process), kept in
    `known` since a batch repeats its words many times."""
    found = known.get(word)
    if found is None:
        found = known[word] = int.from_bytes(hashlib.blake2b(word.encode(), digest_size=8).digest(), "little")
    return found


def run_hash(words: Sequence[str], known: dict[str, int]) -> int:
    """The hash of a run of words, as `span_hashes` computes it for a span: Σ h(word k) · base^-k."""
    total, power = 0, 1
    for word in words:
        total = (total + word_hash(word, known) * power) & MASK
        power = (power * HASH_INVERSE) & MASK
    return total


def span_hashes(
    words: Sequence[str], starts: npt.NDArray[np.int64], known: dict[str, int]
) -> npt.NDArray[np.uint64]:
    """Shape (starts, `LENGTHS`): the hash of each span of a batch's words, in wrapping 64-bit arithmetic."""
    hashes = np.fromiter((word_hash(word, known) for word in words), np.uint64, len(words))
    count = len(words) + 1
    inverse_powers = np.cumprod(np.full(count, HASH_INVERSE, dtype=np.uint64))  # base^-(k+1)
    inverse_powers = np.concatenate(([np.uint64(1)], inverse_powers[:-1]))
    powers = np.cumprod(np.full(count, HASH_BASE, dtype=np.uint64))
    powers = np.concatenate(([np.uint64(1)], powers[:-1]))
    prefix = np.concatenate(([np.uint64(0)], np.cumsum(hashes * inverse_powers[:-1], dtype=np.uint64)))
    last = np.minimum(starts[:, None] + LENGTHS[None, :], len(words))
    found: npt.NDArray[np.uint64] = (prefix[last] - prefix[starts][:, None]) * powers[starts][:, None]
    return found
