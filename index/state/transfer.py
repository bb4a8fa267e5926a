"""Moving a user's marks between machines: export to JSON/Markdown/CSV and read a JSON export back.

The JSON export carries every stored slot with its time, tombstones included (stars, read marks, each tag,
the note, each saved search), so importing it elsewhere with `StateStore.merge` (newest timestamp wins per
paper and slot, per saved search name) also propagates unstars, unreads, untags, cleared notes and deleted
searches. Version 1 files (before tags, notes and saved searches) still import. An import is validated
whole before anything is merged, so a bad file changes nothing. The writers and the reader of the format
sit together: a per-paper field's key is written and read back in this one module.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from index.render.sanitize import BIDI_CONTROLS, strip_bidi
from index.state.changes import InputError, TagMark
from index.state.fields import PAPER_FIELDS, Mark, PaperField, PaperState
from index.state.searches import SavedSearch, SavedSearchError, clean_name, clean_query
from index.state.tags import TagNameError, normalize_tag

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "NOT_LISTED",
    "Described",
    "ImportFormatError",
    "Imported",
    "Which",
    "first_sentence",
    "iso",
    "parse_document",
    "parse_export",
    "select",
    "to_csv",
    "to_json",
    "to_markdown",
]

Which = Literal["all", "starred", "read"]
NOT_LISTED = "(not in the current listings)"
FORMAT_NAME = "papers-state"
FORMAT_VERSION = 2
PAPER_ID = re.compile(r"[0-9a-f]{12}")
LATEST_TIME = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC).timestamp()
"""The last second of the year 9999: `datetime` (ISO times in exports and `papers starred`) ends there."""
MAX_DEPTH = 16
"""Levels of JSON nesting an import may have; an export has 5 (document, papers, a paper, its tags, a tag)."""
_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
"""A JSON string (skipped whole, so brackets inside text do not count) or a bracket."""


@dataclass(frozen=True, slots=True)
class Described:
    """What a person needs to recognise a paper in an export: display-safe text from the current listings."""

    headline: str
    venue: str | None
    first_sentence: str
    year: int | None = None

    @property
    def venue_label(self) -> str:
        """ "NeurIPS 2026", as `papers list` shows it."""
        return " ".join(part for part in (self.venue, str(self.year) if self.year else None) if part)


_FLAGS = [(field, field.name, f"{field.name}_at") for field in PAPER_FIELDS if field.flag]
_VALUED = [field for field in PAPER_FIELDS if not field.flag]
"""The fields an export carries: flags flat under two keys (`starred`, `starred_at`), the others as an
object or null under their name."""


def select(records: Iterable[PaperState], which: Which, tag: str | None = None) -> list[PaperState]:
    """`all` keeps tombstones (so unstars travel); `starred`/`read` keep only papers currently so; a `tag`
    (in its stored form) keeps only papers that have it now."""
    if tag is not None:
        records = [record for record in records if tag in record.tag_names]
    if which == "starred":
        return [record for record in records if record.starred]
    if which == "read":
        return [record for record in records if record.read]
    return list(records)


def iso(at: float | None) -> str:
    """An epoch time as ISO 8601 UTC to the second, for people (exports keep the exact float)."""
    if at is None:
        return ""
    return datetime.fromtimestamp(_in_range(at), UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _in_range(at: float) -> float:
    """A stored time within what imports accept (1970-9999): a store an older papers filled from a crafted
    import still lists and exports, and its export imports again."""
    return min(max(at, 0.0), LATEST_TIME) if math.isfinite(at) else (LATEST_TIME if at > 0 else 0.0)


def _exported_time(at: float | None) -> float | None:
    return None if at is None else _in_range(at)


_ESCAPED_BIDI = str.maketrans({char: f"\\u{ord(char):04x}" for char in BIDI_CONTROLS})


def to_json(
    records: Sequence[PaperState],
    described: Mapping[str, Described],
    exported_at: float,
    saved: Sequence[SavedSearch] = (),
) -> str:
    papers = []
    for record in records:
        info = described.get(record.id)
        paper: dict[str, object] = {"id": record.id}
        for field, key, at_key in _FLAGS:
            mark = field.mark_of(record)
            paper[key] = mark is not None and mark[0] == 1
            paper[at_key] = None if mark is None else _exported_time(mark[1])
        paper["tags"] = [
            {"name": tag.name, "tagged": tag.tagged, "at": _exported_time(tag.at)} for tag in record.tags
        ]
        for field in _VALUED:
            mark = field.mark_of(record)
            paper[field.name] = (
                None if mark is None else {field.json_value: mark[0], "at": _exported_time(mark[1])}
            )
        paper |= {"headline": info.headline if info else None, "venue": info.venue if info else None}
        papers.append(paper)
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported_at": exported_at,
        "papers": papers,
        "saved_searches": [
            {"name": item.name, "query": item.query, "at": _exported_time(item.at)} for item in saved
        ],
    }
    # A bidi control can only sit inside a JSON string, so its \u escape keeps the value exact (a note from an
    # older papers may hold one) while no viewer of the file reorders the text around it.
    return json.dumps(document, ensure_ascii=False, indent=2).translate(_ESCAPED_BIDI) + "\n"


def _cell(text: str) -> str:
    """Listing text is untrusted: a leading = + - @ would run as a formula in a spreadsheet, so quote it;
    a bidi control would make the row show other text than it holds, so it goes."""
    text = strip_bidi(text)
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def to_csv(records: Sequence[PaperState], described: Mapping[str, Described]) -> str:
    """One row per paper with ISO times, for spreadsheets; tags space-separated (a tag has no spaces)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    flags = [column for _field, key, at_key in _FLAGS for column in (key, at_key)]
    writer.writerow(["id", *flags, "headline", "venue", "year", "tags", *(field.name for field in _VALUED)])
    for record in records:
        info = described.get(record.id)
        row: list[object] = [record.id]
        for field, _key, _at_key in _FLAGS:
            mark = field.mark_of(record)
            row += [0, ""] if mark is None else [mark[0], iso(mark[1])]
        row += [
            _cell(info.headline) if info else "",
            _cell(info.venue or "") if info else "",
            (info.year or "") if info else "",
            _cell(" ".join(record.tag_names)),
        ]
        for field in _VALUED:
            mark = field.mark_of(record)
            row.append("" if mark is None else _cell(str(mark[0])))
        writer.writerow(row)
    return out.getvalue()


