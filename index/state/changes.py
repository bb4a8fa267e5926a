"""Writing one change group to the state tables: newest-wins merges, local actions and the undo log."""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Field = Literal["starred", "read"]
FIELDS: tuple[Field, ...] = ("starred", "read")
UNDO_DEPTH = 100
"""Change groups kept for undo (the reader promises at least 50)."""


@dataclass(frozen=True, slots=True)
class Change:
    """Set one field of one paper.

    `at=None` is a local action: it always takes effect, stamped now (and never earlier than the value it
    replaces, so it also wins later merges). A given `at` is a merged value: it applies only when
    `(at, value)` is newer than what is stored, which makes merging idempotent and order-independent.
    """

    paper_id: str
    field: Field
    value: bool
    at: float | None = None


@dataclass(frozen=True, slots=True)
class PaperState:
    """One paper's stored state; a `*_at` without the flag is a tombstone (unstarred/unread at that time)."""

    id: str
    starred: bool = False
    starred_at: float | None = None
    read: bool = False
    read_at: float | None = None


Stored = tuple[int, float] | None
"""A field as stored: (value, time), or None when it was never set."""


def newer(candidate: tuple[int, float], current: Stored) -> bool:
    """Total order on (time, value): ties on time go to the set value, so merges agree on every machine."""
    if current is None:
        return True
    return (candidate[1], candidate[0]) > (current[1], current[0])


def field_name(name: str) -> Field:
    if name == "starred":
        return "starred"
    if name == "read":
        return "read"
    raise ValueError(f"unknown state field {name!r}")


def row_state(row: tuple[object, ...]) -> PaperState:
    paper_id, starred, starred_at, read, read_at = row
    return PaperState(
        str(paper_id),
        starred == 1,
        None if starred_at is None else to_float(starred_at),
        read == 1,
        None if read_at is None else to_float(read_at),
    )


def stored(conn: sqlite3.Connection, paper_id: str, field: Field) -> Stored:
    name = field_name(field)  # a whitelisted column name, never user text
    row = conn.execute(f"SELECT {name}, {name}_at FROM paper_state WHERE id = ?", (paper_id,)).fetchone()
    if row is None or row[0] is None or row[1] is None:
        return None
    return int(row[0]), float(row[1])


def apply_changes(
    conn: sqlite3.Connection, changes: Sequence[Change], label: str, record_undo: bool
) -> tuple[str, ...]:
    """Write the effective changes, logging (old, new) per field so `undo` can revert exactly this group."""
    now = time.time()
    changed: list[str] = []
    # Per field: the value before this group and the value it ends with (a group may touch a field twice).
    logged: dict[tuple[str, Field], tuple[Stored, int, float]] = {}
    for change in changes:
        name = field_name(change.field)
        current = stored(conn, change.paper_id, name)
        value = int(change.value)
        if change.at is None:
            if current is not None and current[0] == value:
                continue  # already so: keep the original time (when it was first starred)
            at = now if current is None else max(now, math.nextafter(current[1], math.inf))
        else:
            if not math.isfinite(change.at) or not newer((value, change.at), current):
                continue
            at = change.at
        conn.execute(
            f"INSERT INTO paper_state (id, {name}, {name}_at) VALUES (?, ?, ?) ON CONFLICT (id) "
            f"DO UPDATE SET {name} = excluded.{name}, {name}_at = excluded.{name}_at",
            (change.paper_id, value, at),
        )
        changed.append(change.paper_id)
        first = logged.get((change.paper_id, name))
        logged[(change.paper_id, name)] = (current if first is None else first[0], value, at)
    if record_undo and logged:
        cursor = conn.execute("INSERT INTO undo_group (created_at, label) VALUES (?, ?)", (now, label))
        group = int(cursor.lastrowid or 0)
        conn.executemany(
            "INSERT INTO undo_entry (group_id, paper_id, field, old_value, old_at, new_value, new_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (group, paper_id, name, *(old or (None, None)), value, at)
                for (paper_id, name), (old, value, at) in logged.items()
            ],
        )
        conn.execute("DELETE FROM undo_entry WHERE group_id <= ?", (group - UNDO_DEPTH,))
        conn.execute("DELETE FROM undo_group WHERE id <= ?", (group - UNDO_DEPTH,))
    return tuple(dict.fromkeys(changed))


def to_float(value: object) -> float:
    if isinstance(value, int | float):
        return float(value)
    raise TypeError(f"expected a number in the state database, found {value!r}")
