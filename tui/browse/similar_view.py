"""More like this (`m`): the reference paper pinned on top, the papers like it below, and why each is there.

The browse screen holds one `SimilarView` while the list shows similar papers and asks it for the wording:
the status label, the reference row's prefix, the line on top of the detail pane and the words to highlight.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from tui.text import literal, one_line
from tui.widgets.status_line import Status, status_text

if TYPE_CHECKING:
    from index.library import Highlight, Library, SimilarHit

REFERENCE_PREFIX = "◆ like this: "
"""Starts the reference paper's row, so it never reads as one of the hits."""
REFERENCE_TERMS = 12
"""At most this many of the reference's shared terms are named (the first hits' first)."""
ELLIPSIS = "…"
_TRAILING = " ,;:.-–—(/"
_DANGLING = frozenset(
    {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}
)
"""Words a cut headline should not end on ("identifying and…")."""


@dataclass(frozen=True, slots=True)
class SimilarView:
    """The papers like `source`, best first, without `source` itself."""

    source: str
    headline: str
    hits: tuple[SimilarHit, ...]

    @classmethod
    def of(cls, library: Library, paper_id: str) -> SimilarView:
        """Ask the library for the papers like `paper_id`."""
        hits = tuple(hit for hit in library.discovery.similar(paper_id) if hit.id != paper_id)
        return cls(paper_id, library.papers.paper(paper_id).headline, hits)

    @property
    def ids(self) -> list[str]:
        """What the list shows: the reference first, then the hits."""
        return [self.source, *(hit.id for hit in self.hits)]

    def row_headline(self, paper_id: str, headline: str) -> str:
        return REFERENCE_PREFIX + headline if paper_id == self.source else headline

    def shared_terms(self, paper_id: str) -> tuple[str, ...]:
        """The key terms `paper_id` shares with the reference; for the reference, all that any hit shares."""
        if paper_id == self.source:
            seen: dict[str, None] = {}
            for hit in self.hits:
                seen.update(dict.fromkeys(hit.shared_terms))
            return tuple(seen)[:REFERENCE_TERMS]
        return next((hit.shared_terms for hit in self.hits if hit.id == paper_id), ())

    def highlight(self, paper_id: str) -> Highlight:
        """The shared terms as the detail pane marks them in the abstract (for the reference: those named)."""
        stems = {
            word: stem
            for hit in self.hits
            for word, stem in zip(hit.shared_terms, hit.shared_stems, strict=False)
        }
        marked = frozenset(stems[word] for word in self.shared_terms(paper_id) if word in stems)
        return {"abstract": marked, "headline": marked}

    def why(self, paper_id: str) -> Text:
        """The line on top of the detail pane: this is the reference, or what it shares with the reference."""
        text = Text(end="")
        terms = self.shared_terms(paper_id)
        if paper_id == self.source:
            count = len(self.hits)
            found = f"the {count} papers below are" if count != 1 else "the paper below is"
            text.append(f"Reference: {found} like this one" if count else "No papers like this one", "bold")
            text.append(" (Esc returns)", "dim")
            label = "its key terms: "
        else:
            text.append("Like ", "bold")
            text.append_text(literal(f'"{one_line(self.headline)}"', "bold"))
            label = "shared key terms: "
        if terms:
            text.append("\n" + label, "dim")
            text.append_text(literal(one_line(", ".join(terms)), "italic"))
        return text

    def status(self, status: Status, width: int, *, read_only: bool) -> Status:
        """`status` saying `like "<headline>" · <hits>`, the headline cut between words so the line fits.

        Args:
            status: the counts and progress; its query and mode are replaced.
            width: the cells the status line has.
            read_only: whether to add that the store is read-only.
        """
        extra = " · read-only state" if read_only else ""

        def with_headline(headline: str) -> Status:
            return replace(
                status, query="", mode=f'like "{headline}" · {len(self.hits)} · Esc returns{extra}'
            )

        room = width - status_text(with_headline("")).cell_len
        return with_headline(fit_words(one_line(self.headline), room))


def fit_words(text: str, width: int) -> str:
    """`text` if it fits `width` cells, else as many whole words as fit followed by an ellipsis."""
    if cell_len(text) <= width:
        return text
    kept: list[str] = []
    for word in text.split():
        if cell_len(" ".join([*kept, word]).rstrip(_TRAILING) + ELLIPSIS) > width:
            break
        kept.append(word)
    while len(kept) > 1 and kept[-1].lower() in _DANGLING:
        kept.pop()  # "identifying and…" says less than "identifying…"
    return " ".join(kept).rstrip(_TRAILING) + ELLIPSIS