def _markdown_text(text: str) -> str:
    """Escape what Markdown would turn into formatting, so a headline pastes into notes as written."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", strip_bidi(text))


def to_markdown(
    records: Sequence[PaperState],
    described: Mapping[str, Described],
    which: Which,
    exported_at: float,
    tag: str | None = None,
) -> str:
    """A list to paste into notes: headline, venue, id, tags, the abstract's first sentence and the user's
    note per paper. Starred papers (read ones for `which="read"`), or every paper with `tag`."""
    if tag is not None:
        shown = [record for record in records if tag in record.tag_names]
        title = f"Papers tagged {_markdown_text(tag)}"
    else:
        shown = [record for record in records if (record.read if which == "read" else record.starred)]
        title = "Read papers" if which == "read" else "Starred papers"
    lines = [f"# {title} ({len(shown)}, exported {iso(exported_at)})", ""]
    for record in shown:
        info = described.get(record.id)
        labels = f" · tags: {_markdown_text(', '.join(record.tag_names))}" if record.tag_names else ""
        if info is None:
            lines.append(f"- {NOT_LISTED} · `{record.id}`{labels}")
        else:
            venue = f" · {_markdown_text(info.venue_label)}" if info.venue_label else ""
            lines.append(f"- **{_markdown_text(info.headline)}**{venue} · `{record.id}`{labels}")
            if info.first_sentence:
                lines.append(f"  {_markdown_text(info.first_sentence)}")
        if record.note and record.note.text:
            # The note is the user's own Markdown: quoted under the item as written.
            lines += [f"  > {line}".rstrip() for line in strip_bidi(record.note.text).splitlines()]
    return "\n".join(lines) + "\n"


def first_sentence(plain: str, limit: int = 300) -> str:
    """The abstract's first sentence (up to `limit` characters), for a reminder of what the paper is about."""
    text = " ".join(plain.split())
    match = re.search(r"[.!?](?=\s+[A-Z0-9(\"'])", text)
    sentence = text[: match.end()] if match else text
    if len(sentence) > limit:
        sentence = sentence[: limit - 1].rstrip() + "…"
    return sentence


# ----- reading a JSON export back ------------------------------------------------------------------------


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


def _flag(value: object, at: float | None, what: str) -> Mark | None:
    """A flag's mark: (1 or 0, time), None when it was never set (false with no time)."""
    if not isinstance(value, bool):
        raise ImportFormatError(f"{what!r} must be true or false, not {_shown(value)}")
    if value and at is None:
        raise ImportFormatError(f"{what!r} is true but {what}_at is missing")
    return None if at is None else (int(value), at)


def _paper(number: int, item: object) -> PaperState:
    if not isinstance(item, dict):
        raise ImportFormatError(f"paper {number}: expected an object")
    try:
        paper_id = item.get("id")
        if not isinstance(paper_id, str) or PAPER_ID.fullmatch(paper_id) is None:
            raise ImportFormatError(f"'id' must be 12 lowercase hex characters, not {_shown(paper_id)}")
        # Every time before any value, tags before the valued fields: the first fault found is reported.
        times = [_time(item.get(at_key), at_key) for _field, _key, at_key in _FLAGS]
        attributes: dict[str, Any] = {}
        for (field, key, _at_key), at in zip(_FLAGS, times, strict=True):
            mark = _flag(item.get(key, False), at, key)
            if mark is not None:
                attributes |= field.attributes(mark)
        attributes["tags"] = _tags(item.get("tags", []))
        for valued in _VALUED:
            mark = _valued(valued, item.get(valued.name))
            if mark is not None:
                attributes |= valued.attributes(mark)
    except ImportFormatError as error:
        raise ImportFormatError(f"paper {number}: {error}") from None
    return PaperState(paper_id, **attributes)


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


def _valued(field: PaperField, value: object) -> Mark | None:
    """A valued field's mark from its export object (`{"text": ..., "at": ...}` for the note), in its stored
    form; None for null."""
    name = field.name
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ImportFormatError(f"'{name}' must be an object or null, not {_shown(value)}")
    given = value.get(field.json_value)
    if isinstance(given, bool) or not isinstance(given, type(field.off)):
        kind = "text" if isinstance(field.off, str) else "a whole number"
        raise ImportFormatError(f"{name}: '{field.json_value}' must be {kind}, not {_shown(given)}")
    try:
        cleaned = field.clean(given)
    except InputError as error:
        raise ImportFormatError(f"{name}: {error}") from None
    return cleaned, _required_time(value.get("at"), f"{name}: at")


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
