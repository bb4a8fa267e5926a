"""ROUGE as issue 25 measures headlines: lowercased words (letters and digits), stopwords kept, F1 of the
unigram overlap (ROUGE-1) and of the longest common subsequence (ROUGE-L). Training and `bench/` share it."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Final

WORD: Final = re.compile(r"[a-z0-9]+")


def rouge_words(text: str) -> list[str]:
    return WORD.findall(text.lower())


def rouge_1(candidate: Sequence[str], reference: Sequence[str]) -> float:
    overlap = sum((Counter(candidate) & Counter(reference)).values())
    if not overlap:
        return 0.0
    precision, recall = overlap / len(candidate), overlap / len(reference)
    return 2 * precision * recall / (precision + recall)


def rouge_l(candidate: Sequence[str], reference: Sequence[str]) -> float:
    if not candidate or not reference:
        return 0.0
    previous = [0] * (len(reference) + 1)
    for word in candidate:
        current = [0]
        for column, other in enumerate(reference, start=1):
            current.append(previous[column - 1] + 1 if word == other else max(previous[column], current[-1]))
        previous = current
    common = previous[-1]
    if not common:
        return 0.0
    precision, recall = common / len(candidate), common / len(reference)
    return 2 * precision * recall / (precision + recall)
