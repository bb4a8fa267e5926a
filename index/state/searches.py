"""Saved searches: a name for a query, kept per user and merged between machines by name, newest wins.

Names keep their case and may hold spaces ("diffusion, unread"); they are trimmed, one line, at most
`NAME_MAX` characters. Deleting keeps a tombstone (query None) with its time, so a deletion travels in
exports like an unstar. Saved searches are not in the undo log: `u` in the reader undoes changes to papers.
"""

from __future__ import annotations

import math
import sqlite3
import time
import unicodedata
from dataclasses import dataclass

from index.render.sanitize import strip_bidi
from index.state.changes import InputError, to_float

NAME_MAX = 60
QUERY_MAX = 2000


class SavedSearchError(InputError):
    """A saved search that cannot be stored (bad name or query); the message is one line."""


@dataclass(frozen=True, slots=True)
class SavedSearch:
    """A named query and when it was saved; `query=None` is a deletion at that time."""

    name: str
    query: str | None
    at: float


def clean_name(name: str) -> str:
    """The stored form of a saved search's name: trimmed, checked.

    Raises:
        SavedSearchError: empty, too long or with a control character.
    """
    cleaned = unicodedata.normalize("NFC", name).strip()
    if not cleaned:
        raise SavedSearchError("a saved search needs a name")
    if any(unicodedata.category(char)[0] == "C" for char in cleaned):
        raise SavedSearchError(f"saved search name {name!r} contains a control character or a line break")
    if len(cleaned) > NAME_MAX:
        raise SavedSearchError(f"saved search name {name!r} is longer than {NAME_MAX} characters")
    return cleaned


def clean_query(query: str) -> str:
    """A query as saved: one line, trimmed (the reader's search bar holds one line)."""
    cleaned = " ".join(strip_bidi(query).split())
    if any(unicodedata.category(char) == "Cc" for char in cleaned):
        raise SavedSearchError("the query contains a control character")
    if len(cleaned) > QUERY_MAX:
        raise SavedSearchError(f"the query is longer than {QUERY_MAX} characters")
    return cleaned


def _key(search: SavedSearch) -> tuple[float, int, str]:
    """Newest wins; on a tie a saved query beats a deletion, then the greater text (as on every machine)."""
    return (search.at, search.query is not None, search.query or "")


def stored(conn: sqlite3.Connection, name: str) -> SavedSearch | None:
    row = conn.execute("SELECT query, at FROM saved_search WHERE name = ?", (name,)).fetchone()
    if row is None:
        return None
    return SavedSearch(name, None if row[0] is None else str(row[0]), to_float(row[1]))


def put(conn: sqlite3.Connection, name: str, query: str | None, at: float | None) -> bool:
    """Save (query None: delete) by name; returns whether anything changed.

    `at=None` is a local action stamped now (never before the value it replaces); a given `at` is a merged
    value that applies only when newer, which keeps merging idempotent and order-independent.
    """
    current = stored(conn, name)
    if at is None:
        if (current is None and query is None) or (current is not None and current.query == query):
            return False
        now = time.time()
        at = now if current is None else max(now, math.nextafter(current.at, math.inf))
    elif not math.isfinite(at) or (
        current is not None and _key(SavedSearch(name, query, at)) <= _key(current)
    ):
        return False
    conn.execute(
        "INSERT INTO saved_search (name, query, at) VALUES (?, ?, ?) ON CONFLICT (name) "
        "DO UPDATE SET query = excluded.query, at = excluded.at",
        (name, query, at),
    )
    return True


def every(conn: sqlite3.Connection, *, deleted: bool = False) -> list[SavedSearch]:
    """The saved searches by name (case-insensitively); with `deleted`, the tombstones too (for exports)."""
    rows = conn.execute("SELECT name, query, at FROM saved_search").fetchall()
    found = [
        SavedSearch(str(name), None if query is None else str(query), to_float(at))
        for name, query, at in rows
    ]
    kept = [search for search in found if deleted or search.query is not None]
    return sorted(kept, key=lambda search: (search.name.casefold(), search.name))
