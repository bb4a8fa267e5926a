"""Opening the per-user SQLite file: private modes, migrations, corruption and read-only fallbacks."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from index.models import Notice

DB_NAME = "state.db"
BUSY_TIMEOUT_S = 10.0
"""How long SQLite itself waits for another process's write lock before the store's own retry loop."""

_CORRUPT_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
_UNWRITABLE_CODES = {
    sqlite3.SQLITE_READONLY,
    sqlite3.SQLITE_CANTOPEN,
    sqlite3.SQLITE_IOERR,
    sqlite3.SQLITE_FULL,
    sqlite3.SQLITE_PERM,
    sqlite3.SQLITE_BUSY,
    sqlite3.SQLITE_LOCKED,
}
"""Errors that mean "this folder or file cannot be written now"; anything else is a bug and propagates."""


def _migration_1(conn: sqlite3.Connection) -> None:
    """The first schema: one row per paper with a value and a time per field (a tombstone is value 0).

    `undo_group`/`undo_entry` hold the undo log older versions shared between processes; undo is now each
    session's own, kept in memory (base.py), so these tables stay only for an older `papers` opening the file.
    """
    # Statement by statement: executescript() would COMMIT the migration's enclosing transaction first.
    script = """
        CREATE TABLE paper_state (
            id TEXT PRIMARY KEY,
            starred INTEGER, starred_at REAL,
            read INTEGER, read_at REAL
        ) WITHOUT ROWID;
        CREATE TABLE session (
            key TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at REAL NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE undo_group (
            id INTEGER PRIMARY KEY AUTOINCREMENT, created_at REAL NOT NULL, label TEXT NOT NULL
        );
        CREATE TABLE undo_entry (
            group_id INTEGER NOT NULL, paper_id TEXT NOT NULL, field TEXT NOT NULL,
            old_value INTEGER, old_at REAL, new_value INTEGER NOT NULL, new_at REAL NOT NULL
        );
        CREATE INDEX undo_entry_group ON undo_entry (group_id);
        CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO meta (key, value) VALUES ('commit_seq', 0)
    """
    for statement in script.split(";"):
        conn.execute(statement)


def _migration_2(conn: sqlite3.Connection) -> None:
    """Tags, notes and saved searches, each value with its time (a tombstone keeps the time of a removal).

    Existing tables are only extended (two columns for the text values notes put in the undo log), so no
    star, read mark, session value or undo step changes.
    """
    script = """
        CREATE TABLE paper_tag (
            id TEXT NOT NULL, tag TEXT NOT NULL, tagged INTEGER NOT NULL, at REAL NOT NULL,
            PRIMARY KEY (id, tag)
        ) WITHOUT ROWID;
        CREATE INDEX paper_tag_by_tag ON paper_tag (tag, tagged);
        CREATE TABLE paper_note (id TEXT PRIMARY KEY, text TEXT NOT NULL, at REAL NOT NULL) WITHOUT ROWID;
        CREATE TABLE saved_search (name TEXT PRIMARY KEY, query TEXT, at REAL NOT NULL) WITHOUT ROWID;
        ALTER TABLE undo_entry ADD COLUMN old_text TEXT;
        ALTER TABLE undo_entry ADD COLUMN new_text TEXT
    """
    for statement in script.split(";"):
        conn.execute(statement)


MIGRATIONS = (_migration_1, _migration_2)
"""Applied in order; `PRAGMA user_version` counts how many ran. Append, never edit or reorder."""
SCHEMA_VERSION = len(MIGRATIONS)


class Corrupt(Exception):
    """The file exists but SQLite cannot read it as a database."""


@dataclass
class OpenedDatabase:
    """A connection plus what the user should be told about how it was opened."""

    conn: sqlite3.Connection
    path: Path
    read_only_reason: str | None = None
    notices: list[Notice] = field(default_factory=list)


def error_code(error: sqlite3.Error) -> int:
    """The primary SQLite result code (extended codes carry extra bits above the low byte)."""
    return int(getattr(error, "sqlite_errorcode", 0) or 0) & 0xFF


def _connect(target: str, *, uri: bool = False) -> sqlite3.Connection:
    # isolation_level=None: the store issues BEGIN IMMEDIATE itself, so Python never opens a deferred
    # transaction that could fail to upgrade to a write lock (the classic WAL deadlock-as-SQLITE_BUSY).
    # check_same_thread=False: the reader queries from worker threads; the store serialises with a lock.
    conn = sqlite3.connect(
        target, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False, uri=uri
    )
    conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    return conn


def _private_file(path: Path) -> None:
    """Create `path` as an empty 0600 file if missing, so the database is never briefly world-readable."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def _tighten(path: Path) -> None:
    """Make the database and its WAL/SHM companions 0600 (SQLite copies the main file's mode, but be sure)."""
    for candidate in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        with contextlib.suppress(OSError):
            if candidate.exists() and candidate.stat().st_mode & 0o077:
                candidate.chmod(0o600)


def _check_readable(conn: sqlite3.Connection) -> None:
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as error:
        if error_code(error) in _CORRUPT_CODES:
            raise Corrupt(str(error)) from error
        raise
    if rows != [("ok",)]:
        raise Corrupt(str(rows[0][0]) if rows else "quick_check returned nothing")


def _migrate(conn: sqlite3.Connection) -> None:
    """Run the missing migrations in one write transaction, so two processes never migrate twice."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise NewerSchema(version)
        for number, migration in enumerate(MIGRATIONS[version:], start=version + 1):
            migration(conn)
            conn.execute(f"PRAGMA user_version = {number}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


class NewerSchema(Exception):
    """The file was written by a newer `papers`; this one must not write to it."""

    def __init__(self, version: int) -> None:
        super().__init__(f"schema version {version}, newer than this papers understands ({SCHEMA_VERSION})")


def _open_writable_when_free(data_dir: Path) -> sqlite3.Connection:
    """`_open_writable`, tried again while another process holds the file mid-write.

    Switching a new file to WAL and migrating it take locks that SQLite may refuse at once (SQLITE_BUSY
    without calling the busy handler, when waiting could deadlock), so two sessions starting together
    would otherwise open the second one read-only. A lock held past BUSY_TIMEOUT_S still means read-only.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            return _open_writable(data_dir)
        except sqlite3.OperationalError as error:
            busy = error_code(error) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
            if not busy or time.monotonic() >= deadline:
                raise
            time.sleep(0.05)


def _check_writable(data_dir: Path, path: Path) -> None:
    """Raise the system's own error when the folder or the file cannot be written. SQLite would open such a
    file read-only without a word and fail only at the first change, after the reader had promised it."""
    with tempfile.TemporaryFile(dir=data_dir):  # EROFS on a read-only mount, even for root
        pass
    if not os.access(path, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))


