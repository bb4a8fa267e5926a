"""A typed `word*` as Whoosh nodes: the whole word or its completions, short prefixes as one stored term.

`with_prefixes` rewrites each prefix leaf of a parsed query: one to three letters become the stored prefix
term (prefixes.py, FTS5's `prefix=` inside Whoosh), a longer one the whole word Or its completions, ranked as
BM25F ranks the terms it expands to; `share_expansions` makes every expanding leaf expand once per reader.
`QueryParsers` (query.py) calls them on what it parsed.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from whoosh import query

from index.search.bounds import Budget
from index.search.prefixes import PREFIX_FIELD, PrefixTerm, is_short
from index.search.schema import DEFAULT_FIELDS
from index.search.typed_query import read_query
from index.search.whoosh_private import expand_once
from index.search.wordforms import JOINED, typed_compound

DocFrequency = Callable[[str, str], tuple[int, int]]
"""(field, term) -> (documents holding the term, documents in the index): what BM25F's idf is made of."""


def with_prefixes(node: Any, schema: Any, frequency: DocFrequency | None = None) -> Any:
    """`node` with each `word*` made a whole word or a prefix (`whole_word_or_prefix`); a plain `w*` of one to
    three letters, which the parser asks of every default field, is answered from the stored prefixes
    (`prefixes.py`) instead of by expanding it to thousands of words."""
    short = _short_prefix_everywhere(node, schema)
    if short is not None:
        wholes = [_whole_word(field, short.text, short.boost, schema) for field in DEFAULT_FIELDS]
        found = [term for term in wholes if term is not None]
        return query.Or([*found, PrefixTerm(short.text, boost=short.boost)])
    if type(node) is query.Prefix and node.text.startswith(JOINED) and len(node.text) > 1:
        # Typed across a hyphen (`Q-lea`): the compounds written with one, or written joined (`Qlearning`).
        joined = query.Prefix(node.fieldname, node.text, boost=node.boost, constantscore=False)
        plain = query.Prefix(node.fieldname, node.text[len(JOINED) :], boost=node.boost)
        return query.Or([joined, whole_word_or_prefix(plain, schema, frequency)])
    if type(node) is query.Prefix:
        return whole_word_or_prefix(node, schema, frequency)
    if node.is_leaf():
        return node
    return node.apply(lambda child: with_prefixes(child, schema, frequency))


def _short_prefix_everywhere(node: Any, schema: Any) -> Any:
    """The parser's `Or(Prefix(headline, w), Prefix(abstract, w), Prefix(authors, w))` for a short `w`: its
    first Prefix, when the index has the prefix field; otherwise None."""
    if PREFIX_FIELD not in schema or type(node) is not query.Or or node.boost != 1.0:
        return None
    subs = node.subqueries
    if not subs or any(type(sub) is not query.Prefix for sub in subs):
        return None
    first = subs[0]
    same = all(sub.text == first.text and sub.boost == first.boost for sub in subs)
    if not same or sorted(sub.fieldname for sub in subs) != sorted(DEFAULT_FIELDS):
        return None
    return first if is_short(first.text) and first.text == first.text.lower() else None


def _whole_word(field: str, text: str, boost: float, schema: Any) -> Any:
    """`text` as a finished word of `field` (stemmed as the field indexes it), or None for a stop word."""
    analyzer = getattr(schema[field], "analyzer", None) if field in schema else None
    stems = [token.text for token in analyzer(text)] if analyzer is not None else []
    return query.Term(field, stems[0], boost=boost) if len(stems) == 1 else None


def mend_leaves(parsed: Any, text: str) -> None:
    """What the parser made of `text`, mended where it is not what was meant (in place)."""
    for leaf in parsed.leaves():
        if isinstance(leaf, query.Phrase):  # venue:"a b": fields without positions match all the words
            leaf.degrade = True
        elif type(leaf) is query.Prefix:
            leaf.text = typed_prefix(text, leaf)


def typed_prefix(text: str, leaf: Any) -> str:
    """The prefix as typed (folded, a compound joined: `wordforms.typed_compound`) for a `Prefix` the parser
    made from `text`.

    The parser runs a prefix through the field's analyzer, so a stemming field searched `dis*` as `di*`
    and `vis*` as `vi*`: every word starting with "di" or "vi". The leaf's `startchar` is where its `*`
    stands in `text`; the word before it is what was typed.
    """
    star = getattr(leaf, "startchar", None)
    if isinstance(star, int) and 0 < star < len(text) and text[star] == "*":
        for word in read_query(text).words:  # the word the `*` ends: its letters before the star
            if word.start < star < word.end:
                head = text[word.start : star]
                cut = len(head)
                while cut and (head[cut - 1].isalnum() or head[cut - 1] in _JOINERS):
                    cut -= 1
                piece = head[cut:].lstrip(_JOINERS)
                if piece:
                    return typed_compound(piece)
    return str(leaf.text)


