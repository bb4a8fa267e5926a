"""Turning what the user typed into a Whoosh query: syntax, state filters, and a plain-words fallback.

Part of the search package (Whoosh stays behind the types in `index.search.answers`): a malformed query never
raises, it is searched as plain words and the caller tells the user so. What a parsed `word*` becomes is
prefix_query.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from whoosh import qparser, query

from index.search.bounds import MAX_EDITS, MAX_QUERY_CHARS
from index.search.prefix_query import DocFrequency, mend_leaves, with_prefixes
from index.search.schema import DEFAULT_FIELDS

FIELD_ALIASES = {
    "authors": ["author"],
    "status": ["track"],
    "source": ["listing"],
}
KNOWN_FIELDS = frozenset(
    {"headline", "title", "abstract", "authors", "venue", "year", "status", "source", "id", "is"}
).union(*FIELD_ALIASES.values())
STATE_FILTERS = ("starred", "unread", "read", "foryou")
TAG_FILTER, NOTE_FILTER, FOR_YOU_TAG_FILTER = "tag:", "note:", "foryou:"
"""Tag and note filters come out of parsing as "tag:NAME" / "note:WORDS" ("-" first: without them), for
whoever holds the marks (`Matched.filters`); `foryou:NAME` as "foryou:NAME", which `index.views` turns into
a for-you list seeded by the tag."""
FUZZY_PREFIX = 1

QUERY_HELP = """\
Query syntax
  diffusion models        papers with all the words (word forms match: memorize finds memorization)
  "exact phrase"          the words next to each other, in this order
  graph OR network        either word;  NOT word  or  -word  leaves papers with the word out
  (a OR b) c              parentheses group
  diffu*                  words starting with diffu
  difusion~               words within one typo (difusion~2: two typos)
  title:graph             in the listing's own title only (a paper listed without one has none)
  headline:graph          in the line the list shows: the title, or the headline made for a paper without
                          one; also abstract: author: venue: status: (or track:) source: (the listing) id:
  year:2024  year:[2020 TO 2024]
  is:starred  is:unread  is:read      only papers you starred / have not read / have read
  is:foryou                           unread papers most like your starred ones, best first
  tag:later  -tag:later               papers with / without your tag (any case)
  foryou:later                        unread papers most like your papers tagged later
  note:dataset  note:"open source"    papers whose note has the word / the words in a row (prefix: data*)
