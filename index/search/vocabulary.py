"""What a typed word stands for beyond itself, learned from the papers of one index generation.

`Vocabulary.read` reads the tables the build stored in the index (wordforms.py's compounds, acronyms.py's
definitions); `expand` is the one step of the query path that applies them, with the compounds the analyzer
marked, to a parsed query, whatever parser made it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from index.search.acronyms import AcronymTable, with_acronyms
from index.search.wordforms import CompoundTable, with_compounds, with_joined_pairs, with_split_compounds

DocFrequency = Callable[[str, str], tuple[int, int]]


@dataclass(slots=True)
class Vocabulary:
    """One generation's compounds (joined term -> parts) and acronyms."""

    compounds: CompoundTable | dict[str, tuple[str, ...]] = field(default_factory=dict)
    acronyms: AcronymTable = field(default_factory=AcronymTable)

    @classmethod
    def read(cls, reader: Any) -> Vocabulary:
        return cls(CompoundTable(reader), AcronymTable.read(reader))


def expand(
    parsed: Any, schema: Any, frequency: DocFrequency | None = None, vocabulary: Vocabulary | None = None
) -> Any:
    """`parsed` with every spelling of its words: a joined compound also as its parts, a typed compound as
    its parts or joined, two words in a row also joined when the index holds them so, an acronym also as its
    long form and a long form as its acronym (ranked below what was typed)."""
    if vocabulary is not None:
        parsed = with_split_compounds(parsed, vocabulary.compounds)
    parsed = with_compounds(parsed, schema)
    if frequency is not None:
        parsed = with_joined_pairs(parsed, lambda term: frequency("abstract", term)[0] > 0)
    return with_acronyms(parsed, vocabulary.acronyms if vocabulary is not None else None)
