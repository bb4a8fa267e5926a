"""The per-user store of stars, read marks, tags, notes, saved searches and reader session memory.

Times are UTC epoch seconds (floats) everywhere: in the database, in the API and in JSON exports, because
they compare and round-trip exactly. Each slot of each paper (a flag, one tag, the note) holds a value and
the time it was set; unstarring, untagging or clearing a note writes a tombstone (the "off" value at time t)
rather than deleting, so merging two machines' stores can apply "newest timestamp wins per paper and slot".
The store knows nothing about listings: re-indexing or renaming listings never touches it, and state for
papers no longer listed is kept.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol, TypeVar

from index.state import searches, tags
from index.state.base import Applied, StateError, StateReadOnlyError, rows_of
from index.state.changes import (
    NOTE,
    TAG_PREFIX,
    UNDO_DEPTH,
    Change,
    Field,
    InputError,
    NoteMark,
    TagMark,
    Value,
    to_float,
)
from index.state.db import open_database
from index.state.fields import PAPER_FIELDS, PaperState, paper_field, stored
from index.state.searches import SavedSearch
from index.state.session_table import JSONValue, SessionTable

__all__ = [
    "UNDO_DEPTH",
    "Applied",
    "Change",
    "Field",
    "JSONValue",
    "NoteMark",
    "PaperState",
    "SavedSearch",
    "StateError",
    "StateLookup",
    "StateReadOnlyError",
    "StateStore",
    "TagMark",
    "Toggled",
]

V = TypeVar("V")


class StateLookup(Protocol):
    """What the `is:`/`tag:`/`note:` filters and the reader's filter (`index.views.marked`) need, no more."""

    def starred_ids(self) -> frozenset[str]: ...

    def read_ids(self) -> frozenset[str]: ...

    def tagged_ids(self, name: str) -> frozenset[str]: ...

    def notes(self) -> Mapping[str, str]: ...


@dataclass(frozen=True, slots=True)
class Toggled:
    """A toggle's new value and its `Applied.seq`, so callers can order it among other processes' writes."""

    value: bool
    seq: int
    changed: bool = True
    """False when the stored value was no longer the one the caller showed, so nothing was written."""


