"""Frozen value types shared by every layer, so no caller ever holds a Whoosh or SQLite object."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Literal, overload

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


METADATA_FIELDS = ("title", "authors", "url", "venue", "year", "status")
"""`Metadata`'s fields, in the order the snapshot stores them."""
_metadata_values = attrgetter(*METADATA_FIELDS)
_GAPS = (None, "", ())
"""Values a later copy of a paper may fill in (a year of 0 would stay: it is not None)."""


def metadata_keywords(values: Iterable[Any]) -> dict[str, Any]:
    """Metadata values in `METADATA_FIELDS` order as constructor keywords (`Entry(a, s, **keywords)`)."""
    return dict(zip(METADATA_FIELDS, values, strict=True))


@dataclass(frozen=True, slots=True, kw_only=True)
class Metadata:
    """What a listing may say about a paper besides its abstract: one declaration for `Entry` and `Paper`.

    Keyword-only, so a subclass keeps its own required fields first (`Entry(abstract, source, title=...)`).
    """

    title: str | None = None
    authors: tuple[str, ...] = ()
    url: str | None = None
    venue: str | None = None
    year: int | None = None
    status: str | None = None

    def metadata_values(self) -> tuple[Any, ...]:
        """The fields in `METADATA_FIELDS` order (one C call: the snapshot compares 56k entries with this)."""
        return tuple(_metadata_values(self))

    def metadata(self) -> dict[str, Any]:
        """The fields as keywords, to build another kind of record with the same metadata."""
        return metadata_keywords(_metadata_values(self))

    def filled_from(self, later: Metadata) -> Metadata:
        """This metadata with each gap (None, empty) filled from `later`; itself when none is filled."""
        mine, theirs = _metadata_values(self), _metadata_values(later)
        if all(value not in _GAPS for value in mine) or mine == theirs:
            return self
        filled = (theirs[i] if value in _GAPS else value for i, value in enumerate(mine))
        return Metadata(**metadata_keywords(filled))


@dataclass(frozen=True, slots=True)
class Entry(Metadata):
    """One paper as it appears in one listing file, before duplicates across files are merged."""

    abstract: str
    source: Source


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
class Paper(Metadata):
    """A paper after duplicate merging: one id, every place it was seen."""

    id: str
    headline: str
    abstract: str
    """The raw abstract of the first occurrence (LaTeX and markdown as written)."""
    sources: tuple[Source, ...]


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


class LazyPapers(Sequence[Paper]):
    """Papers in listing order, each made by `make(number)` when first asked for.

    A virtual list shows a screenful, so neither decoding 56k snapshot records nor synthesizing 56k
    headlines should happen before the first screen: the snapshot and the library both hand out papers
    through this. `make` keeps what it made (both makers cache), so this holds nothing but the count.
    """

    def __init__(self, count: int, make: Callable[[int], Paper]) -> None:
        self._count = count
        self._make = make

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> Paper: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Paper]: ...
    def __getitem__(self, index: int | slice) -> Paper | Sequence[Paper]:
        if isinstance(index, slice):
            return [self._make(number) for number in range(*index.indices(self._count))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        return self._make(index)

    def __iter__(self) -> Iterator[Paper]:
        return map(self._make, range(self._count))
