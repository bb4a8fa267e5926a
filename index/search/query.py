"""Turning what the user typed into a Whoosh query: syntax, state filters, and a plain-words fallback.

Part of the search package (Whoosh stays behind the types in `index.search.answers`): a malformed query never
raises, it is searched as plain words and the caller tells the user so. What a parsed `word*` becomes is
prefix_query.py's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from whoosh import qparser, query, scoring

from index.search.bounds import MAX_EDITS
from index.search.prefix_query import DocFrequency, mend_leaves, with_prefixes
from index.search.schema import DEFAULT_FIELDS
from index.search.typed_query import (
    FIELD_ALIASES,
    FUZZY_PREFIX,
    MINUS,
    PLUS,
    MarkFilter,
    read_query,
)
from index.search.vocabulary import Vocabulary, expand
from index.search.whoosh_private import boosted, counted_phrase

QUERY_HELP = """\
Query syntax
  diffusion models        papers with all the words (word forms match: memorize finds memorization)
  "exact phrase"          the words next to each other, in this order
  graph OR network        either word;  NOT word  or  -word  leaves papers with the word out
  (a OR b) c              parentheses group
  diffu*                  words starting with diffu
  difusion~               words within one typo (difusion~2: two typos, the most allowed)
  title:graph             in the listing's own title only (a paper listed without one has none)
  headline:graph          in the line the list shows: the title, or the headline made for a paper without
                          one; also abstract: author: venue: status: (or track:) source: (the listing) id:
  year:2024  year:[2020 TO 2024]     (anything else after year: is left out, with a notice)
  is:starred  is:unread  is:read      only papers you starred / have not read / have read
  is:foryou                           unread papers most like your starred ones, best first
  tag:later  -tag:later               papers with / without your tag (any case)
  foryou:later                        unread papers most like your papers tagged later
  note:dataset  note:"open source"    papers whose note has the word / the words in a row (prefix: data*)
These filters apply to the whole query (they do not combine with OR or parentheses).
An empty query lists every paper in listing order. A query that cannot be parsed (an unbalanced quote or
parenthesis, a lone AND or -, title: with nothing after it) is searched as plain words; you are told so.
A query answers within about 2 s or stops and says why: * alone is left out (put letters with it), a
wildcard standing for over 2,000 words stops, and only the first 1,000 characters are searched."""

_WORD_RE = re.compile(r"\w+")
NEAR_WORDS = 8
"""Words of a malformed query looked up by near spelling (each walks the lexicon of two fields)."""


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
    """The typed text minus its mark filters: the key for the result cache."""
    query: Any
    filters: tuple[MarkFilter, ...]
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
        full.add_plugin(qparser.PlusMinusPlugin(plusexpr=PLUS, minusexpr=MINUS))
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

    def parse(
        self, typed: str, frequency: DocFrequency | None = None, vocabulary: Vocabulary | None = None
    ) -> ParsedQuery:
        """Parse `typed`; never raises.

        `frequency` (the index's document frequencies) lets each `word*` rank its completions below the
        whole word (`whole_word_or_prefix`); without it they rank as the whole word does. `vocabulary` (the
        generation's compounds and acronyms) adds the spellings the papers use (vocabulary.py).
        """
        typed_query = read_query(typed)
        text, filters = typed_query.searched, typed_query.filters
        notices = list(typed_query.notices)
        words = typed_query.plain_words
        if not text:
            nothing = query.NullQuery if typed_query.refused else None  # all of it left out: nothing found
            return ParsedQuery(text, nothing, filters, _join(notices), words)
        problem = typed_query.problem
        parsed = None
        if problem is None:
            try:
                parsed = self.full.parse(text)
            except Exception as error:  # Whoosh's parser raises assorted types on odd input; none may escape.
                problem = f"could not parse it ({type(error).__name__})"
            else:
                parsed = bounded(parsed, notices)
                if parsed is None:
                    return ParsedQuery(text, query.NullQuery, filters, _join(notices), words)
                if parsed is query.NullQuery or isinstance(parsed, type(query.NullQuery)):
                    problem = "it has no words to search for"
                mend_leaves(parsed, text)
                parsed = with_prefixes(parsed, self.schema, frequency)
        if problem is not None:
            lowered = [word.lower() for word in _WORD_RE.findall(text)]
            parsed = self.plain.parse(" ".join(lowered)) if lowered else None
            notices.insert(0, f"query {problem}; searched for the words as plain words")
        if parsed is not None:  # every spelling of each word (vocabulary.py), whatever parser made it
            parsed = by_frequency(expand(parsed, self.schema, frequency, vocabulary))
        return ParsedQuery(text, parsed, filters, _join(notices), words, problem is not None)

    def near_words(self, text: str, analyzer: Any) -> Any:
        """The words of `text` within two typos, in titles or abstracts: the last resort for a malformed query
        whose plain words found nothing (`unbalanced` still finds `balanced`). Only words in no field: a
        field's value is checked, never widened; and only the first `NEAR_WORDS`, each a lexicon walk."""
        typed = read_query(text)
        bare = [word.text for word in typed.words if word.field is None]
        bare += [phrase.text for phrase in typed.phrases if phrase.field is None]
        terms = [token.text for token in analyzer(" ".join(_WORD_RE.findall(" ".join(bare))))][:NEAR_WORDS]
        if not terms:
            return None
        return query.Or(
            [
                query.FuzzyTerm(field, term, maxdist=2, prefixlength=0)
                for term in terms
                for field in DEFAULT_FIELDS[:2]
            ]
        )


class FrequencyPhrase(query.Phrase):  # type: ignore[misc]
    """A phrase ranked by how often the paper writes the phrase, as BM25F ranks a term by how often it is
    written: the phrase's count in the field, saturated and normalised by the field's length like a term's,
    times the summed idf of its words (BM25F's K1 and the field's B, the same as for a term).

    Whoosh's own phrase scores the words one by one, each by its count anywhere in the paper: "2 d" in a
    formula ranked by how many times the paper writes `2` and `d`, "markov chain monte carlo" by every
    `chain`. Matching is Whoosh's (the same papers); only the score differs. The array ranker (fastrank.py)
    steps this matcher like any phrase, so both paths give the same scores.
    """

    def matcher(self, searcher: Any, context: Any = None) -> Any:
        words = query.Phrase(self.fieldname, self.words, slop=self.slop, degrade=self.degrade)
        found = words.matcher(searcher, context)
        weighting = context.weighting if context is not None else searcher.weighting
        positions = searcher.schema[self.fieldname].format.supports("positions")
        if type(weighting) is not scoring.BM25F or not positions or not found.is_active():
            # Unscored, another weighting, a field without positions (Whoosh's phrase then asks for all
            # its words, in any order: `venue:"AutoML Conf"`) or nothing found: Whoosh's phrase.
            return found if self.boost == 1.0 else boosted(found, self.boost)
        parent = searcher.get_parent()
        idf = sum(parent.idf(self.fieldname, word) for word in self.words)
        return counted_phrase(found, searcher, self.fieldname, idf, weighting, self.boost)


def by_frequency(node: Any) -> Any:
    """`node` with every phrase a `FrequencyPhrase`."""
    if type(node) is query.Phrase:
        return FrequencyPhrase(
            node.fieldname,
            node.words,
            slop=node.slop,
            boost=node.boost,
            char_ranges=node.char_ranges,
            degrade=node.degrade,
        )
    if node.is_leaf():
        return node
    return node.apply(by_frequency)


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


def _join(notices: list[str]) -> str | None:
    return "; ".join(notices) or None