These filters apply to the whole query (they do not combine with OR or parentheses).
An empty query lists every paper in listing order. A query that cannot be parsed (an unbalanced quote or
parenthesis, a lone AND or -, title: with nothing after it) is searched as plain words; you are told so."""

_STATE_RE = re.compile(r"(?<!\S)is:(\S*)")
_MARK_RE = re.compile(r'(?<!\S)(-?)(tag|note|foryou):("[^"]*"|\S*)', re.IGNORECASE)
_OPERATORS = frozenset({"AND", "OR", "NOT", "ANDNOT", "ANDMAYBE"})
_WORD_RE = re.compile(r"\w+")
# `-word` excludes a word only at the start of a term, so `weak-to-strong` stays one hyphenated term.
_MINUS = r"(?<![^\s(])-(?=[\w\"(])"
_PLUS = r"(?<![^\s(])\+(?=[\w\"(])"
_FIELD_RE = re.compile(r"(?<![^\s(\-+])(\w+):")
_LAST_WORD_RE = re.compile(r"(?:^|(?<=[\s(]))[-+]?(\w+)$")
"""A last word as typed: at the end, after a space or "(" (so not a field's value), maybe with a - or +."""


class _FuzzyPlugin(qparser.FuzzyTermPlugin):  # type: ignore[misc]
    """`word~` with the first letter fixed unless `~n/m` says otherwise.

    Without a fixed prefix every fuzzy term walks the whole lexicon of every field (over a second at 56k
    abstracts); typos in the first letter are rare enough to trade for that.
    """

    def create(self, parser: Any, match: Any) -> Any:
        node = super().create(parser, match)
        if not match.group("prefix"):
            node.prefixlength = FUZZY_PREFIX
        return node


@dataclass(frozen=True, slots=True)
class ParsedQuery:
    """The query to run (None: no words, list everything), state filters, and a notice when not as typed."""

    text: str
    """The typed text minus the `is:` filters: the key for the result cache."""
    query: Any
    filters: tuple[str, ...]
    notice: str | None
    words: tuple[str, ...]
    """Plain words of the query (no fields, no operators), for the "did you mean" check."""
    fallback: bool = False
    """The query was malformed and is searched as plain words."""


class QueryParsers:
    """The two parsers for one schema: the full syntax, and the plain-words fallback (OR, no operators)."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        full = qparser.MultifieldParser(list(DEFAULT_FIELDS), schema, group=qparser.AndGroup)
        full.remove_plugin_class(qparser.BoostPlugin)
        full.add_plugin(_FuzzyPlugin())
        full.add_plugin(qparser.PlusMinusPlugin(plusexpr=_PLUS, minusexpr=_MINUS))
        full.add_plugin(qparser.FieldAliasPlugin(FIELD_ALIASES))
        self.full = full
        plain = qparser.MultifieldParser(list(DEFAULT_FIELDS), schema, group=qparser.OrGroup)
        for plugin in (
            qparser.FieldsPlugin,
            qparser.PhrasePlugin,
            qparser.WildcardPlugin,
            qparser.RangePlugin,
        ):
            plain.remove_plugin_class(plugin)
        plain.remove_plugin_class(qparser.GroupPlugin)
        plain.remove_plugin_class(qparser.OperatorsPlugin)
        plain.remove_plugin_class(qparser.BoostPlugin)
        self.plain = plain

    def parse(self, typed: str, frequency: DocFrequency | None = None) -> ParsedQuery:
        """Parse `typed`; never raises.

        `frequency` (the index's document frequencies) lets each `word*` rank its completions below the
        whole word (`whole_word_or_prefix`); without it they rank as the whole word does.
        """
        filters: list[str] = []
        unknown: list[str] = []
        cut = _cut(typed)

        def take(match: re.Match[str]) -> str:
            name = match.group(1).lower()
            (filters if name in STATE_FILTERS else unknown).append(name)
            return " "

        text = " ".join(_STATE_RE.sub(take, cut or typed).split())
        notices = (
            []
            if cut is None
            else [f"only the first {MAX_QUERY_CHARS:,} characters of the query are searched"]
        )
        notices += [
            f"unknown filter is:{name} ignored (use is:starred, is:unread, is:read or is:foryou)"
            for name in unknown
        ]
        text = _take_mark_filters(text, filters, notices)
        words = tuple(plain_words(text))
        if not text:
            return ParsedQuery(text, None, tuple(dict.fromkeys(filters)), _join(notices), words)
        problem = malformed(text)
        parsed = None
        if problem is None:
            try:
                parsed = self.full.parse(text)
            except Exception as error:  # Whoosh's parser raises assorted types on odd input; none may escape.
                problem = f"could not parse it ({type(error).__name__})"
            else:
                parsed = bounded(parsed, notices)
                if parsed is None:
                    return ParsedQuery(
                        text, query.NullQuery, tuple(dict.fromkeys(filters)), _join(notices), words
                    )
                if parsed is query.NullQuery or isinstance(parsed, type(query.NullQuery)):
                    problem = "it has no words to search for"
                mend_leaves(parsed, text)
                parsed = with_prefixes(parsed, self.schema, frequency)
        if problem is not None:
            lowered = [word.lower() for word in _WORD_RE.findall(text)]
            parsed = self.plain.parse(" ".join(lowered)) if lowered else None
            notices.insert(0, f"query {problem}; searched for the words as plain words")
        return ParsedQuery(
            text, parsed, tuple(dict.fromkeys(filters)), _join(notices), words, problem is not None
        )

    def near_words(self, text: str, analyzer: Any) -> Any:
        """The words of `text` within two typos, in titles or abstracts: the last resort for a malformed query
        whose plain words found nothing (`unbalanced` still finds `balanced`)."""
        terms = [token.text for token in analyzer(" ".join(_WORD_RE.findall(text)))]
        if not terms:
            return None
        return query.Or(
            [
                query.FuzzyTerm(field, term, maxdist=2, prefixlength=0)
                for term in terms
                for field in DEFAULT_FIELDS[:2]
            ]
        )


def _cut(typed: str) -> str | None:
    """`typed` cut to `MAX_QUERY_CHARS` at a space (or mid-word if it has none), or None when it fits."""
    if len(typed) <= MAX_QUERY_CHARS:
        return None
    head = typed[:MAX_QUERY_CHARS]
    space = head.rfind(" ")
    return head[:space] if space > 0 else head


def bounded(parsed: Any, notices: list[str]) -> Any:
    """`parsed` within what one search may ask (bounds.py), saying what changed in `notices`: a wildcard that
    is nothing but wildcards (`*`, `?*`: every word of the index) is left out, and `word~N` allows at most
    `MAX_EDITS` typos. None when nothing is left to search."""
    said: set[str] = set()

    def bound(node: Any) -> Any:
        if isinstance(node, query.Every) or (type(node) is query.Wildcard and not node.text.strip("*?")):
            shown = getattr(node, "text", None) or "*"
            if shown not in said:
                said.add(shown)
                notices.append(
                    f"{shown} alone stands for every word; left out (put letters with it: diffu*, *former)"
                )
            return query.NullQuery
        if isinstance(node, query.FuzzyTerm) and node.maxdist > MAX_EDITS:
            shown = f"~{node.maxdist}"
            if shown not in said:
                said.add(shown)
                notices.append(f"{shown} allows at most {MAX_EDITS} typos; searched with {MAX_EDITS}")
            node.maxdist = MAX_EDITS
        return node

    kept = parsed.accept(bound).normalize()
    if said and (kept is query.NullQuery or isinstance(kept, type(query.NullQuery))):
        return None
    return kept


def last_word_as_prefix(text: str) -> str:
    """`text` with its last word marked as a prefix (`graph neu` -> `graph neu*`): what the reader searches
    while that word is being typed, so that every keystroke narrows the list instead of emptying it.

    A word followed by a space is finished; one inside or just after quotes is part of a phrase; a field's
    value (`year:2023`), an operator, a group's closing parenthesis or a word already marked (`*`, `~`) is
    left as it is.
    """
    if not text or text[-1].isspace() or text.count('"') % 2 or text.endswith('"'):
        return text
    found = _LAST_WORD_RE.search(text)
    if found is None or found.group(1) in _OPERATORS:
        return text
    return f"{text}*"


def malformed(text: str) -> str | None:
    """Why `text` is not a well-formed query, or None: the cases Whoosh would silently guess at."""
    if text.count('"') % 2:
        return "has an unbalanced quote"
    outside = re.sub(r'"[^"]*"', '""', text)  # a phrase stays a token: `title:"a b"` has a value
    problem = _unbalanced(outside) or _lone_token(outside)
    if problem is not None:
        return problem
    for match in _FIELD_RE.finditer(outside):
        if match.group(1).lower() not in KNOWN_FIELDS:
            return f"names an unknown field {match.group(1)}:"
    return None


def _unbalanced(outside: str) -> str | None:
    """An unbalanced parenthesis or range bracket outside the phrases."""
    depth = 0
    for char in outside:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            break
    if depth:
        return "has an unbalanced parenthesis"
    if outside.count("[") != outside.count("]") or outside.count("{") != outside.count("}"):
        return "has an unbalanced range bracket"
    return None


def _lone_token(outside: str) -> str | None:
    """A `-`, `+` or operator with nothing to apply to, or a field with no value."""
    tokens = re.sub(r"(?<!:)\(|\)", " ", outside).split()  # `venue:(a b)` keeps its `(`: it has a value
    for number, token in enumerate(tokens):
        if token in ("-", "+"):
            return f"has a lone {token}"
        if token in _OPERATORS:
            before = tokens[number - 1] if number else None
            after = tokens[number + 1] if number + 1 < len(tokens) else None
            binary = token != "NOT"
            if after is None or after in _OPERATORS or (binary and (before is None or before in _OPERATORS)):
                return f"has a lone {token}"
        if token.endswith(":") and _FIELD_RE.fullmatch(token):
            return f"has {token} with nothing after it"
    return None


def mark_filters(typed: str) -> list[str]:
    """The `tag:`/`note:`/`foryou:` filters of a query, as `QueryParsers.parse` takes them ("-" first)."""
    filters: list[str] = []
    _take_mark_filters(typed, filters, [])
    return filters


def _take_mark_filters(text: str, filters: list[str], notices: list[str]) -> str:
    """Move `tag:`/`note:`/`foryou:` filters (`-` first: without) from `text` to `filters`; say when one is
    empty, or when a `-foryou:` asks for something that has no meaning (papers unlike a tag's)."""

    def take(match: re.Match[str]) -> str:
        negate, kind, value = match.group(1), match.group(2).lower(), match.group(3).strip('"').strip()
        if not value:
            notices.append(f"{kind}: needs {'words' if kind == 'note' else 'a tag name'} after it; ignored")
        elif negate and kind == "foryou":
            notices.append("-foryou: has no meaning (use foryou:NAME for papers like a tag's); ignored")
        else:
            prefix = {"tag": TAG_FILTER, "note": NOTE_FILTER}.get(kind, FOR_YOU_TAG_FILTER)
            filters.append(f"{negate}{prefix}{' '.join(value.split())}")
        return " "

    return " ".join(_MARK_RE.sub(take, text).split())


def plain_words(text: str) -> list[str]:
    """Bare words (no field, operator, wildcard or fuzzy mark): the ones a misspelling check may correct."""
    words = []
    for token in re.sub(r'"[^"]*"', " ", text).split():
        token = token.strip("()")
        if token in _OPERATORS or ":" in token or "*" in token or "?" in token or "~" in token:
            continue
        token = token.lstrip("+-")
        if re.fullmatch(r"[^\W\d_]{3,}", token):
            words.append(token)
    return words


def _join(notices: list[str]) -> str | None:
    return "; ".join(notices) or None
