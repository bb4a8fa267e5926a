"""The per-user store of stars, read marks and reader session memory, keyed by stable paper id.

Times are UTC epoch seconds (floats) everywhere: in the database, in the API and in JSON exports, because
they compare and round-trip exactly. Each field of each paper holds a value and the time it was set;
unstarring writes a tombstone (value 0 at time t) rather than deleting, so merging two machines' stores can
apply "newest timestamp wins per paper and field". The store knows nothing about listings: re-indexing or
renaming listings never touches it, and state for papers no longer listed is kept.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from index.models import Notice
from index.state.changes import (
    UNDO_DEPTH,
    Change,
    Field,
    PaperState,
    apply_changes,
    field_name,
    row_state,
    stored,
    to_float,
)
from index.state.db import error_code, open_database

__all__ = [
    "UNDO_DEPTH",
    "Applied",
    "Change",
    "Field",
    "JSONValue",
    "PaperState",
    "StateError",
    "StateLookup",
    "StateReadOnlyError",
    "StateStore",
    "Toggled",
]

RETRY_FOR_S = 30.0
"""How long a write keeps retrying while other processes hold the lock, beyond SQLite's own busy timeout."""

T = TypeVar("T")
JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]


class StateError(Exception):
    """A state change could not be saved; the message is one line a user can act on."""


class StateReadOnlyError(StateError):
    """The store was opened read-only (unwritable folder, newer schema...): reads work, changes do not."""


class StateLookup(Protocol):
    """What the `is:` filters and the reader's filter (`index.views.marked`) need from the store, no more."""

    def starred_ids(self) -> frozenset[str]: ...

    def read_ids(self) -> frozenset[str]: ...


@dataclass(frozen=True, slots=True)
class Applied:
    """The outcome of one committed write: its place in the global commit order and the papers it changed."""

    seq: int
    changed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Toggled:
    """A toggle's new value and its `Applied.seq`, so callers can order it among other processes' writes."""

    value: bool
    seq: int


