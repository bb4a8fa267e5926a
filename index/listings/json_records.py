"""Reading JSON array and JSON Lines exports: title, authors, abstract, url, venue, year, status."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from index.listings.textfile import NotText, TextLines
from index.models import Entry, Listing, ListingFormat, Metadata, Notice, Source

_JSON_SPACE = re.compile(r"[ \t\n\r]*")
# "A; B", "A, B, and C", "A and B": the separators exports use between author names.
_AUTHOR_SPLIT = re.compile(r"\s*;\s*|\s*,\s*(?:and\s+)?|\s+and\s+|\s*&\s*")
_YEAR = re.compile(r"\s*(\d{4})\s*")
_SURROGATE = re.compile("[\ud800-\udfff]")


class _Record(NamedTuple):
    """A record that passed the checks, waiting for the listing name (known only once all are read)."""

    number: int
    line: int
    abstract: str
    metadata: Metadata


def read_jsonl(path: Path, lines: TextLines) -> Listing:
    """One JSON object per line; a malformed line costs only that record, with a notice naming the line."""
    return _read_lines(path, lines, lines)


def _read_lines(path: Path, text_lines: Iterable[str], lines: TextLines) -> Listing:
    shown = str(path)
    records: list[_Record] = []
    notices: list[Notice] = []
    number = 0
    for line_number, line in enumerate(text_lines, start=1):
        if not line.strip():
            continue
        number += 1
        try:
            value = json.loads(line)
        except json.JSONDecodeError as error:
            problem = f"not valid JSON ({_position(error, line=False)}); skipped"
            notices.append(Notice(shown, problem, line_number))
            continue
        except RecursionError:
            notices.append(Notice(shown, f"{TOO_DEEP}; skipped", line_number))
            continue
        _collect(value, number, line_number, shown, records, notices)
    return _listing(path, "jsonl", records, notices, lines)


def read_json(path: Path, lines: TextLines) -> Listing:
    """A JSON array of records. Invalid JSON skips the file with one notice giving the position.

    A .json file that is really JSON Lines (objects one after another) is read as such: exports mix up the
    two extensions often enough, and the records themselves are unambiguous.

    Raises:
        NotText: the file is not a JSON array; the message gives the parse error's position.
    """
    shown = str(path)
    text = lines.read_all()
    records: list[_Record] = []
    notices: list[Notice] = []
    if text.lstrip().startswith("{"):
        return _read_lines(path, text.split("\n"), lines)
    try:
        for number, (line, value) in enumerate(_array_items(text), start=1):
            _collect(value, number, line, shown, records, notices)
    except json.JSONDecodeError as error:
        message = f"not a valid JSON array ({_position(error, line=True)}); file skipped"
        raise NotText(message) from error
    except _NotAnArray as error:
        message = "expected a JSON array of paper records (or one object per line in .jsonl); file skipped"
        raise NotText(message) from error
    except _TooDeep as error:
        raise NotText(f"the record starting on line {error.line} is {TOO_DEEP}; file skipped") from None
    return _listing(path, "json", records, notices, lines)


def _position(error: json.JSONDecodeError, *, line: bool) -> str:
    """ "Expecting ',' delimiter at line 4 column 3", minding messages that already end in "at"."""
    where = f"line {error.lineno} column {error.colno}" if line else f"column {error.colno}"
    joiner = " " if error.msg.endswith(" at") else " at "
    return f"{error.msg}{joiner}{where}"


class _NotAnArray(Exception):
    pass


TOO_DEEP = "nested too deeply to be a paper record"
"""Python's JSON reader recurses per level and gives up past about a thousand: a crafted file, never a
listing, so the record (a JSON Lines line) or the file (an array, whose next record cannot be found) is
skipped with a notice instead of a RecursionError traceback."""


class _TooDeep(Exception):
    def __init__(self, line: int) -> None:
        super().__init__(line)
        self.line = line


def _array_items(text: str) -> Iterator[tuple[int, object]]:
    """Each element of the top-level array with the line it starts on; json.loads would lose the lines."""
    decoder = json.JSONDecoder()
    position = _JSON_SPACE.match(text, 0).end()  # type: ignore[union-attr]
    if position >= len(text) or text[position] != "[":
        if position < len(text) and text[position] in '{"0123456789-tfn':
            raise _NotAnArray
        raise json.JSONDecodeError("Expecting '['", text, position)
    line, counted = 1, 0
    position = _JSON_SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
    if position < len(text) and text[position] == "]":
        return _check_end(text, position + 1)
    while True:
        line += text.count("\n", counted, position)
        counted = position
        try:
            value, end = decoder.raw_decode(text, position)
        except RecursionError:
            raise _TooDeep(line) from None
        yield line, value
        position = _JSON_SPACE.match(text, end).end()  # type: ignore[union-attr]
        if position < len(text) and text[position] == ",":
            position = _JSON_SPACE.match(text, position + 1).end()  # type: ignore[union-attr]
            continue
        if position < len(text) and text[position] == "]":
            return _check_end(text, position + 1)
        raise json.JSONDecodeError("Expecting ',' delimiter", text, position)


def _check_end(text: str, position: int) -> None:
    position = _JSON_SPACE.match(text, position).end()  # type: ignore[union-attr]
    if position != len(text):
        raise json.JSONDecodeError("Extra data", text, position)


def _collect(
    value: object,
    number: int,
    line: int,
    shown: str,
    records: list[_Record],
    notices: list[Notice],
) -> None:
    """Check one record and keep it, or say (with its number and line) why it is skipped."""
    if not isinstance(value, dict):
        notices.append(Notice(shown, f"record {number} is not a JSON object; skipped", line))
        return
    abstract = value.get("abstract")
    if not isinstance(abstract, str) or not abstract.strip():
        notices.append(Notice(shown, f"record {number} has no abstract; skipped", line))
        return
    records.append(
        _Record(
            number=number,
            line=line,
            abstract=_scrub(abstract),
            metadata=Metadata(
                title=_text(value.get("title")),
                authors=_authors(value.get("authors")),
                url=_text(value.get("url")),
                venue=_text(value.get("venue")),
                year=_year(value.get("year")),
                status=_text(value.get("status")),
            ),
        )
    )


def _listing(
    path: Path, kind: ListingFormat, records: list[_Record], notices: list[Notice], lines: TextLines
) -> Listing:
    shown = str(path)
    absolute = os.path.abspath(path)
    venues = {record.metadata.venue for record in records}
    years = {record.metadata.year for record in records}
    venue = next(iter(venues)) if len(venues) == 1 else None
    year = next(iter(years)) if len(years) == 1 else None
    # A per-venue export names itself ("ICML 2024", or "ICML" across years); a mixed one keeps its file name.
    if venue is None:
        name = path.stem
    elif year is None:
        name = venue
    else:
        name = f"{venue} {year}"
    entries = tuple(
        Entry(
            abstract=record.abstract,
            source=Source(path=absolute, paragraph=record.number, line=record.line, listing=name),
            **record.metadata.metadata(),
        )
        for record in records
    )
    bad = lines.bad_bytes_message
    if bad is not None:
        notices.insert(0, Notice(shown, bad))
    if not entries:
        notices.append(Notice(shown, "no papers (no records with an abstract)"))
    return Listing(
        path=absolute, name=name, venue=venue, year=year, format=kind, entries=entries, notices=tuple(notices)
    )


def _scrub(value: str) -> str:
    """JSON can spell a lone surrogate (`"\\ud800"`) that no encoder or terminal takes: make it U+FFFD."""
    if value.isascii():
        return value
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", value)
    return value


def _text(value: object) -> str | None:
    if isinstance(value, str):
        return _scrub(value.strip()) or None
    return None


def _authors(value: object) -> tuple[str, ...]:
    """A list of names, or one string in any of the usual "A, B, and C" shapes."""
    if isinstance(value, str):
        parts: list[object] = list(_AUTHOR_SPLIT.split(value))
    elif isinstance(value, list):
        try:
            # The usual list of strings at C speed; anything else (dicts, numbers) takes the slow path.
            names = tuple(filter(None, map(str.strip, value)))
        except TypeError:
            parts = [item.get("name") if isinstance(item, dict) else item for item in value]
        else:
            return names if "".join(names).isascii() else tuple(map(_scrub, names))
    else:
        return ()
    return tuple(_scrub(name.strip()) for name in parts if isinstance(name, str) and name.strip())


def _year(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 1000 <= value <= 9999:
        return value
    if isinstance(value, str):
        match = _YEAR.fullmatch(value)
        return int(match.group(1)) if match else None
    return None
