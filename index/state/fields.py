"""The per-paper fields, described once, and the one write path that reads those descriptions.

A field is one slot per paper that the user sets: a value and the time it was set. Its `PaperField` says
where the slot is stored, what a valid value is, what "unset" is, and how it reads on a `PaperState`. The
parts every field needs go through `PAPER_FIELDS` and name none of them: the write path here (a slot's
stored value, its write, what undo restores), the store's reads, checks and merge (store.py), and the JSON
and CSV exports and the import (transfer.py). A new field is an entry here, its attribute on `PaperState`
and a migration adding its table (db.py).

Tags are many slots per paper (one per name, `tag:<name>`) with rules of their own (tags.py); they go
through the same write path.
"""

from __future__ import annotations

import math
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from index.state.changes import TAG_PREFIX, Change, NoteMark, Stored, TagMark, Value, newer
from index.state.notes import clean_note

Mark = tuple[Value, float]
"""A field's value on one paper and the time it was set."""


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


@dataclass(frozen=True, slots=True)
class PaperField:
    """One value per paper that the user sets, as every generic part of the store reads it.

    The slot lives in `table` (keyed by `id`) as `column` and `at_column`; its name is the `Change.field`,
    the export's JSON key and the CSV column. A flag (true/false) stores 0/1 and is exported flat (`name`,
    `name_at`); any other field is exported as an object `{json_value: value, "at": time}` or null.
    """

    name: str
    table: str
    column: str
    at_column: str
    off: Value
    """The unset value (0, ""); once stored it is a removal that travels in exports like an unstar."""
    clean: Callable[[Value], Value]
    """The stored form of a value a user or an import gives; raises an `InputError` saying what is wrong."""
    mark_of: Callable[[PaperState], Mark | None]
    """The field's stored (value, time) on a state, None when it was never set."""
    attributes: Callable[[Mark], dict[str, Any]]
    """The `PaperState` attributes that hold a stored (value, time): readers gather every field's and make
    each state once."""
    flag: bool = False
    json_value: str = "value"
    """The key of the value in the export's object (the note's is "text"); a flag has no object."""

    def value_from(self, raw: object) -> Value:
        """A value as SQLite returns it, in the slot's type."""
        if isinstance(self.off, str):
            return str(raw)
        return raw if isinstance(raw, int) else int(str(raw))

    def outward(self, value: Value) -> bool | int | str:
        """A stored value as a `Change` carries it: a flag's 0/1 as a bool."""
        return value == 1 if self.flag else value


def _flag(name: str) -> PaperField:
    """A true/false field: a column pair (`name`, `name_at`) of `paper_state` and two attributes of
    `PaperState` of the same names."""

    at_name = f"{name}_at"

    def mark_of(state: PaperState) -> Mark | None:
        at: float | None = getattr(state, at_name)
        return None if at is None else (int(getattr(state, name)), at)

    def attributes(mark: Mark) -> dict[str, Any]:
        return {name: mark[0] == 1, at_name: mark[1]}

    return PaperField(name, "paper_state", name, at_name, 0, _unchanged, mark_of, attributes, flag=True)


def _unchanged(value: Value) -> Value:
    """A flag's rule: true and false are both valid (`Change` and the import check the type)."""
    return value


# The note: text, its rule in notes.py, a `NoteMark` on a `PaperState`.


def _note_of(state: PaperState) -> Mark | None:
    return None if state.note is None else (state.note.text, state.note.at)


def _note_attributes(mark: Mark) -> dict[str, Any]:
    return {"note": NoteMark(str(mark[0]), mark[1])}


def _clean_note(value: Value) -> Value:
    return clean_note(str(value))


PAPER_FIELDS: tuple[PaperField, ...] = (
    _flag("starred"),
    _flag("read"),
    PaperField(
        name="note",
        table="paper_note",
        column="text",
        at_column="at",
        off="",
        clean=_clean_note,
        mark_of=_note_of,
        attributes=_note_attributes,
        json_value="text",
    ),
)
"""Every per-paper field but tags. Exports list the flags before the tags and the others after them, each
kind in this order."""
BY_NAME = {field.name: field for field in PAPER_FIELDS}


def paper_field(name: str) -> PaperField:
    """The field called `name`; a name no field has is a bug, never user text reaching SQL."""
    found = BY_NAME.get(name)
    if found is None:
        raise ValueError(f"unknown state field {name!r}")
    return found


def _tag_name(field: str) -> str | None:
    """The tag a `tag:<name>` slot holds, None for a field's slot."""
    if field.startswith(TAG_PREFIX) and len(field) > len(TAG_PREFIX):
        return field[len(TAG_PREFIX) :]
    return None


def stored(conn: sqlite3.Connection, paper_id: str, field: str) -> Stored:
    """A slot's (value, time) as stored, None when it was never set."""
    tag = _tag_name(field)
    value_from: Callable[[object], Value]
    if tag is not None:
        row = conn.execute(
            "SELECT tagged, at FROM paper_tag WHERE id = ? AND tag = ?", (paper_id, tag)
        ).fetchone()
        value_from = _tagged
    else:
        described = paper_field(field)  # its table and columns are fixed text, never user input
        row = conn.execute(
            f"SELECT {described.column}, {described.at_column} FROM {described.table} WHERE id = ?",
            (paper_id,),
        ).fetchone()
        value_from = described.value_from
    if row is None or row[0] is None or row[1] is None:
        return None
    return value_from(row[0]), float(row[1])


def _tagged(raw: object) -> Value:
    return raw if isinstance(raw, int) else int(str(raw))


def _encode(field: str, value: bool | int | str) -> Value:
    """The stored form of a value, refusing a type that does not fit the slot (a bug, not user input)."""
    if _tag_name(field) is not None or paper_field(field).flag:
        if not isinstance(value, bool):
            raise TypeError(f"{field} is true or false, not {value!r}")
        return int(value)
    off = paper_field(field).off
    if isinstance(value, bool) or not isinstance(value, type(off)):
        raise TypeError(f"{field} is {type(off).__name__}, not {value!r}")
    return value


def _store(conn: sqlite3.Connection, paper_id: str, field: str, value: Value, at: float) -> None:
    tag = _tag_name(field)
    if tag is not None:
        conn.execute(
            "INSERT INTO paper_tag (id, tag, tagged, at) VALUES (?, ?, ?, ?) ON CONFLICT (id, tag) "
            "DO UPDATE SET tagged = excluded.tagged, at = excluded.at",
            (paper_id, tag, value, at),
        )
        return
    described = paper_field(field)
    table, column, at_column = described.table, described.column, described.at_column
    conn.execute(
        f"INSERT INTO {table} (id, {column}, {at_column}) VALUES (?, ?, ?) ON CONFLICT (id) "
        f"DO UPDATE SET {column} = excluded.{column}, {at_column} = excluded.{at_column}",
        (paper_id, value, at),
    )


def _records_removal(field: str) -> bool:
    """Whether turning off a slot that was never set writes a tombstone: for a flag yes (unstar travels);
    untagging an untagged paper or clearing a missing note records nothing."""
    return _tag_name(field) is None and paper_field(field).flag


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
        if _tag_name(self.field) is not None:
            return Change(self.paper_id, self.field, self.old is not None and self.old[0] == 1)
        described = paper_field(self.field)
        return Change(
            self.paper_id, self.field, described.outward(described.off if self.old is None else self.old[0])
        )


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
            if current is None and not value and not _records_removal(change.field):
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
