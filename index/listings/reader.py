"""Reading listing files into `Listing`s: which files, which format, and the paragraph-per-paper text format.

Nothing here raises on bad input. Every problem becomes a `Notice` naming the file (and line) and what to
do, and the rest of the input still loads: one damaged file in a folder of fifty must not hide the others.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from index.listings import json_records
from index.listings.textfile import NotText, TextLines
from index.models import Entry, Listing, Notice, Source

LISTING_SUFFIXES = (".txt", ".json", ".jsonl")
HEADER_MAX_CHARS = 120
# A first paragraph ending like a sentence is an abstract, not a title line such as "NeurIPS 2026 Papers".
_WHERE_FROM = "--listings / PAPERS_LISTINGS"
_SENTENCE_END = tuple(".!?;,。！？；，…")
_Paragraph = tuple[int, list[str]]
"""(line the paragraph starts on, its stripped lines)"""
_VENUE_YEAR = re.compile(r"^(?P<venue>.*?)[\s,:\-–—]*\b(?P<year>(?:19|20)\d\d)\b")


def expand_paths(paths: Sequence[Path]) -> tuple[list[Path], list[Notice]]:
    """The listing files that `paths` name: files as given, directories as their listing files.

    Returns:
        The files in sorted order of their absolute paths, each file once even when named twice (or named
        and also inside a named directory), so paper order never depends on how the paths were typed.
    """
    found: dict[Path, Path] = {}
    notices: list[Notice] = []
    for given in paths:
        if given.is_dir():
            children = _listing_files_in(given)
            if not children:
                suffixes = ", ".join(f"*{suffix}" for suffix in LISTING_SUFFIXES)
                notices.append(Notice(str(given), f"directory holds no listing files ({suffixes})"))
            for child in children:
                found.setdefault(child.resolve(), child)
        elif given.exists():
            found.setdefault(given.resolve(), given)
        else:
            notices.append(Notice(str(given), f"no such file or directory; check {_WHERE_FROM}"))
    ordered = sorted(found.values(), key=lambda path: os.path.abspath(path))
    return ordered, notices


def listings_digest(paths: Iterable[Path]) -> str:
    """A stable name for a set of listings: the same files or folders in any order, by any relative path.

    The reader's session memory and the per-set index directories are both kept under it.
    """
    resolved = sorted({str(_resolved(path)) for path in paths})
    return hashlib.sha256("\0".join(resolved).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):  # a symlink loop or an unreadable parent: the path as given
        return path.expanduser().absolute()


def _listing_files_in(directory: Path) -> list[Path]:
    try:
        children = list(directory.iterdir())
    except OSError:
        return []
    return sorted(
        (
            child
            for child in children
            if not child.name.startswith(".") and child.suffix.lower() in LISTING_SUFFIXES and child.is_file()
        ),
        key=lambda child: child.name,
    )


def read_listings(paths: Sequence[Path]) -> tuple[list[Listing], list[Notice]]:
    """Read every listing file `paths` names (see `expand_paths`); unreadable ones become notices."""
    files, notices = expand_paths(paths)
    listings: list[Listing] = []
    for path in files:
        listing, found = read_listing(path)
        notices.extend(found)
        if listing is not None:
            listings.append(listing)
    return listings, notices


def read_listing(path: Path) -> tuple[Listing | None, list[Notice]]:
    """Read one listing file; the format follows the extension (.json, .jsonl, anything else is text).

    Returns:
        The listing, or None when the file had to be skipped (binary, unreadable, invalid JSON); and the
        notices about it, which are also kept on the listing.
    """
    problem = _not_a_file(path)
    if problem is not None:
        return None, [Notice(str(path), problem)]
    suffix = path.suffix.lower()
    try:
        with TextLines(path) as lines:
            if suffix == ".jsonl":
                listing = json_records.read_jsonl(path, lines)
            elif suffix == ".json":
                listing = json_records.read_json(path, lines)
            else:
                listing = _read_text(path, lines)
    except NotText as error:
        return None, [Notice(str(path), str(error))]
    if listing is None:
        return None, []
    return listing, list(listing.notices)


def _not_a_file(path: Path) -> str | None:
    """Why `path` cannot be a listing file, or None; opening a named pipe for reading would hang."""
    try:
        mode = path.stat().st_mode
    except OSError as error:
        return f"cannot read: {error.strerror or error}"
    if stat.S_ISDIR(mode):
        return "is a directory; name the directory itself in --listings to read the listings in it"
    if not stat.S_ISREG(mode):
        return "not a regular file (a pipe or a device); skipped"
    return None


def _read_text(path: Path, lines: TextLines) -> Listing:
    """The seed format: an optional one-line header, then one paper per blank-line-separated paragraph."""
    shown = str(path)
    absolute = os.path.abspath(path)
    paragraphs = _paragraphs(lines)
    name, venue, year = path.stem, None, None
    header_seen = False
    entries: list[Entry] = []
    first = next(paragraphs, None)
    if first is not None and _is_header(first[1]):
        header_seen = True
        name = first[1][0]
        venue, year = parse_venue_year(name)
        first = None
    rest: Iterable[_Paragraph] = paragraphs if first is None else _chain(first, paragraphs)
    for number, (line, parts) in enumerate(rest, start=1):
        source = Source(path=absolute, paragraph=number, line=line, listing=name)
        entries.append(Entry(abstract=" ".join(parts), source=source, venue=venue, year=year))
    notices: list[Notice] = []
    bad = lines.bad_bytes_message
    if bad is not None:
        notices.append(Notice(shown, bad))
    if not entries:
        why = "only a header line" if header_seen else "empty file"
        notices.append(Notice(shown, f"no papers ({why}); papers are paragraphs separated by blank lines"))
    return Listing(
        path=absolute,
        name=name,
        venue=venue,
        year=year,
        format="text",
        entries=tuple(entries),
        notices=tuple(notices),
    )


def _paragraphs(lines: Iterable[str]) -> Iterator[_Paragraph]:
    """(first line number, stripped lines) per paragraph; a line of only spaces or tabs separates too."""
    start = 0
    current: list[str] = []
    for number, line in enumerate(lines, start=1):
        text = line.strip()
        if not text:
            if current:
                yield start, current
                current = []
            continue
        if not current:
            start = number
        current.append(text)
    if current:
        yield start, current


def _chain(first: _Paragraph, rest: Iterator[_Paragraph]) -> Iterator[_Paragraph]:
    yield first
    yield from rest


def _is_header(parts: list[str]) -> bool:
    """A single short line that does not end like a sentence names the listing instead of being a paper."""
    return len(parts) == 1 and len(parts[0]) <= HEADER_MAX_CHARS and not parts[0].endswith(_SENTENCE_END)


def parse_venue_year(name: str) -> tuple[str | None, int | None]:
    """("NeurIPS", 2026) from "NeurIPS 2026 Papers" or "NeurIPS 2026 论文列表"; None for what is not there."""
    match = _VENUE_YEAR.search(name)
    if match is None:
        return None, None
    venue = match.group("venue").strip()
    return (venue or None), int(match.group("year"))
