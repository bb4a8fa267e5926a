"""A paper's one-line headline: its real title when it has one, else a span of its abstract chosen by a
model learned from real titles (`train.py`), in five stages:

1. `analysis`: the abstract's words, chunks, sentences, casing and the name it gives its method;
2. `model`: each word's chance of being in the title, and each span's of being a phrase a title holds
   whole (`features.py` and `phrases.py` say what each looks at);
3. `candidates`: spans scored by the ROUGE they are expected to earn and how well they are cut, with the
   name put before some; `ranking`: the best of them compared side by side by learned trees, reordered;
4. `width`: the best span as a line that fits;
5. `check`: the first line that reads as a title wins.

`headlines` does a batch at once (as an index build would); `headline` one paper; `choices` every line
that reads as a title, best first (what `distinct.py` picks from when several papers share their best).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from index.headline.analysis import Analysis, analyse
from index.headline.candidates import Candidate, scored
from index.headline.check import SHORTEST, problems
from index.headline.model import Model, shipped
from index.headline.rerank import ordered
from index.headline.width import UNTITLED, as_headline, fitted_title
from index.headline.words import CANNOT_END
from index.render.abstract import to_plain

SCAN: Final = 2000
"""Characters of the abstract read: the contribution is stated early, and a pasted paper is not read whole."""
BATCH: Final = 256
"""Abstracts analysed together: enough to spread numpy's per-call cost, few enough to keep arrays small."""


def headline(
    plain_abstract: str, title: str | None = None, max_len: int = 80, model: Model | None = None
) -> str:
    """A one-line headline of at most `max_len` characters, the same for the same input.

    Args:
        plain_abstract: the abstract as `render.to_plain` returns it.
        title: the paper's real title, if the listing has one; it wins, rendered like an abstract.
        max_len: the longest headline returned, in characters.
        model: the weights to use (tests and training pass their own); the shipped ones by default.
    """
    return headlines([plain_abstract], [title], max_len, model)[0]


def headlines(
    plain_abstracts: Sequence[str],
    titles: Sequence[str | None] | None = None,
    max_len: int = 80,
    model: Model | None = None,
) -> list[str]:
    """`headline` for many papers at once: the same lines, in a fraction of the time."""
    titles = titles if titles is not None else [None] * len(plain_abstracts)
    if len(titles) != len(plain_abstracts):
        raise ValueError(f"{len(titles)} titles for {len(plain_abstracts)} abstracts")
    made: list[str] = []
    untitled: list[int] = []
    for number, title in enumerate(titles):
        clean = to_plain(title) if title is not None else ""  # titles carry LaTeX too: "{BERT}", "\emph{..}"
        made.append(fitted_title(clean, max_len) if clean else "")
        if not clean:
            untitled.append(number)
    for start in range(0, len(untitled), BATCH):
        batch = untitled[start : start + BATCH]
        for number, line in zip(
            batch, _synthesised([plain_abstracts[n] for n in batch], max_len, model), strict=True
        ):
            made[number] = line
    return made


def _synthesised(abstracts: Sequence[str], max_len: int, model: Model | None) -> list[str]:
    model = model or shipped()
    analysis = analyse([abstract[:SCAN] for abstract in abstracts])
    spans = scored(analysis, model.scores(analysis), model, max_len + 1)
    found = ordered(spans, model)
    return [_chosen(analysis, found[number], number, max_len) for number in range(len(abstracts))]


def choices(plain_abstracts: Sequence[str], max_len: int = 80, model: Model | None = None) -> list[list[str]]:
    """Every line of each abstract that reads as a title, best first and each once: the first is its
    `headline` when one reads as a title; the rest are the next-best spans the model already scored (some
    headed by the method's name)."""
    made: list[list[str]] = []
    for start in range(0, len(plain_abstracts), BATCH):
        batch = plain_abstracts[start : start + BATCH]
        model = model or shipped()
        analysis = analyse([abstract[:SCAN] for abstract in batch])
        spans = scored(analysis, model.scores(analysis), model, max_len + 1)
        shortest = min(SHORTEST, max_len // 2)
        for candidates in ordered(spans, model):
            lines = (as_headline(candidate.text(analysis)) for candidate in candidates)
            made.append(list(dict.fromkeys(line for line in lines if not problems(line, max_len, shortest))))
    return made


def _chosen(analysis: Analysis, candidates: Iterable[Candidate], number: int, max_len: int) -> str:
    """The first of the abstract's candidates that reads as a title, else the best that is whole."""
    shortest = min(SHORTEST, max_len // 2)
    whole = ""
    for candidate in candidates:
        line = as_headline(candidate.text(analysis))
        found = problems(line, max_len, shortest)
        if not found:
            return line
        if not whole and found == [f"shorter than {shortest} characters"]:
            whole = line  # a short abstract may have no span as long as a title
    return whole or _lead(analysis.texts[number], max_len)


def _lead(text: str, max_len: int) -> str:
    """The abstract's opening words, when no span reads as a title (a two-word abstract, a formula)."""
    start = next((number for number, character in enumerate(text) if character.isalnum()), len(text))
    words = text[start : start + max_len + 1].split()
    if len(text) > max_len and len(words) > 1:
        words.pop()
    while len(words) > 1 and words[-1].lower().strip(".,;:") in CANNOT_END:
        words.pop()
    return as_headline(" ".join(words))[:max_len] or UNTITLED