class StateStore:
    """Stars, read marks and session memory for one user; every change goes through one undoable path."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, read_only_reason: str | None, notices: Sequence[Notice]
    ) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self.path = path
        self.read_only_reason = read_only_reason
        self.notices: tuple[Notice, ...] = tuple(notices)
        self._memory_session: dict[str, str] = {}
        self._writes = 0
        self._id_cache: dict[str, tuple[tuple[int, int], frozenset[str]]] = {}

    @classmethod
    def open(cls, data_dir: Path) -> StateStore:
        """Open the store in `data_dir`; never fails: damage and unwritable folders become `notices`."""
        opened = open_database(data_dir)
        return cls(opened.conn, opened.path, opened.read_only_reason, opened.notices)

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> StateStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- reads -------------------------------------------------------------------------------------------

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    def starred_ids(self) -> frozenset[str]:
        return self._ids("starred")

    def read_ids(self) -> frozenset[str]:
        return self._ids("read")

    def _ids(self, field: Field) -> frozenset[str]:
        """Ids with `field` set, cached until any process commits: search filters call this per query."""
        name = field_name(field)
        with self._lock:
            # data_version moves when another connection commits; our own commits bump _writes.
            version = (int(self._conn.execute("PRAGMA data_version").fetchone()[0]), self._writes)
            cached = self._id_cache.get(name)
            if cached is None or cached[0] != version:
                rows = self._conn.execute(f"SELECT id FROM paper_state WHERE {name} = 1").fetchall()
                cached = (version, frozenset(str(row[0]) for row in rows))
                self._id_cache[name] = cached
        return cached[1]  # frozen, so the cache is shared without a 56k-element copy per call

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
        """The state of each id (a default, unset state for ids never touched)."""
        wanted = list(dict.fromkeys(ids))
        found: dict[str, PaperState] = {}
        for start in range(0, len(wanted), 500):
            chunk = wanted[start : start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self._query(f"SELECT * FROM paper_state WHERE id IN ({marks})", chunk):
                found[str(row[0])] = row_state(row)
        return {paper_id: found.get(paper_id, PaperState(paper_id)) for paper_id in wanted}

    def records(self) -> list[PaperState]:
        """Every stored paper, tombstones included, in id order: what an export carries."""
        return [row_state(row) for row in self._query("SELECT * FROM paper_state ORDER BY id")]

    # -- writes ------------------------------------------------------------------------------------------

    def apply(self, changes: Sequence[Change], label: str = "change") -> Applied:
        """Commit `changes` as one undoable group; returns only after the commit is durable on disk."""
        return self._write(lambda _conn: changes, label)

    def star(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "starred", True) for paper_id in ids], "star")

    def unstar(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "starred", False) for paper_id in ids], "unstar")

    def mark_read(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "read", True) for paper_id in ids], "read")

    def mark_unread(self, ids: Iterable[str]) -> Applied:
        return self.apply([Change(paper_id, "read", False) for paper_id in ids], "unread")

    def toggle_star(self, paper_id: str) -> bool:
        """Flip the star and return the new value."""
        return self.toggle(paper_id, "starred").value

    def toggle_read(self, paper_id: str) -> bool:
        return self.toggle(paper_id, "read").value

    def toggle(self, paper_id: str, field: Field) -> Toggled:
        """Flip one field; the read and the write share one transaction, so two processes never both flip."""
        result: list[bool] = []

        def build(conn: sqlite3.Connection) -> list[Change]:
            current = stored(conn, paper_id, field)
            result[:] = [not (current is not None and current[0] == 1)]
            return [Change(paper_id, field, result[0])]

        applied = self._write(build, f"toggle {field}")
        return Toggled(result[0], applied.seq)

    def merge(self, records: Iterable[PaperState], label: str = "import") -> Applied:
        """Merge another store's records (an import): newest timestamp wins per paper and field."""
        changes: list[Change] = []
        for record in records:
            if record.starred_at is not None:
                changes.append(Change(record.id, "starred", record.starred, record.starred_at))
            if record.read_at is not None:
                changes.append(Change(record.id, "read", record.read, record.read_at))
        return self.apply(changes, label)

    def undo(self) -> list[str] | None:
        """Revert the newest change group; returns the ids it changed, or None when there is nothing to undo.

        A field that no longer holds the value this group gave it (another process or an import changed it
        since) is left alone. The restored value is stamped now, so the undo also wins over an exported copy
        of the change it reverts.
        """
        undone: list[tuple[str, ...] | None] = [None]

        def build(conn: sqlite3.Connection) -> list[Change]:
            row = conn.execute("SELECT id FROM undo_group ORDER BY id DESC LIMIT 1").fetchone()
            if row is None:
                return []
            group = int(row[0])
            entries = conn.execute(
                "SELECT paper_id, field, old_value, new_value FROM undo_entry WHERE group_id = ?",
                (group,),
            ).fetchall()
            conn.execute("DELETE FROM undo_entry WHERE group_id = ?", (group,))
            conn.execute("DELETE FROM undo_group WHERE id = ?", (group,))
            restore = [
                Change(str(paper_id), field_name(str(field)), bool(old_value))
                for paper_id, field, old_value, new_value in entries
                if (stored(conn, str(paper_id), field_name(str(field))) or (None,))[0] == new_value
            ]
            undone[0] = tuple(change.paper_id for change in restore)
            return restore

        applied = self._write(build, "undo", record_undo=False)
        if undone[0] is None:
            return None
        return list(dict.fromkeys(applied.changed))

    # -- session memory ----------------------------------------------------------------------------------

    def get_session(self, key: str, default: JSONValue = None) -> JSONValue:
        """A remembered reader setting (last query, sort, selected paper...), or `default`."""
        if key in self._memory_session:
            return _loads(self._memory_session[key], default)
        rows = self._query("SELECT value FROM session WHERE key = ?", (key,))
        return _loads(str(rows[0][0]), default) if rows else default

    def set_session(self, key: str, value: JSONValue) -> None:
        """Remember a reader setting. Not undoable (it is not the user's data).

        On a read-only store the value is kept in memory for this run instead of raising: losing the
        last query on exit is no reason to interrupt someone reading.
        """
        encoded = json.dumps(value, ensure_ascii=False, allow_nan=False)
        if self.read_only:
            self._memory_session[key] = encoded
            return

        def body(conn: sqlite3.Connection) -> None:
            conn.execute(
                "INSERT INTO session (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key) "
                "DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, encoded, time.time()),
            )

        self._transaction(body)

    # -- the one write path ------------------------------------------------------------------------------

    def _write(
        self, build: Callable[[sqlite3.Connection], Sequence[Change]], label: str, *, record_undo: bool = True
    ) -> Applied:
        def body(conn: sqlite3.Connection) -> Applied:
            row = conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'commit_seq' RETURNING value")
            seq = int(row.fetchone()[0])
            changed = apply_changes(conn, build(conn), label, record_undo)
            return Applied(seq, changed)

        return self._transaction(body)

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """Run `body` in a BEGIN IMMEDIATE transaction, retrying while other processes hold the write lock."""
        if self.read_only_reason is not None:
            raise StateReadOnlyError(f"cannot save stars or read marks: {self.read_only_reason}")
        deadline = time.monotonic() + RETRY_FOR_S
        delay = 0.005
        with self._lock:
            while True:
                try:
                    return self._attempt(body)
                except sqlite3.OperationalError as error:
                    code = error_code(error)
                    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) and time.monotonic() < deadline:
                        time.sleep(delay)
                        delay = min(delay * 2, 0.25)
                        continue
                    raise _user_error(error, self.path) from error
                except sqlite3.DatabaseError as error:
                    raise _user_error(error, self.path) from error

    def _attempt(self, body: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = body(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            self._writes += 1
        return result


def _user_error(error: sqlite3.Error, path: Path) -> StateError:
    code = error_code(error)
    if code == sqlite3.SQLITE_READONLY:
        return StateReadOnlyError(f"cannot save stars or read marks: {path} is read-only ({error})")
    if code == sqlite3.SQLITE_BUSY:
        return StateError(f"{path} stayed locked by another papers process for {RETRY_FOR_S:.0f} s")
    return StateError(f"cannot save stars or read marks to {path}: {error}")


def _loads(encoded: str, default: JSONValue) -> JSONValue:
    try:
        value: JSONValue = json.loads(encoded)
    except ValueError:
        return default
    return value
