"""What a word is to the index: a run of letters and digits, folded so that what renders alike is one term.

ML papers write one term several ways: `Q-learning`, `Q learning`, `Qlearning`; `ε-greedy`,
`$\\epsilon$-greedy` (rendered `ϵ-greedy`), `epsilon-greedy`; `ℓ₁`, `l1`, `L1`; `Schrödinger`, `Schrodinger`.
The analyzer (schema.py) finds tokens with `TOKEN_RE`: a word, or words joined by hyphens or underscores
(a compound), or one letter with `++` / `#` (`C++`, `C#`, `F#`, kept whole). Each part is folded by `fold`
(NFKC, Greek letters spelled out as LaTeX names them, accents dropped, lowercased) and indexed at its own
position, every part kept however short (`q`, `t`, `k`, `2`); a compound's parts are also indexed joined
(`qlearning`) at its first part's position, so the joined spelling finds the hyphenated one and a `word*`
typed across the hyphen (`Q-lea*`) completes to it. The compounds the papers write are stored too
(`COMPOUND_FIELD`), so a joined spelling typed in a query also finds the spaced one.

A compound typed in a query becomes one marked token (`compound_token`) that `with_compounds` turns into
"the parts in a row, or the joined word" once the parser is done with it: the parser never sees more than one
token per typed word, whatever its plugins do with it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import Any

from whoosh import query

TOKEN_RE = re.compile(r"[^\W_]++(?:[-\u2010\u2011_][^\W_]++)*+(?:\+\+|#(?!\w)|['\u2019][sStT](?!\w))?")
"""A token as written: a word, or alphanumeric parts joined by hyphens or underscores; with what may follow
it (`++` or `#`, kept for `C++` / `C#` / `F#`; the `'s` of a possessive and the `'t` of "don't", dropped)."""
PART_RE = re.compile(r"[^\W_]+")
"""The parts of a token: what is indexed one by one."""
LANGUAGE_RE = re.compile(r"[^\W\d_](?:\+\+|#)")
"""A one-letter language name (`C++`, `C#`, `F#`): one word, as written."""
SIMPLE_RE = re.compile(r"[a-z0-9]+")
"""A lowercased ASCII word: nothing to fold, one part (the common case, answered without `fold`)."""

MARK = "\x1f"
"""Separates the joined form and the parts of a compound in a query token (never part of indexed text)."""

GREEK = {
    "α": "alpha",
    "β": "beta",
    "γ": "gamma",
    "δ": "delta",
    "ε": "epsilon",
    "ϵ": "epsilon",
    "ζ": "zeta",
    "η": "eta",
    "θ": "theta",
    "ϑ": "theta",
    "ι": "iota",
    "κ": "kappa",
    "ϰ": "kappa",
    "λ": "lambda",
    "μ": "mu",
    "µ": "mu",
    "ν": "nu",
    "ξ": "xi",
    "ο": "omicron",
    "π": "pi",
    "ϖ": "pi",
    "ρ": "rho",
    "ϱ": "rho",
    "σ": "sigma",
    "ς": "sigma",
    "τ": "tau",
    "υ": "upsilon",
    "φ": "phi",
    "ϕ": "phi",
    "χ": "chi",
    "ψ": "psi",
    "ω": "omega",
}
"""Lowercase Greek letters (and variant forms) as LaTeX names them: `ε`, `ϵ` and `epsilon` are one term."""
_GREEK_TABLE = str.maketrans(GREEK)


def fold(word: str) -> str:
    """`word` as the index holds it before stemming: compatibility forms unified (NFKC: `ℓ₁` is `l1`,
    full-width letters are letters), lowercased, Greek letters spelled out, accents dropped (`Schrödinger` is
    `schrodinger`); `ß` becomes `ss` and other letters without an ASCII form stay as they are."""
    if word.isascii():
        return word.lower()
    text = unicodedata.normalize("NFKC", word).casefold().translate(_GREEK_TABLE)
    if text.isascii():
        return text
    stripped = "".join(
        char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char)
    )
    return unicodedata.normalize("NFC", stripped)


def written_part(token: str) -> str:
    """The part of a `TOKEN_RE` token that is indexed: without a possessive's `'s` or the `++` of a name
    that is not one letter (`GPT++`); a one-letter language name whole."""
    if token[-1].isalnum() and token[-2:-1] not in ("'", "\u2019"):
        return token
    if LANGUAGE_RE.fullmatch(token):
        return token
    return token[:-1] if token[-1] == "#" else token[:-2]


def parts(token: str) -> list[str]:
    """The folded parts of a token as `TOKEN_RE` found it: `Q-learning` -> q, learning; `C++` -> c++."""
    lowered = token.lower()
    if SIMPLE_RE.fullmatch(lowered):
        return [lowered]
    token = written_part(token)
    if LANGUAGE_RE.fullmatch(token):
        return [token.lower()]
    return [folded for part in PART_RE.findall(token) if (folded := fold(part))]


SPACED_BOOST = 0.25
"""What a compound's parts in a row count for against the compound written whole (`with_compounds`)."""
JOINED = "-"
"""Starts every joined compound term ("-qlearn"): a word being typed (`diffusion*`) never completes to a
compound that starts with it ("diffusion-based"), which would count the word twice; a prefix typed across
a hyphen (`Q-lea*`) looks for joined terms only (`typed_compound`)."""


def compound_token(joined: str, words: list[str]) -> str:
    """The one query token for a compound: its joined term, then its parts' (`with_compounds` reads it)."""
    return MARK.join([joined, *words])


def with_compounds(node: Any, schema: Any) -> Any:
    """`node` with each marked compound term (`compound_token`) made what it stands for.

    A term becomes "the compound as written with its hyphen, or joined, or its parts in a row"
    (`Q-learning` finds `Q-learning`, `Qlearning` and `Q learning`; in a field without positions, the parts
    anywhere). The written compounds are ranked by how often the paper writes the compound itself (its
    `JOINED` term), not by how often it writes each part (`learning`), and the parts in a row, a rarer and
    looser spelling, count for `SPACED_BOOST` of that. A phrase holding one becomes "the phrase with the
    parts, or the phrase with the joined word" (the joined word stands at the first part's position in the
    index, so both line up).
    """
    if type(node) is query.Term and MARK in str(node.text):
        marked, *words = str(node.text).split(MARK)
        joined = marked.removeprefix(JOINED)
        field, boost = node.fieldname, node.boost
        if len(words) < 2:
            split: Any = query.Term(field, words[0] if words else joined, boost=boost)
        elif _positional(schema, field):
            split = query.Phrase(field, words, boost=boost * SPACED_BOOST)
        else:
            split = query.And([query.Term(field, word) for word in words], boost=boost * SPACED_BOOST)
        written = [query.Term(field, marked, boost=boost)] if marked != joined else []
        return query.Or([*written, query.Term(field, joined, boost=boost), split])
    if type(node) is query.Phrase and any(MARK in str(word) for word in node.words):
        split_words: list[str] = []
        whole: list[str] = []
        for word in node.words:
            marked, *words = str(word).split(MARK)
            split_words.extend(words or [marked])
            whole.append(marked.removeprefix(JOINED))
        field, slop, boost = node.fieldname, node.slop, node.boost
        return query.Or(
            [
                query.Phrase(field, split_words, slop=slop, boost=boost),
                query.Phrase(field, whole, slop=slop, boost=boost),
            ]
        )
    if node.is_leaf():
        return node
    return node.apply(lambda child: with_compounds(child, schema))


TEXT_FIELDS = ("headline", "abstract")
"""The fields whose words a joined pair or an acronym is looked for in."""


def with_joined_pairs(node: Any, holds: Callable[[str], bool]) -> Any:
    """`node` with two words in a row that the index also holds joined (`Q learning`, `non convex`: the
    term "qlearn" / "nonconvex", `holds` says) made "both words, or the joined word": the spaced spelling
    finds the joined one too."""
    if node.is_leaf():
        return node
    node = node.apply(lambda child: with_joined_pairs(child, holds))
    if type(node) is not query.And:
        return node
    subs = list(node.subqueries)
    words = [word_of(sub) for sub in subs]
    out: list[Any] = []
    at = 0
    while at < len(subs):
        first, second = words[at], words[at + 1] if at + 1 < len(subs) else None
        joined = f"{first}{second}" if first is not None and second is not None else None
        if joined is not None and holds(joined):
            either = [query.And(subs[at : at + 2]), *(query.Term(field, joined) for field in TEXT_FIELDS)]
            out.append(query.Or(either))
            at += 2
        else:
            out.append(subs[at])
            at += 1
    return query.And(out, boost=node.boost) if len(out) != len(subs) else node


def word_of(node: Any) -> str | None:
    """The one word a query part searches for in the text fields (a term, or the same term in each field,
    maybe with a typed prefix's completions or an acronym's long form after it), or None."""
    if type(node) is query.Term:
        return str(node.text) if node.fieldname in TEXT_FIELDS else None
    if type(node) is not query.Or:
        return None
    found = {word for sub in node.subqueries if (word := _first_term(sub)) is not None}
    return found.pop() if len(found) == 1 else None


def _first_term(node: Any) -> str | None:
    if type(node) is query.Term:
        return str(node.text) if node.fieldname in TEXT_FIELDS else None
    if type(node) is query.Or and node.subqueries:
        return _first_term(node.subqueries[0])
    return None


COMPOUND_FIELD = "compounds"
"""Each compound a paper writes, as "joined part part" terms ("qlearn q learn"): what a joined spelling typed
in a query is split back into (`compound_table`)."""


def compound_terms(terms: Iterable[str], analyzer: Any) -> dict[str, int]:
    """One paper's compounds as `COMPOUND_FIELD` terms (term -> 1), from the terms its fields were indexed
    with (`WordAnalyzer.positions`): each joined term, with the parts `analyzer` split it into."""
    found: dict[str, int] = {}
    parts_of = analyzer.joined_parts
    for term in terms:
        if term[0] == JOINED:
            kept = parts_of.get(term)
            if kept is not None:
                found[" ".join([term[len(JOINED) :], *kept])] = 1
    return found


class CompoundTable:
    """Joined term -> the parts the papers most often write it with (`Q-learning`: "qlearn" -> q, learn),
    looked up in the index's `COMPOUND_FIELD` one joined term at a time (reading all ~45k of them at 56k
    took seconds a keystroke would wait for), each answer kept for the generation."""

    def __init__(self, reader: Any) -> None:
        self._reader = reader if COMPOUND_FIELD in reader.schema else None
        self._known: dict[str, tuple[str, ...] | None] = {}

    def get(self, joined: str, default: tuple[str, ...] | None = None) -> tuple[str, ...] | None:
        if joined not in self._known:
            self._known[joined] = self._look_up(joined)
        found = self._known[joined]
        return default if found is None else found

    def __contains__(self, joined: object) -> bool:
        return isinstance(joined, str) and self.get(joined) is not None

    def __bool__(self) -> bool:
        return self._reader is not None

    def _look_up(self, joined: str) -> tuple[str, ...] | None:
        if self._reader is None or not joined or " " in joined:
            return None
        best: tuple[int, tuple[str, ...]] | None = None
        for text in self._reader.expand_prefix(COMPOUND_FIELD, joined + " "):
            term = text.decode("utf-8") if isinstance(text, bytes) else str(text)
            count = self._reader.doc_frequency(COMPOUND_FIELD, term)
            if best is None or count > best[0]:
                best = (count, tuple(term.split(" ")[1:]))
        return None if best is None else best[1]


def with_split_compounds(node: Any, table: CompoundTable | dict[str, tuple[str, ...]]) -> Any:
    """`node` with each joined spelling of a compound the papers write (`Qlearning`, `nonconvex`) also
    searched as its parts in a row: the joined spelling finds the spaced one. Runs before `with_compounds`,
    whose marked terms it leaves alone."""
    if not table:
        return node
    if type(node) is query.Term and node.fieldname in TEXT_FIELDS:
        words = table.get(str(node.text))
        if words is None:
            return node
        return query.Or([node, query.Phrase(node.fieldname, list(words), boost=node.boost)])
    if type(node) is query.Phrase and node.fieldname in TEXT_FIELDS:
        if not any(str(word) in table for word in node.words):
            return node
        split = [part for word in node.words for part in (table.get(str(word)) or (str(word),))]
        return query.Or([node, query.Phrase(node.fieldname, split, slop=node.slop, boost=node.boost)])
    if node.is_leaf():
        return node
    return node.apply(lambda child: with_split_compounds(child, table))


def _positional(schema: Any, field: str) -> bool:
    format_ = getattr(schema[field], "format", None) if field in schema else None
    return bool(format_ is not None and format_.supports("positions"))


def typed_compound(word: str) -> str:
    """A word as typed (maybe a compound, maybe with Greek or accents) as one folded string: what a prefix
    typed across a hyphen (`Q-lea`) is looked up as (`JOINED` "qlea": the index holds compounds joined)."""
    found = parts(word) if word else []
    if len(found) > 1:
        return JOINED + "".join(found)
    return found[0] if found else word.lower()
