"""A user's marks out to a file and back in (`library.exports`): JSON to move them between machines, Markdown
and CSV to read, BibTeX to cite.

The store knows ids, not papers: what a person needs to recognise a paper in an export (its headline, venue
and first sentence) comes from the library's papers, read from the index when it is current, so exporting
from 56k listings decodes only the papers exported.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from index.library.papers import Papers
from index.state.bibtex import citable, cite_keys, to_bibtex
from index.state.store import PaperState, StateStore
from index.state.tags import normalize_tag
from index.state.transfer import (
    Described,
    Imported,
    ImportFormatError,
    Which,
    parse_document,
    select,
    to_csv,
    to_json,
    to_markdown,
)

__all__ = ["ExportFormat", "Exported", "Exports", "ImportFormatError", "Imported", "Merged", "Which"]

ExportFormat = Literal["json", "markdown", "csv", "bibtex"]


@dataclass(frozen=True, slots=True)
class Exported:
    """An export's text, and how many asked-for papers it could not include (BibTeX needs a title and
    authors)."""

    text: str
    skipped: int = 0


@dataclass(frozen=True, slots=True)
class Merged:
    """What an import read and what it changed."""

    papers: int
    changed: int
    searches: int
    searches_changed: int


class Exports:
    """Exports and imports of one user's marks over one library's papers."""

    def __init__(self, state: Callable[[], StateStore], papers: Callable[[], Papers]) -> None:
        self._state = state
        self._papers = papers
        self._keys: tuple[Papers, dict[str, str]] | None = None

    def write(self, format: ExportFormat, which: Which = "all", tag: str | None = None) -> Exported:
        """The export of everything (`which` "all"), the starred or the read papers, or one tag's papers.

        A selection is a list to read, not a copy of the store to import: only "all" with no tag carries the
        saved searches and the tombstones. BibTeX lists every listed paper unless a selection is given.

        Raises:
            TagNameError: `tag` is not a name any tag can have.
        """
        wanted_tag = None if tag is None else normalize_tag(tag)
        if format == "bibtex":
            return self._bibtex(which, wanted_tag)
        state = self._state()
        records = select(state.records(), which, wanted_tag)
        described = self._described(records)
        now = time.time()
        if format == "json":
            saved = state.search_records() if which == "all" and wanted_tag is None else []
            return Exported(to_json(records, described, now, saved))
        if format == "csv":
            return Exported(to_csv(records, described))
        return Exported(to_markdown(records, described, which, now, wanted_tag))

    def _described(self, records: list[PaperState]) -> dict[str, Described]:
        """What recognises each exported paper these listings have (see `Papers.described`)."""
        papers = self._papers()
        return {record.id: papers.described(record.id) for record in records if record.id in papers}

    def _bibtex(self, which: Which, tag: str | None) -> Exported:
        """Keys are made over all the listings' citable papers, so a paper's key is the same whatever is
        selected; the papers asked for that cannot be cited are counted in `skipped`."""
        papers = self._papers()
        every = list(papers.citable())
        if which == "all" and tag is None:
            chosen, asked = every, len(papers)
        else:
            wanted = {record.id for record in select(self._state().records(), which, tag)}
            chosen = [paper for paper in every if paper.id in wanted]
            asked = sum(1 for paper_id in wanted if paper_id in papers)
        bibliography = to_bibtex(chosen, cite_keys(every))
        return Exported(bibliography.text, asked - len(chosen))

    def citable(self, paper_id: str) -> bool:
        """Whether the paper has what a BibTeX entry needs (a title and an author)."""
        return citable(self._papers().paper(paper_id))

    def entry(self, paper_id: str) -> str | None:
        """One paper's BibTeX entry, under the key an export of every paper gives it (the reader's copy of a
        citation), or None when it has no title or no author to cite."""
        papers = self._papers()
        paper = papers.paper(paper_id)
        if not citable(paper):
            return None
        if self._keys is None or self._keys[0] is not papers:  # the keys are made over every paper, once
            self._keys = (papers, cite_keys(papers.citable()))
        return to_bibtex([paper], self._keys[1]).text.rstrip("\n") + "\n"

    @staticmethod
    def parse(text: str) -> Imported:
        """An export (JSON from `write`) read and validated whole, before anything is merged.

        Raises:
            ImportFormatError: not an export this version reads; the message says where and what.
        """
        return parse_document(text)

    def merge(self, document: Imported, label: str) -> Merged:
        """Merge a parsed export: per paper and slot, per saved search name, the newest change wins.

        Raises:
            StateError: the store could not be written.
        """
        applied = self._state().merge(document.papers, label, document.saved)
        return Merged(len(document.papers), len(applied.changed), len(document.saved), len(applied.searches))
