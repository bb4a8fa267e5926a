"""Tag names and the tag tables: what a valid tag is, and the reads the store answers from `paper_tag`.

Tags are case-folded: `ML`, `ml` and `Ml` are one tag, stored and shown as `ml`, so completion, counts and
`tag:ML` in a query never split a tag by case. A tag is one word of at most `TAG_MAX` characters: no
whitespace or control characters, none of `"(),` (the query syntax and the reader's tag prompt use them),
not starting with `-` (that reads as an option or as "without").
"""

from __future__ import annotations

import sqlite3
import unicodedata
from collections.abc import Iterable, Sequence

from index.state.base import rows_of
from index.state.changes import InputError, TagMark, to_float

TAG_MAX = 40
_RESERVED = frozenset('"(),')


class TagNameError(InputError):
    """A tag name that cannot be used; the message is one line naming it and what is wrong."""


def normalize_tag(name: str) -> str:
    """The stored form of a tag name: NFC, case-folded.

    Raises:
        TagNameError: empty, too long, or with a character tags cannot hold; the message says which.
    """
    tag = unicodedata.normalize("NFC", name).casefold()
    shown = repr(name)  # repr escapes controls and newlines, so the message stays one safe line
    if not tag:
        raise TagNameError("a tag name cannot be empty")
    if any(char.isspace() for char in tag):
        raise TagNameError(f"tag {shown} contains whitespace; join words with - or _")
    if any(unicodedata.category(char)[0] == "C" for char in tag):
        raise TagNameError(f"tag {shown} contains a control character")
    reserved = sorted(_RESERVED.intersection(tag))
    if reserved:
        raise TagNameError(f"tag {shown} contains {' '.join(reserved)}, which tags cannot hold")
    if tag.startswith("-"):
        raise TagNameError(f"tag {shown} starts with -, which reads as an option; start with a letter")
    if len(tag) > TAG_MAX:
        raise TagNameError(f"tag {shown} is longer than {TAG_MAX} characters")
    return tag


def normalize_tags(names: Iterable[str]) -> list[str]:
    """Every name normalized (duplicates dropped, order kept), all checked before any is used."""
    return list(dict.fromkeys(normalize_tag(name) for name in names))


def tags_of(conn: sqlite3.Connection, paper_id: str) -> tuple[str, ...]:
    rows = conn.execute(
        "SELECT tag FROM paper_tag WHERE id = ? AND tagged = 1 ORDER BY tag", (paper_id,)
    ).fetchall()
    return tuple(str(row[0]) for row in rows)


def tag_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Every tag some paper has now, with how many papers have it, by name."""
    rows = conn.execute(
        "SELECT tag, count(*) FROM paper_tag WHERE tagged = 1 GROUP BY tag ORDER BY tag"
    ).fetchall()
    return {str(tag): int(count) for tag, count in rows}


def tagged_ids(conn: sqlite3.Connection, name: str) -> frozenset[str]:
    rows = conn.execute("SELECT id FROM paper_tag WHERE tag = ? AND tagged = 1", (name,)).fetchall()
    return frozenset(str(row[0]) for row in rows)


def tag_map(conn: sqlite3.Connection) -> dict[str, tuple[str, ...]]:
    """Each tagged paper's tags, by name: one query for a whole list's rows."""
    found: dict[str, list[str]] = {}
    for paper_id, tag in conn.execute("SELECT id, tag FROM paper_tag WHERE tagged = 1 ORDER BY id, tag"):
        found.setdefault(str(paper_id), []).append(str(tag))
    return {paper_id: tuple(tags) for paper_id, tags in found.items()}


def tag_marks(conn: sqlite3.Connection, ids: Sequence[str] | None) -> dict[str, tuple[TagMark, ...]]:
    """Every stored tag (removals included) of these papers, or of all papers when `ids` is None."""
    rows = rows_of(conn, "SELECT id, tag, tagged, at FROM paper_tag", ids, order_by="id, tag")
    found: dict[str, list[TagMark]] = {}
    for paper_id, tag, tagged, at in rows:
        found.setdefault(str(paper_id), []).append(TagMark(str(tag), tagged == 1, to_float(at)))
    return {paper_id: tuple(marks) for paper_id, marks in found.items()}
