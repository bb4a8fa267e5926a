"""Acronyms learned from the abstracts: `GNN` also finds papers that only write "graph neural networks", and
the reverse, ranked below the papers that use what was typed.

At index time each paper's own definitions (`graph neural networks (GNNs)`, found by `definitions`, the
Schwartz-Hearst rule: the letters of the acronym, in order, in the words before the parenthesis, the first
letter starting a word) are written to the `DEFINED_FIELD` of its document as terms "gnn graph neural
network" (the acronym's term, then the long form's), and the acronyms it uses without defining them to the
`USED_FIELD`. Both are ordinary fields of every segment, so updates and merges keep them; the corpus-wide
table (`AcronymTable.read`: each acronym's most frequent long form, and each long form's most frequent
acronym) is read from the defined field's terms once per index generation.

A query's word that is an acronym gains "or its long form as a phrase", scaled down (`EXPANSION_BOOST`); a
run of words that is a long form gains "or a paper using its acronym without defining it" (`USED_FIELD`):
a paper that defines the acronym otherwise (`RL` for "representation learning") keeps its own meaning and
is not found for "reinforcement learning" by it; one that defines it the same way holds the long form itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from whoosh import query

from index.search.wordforms import TEXT_FIELDS, word_of

DEFINED_FIELD = "acronym_defined"
USED_FIELD = "acronym_used"
EXPANSION_BOOST = 0.35
"""How much an acronym's long form (or a long form's acronym) counts against the words typed: the papers that
use what was typed rank first."""
LONGEST = 10
"""Letters an acronym may have."""

_DEFINED_RE = re.compile(r"\(\s*([A-Za-z][A-Za-z0-9]{1,%d})\s*[);,]" % (LONGEST + 1))  # noqa: UP031
_ACRONYM_RE = re.compile(r"[A-Z](?<![\w-].)[A-Za-z0-9]*?[A-Z][A-Za-z0-9]*+(?![\w-])")
"""A word that starts with a capital and has another (`_is_acronym` then checks it is mostly capitals and
short). The capital comes first so that the scan skips to capitals; `kNN` is not looked for."""
_WORDS_RE = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_CLAUSE_END = re.compile(r"[.;:!?()\[\]]")


def _is_acronym(text: str) -> bool:
    """Mostly capitals, at least two (`GNN`, `RL`, `kNN`, `GNNs`, `ViT`); not a name (`ImageNet`)."""
    letters = [char for char in text if char.isalpha()]
    upper = sum(1 for char in letters if char.isupper())
    return upper >= 2 and upper * 2 >= len(letters)


def _letters(acronym: str) -> str:
    """The letters a long form must hold: a plural's `s` (`GNNs`) and digits are not among them."""
    if len(acronym) > 2 and acronym[-1] == "s" and acronym[-2].isupper():
        acronym = acronym[:-1]
    return "".join(char for char in acronym.lower() if char.isalpha())


def _long_form(letters: str, before: str) -> list[str] | None:
    """Schwartz-Hearst: the shortest run of words ending `before` that holds `letters` in order, the first
    letter at a word's start; None when there is none within reach (len + 5 words, at most twice as many)."""
    words = _WORDS_RE.findall(before)[-min(len(letters) + 5, 2 * len(letters)) :]
    if len(words) < 2 or not letters:
        return None
    text = " ".join(words).lower()
    at = len(text) - 1
    for number in range(len(letters) - 1, -1, -1):
        char = letters[number]
        while at >= 0 and (text[at] != char or (number == 0 and at > 0 and text[at - 1].isalnum())):
            at -= 1
        if at < 0:
            return None
        at -= 1
    start = text.rfind(" ", 0, at + 1) + 1
    found = text[start:].split()
    return found if 2 <= len(found) <= len(letters) + 2 else None


def definitions(text: str) -> Iterator[tuple[str, list[str]]]:
    """(acronym as written, its long form's words as written) for each acronym `text` defines."""
    for match in _DEFINED_RE.finditer(text):
        acronym = match.group(1)
        if not _is_acronym(acronym):
            continue
        before = text[max(0, match.start() - 200) : match.start()]
        ends = list(_CLAUSE_END.finditer(before))
        if ends:
            before = before[ends[-1].end() :]
        words = _long_form(_letters(acronym), before)
        if words is not None:
            yield acronym, words


def used(text: str) -> set[str]:
    """The acronyms `text` writes (as written)."""
    return {word for word in _ACRONYM_RE.findall(text) if len(word) <= LONGEST + 2 and _is_acronym(word)}


