"""Facets: how many of a result's papers come from each venue, year and track, and narrowing a query by one.

Counted from the snapshot's list columns (venues, years, statuses: no paper decoded), so the reader can
recount on every keystroke: a few ms for 56k papers (bench/bench_facets.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from index.search.schema import WORD_RE
from index.search.typed_query import FieldClause, read_query

FIELDS = ("venue", "year", "status")
"""What `narrow` can add; `track:` is another name for `status:` (query.FIELD_ALIASES)."""
_ALIASES = {"venue": ("venue",), "year": ("year",), "status": ("status", "track")}


@dataclass(frozen=True, slots=True)
class Facets:
    """Counts per value, most papers first (years newest first); papers without the field are not counted."""

    venue: tuple[tuple[str, int], ...]
    year: tuple[tuple[int, int], ...]
    status: tuple[tuple[str, int], ...]
    total: int
    """How many papers were counted."""


class FacetCounter:
    """Counts facets of any subset of one snapshot's papers (made once per snapshot, ~20 ms at 56k).

    Each paper maps to its (venue, year, status) combination, of which a corpus has a few hundred: a count is
    one C-level pass over the ids (`Counter(map(dict.get, ids))`), then the combinations are summed per field.
    """

    def __init__(
        self,
        ids: Sequence[str],
        venues: Sequence[str | None],
        years: Sequence[int | None],
        statuses: Sequence[str | None],
    ) -> None:
        combos: dict[tuple[str | None, int | None, str | None], int] = {}
        self._group = {
            paper_id: combos.setdefault(combo, len(combos))
            for paper_id, combo in zip(ids, zip(venues, years, statuses, strict=True), strict=True)
        }
        self._combos = list(combos)
        self._every: Facets | None = None
        self.size = len(ids)

    def count(self, ids: Iterable[str]) -> Facets:
        """Facet counts of these papers (ids the snapshot does not have are not counted)."""
        groups = Counter(map(self._group.get, ids))
        groups.pop(None, None)
        return self._facets(groups)

    def every(self) -> Facets:
        """Facet counts of every paper (the empty query), counted once."""
        if self._every is None:
            self._every = self._facets(Counter(self._group.values()))
        return self._every

    def _facets(self, groups: Counter[int | None]) -> Facets:
        by_venue: Counter[str] = Counter()
        by_year: Counter[int] = Counter()
        by_status: Counter[str] = Counter()
        for group, papers in groups.items():
            assert group is not None
            venue, year, status = self._combos[group]
            if venue:
                by_venue[venue] += papers
            if year is not None and year >= 0:
                by_year[year] += papers
            if status:
                by_status[status] += papers
        return Facets(
            tuple(sorted(by_venue.items(), key=lambda item: (-item[1], item[0]))),
            tuple(sorted(by_year.items(), reverse=True)),
            tuple(sorted(by_status.items(), key=lambda item: (-item[1], item[0]))),
            sum(groups.values()),
        )


def narrow(query: str, field: str, value: str | int | None) -> str:
    """`query` with `field:value` in place of any top-level clause of that field (None: just without them).

    A value of more than one word is quoted (`venue:"NeurIPS Workshop"`); as the venue and status fields keep
    no positions, the quoted words must all be in the field, in any order.

    Raises:
        ValueError: `field` is not one of FIELDS, or the value has no word to search for.
    """
    return _with_values(query, field, [] if value is None else [value])


def chosen(query: str, field: str) -> tuple[str, ...]:
    """The values `query` narrows `field` to, as written (`venue:ICML` -> ICML, `venue:(ICML OR "AutoML
    Conf")` -> ICML, AutoML Conf), from its top-level clauses of that field that are not negated."""
    if field not in FIELDS:
        return ()
    values = [
        value for clause in _clauses(query, _ALIASES[field]) if not clause.negated for value in clause.values
    ]
    return tuple(dict.fromkeys(values))


def toggle(query: str, field: str, value: str | int) -> str:
    """`query` narrowed to one more value of `field`, or one fewer when it already holds that value: several
    values of one field are one clause, any of them (`venue:(ICML OR NeurIPS)`).

    Raises:
        ValueError: `field` is not one of FIELDS, or the value has no word to search for.
    """
    held = list(chosen(query, field))
    key = _key(value)
    kept = [one for one in held if _key(one) != key]
    return _with_values(query, field, kept if len(kept) < len(held) else [*held, value])


def _key(value: str | int) -> str:
    return " ".join(str(value).replace('"', " ").split()).casefold()


def _with_values(query: str, field: str, values: Sequence[str | int]) -> str:
    """`query` without its clauses of `field`, then one clause holding any of `values` (none: no clause)."""
    if field not in FIELDS:
        raise ValueError(f"cannot narrow by {field}: use one of {', '.join(FIELDS)}")
    terms = []
    for value in values:
        text = " ".join(str(value).replace('"', " ").split())
        if not WORD_RE.search(text):
            raise ValueError(f"{field} {value!r} has no word to search for")
        terms.append(text if WORD_RE.fullmatch(text) else f'"{text}"')
    kept = _without(query, _ALIASES[field])
    if not terms:
        return kept
    clause = f"{field}:{terms[0]}" if len(terms) == 1 else f"{field}:({' OR '.join(terms)})"
    return f"{kept} {clause}" if kept else clause


def _clauses(query: str, names: Sequence[str]) -> list[FieldClause]:
    """The top-level clauses of `query` naming one of `names` (negated ones too), as the query language
    reads them; ones inside parentheses or quotes belong to a larger expression and are not among them."""
    return [clause for clause in read_query(query).clauses if clause.field in names]


def _without(query: str, names: Sequence[str]) -> str:
    """`query` without its top-level `name:...` clauses (negated ones too)."""
    pieces: list[str] = []
    at = 0
    for clause in _clauses(query, names):
        pieces.append(query[at : clause.start])
        at = clause.end
    pieces.append(query[at:])
    return " ".join("".join(pieces).split())
