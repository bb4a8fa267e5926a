"""The store's connection: one lock, reads cached until any process commits, and the one write path.

Every write is one `BEGIN IMMEDIATE` transaction, retried while other `papers` processes hold the lock, and
returns only once committed; `StateStore` (store.py) builds on this. Each connection keeps the undo steps
of its own writes, so undo reverts this session's changes and never another process's.
`changed_elsewhere` tells a long-lived reader, cheaply, that another connection committed. `rows_of` is the
one read shape of the per-paper tables (flags, tags, notes), tombstones included.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from index.models import Notice
from index.state.changes import UNDO_DEPTH, Change
from index.state.db import error_code
from index.state.fields import Logged, apply_changes

RETRY_FOR_S = 30.0
"""How long a write keeps retrying while other processes hold the lock, beyond SQLite's own busy timeout."""

_UNWRITABLE_NOW = {
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_PERM,
}
"""Write errors that mean the disk stopped taking writes under an open store (filled up, remounted
read-only, unmounted); a lock held too long (SQLITE_BUSY) is not one of them."""
_CACHE_KEYS = 64
T = TypeVar("T")


class StateError(Exception):
    """A state change could not be saved; the message is one line a user can act on."""


class StateReadOnlyError(StateError):
    """The store was opened read-only (unwritable folder, newer schema...): reads work, changes do not."""


@dataclass(frozen=True, slots=True)
class Applied:
    """The outcome of one committed write: its place in the global commit order and the papers it changed."""

    seq: int
    changed: tuple[str, ...]
    searches: tuple[str, ...] = ()
    """Saved searches the write changed (an import), by name."""


@dataclass(frozen=True, slots=True)
class UndoStep:
    """One committed change group of this connection, as undo reverts it."""

    label: str
    log: tuple[Logged, ...]


class StoreConnection:
    """The SQLite connection behind a `StateStore`, shared by the reader's threads under one lock."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, read_only_reason: str | None, notices: Sequence[Notice]
    ) -> None:
        self._conn = conn
        self._lock = threading.RLock()
        self.path = path
        self.read_only_reason = read_only_reason
        self.notices: tuple[Notice, ...] = tuple(notices)
        self._writes = 0
        self._cache: dict[str, tuple[tuple[int, int], Any]] = {}
        # Undo is per connection: another process's change is never this session's to revert.
        self._undo: deque[UndoStep] = deque(maxlen=UNDO_DEPTH)
        self._uncommitted: list[UndoStep] = []
        self._seen_version = self._data_version()

    @property
    def read_only(self) -> bool:
        return self.read_only_reason is not None

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def _data_version(self) -> int | None:
        """SQLite's count of commits by other connections (one read of the shared WAL index, no table)."""
        try:
            return int(self._conn.execute("PRAGMA data_version").fetchone()[0])
        except sqlite3.Error:
            return None  # closed or damaged: nothing more to notice

    def changed_elsewhere(self) -> bool:
        """Whether another connection (another `papers` process) committed since the last call.

        Never waits: while a worker thread holds the connection this answers False, and the next call
        (the reader asks a few times a second) sees the change.
        """
        if not self._lock.acquire(blocking=False):
            return False
        try:
            version = self._data_version()
            changed = version != self._seen_version
            self._seen_version = version
        finally:
            self._lock.release()
        return changed

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[tuple[object, ...]]:
        with self._lock:
            return list(self._conn.execute(sql, params).fetchall())

    def _read(self, read: Callable[[sqlite3.Connection], T]) -> T:
        with self._lock:
            return read(self._conn)

    def _cached(self, key: str, load: Callable[[sqlite3.Connection], T]) -> T:
        """`load`'s answer, kept until any process commits: search filters and list rows ask per query.

        The answer is shared between callers, so `load` must return something immutable.
        """
        with self._lock:
            # data_version moves when another connection commits; our own commits bump _writes.
            version = (int(self._conn.execute("PRAGMA data_version").fetchone()[0]), self._writes)
            cached = self._cache.get(key)
            if cached is None or cached[0] != version:
                if len(self._cache) >= _CACHE_KEYS:  # `tag:` typed letter by letter makes a key per prefix
                    self._cache.clear()
                cached = (version, load(self._conn))
                self._cache[key] = cached
            value: T = cached[1]
        return value

    def _write(
        self, build: Callable[[sqlite3.Connection], Sequence[Change]], label: str, *, record_undo: bool = True
    ) -> Applied:
        """Apply the changes `build` returns (it runs inside the transaction, so it may read first).

        When `build` finds nothing to change, nothing is written: the commit order does not move, so other
        processes' readers (which poll `changed_elsewhere`) do not reload their marks for nothing.
        """

        def body(conn: sqlite3.Connection) -> Applied:
            changes = build(conn)
            if not changes:
                row = conn.execute("SELECT value FROM meta WHERE key = 'commit_seq'").fetchone()
                return Applied(int(row[0]), ())
            return self._write_in(conn, changes, label, record_undo=record_undo)

        return self._transaction(body)

    def _write_in(
        self, conn: sqlite3.Connection, changes: Sequence[Change], label: str, *, record_undo: bool = True
    ) -> Applied:
        """Apply `changes` inside the caller's transaction, numbered in the global commit order."""
        row = conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'commit_seq' RETURNING value")
        seq = int(row.fetchone()[0])
        written = apply_changes(conn, changes)
        if record_undo and written.log:
            self._uncommitted.append(UndoStep(label, written.log))  # undoable once the commit succeeds
        return Applied(seq, written.changed)

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
                    raise self._failed(error) from error
                except sqlite3.DatabaseError as error:
                    raise self._failed(error) from error

    def _failed(self, error: sqlite3.Error) -> StateError:
        """The error to raise for a failed write; one that says the disk cannot take writes (full, read-only,
        gone) makes the store read-only from now on, so later changes are refused up front and nothing is
        half-written while the user is told once."""
        if error_code(error) in _UNWRITABLE_NOW:
            self.read_only_reason = f"{self.path} cannot be written ({error})"
            return StateReadOnlyError(f"cannot save stars or read marks: {self.read_only_reason}")
        return _user_error(error, self.path)

    def _attempt(self, body: Callable[[sqlite3.Connection], T]) -> T:
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = body(conn)
            conn.execute("COMMIT")
            self._undo.extend(self._uncommitted)
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        finally:
            self._uncommitted.clear()
            self._writes += 1
        return result


def _user_error(error: sqlite3.Error, path: Path) -> StateError:
    code = error_code(error)
    if code == sqlite3.SQLITE_READONLY:
        return StateReadOnlyError(f"cannot save stars or read marks: {path} is read-only ({error})")
    if code == sqlite3.SQLITE_BUSY:
        return StateError(f"{path} stayed locked by another papers process for {RETRY_FOR_S:.0f} s")
    return StateError(f"cannot save stars or read marks to {path}: {error}")


def rows_of(
    conn: sqlite3.Connection, select: str, ids: Sequence[str] | None, *, order_by: str = ""
) -> list[tuple[Any, ...]]:
    """Every stored row of these papers, or of all papers when `ids` is None, tombstones (unstarred,
    untagged, cleared) included: the one read behind `StateStore.states` and `records` (what exports carry).

    Args:
        select: `SELECT <columns> FROM <table>` of a table keyed by `id`; fixed text, never user input.
        order_by: the `ORDER BY` columns, if the caller needs an order.
    """
    where = "" if ids is None else f" WHERE id IN ({','.join('?' * len(ids))})"
    order = f" ORDER BY {order_by}" if order_by else ""
    return list(conn.execute(select + where + order, [] if ids is None else list(ids)).fetchall())