def acronym_terms(texts: Sequence[str], analyzer: Any) -> tuple[dict[str, int], dict[str, int]]:
    """One paper's definition terms and the acronyms it uses undefined, for its `DEFINED_FIELD` and
    `USED_FIELD` (term -> 1), with `analyzer` (the stemming `WordAnalyzer`: terms as the text fields index
    them)."""
    defined: dict[str, int] = {}
    names: set[str] = set()
    for text in texts:
        for acronym, words in definitions(text):
            term = _single(acronym, analyzer)
            # Parts only (no joined compounds): the long form is searched as a phrase of them.
            long_terms = [
                term for word in words for _part, term in analyzer.analyse(word)[0] if term is not None
            ]
            if term is not None and len(long_terms) >= 2:
                defined[" ".join([term, *long_terms])] = 1
                names.add(term)
    uses: dict[str, int] = {}
    for acronym in used("\n".join(texts)):
        term = _single(acronym, analyzer)
        if term is not None and term not in names:
            uses[term] = 1
    return defined, uses


def _single(word: str, analyzer: Any) -> str | None:
    pairs, joined = analyzer.analyse(word)
    return pairs[0][1] if len(pairs) == 1 and joined is None else None


@dataclass(slots=True)
class AcronymTable:
    """The corpus-wide table of one index generation: acronym term -> long form terms, and the reverse."""

    long_forms: dict[str, tuple[str, ...]] = field(default_factory=dict)
    acronyms: dict[tuple[str, ...], str] = field(default_factory=dict)

    @classmethod
    def read(cls, reader: Any) -> AcronymTable:
        """The most frequent long form of each acronym, and the most frequent acronym of each long form, by
        how many papers define them so (ties: the first in term order)."""
        if DEFINED_FIELD not in reader.schema:
            return cls()
        best: dict[str, tuple[int, tuple[str, ...]]] = {}
        back: dict[tuple[str, ...], tuple[int, str]] = {}
        for raw, info in reader.iter_field(DEFINED_FIELD):
            acronym, *words = raw.decode("utf-8").split(" ")
            count = info.doc_frequency()
            long_form = tuple(words)
            if acronym not in best or count > best[acronym][0]:
                best[acronym] = (count, long_form)
            if long_form not in back or count > back[long_form][0]:
                back[long_form] = (count, acronym)
        table = cls({acronym: words for acronym, (_count, words) in best.items()})
        # A long form leads back to an acronym only if that acronym's own best long form is this one.
        table.acronyms = {
            words: acronym for words, (_count, acronym) in back.items() if table.long_forms[acronym] == words
        }
        return table

    def __bool__(self) -> bool:
        return bool(self.long_forms)


def with_acronyms(node: Any, table: AcronymTable | None) -> Any:
    """`node` with acronyms gaining their long forms and long forms their acronyms (see the module)."""
    if not table:
        return node
    return _expand(node, table)


def _expand(node: Any, table: AcronymTable) -> Any:
    if type(node) is query.Term:
        long_form = table.long_forms.get(str(node.text)) if node.fieldname in TEXT_FIELDS else None
        if long_form is None:
            return node
        boost = node.boost * EXPANSION_BOOST / len(long_form)
        return query.Or([node, query.Phrase(node.fieldname, list(long_form), boost=boost)])
    if type(node) is query.Phrase and node.fieldname == "abstract":
        acronym = table.acronyms.get(tuple(node.words))
        if acronym is not None:
            return query.Or([node, query.Term(USED_FIELD, acronym, boost=node.boost * EXPANSION_BOOST)])
        return node
    if node.is_leaf():
        return node
    expanded = node.apply(lambda child: _expand(child, table))
    if type(expanded) is query.And:
        return _long_form_runs(expanded, table)
    return expanded


def _long_form_runs(node: Any, table: AcronymTable) -> Any:
    """An And whose consecutive words spell a long form: those words, or a paper using its acronym."""
    subs = list(node.subqueries)
    words = [word_of(sub) for sub in subs]
    for size in range(min(len(subs), 8), 1, -1):
        for start in range(len(subs) - size + 1):
            run = words[start : start + size]
            if any(word is None for word in run):
                continue
            acronym = table.acronyms.get(tuple(str(word) for word in run))
            if acronym is None:
                continue
            together = query.And(subs[start : start + size])
            either = query.Or([together, query.Term(USED_FIELD, acronym, boost=EXPANSION_BOOST)])
            return query.And([*subs[:start], either, *subs[start + size :]], boost=node.boost)
    return node
