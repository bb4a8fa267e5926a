"""One index directory per set of listings under the index root; the least recently used go past a budget.

The index root is what `--index-dir`, `$PAPERS_INDEX_DIR` or `index_dir` in the config names (else the user
cache dir). Inside it::

    sets/
        3f2a9c0e1b7d4a66/     one set of listings, named as the session memory names it (`listings_digest`:
                              the same files or folders in any order, by any relative path)
            in-use            readers hold a shared lock on it; its mtime is when the set was last opened
            listings.txt      the listing paths, for a person looking at the directory
            lock, current, build-N/    the index directory itself (layout.py)

Opening other listings opens another set's directory and leaves every other set as it is, so coming back to
a set is a normal start, not a rebuild. After a write (`evict`), sets are removed least recently opened
first while all of them together are over the budget: never the set just written, one another process has
open (its shared lock on `in-use`) or one being built (its writer lock).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import shutil
import time
from collections.abc import Sequence
from pathlib import Path

from index.listings.reader import listings_digest
from index.search import layout

SETS_NAME = "sets"
IN_USE_NAME = "in-use"
LABEL_NAME = "listings.txt"
DEFAULT_BUDGET = 2 * 1024**3
"""Bytes all sets may take together before the least recently used go (`index_budget_gb` in the config)."""
_SET_RE = re.compile(r"^[0-9a-f]{16}$")
_EVICTING = ".evicting-"
_ENTER_WAIT = 5.0
"""Seconds to wait for an eviction of this very set that holds `in-use` exclusively (a rename, then gone)."""


def set_dir(root: Path, listing_paths: Sequence[Path]) -> Path:
    """The index directory of this set of listings under the index root."""
    return root / SETS_NAME / listings_digest(listing_paths)


def sole_set(path: Path) -> Path:
    """The one set's directory in an index root that holds one set (what `papers index --index-dir DIR`
    makes for one set of listings), else `path` as it is: tools that open an index directory take either."""
    found = [name for name in _listdir(path / SETS_NAME) if _SET_RE.match(name)]
    return path / SETS_NAME / found[0] if len(found) == 1 else path


class SetUse:
    """A shared lock on a set's `in-use` file while a library has the set open, so no eviction removes it.

    fcntl, so a reader killed with SIGKILL never keeps it; on a read-only (shared) index there may be nothing
    to lock, and nothing there is ever evicted by a reader anyway.
    """

    def __init__(self, fd: int | None) -> None:
        self._fd = fd

    @classmethod
    def enter(cls, directory: Path, listing_paths: Sequence[Path]) -> SetUse:
        """Mark the set as just used (creating its directory when we may) and hold its shared lock."""
        deadline = time.monotonic() + _ENTER_WAIT
        while True:
            fd = _open_in_use(directory, listing_paths)
            if fd is None:
                return cls(None)
            if _lock(fd, fcntl.LOCK_SH, deadline) and _same_file(fd, directory / IN_USE_NAME):
                return cls(fd)
            os.close(fd)  # evicted meanwhile: its directory is gone, so make it again
            if time.monotonic() >= deadline:
                return cls(None)

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing drops the lock
            self._fd = None


def _open_in_use(directory: Path, listing_paths: Sequence[Path]) -> int | None:
    """The set's `in-use` file, opened (and touched: the set's last use) when the directory may be written."""
    path = directory / IN_USE_NAME
    if layout.writable(directory):
        try:
            directory.mkdir(parents=True, exist_ok=True)
            label = directory / LABEL_NAME
            if not label.exists():
                named = "".join(f"{path}\n" for path in listing_paths)
                layout.write_atomic(label, named.encode(errors="replace"))
            fd = os.open(path, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError:  # a full disk or a race with an eviction: run unlocked, as a read-only user does
            return None
        with contextlib.suppress(OSError):
            os.utime(fd)
        return fd
    try:
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None


def _lock(fd: int, kind: int, deadline: float) -> bool:
    while True:
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
            return True
        except OSError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.fstat(fd).st_ino == os.stat(path).st_ino
    except OSError:
        return False


def evict(root: Path, keep: Path, budget: int) -> list[Path]:
    """Remove the least recently used sets until every set under `root` fits in `budget` bytes.

    `keep` (the set just written) stays whatever its size; so does any set another process has open or is
    building. An index left in the root by a version without sets is removed first: nothing opens it again.

    Returns:
        The set directories removed.
    """
    _remove_unsorted(root)
    sets = root / SETS_NAME
    found: list[tuple[float, Path, int]] = []
    for name in _listdir(sets):
        path = sets / name
        if _SET_RE.match(name):
            found.append((_last_used(path), path, _size(path)))
        elif name.startswith(_EVICTING):  # an eviction killed halfway
            shutil.rmtree(path, ignore_errors=True)
    total = sum(size for _used, _path, size in found)
    removed: list[Path] = []
    for _used, path, size in sorted(found, key=lambda entry: entry[0]):
        if total <= budget:
            break
        if path != keep and _remove_set(path):
            total -= size
            removed.append(path)
    return removed


def _remove_set(path: Path) -> bool:
    """Remove one set unless it is in use or being built: both locks taken, then renamed aside and deleted."""
    lock = layout.WriterLock.try_acquire(path)
    if lock is None:
        return False
    with lock:
        try:
            fd = os.open(path / IN_USE_NAME, os.O_RDONLY | os.O_CREAT, 0o644)
        except OSError:
            return False
        try:
            if not _lock(fd, fcntl.LOCK_EX, time.monotonic()):
                return False
            aside = path.with_name(f"{_EVICTING}{path.name}-{os.getpid()}")
            try:
                os.rename(path, aside)
            except OSError:
                return False
        finally:
            os.close(fd)
    shutil.rmtree(aside, ignore_errors=True)
    return True


def _remove_unsorted(root: Path) -> None:
    """The index an older `papers` kept directly in the root (`current`, `build-N`, `lock`), when nobody is
    writing it."""
    if not (root / layout.CURRENT_NAME).is_symlink():
        return
    lock = layout.WriterLock.try_acquire(root)
    if lock is None:
        return
    with lock:
        layout.remove_stale_builds(root, [])
        with contextlib.suppress(OSError):
            (root / layout.CURRENT_NAME).unlink()
    with contextlib.suppress(OSError):
        (root / layout.LOCK_NAME).unlink()


def _last_used(path: Path) -> float:
    try:
        return (path / IN_USE_NAME).stat().st_mtime
    except OSError:
        return 0.0


def _size(path: Path) -> int:
    total = 0
    for folder, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(folder, name)).st_size
    return total


def _listdir(path: Path) -> list[str]:
    try:
        return os.listdir(path)
    except OSError:
        return []
