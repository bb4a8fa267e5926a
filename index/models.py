"""Frozen value types shared by every layer, so no caller ever holds a Whoosh or SQLite object."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

ListingFormat = Literal["text", "json", "jsonl"]
SpanStyle = Literal["bold", "italic", "math", "cite", "code", "link"]


@dataclass(frozen=True, slots=True)
class Notice:
    """A problem found in user input: printed as one line, never raised as a traceback."""

    path: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class Source:
    """Where one copy of a paper sits: enough for a user to open the file and find it."""

    path: str
    """Absolute path of the listing file."""
    paragraph: int
    """1-based number of the paper within the file (the header paragraph is not counted)."""
    line: int
    """1-based line where the paragraph (or JSON record) starts."""
    listing: str
    """The listing's name: its header line, or the file stem when there is none."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One paper as it appears in one listing file, before duplicates across files are merged."""

    abstract: str
    source: Source
    title: str | None = None
    authors: tuple[str, ...] = ()
    url: str | None = None
    venue: str | None = None
    year: int | None = None
    status: str | None = None


@dataclass(frozen=True, slots=True)
class Listing:
    """One listing file, read."""

    path: str
    name: str
    venue: str | None
    year: int | None
    format: ListingFormat
    entries: tuple[Entry, ...]
    notices: tuple[Notice, ...] = ()


@dataclass(frozen=True, slots=True)
class Span:
    """A styled run of characters in rendered text, as offsets into `Rendered.text`."""

    start: int
    end: int
    style: SpanStyle


@dataclass(frozen=True, slots=True)
class Rendered:
    """Display-safe text: plain for the index and the CLI, plain plus spans for the TUI."""

    text: str
    spans: tuple[Span, ...] = ()


@dataclass(frozen=True, slots=True)
class Paper:
    """A paper after duplicate merging: one id, every place it was seen."""

    id: str
    headline: str
    abstract: str
    """The raw abstract of the first occurrence (LaTeX and markdown as written)."""
    sources: tuple[Source, ...]
    title: str | None = None
    authors: tuple[str, ...] = ()
    url: str | None = None
    venue: str | None = None
    year: int | None = None
    status: str | None = None


@dataclass(frozen=True, slots=True)
class Catalog:
    """Everything read from a set of listings: papers in listing order plus what went wrong."""

    listings: tuple[Listing, ...]
    papers: tuple[Paper, ...]
    notices: tuple[Notice, ...] = field(default=())
    files: tuple[str, ...] = field(default=(), compare=False)
    """Every file the listings named, read or skipped: the index records them all, so a skipped (binary)
    file does not look "added" on every start. Not part of equality: a snapshot does not store it."""

    @property
    def paragraphs(self) -> int:
        return sum(len(listing.entries) for listing in self.listings)

    @property
    def duplicates(self) -> int:
        return self.paragraphs - len(self.papers)
