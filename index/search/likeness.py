"""Papers like others: more like this for one paper (similar.py), for you for a set of seeds (profile.py).

Both weigh a paper's key terms against the posting lists of one index generation; `SearchIndex` hands in
its searcher under its lock, and the paper lookups it answers from the snapshot.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

from index.models import Paper
from index.search.answers import SimilarHit, UnknownPaper
from index.search.highlight import WordTerms
from index.search.profile import ForYouHit, Profile
from index.search.schema import title_text
from index.search.similar import HeadlinePostings, Similarity
from index.search.similar import rank as similar_rank


class Likeness:
    """More like this and for you over whichever searcher the caller passes (a new one per generation).

    Args:
        words: how the index analyses words (the why-terms are shown as words, matched as stems).
        paper: a paper by id from the snapshot; raises UnknownPaper.
        plain: a paper's rendered abstract by id, as indexed.
        ids_of: paper ids of Whoosh document numbers.
    """

    def __init__(
        self,
        words: WordTerms,
        paper: Callable[[str], Paper],
        plain: Callable[[str], str],
        ids_of: Callable[[Sequence[int]], Sequence[str]],
    ) -> None:
        self._words = words
        self._paper = paper
        self._plain = plain
        self._ids_of = ids_of
        self._similarity = Similarity(words)
        self._profile = Profile()
        self._headlines: HeadlinePostings | None = None

    def similar(self, searcher: Any, paper_id: str, limit: int) -> list[SimilarHit]:
        """Papers sharing the most distinctive terms of this one, with those terms (as words) to say why.

        See similar.py: idf-weighed key terms, headline words counting extra, generic words left out.
        """
        paper = self._paper(paper_id)
        docnum = searcher.document_number(id=paper_id)
        if docnum is None:
            raise UnknownPaper(paper_id)
        postings = self._profile.postings(searcher)
        key_terms = self._similarity.key_terms(postings.counts, title_text(paper), self._plain(paper_id))
        if self._headlines is None or self._headlines.reader is not searcher.reader():
            self._headlines = HeadlinePostings(searcher)
        found = similar_rank(postings, self._headlines, key_terms, docnum, limit)
        hits = []
        for match, other_id in zip(found, self._ids_of([match.docnum for match in found]), strict=True):
            other = self._paper(other_id)
            stems = tuple(self._words.term(word) or word for word in match.shared)
            hits.append(
                SimilarHit(
                    other.id, other.headline, match.score, other.venue, other.year, match.shared, stems
                )
            )
        return hits

    def for_you(
        self, searcher: Any, seeds: Iterable[str], exclude: AbstractSet[str], limit: int
    ) -> list[ForYouHit]:
        """Papers most like the `seeds`, none of `exclude` nor the seeds, in pick order (profile.py)."""
        key_terms = self._similarity.key_terms
        return self._profile.recommend(searcher, seeds, self._texts, key_terms, self._ids_of, exclude, limit)

    def _texts(self, paper_id: str) -> tuple[str, str]:
        """A paper's headline (with its title) and rendered abstract, as indexed; raises UnknownPaper."""
        return title_text(self._paper(paper_id)), self._plain(paper_id)
