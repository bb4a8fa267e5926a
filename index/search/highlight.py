"""Where a query matched inside rendered text: character spans and a one-line snippet around the best match.

Part of the search module: the spans come from re-tokenising the rendered text with the index's own analyzer,
so a highlighted word is exactly a word the index matched (stems, prefixes and fuzzy expansions included).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from whoosh import query as wq

from index.search.answers import MatchSpan, Snippet
from index.search.prefixes import PrefixTerm
from index.search.schema import WORD_RE

SNIPPET_CHARS = 160
_TEXTS_KEPT = 512
"""Texts whose term places `WordTerms` keeps (a few screens of abstracts, ~100 places each)."""
_CONTEXT_BEFORE = 40
_HIGHLIGHT_FIELDS = ("headline", "abstract")
_SHOWN_IN = {"title": "headline"}
"""Fields shown inside another's text: a title is what the list's line shows when the listing gave one."""


def matched_terms(parsed: Any, readers: Sequence[Any]) -> dict[str, frozenset[str]]:
    """The indexed terms, per text field, that the positive parts of `parsed` match (expansions resolved).

    `readers` are the segment readers the search used, so expansions it already made are reused.
    """
    found: dict[str, set[str]] = {field: set() for field in _HIGHLIGHT_FIELDS}
    for leaf in _positive_leaves(parsed):
        if isinstance(leaf, PrefixTerm):
            # Stored prefixes stand for the words they begin: kept as `gra*` and matched word by word where
            # a paper is highlighted, since expanding a letter or two to its thousands of words costs more
            # than the search did.
            for shown in found:
                found[shown].add(prefix_mark(leaf.typed))
            continue
        field = getattr(leaf, "fieldname", None)
        field = _SHOWN_IN.get(field, field) if isinstance(field, str) else field
        if field not in found:
            continue
        if isinstance(leaf, wq.Phrase):
            found[field].update(str(word) for word in leaf.words)
            continue
        if isinstance(leaf, wq.Term):
            found[field].add(_text(leaf.text))
            continue
        _add_expansion(found[field], leaf, field, readers)
    return {field: frozenset(terms) for field, terms in found.items()}


def _add_expansion(found: set[str], leaf: Any, field: str, readers: Sequence[Any]) -> None:
    """Add the terms of `field` that `leaf` (a prefix, wildcard or fuzzy leaf) expands to in `readers`."""
    for reader in readers:
        try:
            terms = leaf.existing_terms(reader, expand=True)
        except Exception:  # an exotic leaf type without expansion support: just no highlight for it
            return
        found.update(_text(text) for name, text in terms if name == field)


_PREFIX_MARK = "*"
"""Ends a highlight entry that stands for every term starting with it (no indexed term holds a `*`)."""


def prefix_mark(prefix: str) -> str:
    return prefix + _PREFIX_MARK


def _positive_leaves(node: Any) -> Iterable[Any]:
    """Leaves that count as matches: the excluded side of NOT / ANDNOT is skipped."""
    if isinstance(node, wq.Not):
        return
    if isinstance(node, wq.AndNot):
        yield from _positive_leaves(node.a)
        return
    if isinstance(node, wq.Phrase) or node.is_leaf():
        yield node
        return
    for child in node.children():
        yield from _positive_leaves(child)


def _text(text: Any) -> str:
    return text.decode("utf-8") if isinstance(text, bytes) else str(text)


class WordTerms:
    """Which indexed term each word of a text becomes, memoised per word.

    Running the Whoosh analyzer over a whole abstract costs ~1 ms (a generator chain per token); tokenising
    with the same word pattern and analysing each distinct word once gives the same terms (every filter in
    the chain works token by token) for a dict lookup per token.
    """

    def __init__(self, analyzer: Any) -> None:
        self._analyzer = analyzer
        self._terms: dict[str, str | None] = {}
        self._where: OrderedDict[str, dict[str | None, list[tuple[int, int]]]] = OrderedDict()

    def term(self, word: str) -> str | None:
        try:
            return self._terms[word]
        except KeyError:
            tokens = [token.text for token in self._analyzer(word)]
            term = self._terms[word] = tokens[0] if len(tokens) == 1 else None
            return term

    def spans(self, text: str, terms: frozenset[str]) -> tuple[MatchSpan, ...]:
        """Spans of the words in `text` whose indexed term is one of `terms` or starts with one of its
        prefix marks (`prefix_mark`)."""
        if not terms or not text:
            return ()
        where = self._places(text)
        prefixes = tuple(term[: -len(_PREFIX_MARK)] for term in terms if term.endswith(_PREFIX_MARK))
        if prefixes:
            terms = terms.union(found for found in where if found is not None and found.startswith(prefixes))
        places = sorted(span for found in terms for span in where.get(found, ()))
        return tuple(MatchSpan(start, end) for start, end in places)

    def _places(self, text: str) -> dict[str | None, list[tuple[int, int]]]:
        """Where each term starts in `text`, kept for the last `_TEXTS_KEPT` texts: the same abstracts are
        highlighted again as the query grows, and a term's places are then a dict lookup, not a tokenising."""
        known = self._where.get(text)
        if known is not None:
            self._where.move_to_end(text)
            return known
        where: dict[str | None, list[tuple[int, int]]] = {}
        term = self.term
        for match in WORD_RE.finditer(text):
            where.setdefault(term(match.group()), []).append(match.span())
        self._where[text] = where
        if len(self._where) > _TEXTS_KEPT:
            self._where.popitem(last=False)
        return where

    def terms_of(self, text: str) -> set[str]:
        """Every indexed term of `text`: its words, and its compounds' parts and joined forms."""
        return {token.text for token in self._analyzer(text)}

    def forms(self, text: str, term: str) -> set[str]:
        """Every written form (lowercased) of `term` in `text`."""
        return {m.group().lower() for m in WORD_RE.finditer(text) if self.term(m.group()) == term}

    def surface_words(self, text: str, terms: Iterable[str]) -> dict[str, str]:
        """The first word in `text` for each term, so a key term reads `diffusion`, not `diffus`."""
        wanted = set(terms)
        words: dict[str, str] = {}
        for match in WORD_RE.finditer(text):
            found = self.term(match.group())
            if found is not None and found in wanted and found not in words:
                words[found] = match.group().lower()
        return words


def snippet(text: str, spans: tuple[MatchSpan, ...], width: int = SNIPPET_CHARS) -> Snippet:
    """One line of about `width` characters around the densest run of matches (the start when none)."""
    start = 0
    if spans:
        reach = width - _CONTEXT_BEFORE
        best = max(
            range(len(spans)),
            key=lambda i: (sum(1 for span in spans[i:] if span.end <= spans[i].start + reach), -i),
        )
        start = max(0, spans[best].start - _CONTEXT_BEFORE)
        if start:
            space = text.rfind(" ", 0, start + 1)
            start = space + 1 if space >= 0 and start - space < 20 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", start + width // 2, end)
        end = space if space > 0 else end
    prefix = "…" if start > 0 else ""
    body = text[start:end].replace("\n", " ").replace("\t", " ")
    line = f"{prefix}{body}{'…' if end < len(text) else ''}"
    shift = len(prefix) - start
    inside = tuple(
        MatchSpan(span.start + shift, span.end + shift)
        for span in spans
        if span.start >= start and span.end <= end
    )
    return Snippet(line, inside, start)
