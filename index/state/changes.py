"""Writing one change group to the state tables: newest-wins merges, local actions, and what undo needs.

A change sets one slot of one paper: a flag (`starred`, `read`), one tag (`tag:<name>`, on or off) or the
note (`note`, its text; empty is a removal). Every slot holds a value and the time it was set, so the same
law merges them all: per paper and slot, the greatest (time, value) wins.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

Field = Literal["starred", "read"]
FIELDS: tuple[Field, ...] = ("starred", "read")
TAG_PREFIX = "tag:"
NOTE = "note"
UNDO_DEPTH = 100
"""Change groups a store keeps for undo (the reader promises at least 50)."""

Kind = Literal["flag", "tag", "note"]


class InputError(ValueError):
    """A tag name, note or saved search the store cannot keep as given; the message is one line to show."""


@dataclass(frozen=True, slots=True)
class Change:
    """Set one slot of one paper: `field` is "starred", "read", "note" or "tag:<name>" (see `Change.tag`).

    `value` is a bool for flags and tags, the text for the note. `at=None` is a local action: it always takes
    effect, stamped now (and never earlier than the value it replaces, so it also wins later merges). A given
    `at` is a merged value: it applies only when `(at, value)` is newer than what is stored, which makes
    merging idempotent and order-independent.
    """

    paper_id: str
    field: str
    value: bool | str
    at: float | None = None

    @classmethod
    def tag(cls, paper_id: str, name: str, on: bool, at: float | None = None) -> Change:
        """Tag (or untag) a paper; `name` must already be normalized (`tags.normalize_tag`)."""
        return cls(paper_id, TAG_PREFIX + name, on, at)

    @classmethod
    def note(cls, paper_id: str, text: str, at: float | None = None) -> Change:
        """Set a paper's note; `text` must already be cleaned (`notes.clean_note`), "" removes it."""
        return cls(paper_id, NOTE, text, at)


@dataclass(frozen=True, slots=True)
class TagMark:
    """One tag of one paper and when it was set; `tagged=False` is a removal that travels in exports."""

    name: str
    tagged: bool
    at: float


@dataclass(frozen=True, slots=True)
class NoteMark:
    """A paper's note and when it was written; empty text is a removal that travels in exports."""

    text: str
    at: float


@dataclass(frozen=True, slots=True)
class PaperState:
    """One paper's stored state; a `*_at` without the flag is a tombstone (unstarred/unread at that time)."""

    id: str
    starred: bool = False
    starred_at: float | None = None
    read: bool = False
    read_at: float | None = None
    tags: tuple[TagMark, ...] = ()
    """Every tag ever set on the paper, removals included, by name."""
    note: NoteMark | None = None

    @property
    def tag_names(self) -> tuple[str, ...]:
        """The tags the paper has now."""
        return tuple(mark.name for mark in self.tags if mark.tagged)


Value = int | str
Stored = tuple[Value, float] | None
"""A slot as stored: (value, time), or None when it was never set. Flags and tags store 0/1."""


def newer(candidate: tuple[Value, float], current: Stored) -> bool:
    """Total order on (time, value): ties on time go to the set value (1 over 0, longer text over ""), so
    merges agree on every machine."""
    if current is None:
        return True
    return (candidate[1], candidate[0]) > (current[1], current[0])


def field_name(name: str) -> Field:
    if name == "starred":
        return "starred"
    if name == "read":
        return "read"
    raise ValueError(f"unknown state field {name!r}")


def kind_of(field: str) -> Kind:
    if field in FIELDS:
        return "flag"
    if field == NOTE:
        return "note"
    if field.startswith(TAG_PREFIX) and len(field) > len(TAG_PREFIX):
        return "tag"
    raise ValueError(f"unknown state field {field!r}")


def row_state(row: tuple[object, ...]) -> PaperState:
    paper_id, starred, starred_at, read, read_at = row
    return PaperState(
        str(paper_id),
        starred == 1,
        None if starred_at is None else to_float(starred_at),
        read == 1,
        None if read_at is None else to_float(read_at),
    )


