""" "Did you mean": rare query words replaced by far more frequent indexed words one or two typos away."""

from __future__ import annotations

import difflib
import itertools
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from index.search.highlight import WordTerms
from index.search.typed_query import Word, read_query

if TYPE_CHECKING:
    from index.search.nearwords import NearWords

RARE_DF = 5
COMMON_FACTOR = 20


def suggest(
    reader: Any,
    words: WordTerms,
    typed: str,
    typed_words: Sequence[str],
    abstracts: Callable[[Sequence[int]], Iterable[str]],
    near: NearWords | None = None,
) -> str | None:
    """`typed` with its misspelled-looking words corrected, or None when none is.

    A word counts as misspelled when at most RARE_DF abstracts use it and a neighbour is used by at least
    COMMON_FACTOR times as many: a 56k corpus has typos of its own, so "never seen" is too strict.

    Args:
        reader: the Whoosh index reader of the generation searched.
        words: turns words into index terms and finds a term's written forms in a text.
        typed: the query as typed; the corrected query keeps everything but the corrected words.
        typed_words: its plain words (no fields, no operators).
        abstracts: the rendered abstracts of Whoosh documents, to spell a stem as people write it.
        near: the reader's abstract words by first letter, kept for the generation (what Whoosh's
            `terms_within` answers, without walking the lexicon on every keystroke).
    """
    if near is None or near.reader is not reader:
        from index.search.nearwords import NearWords  # numpy: imported on first use, not at startup

        near = NearWords(reader, "abstract")
    where: dict[str, list[Word]] = {}  # each bare word's places in `typed`, first first
    for part in read_query(typed).words:
        if part.field is None and not part.marked:
            where.setdefault(part.text, []).append(part)
    corrections: list[tuple[int, int, str]] = []
    for word in typed_words:
        best = _common_neighbour(reader, words, word, near)
        places = where.get(word)
        if best is not None and places:
            place = places.pop(0)
            corrections.append((place.start, place.end, _surface(reader, words, best, word, abstracts)))
    suggestion = typed
    for start, end, surface in sorted(corrections, reverse=True):
        suggestion = suggestion[:start] + surface + suggestion[end:]
    return suggestion if suggestion != typed else None


def _common_neighbour(reader: Any, words: WordTerms, word: str, near: NearWords) -> str | None:
    """The index term to suggest for `word`: a far more common one a typo or two away, when `word` is rare."""
    term = words.term(word.lower())
    if term is None:
        return None
    seen = reader.doc_frequency("abstract", term) + reader.doc_frequency("headline", term)
    if seen > RARE_DF:
        return None
    typos = 1 if len(term) <= 4 else 2
    candidates = [t for t in near.within(term, typos) if t != term]
    if not candidates:
        return None
    best = max(candidates, key=lambda t: (reader.doc_frequency("abstract", t), t))
    return best if reader.doc_frequency("abstract", best) >= max(COMMON_FACTOR * seen, 2) else None


def _surface(
    reader: Any,
    words: WordTerms,
    term: str,
    typed: str,
    abstracts: Callable[[Sequence[int]], Iterable[str]],
) -> str:
    """The written form of an indexed stem closest to what was typed (`transform` -> transformer, not
    transformation), from the first few abstracts that use it."""
    forms: set[str] = set()
    docnums = list(itertools.islice(reader.postings("abstract", term).all_ids(), 5))
    for plain in abstracts(docnums):
        forms.update(words.forms(plain, term))
    close = difflib.get_close_matches(typed.lower(), sorted(forms), n=1, cutoff=0)
    return close[0] if close else term
