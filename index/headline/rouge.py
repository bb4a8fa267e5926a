"""ROUGE as issue 25 measures headlines: lowercased words (letters and digits), stopwords kept, F1 of the
unigram overlap (ROUGE-1) and of the longest common subsequence (ROUGE-L); and the baselines a headline is
measured against (the lead sentence, the "we propose" sentence, cut at 90 characters). Training and `bench/`
share them."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Final

WORD: Final = re.compile(r"[a-z0-9]+")
CUT: Final = 90
SENTENCE_END: Final = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9$\\(])")
PROPOSE: Final = re.compile(r"\bwe (?:propose|introduce|present)\b", re.IGNORECASE)


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


def cut(text: str, limit: int = CUT) -> str:
    """At most `limit` characters, ending at a word boundary."""
    if len(text) <= limit:
        return text
    return text[:limit].rsplit(" ", 1)[0]


def sentences(plain: str) -> list[str]:
    return [part.strip() for part in SENTENCE_END.split(plain) if part.strip()]


def lead_sentence(plain: str) -> str:
    """The abstract's first sentence, cut at `CUT` characters."""
    found = sentences(plain)
    return cut(found[0]) if found else ""


def proposing_sentence(plain: str) -> str:
    """The first sentence saying "we propose" (or introduce, present), cut; else the lead sentence."""
    for sentence in sentences(plain):
        if PROPOSE.search(sentence):
            return cut(sentence)
    return lead_sentence(plain)
