"""Moving a user's marks between machines: export to JSON/Markdown/CSV and validate a JSON import.

The JSON export carries every stored slot with its time, tombstones included (stars, read marks, each tag,
the note, each saved search), so importing it elsewhere with `StateStore.merge` (newest timestamp wins per
paper and slot, per saved search name) also propagates unstars, unreads, untags, cleared notes and deleted
searches. Version 1 files (before tags, notes and saved searches) still import.
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
from typing import Literal

from index.render.sanitize import BIDI_CONTROLS, strip_bidi
from index.state.imports import (
    FORMAT_NAME,
    FORMAT_VERSION,
    LATEST_TIME,
    Imported,
    ImportFormatError,
    parse_document,
    parse_export,
)
from index.state.store import PaperState, SavedSearch

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


def _time(at: float | None) -> float | None:
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
        papers.append(
            {
                "id": record.id,
                "starred": record.starred,
                "starred_at": _time(record.starred_at),
                "read": record.read,
                "read_at": _time(record.read_at),
                "tags": [
                    {"name": tag.name, "tagged": tag.tagged, "at": _time(tag.at)} for tag in record.tags
                ],
                "note": {"text": record.note.text, "at": _time(record.note.at)} if record.note else None,
                "headline": info.headline if info else None,
                "venue": info.venue if info else None,
            }
        )
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported_at": exported_at,
        "papers": papers,
        "saved_searches": [{"name": item.name, "query": item.query, "at": _time(item.at)} for item in saved],
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
    writer.writerow(
        ["id", "starred", "starred_at", "read", "read_at", "headline", "venue", "year", "tags", "note"]
    )
    for record in records:
        info = described.get(record.id)
        writer.writerow(
            [
                record.id,
                int(record.starred),
                iso(record.starred_at),
                int(record.read),
                iso(record.read_at),
                _cell(info.headline) if info else "",
                _cell(info.venue or "") if info else "",
                (info.year or "") if info else "",
                _cell(" ".join(record.tag_names)),
                _cell(record.note.text) if record.note else "",
            ]
        )
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