class StateStore(SessionTable):
    """One user's marks and session memory; every change to a paper goes through one undoable path."""

    @classmethod
    def open(cls, data_dir: Path) -> StateStore:
        """Open the store in `data_dir`; never fails: damage and unwritable folders become `notices`."""
        opened = open_database(data_dir)
        return cls(opened.conn, opened.path, opened.read_only_reason, opened.notices)

    def __enter__(self) -> StateStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- reads -------------------------------------------------------------------------------------------

    def starred_ids(self) -> frozenset[str]:
        return self._ids("starred")

    def read_ids(self) -> frozenset[str]:
        return self._ids("read")

    def _ids(self, field: Field) -> frozenset[str]:
        """Ids with `field` set, cached until any process commits: search filters call this per query."""
        flag = paper_field(field)

        def load(conn: sqlite3.Connection) -> frozenset[str]:
            rows = conn.execute(f"SELECT id FROM {flag.table} WHERE {flag.column} = 1").fetchall()
            return frozenset(str(row[0]) for row in rows)

        return self._cached(flag.name, load)  # frozen, so shared without a 56k-element copy per call

    def is_starred(self, paper_id: str) -> bool:
        return self.state(paper_id).starred

    def is_read(self, paper_id: str) -> bool:
        return self.state(paper_id).read

    def starred(self) -> list[tuple[str, float]]:
        """Starred papers as (id, time starred), newest first."""
        rows = self._query(
            "SELECT id, starred_at FROM paper_state WHERE starred = 1 ORDER BY starred_at DESC, id"
        )
        return [(str(paper_id), to_float(at)) for paper_id, at in rows]

    def state(self, paper_id: str) -> PaperState:
        return self.states([paper_id])[paper_id]

    def states(self, ids: Iterable[str]) -> dict[str, PaperState]:
        """The state of each id, tags and note included (a default, unset state for ids never touched)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, PaperState] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            found.update(self._read(functools.partial(_states, ids=chunk)))
        return {paper_id: found.get(paper_id, PaperState(paper_id)) for paper_id in wanted}

    def records(self) -> list[PaperState]:
        """Every stored paper, tombstones included, in id order: what an export carries."""
        return sorted(self._read(lambda conn: _states(conn, None)).values(), key=lambda record: record.id)

    # -- tags and notes ----------------------------------------------------------------------------------

    def tags(self, paper_id: str) -> tuple[str, ...]:
        """The paper's tags now, by name."""
        return self._read(lambda conn: tags.tags_of(conn, paper_id))

    def all_tags(self) -> dict[str, int]:
        """Every tag in use, by name, with how many papers have it."""
        return self._read(tags.tag_counts)

    def tagged_ids(self, name: str) -> frozenset[str]:
        """Papers tagged `name` (any case; raises `TagNameError` for a name no tag can have)."""
        tag = tags.normalize_tag(name)
        return self._cached(f"tag:{tag}", lambda conn: tags.tagged_ids(conn, tag))

    def tag_map(self) -> Mapping[str, tuple[str, ...]]:
        """Each tagged paper's tags (one query, cached): list rows are drawn from this."""
        return self._cached("tag-map", lambda conn: _frozen(tags.tag_map(conn)))

    def note(self, paper_id: str) -> str:
        """The paper's note, or "" when it has none."""
        return str(self.value(paper_id, NOTE))

    def notes(self) -> Mapping[str, str]:
        """Every note by paper id (cached): what `note:` filters search."""
        return self._cached("notes", lambda conn: _frozen({key: str(text) for key, text in _set(conn, NOTE)}))

    # -- any field by name (fields.py): a new field needs no method of its own here --------------------

    def value(self, paper_id: str, name: str) -> Value:
        """The field's value on the paper now; its unset value (`PaperField.off`) when it has none."""
        found = self._read(lambda conn: stored(conn, paper_id, name))
        return paper_field(name).off if found is None else found[0]

    def values(self, name: str) -> Mapping[str, Value]:
        """Every paper whose field is set now, with its value (cached): what a field's filter reads."""
        return self._cached(f"values:{name}", lambda conn: _frozen(dict(_set(conn, name))))

    def set_value(self, paper_id: str, name: str, value: Value) -> Applied:
        """Set a field on one paper as one undo step, in its stored form (`PaperField.clean`, which raises
        an `InputError` for a value the field cannot hold); the unset value removes it."""
        field = paper_field(name)
        return self.apply([Change(paper_id, name, field.outward(field.clean(value)))], name)

    # -- saved searches ------------------------------------------------------------------------------------

    def saved_searches(self) -> list[SavedSearch]:
        """The saved searches, by name."""
        return self._read(searches.every)

    def search_records(self) -> list[SavedSearch]:
        """Every saved search, deletions included: what an export carries."""
        return self._read(lambda conn: searches.every(conn, deleted=True))

    def save_search(self, name: str, query: str) -> bool:
        """Save `query` as `name` (replacing a search of that name); False when it was already so.

        Raises:
            SavedSearchError: a name or query that cannot be saved.
        """
        cleaned, text = searches.clean_name(name), searches.clean_query(query)
        return self._transaction(lambda conn: searches.put(conn, cleaned, text, None))

    def delete_search(self, name: str) -> bool:
        """Delete the saved search `name`; False when there was none."""
        cleaned = searches.clean_name(name)
        return self._transaction(lambda conn: searches.put(conn, cleaned, None, None))

    # -- writes ------------------------------------------------------------------------------------------

    def apply(self, changes: Sequence[Change], label: str = "change") -> Applied:
        """Commit `changes` as one undoable group; returns only after the commit is durable on disk.

        Raises:
            ValueError: a tag name or note text not in its stored form (`normalize_tag`, `clean_note`).
        """
        for change in changes:
            _check(change)
        return self._write(lambda _conn: changes, label)

    def star(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "starred", True) for paper_id in ids], "star")

    def unstar(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "starred", False) for paper_id in ids], "unstar")

    def mark_read(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "read", True) for paper_id in ids], "read")

    def mark_unread(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "read", False) for paper_id in ids], "unread")

    def tag(self, ids: Iterable[str], names: Iterable[str]) -> Applied:
        """Give every paper every tag, as one undo step (names are checked first: `TagNameError`)."""
        wanted = tags.normalize_tags(names)
        return self.apply([Change.tag(paper_id, name, True) for paper_id in ids for name in wanted], "tag")

    def untag(self, ids: Iterable[str], names: Iterable[str]) -> Applied:
        """Take the tags off the papers, as one undo step; a removal travels in exports like an unstar."""
        wanted = tags.normalize_tags(names)
        return self.apply([Change.tag(paper_id, name, False) for paper_id in ids for name in wanted], "untag")

    def set_note(self, paper_id: str, text: str) -> Applied:
        """Replace the paper's note (cleaned: `notes.clean_note`); empty text removes it. One undo step."""
        return self.set_value(paper_id, NOTE, text)

    def toggle_star(self, paper_id: str) -> bool:
        """Flip the star and return the new value."""
        return self.toggle(paper_id, "starred").value

    def toggle_read(self, paper_id: str) -> bool:
        return self.toggle(paper_id, "read").value

    def toggle(self, paper_id: str, field: Field, shown: bool | None = None) -> Toggled:
        """Flip one field; the read and the write share one transaction, so two processes never both flip.

        Args:
            shown: the value the caller's screen showed. When the stored value is no longer that (another
                process changed it since the screen was drawn) nothing is written and `Toggled.changed` is
                False: a key never does the opposite of what the screen said it would.
        """
        result: list[bool] = []

        def build(conn: sqlite3.Connection) -> list[Change]:
            current = stored(conn, paper_id, field)
            now = current is not None and current[0] == 1
            if shown is not None and now != shown:
                result[:] = [now, False]
                return []
            result[:] = [not now, True]
            return [Change(paper_id, field, not now)]

        applied = self._write(build, f"toggle {field}")
        return Toggled(result[0], applied.seq, result[1])

    def merge(
        self, records: Iterable[PaperState], label: str = "import", saved: Iterable[SavedSearch] = ()
    ) -> Applied:
        """Merge another store's records (an import): newest timestamp wins per paper and slot, and per
        saved search name. The papers' changes are one undo step; saved searches are not undone."""
        changes: list[Change] = []
        for record in records:
            for field in PAPER_FIELDS:
                mark = field.mark_of(record)
                if mark is not None:
                    changes.append(Change(record.id, field.name, field.outward(mark[0]), mark[1]))
            changes += [Change.tag(record.id, mark.name, mark.tagged, mark.at) for mark in record.tags]
        for change in changes:
            _check(change)
        incoming = list(saved)
        for search in incoming:
            searches.clean_name(search.name)

        def body(conn: sqlite3.Connection) -> Applied:
            applied = self._write_in(conn, changes, label)  # the papers: one undo group
            merged = [s.name for s in incoming if searches.put(conn, s.name, s.query, s.at)]
            return replace(applied, searches=tuple(dict.fromkeys(merged)))

        return self._transaction(body)

    def undo(self) -> list[str] | None:
        """Revert this store's newest change group; returns the ids it changed, or None when this store
        has made no change it can still undo (another process's changes are never undone here).

        A slot that no longer holds the value this group gave it (another process or an import changed it
        since) is left alone. The restored value is stamped now, so the undo also wins over an exported copy
        of the change it reverts.
        """
        with self._lock:  # the step undone is the one committed: no other thread's write in between
            step = self._undo[-1] if self._undo else None

            def build(conn: sqlite3.Connection) -> list[Change]:
                if step is None:
                    return []
                restore = (entry.restore(stored(conn, entry.paper_id, entry.field)) for entry in step.log)
                return [change for change in restore if change is not None]

            applied = self._write(build, "undo", record_undo=False)
            if step is None:
                return None
            self._undo.pop()
        return list(applied.changed)


