"""Reading a JSON export back: every field validated before anything is merged, so a bad file changes nothing.

Version 1 exports (stars and read marks) and version 2 (tags, notes and saved searches too) are read.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from index.state.changes import NoteMark, PaperState, TagMark
from index.state.notes import NoteError, clean_note
from index.state.searches import SavedSearch, SavedSearchError, clean_name, clean_query
from index.state.tags import TagNameError, normalize_tag

FORMAT_NAME = "papers-state"
FORMAT_VERSION = 2
PAPER_ID = re.compile(r"[0-9a-f]{12}")
LATEST_TIME = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()
"""The last second of the year 9999: `datetime` (ISO times in exports and `papers starred`) ends there."""
MAX_DEPTH = 16
"""Levels of JSON nesting an import may have; an export has 5 (document, papers, a paper, its tags, a tag)."""
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
"""A JSON string (skipped whole, so brackets inside text do not count) or a bracket."""


class ImportFormatError(Exception):
    """The import file is not a papers-state export this version understands; says where and what."""


@dataclass(frozen=True, slots=True)
class Imported:
    """A validated export: the papers' records and the saved searches, ready for `StateStore.merge`."""

    papers: list[PaperState]
    saved: list[SavedSearch]


def _shown(value: object) -> str:
    return json.dumps(value, ensure_ascii=True)[:40]


def _time(value: object, what: str) -> float | None:
    """A time as epoch seconds within the years 1970-9999: every later step (ISO dates in exports and lists,
    JSON out, merging by newest) can then handle it; a time outside refuses the whole file."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not (math.isfinite(value) and 0 <= value <= LATEST_TIME)
    ):
        raise ImportFormatError(
            f"{what} must be a time in epoch seconds in the years 1970-9999, or null, not {_shown(value)}"
        )
    return float(value)


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than any export has before parsing: Python's JSON reader recurses per level and
    ends in a RecursionError (a traceback) somewhere past a thousand."""
    depth = 0
    for match in _NESTING.finditer(text):
        bracket = match.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, match.start()) + 1
                raise ImportFormatError(
                    f"nested deeper than {MAX_DEPTH} levels (line {line}); a papers export nests 5"
                )
        elif bracket in "]}":
            depth -= 1


def _flag(value: object, at: float | None, what: str) -> bool:
    if not isinstance(value, bool):
        raise ImportFormatError(f"{what!r} must be true or false, not {_shown(value)}")
    if value and at is None:
        raise ImportFormatError(f"{what!r} is true but {what}_at is missing")
    return value


def _paper(number: int, item: object) -> PaperState:
    if not isinstance(item, dict):
        raise ImportFormatError(f"paper {number}: expected an object")
    try:
        paper_id = item.get("id")
        if not isinstance(paper_id, str) or PAPER_ID.fullmatch(paper_id) is None:
            raise ImportFormatError(f"'id' must be 12 lowercase hex characters, not {_shown(paper_id)}")
        starred_at = _time(item.get("starred_at"), "starred_at")
        read_at = _time(item.get("read_at"), "read_at")
        starred = _flag(item.get("starred", False), starred_at, "starred")
        read = _flag(item.get("read", False), read_at, "read")
        tags = _tags(item.get("tags", []))
        note = _note(item.get("note"))
    except ImportFormatError as error:
        raise ImportFormatError(f"paper {number}: {error}") from None
    return PaperState(paper_id, starred, starred_at, read, read_at, tags, note)


def _required_time(value: object, what: str) -> float:
    at = _time(value, what)
    if at is None:
        raise ImportFormatError(f"{what} is missing")
    return at


def _tags(value: object) -> tuple[TagMark, ...]:
    """A paper's tags: the newest mark per (normalized) name, by name, as the store would hold them."""
    if not isinstance(value, list):
        raise ImportFormatError(f"'tags' must be a list, not {_shown(value)}")
    marks: dict[str, TagMark] = {}
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict):
            raise ImportFormatError(f"tag {number}: expected an object")
        name = item.get("name")
        try:
            if not isinstance(name, str):
                raise TagNameError(f"'name' must be text, not {_shown(name)}")
            tag = normalize_tag(name)
            tagged = item.get("tagged")
            if not isinstance(tagged, bool):
                raise ImportFormatError(f"'tagged' must be true or false, not {_shown(tagged)}")
            mark = TagMark(tag, tagged, _required_time(item.get("at"), "at"))
        except (TagNameError, ImportFormatError) as error:
            raise ImportFormatError(f"tag {number}: {error}") from None
        known = marks.get(tag)
        if known is None or (mark.at, mark.tagged) > (known.at, known.tagged):
            marks[tag] = mark
    return tuple(marks[name] for name in sorted(marks))


def _note(value: object) -> NoteMark | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ImportFormatError(f"'note' must be an object or null, not {_shown(value)}")
    text = value.get("text")
    if not isinstance(text, str):
        raise ImportFormatError(f"note: 'text' must be text, not {_shown(text)}")
    try:
        cleaned = clean_note(text)
    except NoteError as error:
        raise ImportFormatError(f"note: {error}") from None
    return NoteMark(cleaned, _required_time(value.get("at"), "note: at"))


def _saved(number: int, item: object) -> SavedSearch:
    try:
        if not isinstance(item, dict):
            raise ImportFormatError("expected an object")
        name, query = item.get("name"), item.get("query")
        if not isinstance(name, str):
            raise ImportFormatError(f"'name' must be text, not {_shown(name)}")
        if query is not None and not isinstance(query, str):
            raise ImportFormatError(f"'query' must be text or null, not {_shown(query)}")
        cleaned = None if query is None else clean_query(query)
        return SavedSearch(clean_name(name), cleaned, _required_time(item.get("at"), "at"))
    except (SavedSearchError, ImportFormatError) as error:
        raise ImportFormatError(f"saved search {number}: {error}") from None


def parse_export(text: str) -> list[PaperState]:
    """The papers of a JSON export (`parse_document` for its saved searches too)."""
    return parse_document(text).papers


def parse_document(text: str) -> Imported:
    """Validate a JSON export completely before anything is merged, so a bad file changes nothing.

    Raises:
        ImportFormatError: naming what is wrong (the caller adds the file name).
    """
    _check_depth(text)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ImportFormatError(
            f"not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})"
        ) from None
    if not isinstance(document, dict) or document.get("format") != FORMAT_NAME:
        raise ImportFormatError(f'not a papers export (expected "format": "{FORMAT_NAME}")')
    version = document.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise ImportFormatError(f'"version" must be a positive integer, not {_shown(version)}')
    if version > FORMAT_VERSION:
        raise ImportFormatError(
            f"export format version {version} is newer than this papers reads ({FORMAT_VERSION})"
        )
    papers = document.get("papers")
    if not isinstance(papers, list):
        raise ImportFormatError('"papers" must be a list')
    saved = document.get("saved_searches", [])
    if not isinstance(saved, list):
        raise ImportFormatError('"saved_searches" must be a list')
    return Imported(
        [_paper(number, item) for number, item in enumerate(papers, start=1)],
        [_saved(number, item) for number, item in enumerate(saved, start=1)],
    )
