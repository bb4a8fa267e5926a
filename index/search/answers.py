"""Frozen value types the search index returns, so no caller ever holds a Whoosh object."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from index.models import Source
from index.search.typed_query import MarkFilter

Highlight = Mapping[str, frozenset[str]]
"""The index terms a query matched, per text field (`abstract`, `headline`): what highlighting marks in any
paper of its answer, computed once per query."""


class UnknownPaper(KeyError):
    """The paper id is not in the index."""


@dataclass(frozen=True, slots=True)
class MatchSpan:
    """Characters `[start, end)` of one matched word, as offsets into the text it was computed for."""

    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Snippet:
    """One line around the best match in the rendered abstract, with the matches inside it."""

    text: str
    matches: tuple[MatchSpan, ...]
    start: int
    """Offset of `text` within the rendered abstract, so the reader can scroll to it."""


@dataclass(frozen=True, slots=True)
class PaperHit:
    """What every ranked answer says of a paper: its line in a list (id, headline, venue and year) and its
    score, without opening the paper. The fields come first, in this order, in each kind of hit."""

    id: str
    headline: str
    score: float
    venue: str | None
    year: int | None


@dataclass(frozen=True, slots=True)
class SearchHit(PaperHit):
    """One ranked paper, with its highlights when it is among the top hits."""

    sources: tuple[Source, ...]
    matches: tuple[MatchSpan, ...]
    """Matched words in the rendered abstract (`render.to_plain(paper.abstract)`); empty past the top N."""
    snippet: Snippet | None
    """None past the top N, whose highlights were not computed."""
    headline_matches: tuple[MatchSpan, ...] = ()
    """Matched words in the headline; empty past the top N."""
    title: str | None = None
    """The listing's title, when it has one (the headline may be made from the abstract instead)."""


@dataclass(frozen=True, slots=True)
class SearchResult:
    """A ranked answer: every matching id, details for the top ones, and what the user should be told."""

    query: str
    ids: tuple[str, ...]
    """Every matching paper id, best first (listing order for an empty query)."""
    hits: tuple[SearchHit, ...]
    """The first `limit` ids as hits; only the first `highlight_top` carry matches and a snippet."""
    notice: str | None = None
    """One line when the query was not taken as written (malformed, unknown filter, stale index)."""
    suggestion: str | None = None
    """A corrected query ("did you mean") when a word looks misspelled and the query found little."""

    @property
    def total(self) -> int:
        return len(self.ids)


@dataclass(frozen=True, slots=True)
class Matched:
    """What a query matches before anyone's marks are applied (`SearchIndex.match`)."""

    query: str
    ids: tuple[str, ...]
    """Every matching paper id, best first (index order when unranked or for an empty query)."""
    scores: tuple[float, ...]
    """The scores of the first ids (empty when unranked)."""
    highlight: Highlight
    filters: tuple[MarkFilter, ...]
    """The query's filters over the user's marks (typed_query.py): the index holds no marks, so the caller
    applies them."""
    words: tuple[str, ...]
    """The query's plain words, for "did you mean"."""
    notice: str | None = None
    """One line when the query was not taken as written (malformed, unknown filter, timed out)."""
    total: int = 0
    """How many papers match: more than `ids` holds when the caller's limit let only the best be ranked."""


@dataclass(frozen=True, slots=True)
class SimilarHit(PaperHit):
    """A paper like another one, and the shared key terms that explain why."""

    shared_terms: tuple[str, ...]
    shared_stems: tuple[str, ...] = ()
    """The index term of each shared term, in the same order: what marks them in an abstract."""


@dataclass(frozen=True, slots=True)
class ForYouHit:
    """A paper like a set of seed papers (the user's stars, or one tag), and why: the key terms it shares
    with them and the seed it is most like."""

    id: str
    score: float
    """Likeness from 0 to 1 (the list is in pick order, which also spreads it over the seeds)."""
    terms: tuple[str, ...]
    """The shared key terms, as the seeds wrote them, heaviest first."""
    nearest_id: str
    """The seed paper it is most like."""


@dataclass(frozen=True, slots=True)
class UpdateReport:
    """What an index build or update did, for `papers index` and the reader's status line."""

    added: int
    updated: int
    removed: int
    seconds: float
    rebuilt: bool
    papers: int
    """Papers in the index afterwards."""
    reason: str = ""
    """Why a full build happened (first use, schema change, corrupt index, --rebuild), or empty."""