_JOINERS = "_-\u2010\u2011"
"""What joins a compound's parts: a prefix typed across one (`Q-lea`) is looked up joined, as indexed."""
_SUFFIXES = (
    "s",
    "es",
    "e",
    "ed",
    "ing",
    "ings",
    "ion",
    "ions",
    "ive",
    "ives",
    "ity",
    "ities",
    "al",
    "ally",
    "ly",
    "ment",
    "ments",
    "ness",
    "ance",
    "ence",
    "er",
    "ers",
    "ation",
    "ations",
    "ational",
    "ization",
    "izations",
    "ize",
    "izes",
    "ized",
    "izing",
    "able",
    "ible",
    "ous",
    "ful",
    "ic",
    "ical",
    "ative",
    "ator",
    "ators",
    "ism",
    "ist",
    "ists",
    "ent",
    "ents",
    "ant",
    "ants",
    "ure",
    "ures",
    "y",
    "ies",
    "ied",
)
"""Endings the stemmer takes off: a word typed up to part of one (`diffusi`, `learni`) is a word form."""


def _forms_of_partial(prefix: str, analyzer: Any) -> set[str]:
    """Stems of the words that `prefix` begins by way of an ending the stemmer removes: `diffusi` ->
    "diffus" (diffusion), `learni` -> "learn" (learning), `studie` -> "studi" (studies). Indexed terms are
    stems, so without these a word being typed finds nothing between its stem and its whole self."""
    forms: set[str] = set()
    for suffix in _SUFFIXES:
        for typed in range(len(suffix)):
            if prefix.endswith(suffix[:typed]):
                forms.update(token.text for token in analyzer(prefix + suffix[typed:]))
    return {form for form in forms if not form.startswith(prefix)}  # those the prefix itself covers


def whole_word_or_prefix(node: Any, schema: Any, frequency: DocFrequency | None = None) -> Any:
    """`word*` as the word itself (stemmed, as a finished word matches: `models*` finds "model"), any word
    starting with it, or a form of a word starting with it (`_forms_of_partial`), scored BM25F over the
    expanded terms instead of Whoosh's constant score.

    A completion must never outrank the whole word: with `frequency`, the completions' boost is the whole
    word's idf over the highest idf a term can have (one document), so that at equal term frequency and
    length no completion scores above the word itself.
    """
    if type(node) is not query.Prefix:
        return node
    field = node.fieldname
    prefix = query.Prefix(field, node.text, boost=node.boost, constantscore=False)
    analyzer = getattr(schema[field], "analyzer", None) if field in schema else None
    if analyzer is None:
        return prefix
    stems = [token.text for token in analyzer(node.text)]
    forms = sorted(_forms_of_partial(node.text, analyzer) - set(stems))
    if frequency is not None:
        forms = [form for form in forms if frequency(field, form)[0]]
    whole: list[Any] = []
    if len(stems) == 1:  # not a stop word ("a*") or a text the analyzer splits
        holding, documents = frequency(field, stems[0]) if frequency is not None else (1, 0)
        if holding:
            whole = [query.Term(field, stems[0], boost=node.boost)]
            if documents:
                idf, highest = math.log(documents / (holding + 1)) + 1, math.log(documents / 2) + 1
                prefix.boost = node.boost * min(1.0, idf / highest) if highest > 0 else node.boost
    completions = [query.Term(field, form, boost=prefix.boost) for form in forms]
    if not whole and not completions:
        return prefix
    return query.Or([*whole, *completions, prefix])


def share_expansions(parsed: Any, budget: Budget | None = None) -> None:
    """Make each prefix, wildcard or fuzzy leaf of `parsed` expand once per segment reader.

    Whoosh expands such a leaf again for every use: to order an Or (estimate_size), to build its matcher, and
    for highlighting (existing_terms). A fuzzy expansion is a Python Damerau-Levenshtein walk over the
    lexicon, so doing it once instead of three times cuts most of a `word~` query's cost; the terms, and
    so the hits and scores, are the same. With `budget`, each walk is bounded by it (`expand_once`).
    """
    for leaf in parsed.leaves():
        expand_once(leaf, budget)