def stored(conn: sqlite3.Connection, paper_id: str, field: str) -> Stored:
    kind = kind_of(field)
    if kind == "flag":
        name = field_name(field)  # a whitelisted column name, never user text
        row = conn.execute(f"SELECT {name}, {name}_at FROM paper_state WHERE id = ?", (paper_id,)).fetchone()
    elif kind == "tag":
        row = conn.execute(
            "SELECT tagged, at FROM paper_tag WHERE id = ? AND tag = ?", (paper_id, field[len(TAG_PREFIX) :])
        ).fetchone()
    else:
        row = conn.execute("SELECT text, at FROM paper_note WHERE id = ?", (paper_id,)).fetchone()
    if row is None or row[0] is None or row[1] is None:
        return None
    value = str(row[0]) if kind == "note" else int(row[0])
    return value, float(row[1])


def _encode(field: str, value: bool | str) -> Value:
    """The stored form of a value, refusing a type that does not fit the slot (a bug, not user input)."""
    if kind_of(field) == "note":
        if not isinstance(value, str):
            raise TypeError(f"a note is text, not {value!r}")
        return value
    if not isinstance(value, bool):
        raise TypeError(f"{field} is true or false, not {value!r}")
    return int(value)


def _store(conn: sqlite3.Connection, paper_id: str, field: str, value: Value, at: float) -> None:
    kind = kind_of(field)
    if kind == "flag":
        name = field_name(field)
        conn.execute(
            f"INSERT INTO paper_state (id, {name}, {name}_at) VALUES (?, ?, ?) ON CONFLICT (id) "
            f"DO UPDATE SET {name} = excluded.{name}, {name}_at = excluded.{name}_at",
            (paper_id, value, at),
        )
    elif kind == "tag":
        conn.execute(
            "INSERT INTO paper_tag (id, tag, tagged, at) VALUES (?, ?, ?, ?) ON CONFLICT (id, tag) "
            "DO UPDATE SET tagged = excluded.tagged, at = excluded.at",
            (paper_id, field[len(TAG_PREFIX) :], value, at),
        )
    else:
        conn.execute(
            "INSERT INTO paper_note (id, text, at) VALUES (?, ?, ?) ON CONFLICT (id) "
            "DO UPDATE SET text = excluded.text, at = excluded.at",
            (paper_id, value, at),
        )


@dataclass(frozen=True, slots=True)
class Logged:
    """One slot a change group set: what it held before (None: never set) and the value the group gave it."""

    paper_id: str
    field: str
    old: Stored
    new: Value

    def restore(self, now: Stored) -> Change | None:
        """The change that puts the slot back, or None when it no longer holds this group's value (another
        process or an import changed it since: that later change stands)."""
        if now is None or now[0] != self.new:
            return None
        old: bool | str
        if kind_of(self.field) == "note":
            old = "" if self.old is None else str(self.old[0])
        else:
            old = self.old is not None and bool(self.old[0])
        return Change(self.paper_id, self.field, old)


@dataclass(frozen=True, slots=True)
class Written:
    """What one change group wrote: the papers it changed and, per slot, what undoing it restores."""

    changed: tuple[str, ...]
    log: tuple[Logged, ...]


def apply_changes(conn: sqlite3.Connection, changes: Sequence[Change]) -> Written:
    """Write the effective changes, noting (old, new) per slot so an undo can revert exactly this group."""
    now = time.time()
    changed: list[str] = []
    # Per slot: the value before this group and the value it ends with (a group may touch a slot twice).
    logged: dict[tuple[str, str], Logged] = {}
    for change in changes:
        current = stored(conn, change.paper_id, change.field)
        value = _encode(change.field, change.value)
        if change.at is None:
            if current is not None and current[0] == value:
                continue  # already so: keep the original time (when it was first starred)
            if current is None and not value and kind_of(change.field) != "flag":
                continue  # untagging an untagged paper, clearing a missing note: nothing to record
            at = now if current is None else max(now, math.nextafter(current[1], math.inf))
        else:
            if not math.isfinite(change.at) or not newer((value, change.at), current):
                continue
            at = change.at
        _store(conn, change.paper_id, change.field, value, at)
        changed.append(change.paper_id)
        slot = (change.paper_id, change.field)
        first = logged.get(slot)
        logged[slot] = Logged(change.paper_id, change.field, current if first is None else first.old, value)
    return Written(tuple(dict.fromkeys(changed)), tuple(logged.values()))


def to_float(value: object) -> float:
    if isinstance(value, int | float):
        return float(value)
    raise TypeError(f"expected a number in the state database, found {value!r}")