def _check(change: Change) -> None:
    """Refuse a tag or value not in its stored form: it would split a tag by case or store raw text."""
    if change.field.startswith(TAG_PREFIX):
        name = change.field[len(TAG_PREFIX) :]
        if tags.normalize_tag(name) != name:
            raise tags.TagNameError(f"tag {name!r} is not in its stored form")
        return
    field = paper_field(change.field)
    value = change.value
    # A value of the wrong type is a bug the write path refuses (TypeError); this checks the right type.
    if not field.flag and isinstance(value, type(field.off)) and field.clean(value) != value:
        raise InputError(f"a {field.name} must be in its stored form (PaperField.clean) before it is stored")


def _set(conn: sqlite3.Connection, name: str) -> list[tuple[str, Value]]:
    """Every paper whose field `name` is set now (not its unset value), with the value, by id."""
    field = paper_field(name)
    rows = conn.execute(
        f"SELECT id, {field.column} FROM {field.table} WHERE {field.column} != ? ORDER BY id", (field.off,)
    ).fetchall()
    return [(str(paper_id), field.value_from(value)) for paper_id, value in rows]


def _states(conn: sqlite3.Connection, ids: Sequence[str] | None) -> dict[str, PaperState]:
    """Stored states of these papers (every stored paper when None), with every field and their tags."""
    attributes: dict[str, dict[str, Any]] = {}
    for field in PAPER_FIELDS:
        select = f"SELECT id, {field.column}, {field.at_column} FROM {field.table}"
        for paper_id, value, at in rows_of(conn, select, ids):
            found = attributes.setdefault(str(paper_id), {})
            if value is not None and at is not None:
                found |= field.attributes((field.value_from(value), to_float(at)))
    for paper_id, marks_of in tags.tag_marks(conn, ids).items():
        attributes.setdefault(paper_id, {})["tags"] = marks_of
    return {paper_id: PaperState(paper_id, **found) for paper_id, found in attributes.items()}


def _frozen(mapping: dict[str, V]) -> Mapping[str, V]:
    """A read-only view, so a cached answer shared between callers cannot be changed by one of them."""
    return MappingProxyType(mapping)
