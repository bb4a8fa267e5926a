"""Moving stars and read marks between machines: export to JSON/Markdown/CSV and validate a JSON import.

The JSON export carries every stored field with its time, tombstones included, so importing it elsewhere
with `StateStore.merge` (newest timestamp wins per paper and field) also propagates unstars and unreads.
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

from index.state.store import PaperState

FORMAT_NAME = "papers-state"
FORMAT_VERSION = 1
PAPER_ID = re.compile(r"[0-9a-f]{12}")
Which = Literal["all", "starred", "read"]
NOT_LISTED = "(not in the current listings)"


class ImportFormatError(Exception):
    """The import file is not a papers-state export this version understands; says where and what."""


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


def select(records: Iterable[PaperState], which: Which) -> list[PaperState]:
    """`all` keeps tombstones (so unstars travel); `starred`/`read` keep only papers currently so."""
    if which == "starred":
        return [record for record in records if record.starred]
    if which == "read":
        return [record for record in records if record.read]
    return list(records)


def iso(at: float | None) -> str:
    """An epoch time as ISO 8601 UTC to the second, for people (exports keep the exact float)."""
    if at is None:
        return ""
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def to_json(records: Sequence[PaperState], described: Mapping[str, Described], exported_at: float) -> str:
    papers = []
    for record in records:
        info = described.get(record.id)
        papers.append(
            {
                "id": record.id,
                "starred": record.starred,
                "starred_at": record.starred_at,
                "read": record.read,
                "read_at": record.read_at,
                "headline": info.headline if info else None,
                "venue": info.venue if info else None,
            }
        )
    document = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "exported_at": exported_at,
        "papers": papers,
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _cell(text: str) -> str:
    """Listing text is untrusted: a leading = + - @ would run as a formula in a spreadsheet, so quote it."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@") else text


def to_csv(records: Sequence[PaperState], described: Mapping[str, Described]) -> str:
    """One row per paper with ISO times, for spreadsheets."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["id", "starred", "starred_at", "read", "read_at", "headline", "venue", "year"])
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
            ]
        )
    return out.getvalue()


def _markdown_text(text: str) -> str:
    """Escape what Markdown would turn into formatting, so a headline pastes into notes as written."""
    return re.sub(r"([\\`*_\[\]<>#|])", r"\\\1", text)


def to_markdown(
    records: Sequence[PaperState], described: Mapping[str, Described], which: Which, exported_at: float
) -> str:
    """A list to paste into notes: headline, venue, id and the abstract's first sentence per paper."""
    shown = [record for record in records if (record.read if which == "read" else record.starred)]
    title = "Read papers" if which == "read" else "Starred papers"
    lines = [f"# {title} ({len(shown)}, exported {iso(exported_at)})", ""]
    for record in shown:
        info = described.get(record.id)
        if info is None:
            lines.append(f"- {NOT_LISTED} · `{record.id}`")
            continue
        venue = f" · {_markdown_text(info.venue_label)}" if info.venue_label else ""
        lines.append(f"- **{_markdown_text(info.headline)}**{venue} · `{record.id}`")
        if info.first_sentence:
            lines.append(f"  {_markdown_text(info.first_sentence)}")
    return "\n".join(lines) + "\n"


def first_sentence(plain: str, limit: int = 300) -> str:
    """The abstract's first sentence (up to `limit` characters), for a reminder of what the paper is about."""
    text = " ".join(plain.split())
    match = re.search(r"[.!?](?=\s+[A-Z0-9(\"'])", text)
    sentence = text[: match.end()] if match else text
    if len(sentence) > limit:
        sentence = sentence[: limit - 1].rstrip() + "…"
    return sentence


def _time(value: object, what: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        raise ImportFormatError(
            f"{what} must be a time in epoch seconds or null, not {json.dumps(value)[:40]}"
        )
    return float(value)


def _flag(value: object, at: float | None, what: str) -> bool:
    if not isinstance(value, bool):
        raise ImportFormatError(f"{what!r} must be true or false, not {json.dumps(value)[:40]}")
    if value and at is None:
        raise ImportFormatError(f"{what!r} is true but {what}_at is missing")
    return value


def _paper(number: int, item: object) -> PaperState:
    if not isinstance(item, dict):
        raise ImportFormatError(f"paper {number}: expected an object")
    try:
        paper_id = item.get("id")
        if not isinstance(paper_id, str) or PAPER_ID.fullmatch(paper_id) is None:
            raise ImportFormatError(
                f"'id' must be 12 lowercase hex characters, not {json.dumps(paper_id)[:40]}"
            )
        starred_at = _time(item.get("starred_at"), "starred_at")
        read_at = _time(item.get("read_at"), "read_at")
        starred = _flag(item.get("starred", False), starred_at, "starred")
        read = _flag(item.get("read", False), read_at, "read")
    except ImportFormatError as error:
        raise ImportFormatError(f"paper {number}: {error}") from None
    return PaperState(paper_id, starred, starred_at, read, read_at)


def parse_export(text: str) -> list[PaperState]:
    """Validate a JSON export completely before anything is merged, so a bad file changes nothing.

    Raises:
        ImportFormatError: naming what is wrong (the caller adds the file name).
    """
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
        raise ImportFormatError(f'"version" must be a positive integer, not {json.dumps(version)[:40]}')
    if version > FORMAT_VERSION:
        raise ImportFormatError(
            f"export format version {version} is newer than this papers reads ({FORMAT_VERSION})"
        )
    papers = document.get("papers")
    if not isinstance(papers, list):
        raise ImportFormatError('"papers" must be a list')
    return [_paper(number, item) for number, item in enumerate(papers, start=1)]
