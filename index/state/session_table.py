"""Session memory: the reader's last query, filter, order, selection and theme, kept between runs.

Not the user's data: never undone, never exported, and on a read-only store kept in memory for the run.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from pathlib import Path

from index.models import Notice
from index.state.base import StateReadOnlyError, StoreConnection

JSONValue = None | bool | int | float | str | list["JSONValue"] | dict[str, "JSONValue"]


class SessionTable(StoreConnection):
    """Remembered reader settings by key, as JSON values (the `session` table)."""

    def __init__(
        self, conn: sqlite3.Connection, path: Path, read_only_reason: str | None, notices: Sequence[Notice]
    ) -> None:
        super().__init__(conn, path, read_only_reason, notices)
        self._memory_session: dict[str, str] = {}

    def get_session(self, key: str, default: JSONValue = None) -> JSONValue:
        """A remembered reader setting (last query, sort, selected paper...), or `default`."""
        if key in self._memory_session:
            return _loads(self._memory_session[key], default)
        rows = self._query("SELECT value FROM session WHERE key = ?", (key,))
        return _loads(str(rows[0][0]), default) if rows else default

    def has_session(self, key: str) -> bool:
        """Whether a value is remembered for `key` (so a caller can tell a stored default from none)."""
        if key in self._memory_session:
            return True
        return bool(self._query("SELECT 1 FROM session WHERE key = ?", (key,)))

    def set_session(self, key: str, value: JSONValue, *, replaces: str | None = None) -> None:
        """Remember a reader setting. Not undoable (it is not the user's data).

        Args:
            replaces: a key this one supersedes, deleted in the same transaction (an older key layout).

        On a read-only store (or one that just became so) the value is kept in memory for this run instead of
        raising: losing the last query on exit is no reason to interrupt someone reading.
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
            if replaces is not None and replaces != key:
                conn.execute("DELETE FROM session WHERE key = ?", (replaces,))

        try:
            self._transaction(body)
        except (
            StateReadOnlyError
        ):  # the disk stopped taking writes just now; the store is read-only from here
            self._memory_session[key] = encoded


def _loads(encoded: str, default: JSONValue) -> JSONValue:
    try:
        value: JSONValue = json.loads(encoded)
    except ValueError:
        return default
    return value