def _open_writable(data_dir: Path) -> sqlite3.Connection:
    if not data_dir.is_dir():
        try:
            data_dir.mkdir(parents=True, mode=0o700)
            data_dir.chmod(0o700)  # mkdir's mode is filtered by the umask; be explicit
        except FileExistsError:
            if not data_dir.is_dir():  # another papers process may have just created it; a file is an error
                raise
    path = data_dir / DB_NAME
    _private_file(path)
    _check_writable(data_dir, path)
    conn = _connect(str(path))
    try:
        _check_readable(conn)
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"could not switch to WAL journal mode (got {mode})")
        # NORMAL in WAL mode: a commit survives the process being killed; only power loss may undo the
        # last commits, and never corrupts the file.
        conn.execute("PRAGMA synchronous = NORMAL")
        _migrate(conn)
    except BaseException:
        conn.close()
        raise
    _tighten(path)
    return conn


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """Serialise corruption recovery between processes, so one never moves aside the other's fresh file."""
    fd = os.open(lock_path, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def _move_aside(path: Path) -> Path:
    """Rename a damaged database (and its WAL/SHM) to `state.db.corrupt-<UTC time>` so nothing is lost."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    counter = 1
    while target.exists():
        counter += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{counter}")
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        companion = Path(f"{path}{suffix}")
        if companion.exists():
            os.replace(companion, Path(f"{target}{suffix}"))
    return target


def _still_corrupt(path: Path) -> bool:
    if not path.exists():
        return False
    try:
        conn = _connect(str(path))
    except sqlite3.Error:
        return True
    try:
        _check_readable(conn)
    except Corrupt:
        return True
    except sqlite3.Error:
        return False
    finally:
        conn.close()
    return False


def _empty_in_memory() -> sqlite3.Connection:
    """An empty store for when no file can be read: the reader still opens, with nothing starred."""
    conn = _connect(":memory:")
    _migrate(conn)
    conn.execute("PRAGMA query_only = ON")
    return conn


def _migrated_copy(conn: sqlite3.Connection) -> sqlite3.Connection:
    """An older schema in a folder we cannot write: migrate a copy in memory, so every mark still shows."""
    copy = _connect(":memory:")
    try:
        conn.backup(copy)
    finally:
        conn.close()
    _migrate(copy)
    copy.execute("PRAGMA query_only = ON")
    return copy


def _columns(conn: sqlite3.Connection) -> set[tuple[str, str]]:
    tables = [row[0] for row in conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")]
    return {
        (table, str(column[1]))
        for table in tables
        for column in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))
    }


def _reads_as_ours(conn: sqlite3.Connection) -> bool:
    """Whether a newer schema still has every table and column this version reads: then its marks show
    (read-only), since a newer `papers` that adds to the schema keeps what older ones wrote readable."""
    ours = _empty_in_memory()
    try:
        return _columns(ours) <= _columns(conn)
    finally:
        ours.close()


def _open_read_only(path: Path) -> tuple[sqlite3.Connection, str | None]:
    """Open an existing file without writing; `immutable` covers a WAL file whose folder forbids the -shm."""
    try:
        if not path.is_file():
            return _empty_in_memory(), None
    except OSError as error:  # a folder on the way this user cannot traverse
        return _empty_in_memory(), f"{DB_NAME} cannot be read ({_reason(error)}); showing no stars"
    for options in ("mode=ro", "mode=ro&immutable=1"):
        conn: sqlite3.Connection | None = None
        try:
            conn = _connect(f"{path.resolve().as_uri()}?{options}", uri=True)
            conn.execute("PRAGMA query_only = ON")
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute("SELECT count(*) FROM paper_state").fetchone()
        except sqlite3.Error:
            if conn is not None:
                conn.close()
            continue
        if version < SCHEMA_VERSION:
            return _migrated_copy(conn), None
        if version > SCHEMA_VERSION and not _reads_as_ours(conn):
            conn.close()
            return _empty_in_memory(), "its tables are not ones this papers reads; showing no stars"
        return conn, None
    return _empty_in_memory(), f"{DB_NAME} cannot be read; showing no stars"


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)


def _why_unwritable(data_dir: Path, error: BaseException) -> str:
    """What the system says about writing in `data_dir` ("Read-only file system", "No space left on
    device"), which says more than SQLite's "unable to open database file"; else `error` itself."""
    if isinstance(error, sqlite3.Error):
        try:
            with tempfile.TemporaryFile(dir=data_dir):
                pass
        except OSError as os_error:
            return _reason(os_error)
    return _reason(error)


def open_database(data_dir: Path) -> OpenedDatabase:
    """Open (creating if needed) the state database in `data_dir`, degrading rather than failing.

    A damaged file is moved aside and replaced; a folder that cannot be written yields a read-only
    connection (the existing file if readable, else an empty in-memory one). Never raises for those.
    """
    path = data_dir / DB_NAME
    notices: list[Notice] = []
    for _attempt in range(2):
        try:
            return OpenedDatabase(_open_writable_when_free(data_dir), path, None, notices)
        except Corrupt as error:
            try:
                with _exclusive(data_dir / "state.lock"):
                    if _still_corrupt(path):
                        moved = _move_aside(path)
                        notices.append(
                            Notice(
                                str(path), f"damaged ({error}); moved aside to {moved.name}, starting afresh"
                            )
                        )
            except OSError as move_error:
                reason = f"damaged ({error}) and cannot be moved aside ({_reason(move_error)})"
                notices.append(Notice(str(path), f"{reason}; stars and read marks are read-only"))
                return OpenedDatabase(_empty_in_memory(), path, reason, notices)
        except NewerSchema as error:
            conn, problem = _open_read_only(path)
            reason = f"written by a newer papers ({error}); upgrade papers to change stars"
            notices.append(Notice(str(path), f"{reason}; {problem}" if problem else reason))
            return OpenedDatabase(conn, path, reason, notices)
        except (OSError, sqlite3.Error) as error:
            if isinstance(error, sqlite3.Error) and error_code(error) not in _UNWRITABLE_CODES:
                raise
            # EACCES, EROFS, ENOSPC, ENOTDIR, SQLITE_READONLY, SQLITE_FULL...: all mean "cannot write here".
            why = _why_unwritable(data_dir, error)
            reason = f"{data_dir} cannot be written ({why})"
            conn, problem = _open_read_only(path)
            said = problem or "stars are read-only"
            notices.append(Notice(str(data_dir), f"cannot be written ({why}); {said}"))
            return OpenedDatabase(conn, path, reason, notices)
    reason = "the state database kept failing its integrity check"
    notices.append(Notice(str(path), f"{reason}; stars and read marks are read-only"))
    return OpenedDatabase(_empty_in_memory(), path, reason, notices)
