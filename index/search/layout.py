"""The index directory on disk: builds behind an atomically swapped `current` link, the lock, manifests.

Layout of an index directory::

    lock                  fcntl lock held by whoever builds or updates (never created when read-only)
    current -> build-7    the live build; swapped by os.replace of a fresh symlink: readers see old or new
    build-6/              the previous build, kept so a reader that opened it keeps working; removed next time
    build-7/
        MAIN_*                Whoosh's own files; each commit is a new generation (its TOC number)
        manifest-<gen>.bin    the listing files (path, size, mtime, digest) and schema of this generation
        snapshot-<gen>.bin    the whole catalog as plain tuples, so a reader never re-parses the listings
        hashes-<gen>.bin      id -> content hash, so an update re-indexes only papers that really changed

The manifest is written last: a generation without one was interrupted after Whoosh's commit, and the next
update simply redoes its work (upserts and deletes are idempotent).
"""

from __future__ import annotations

import contextlib
import enum
import fcntl
import hashlib
import itertools
import marshal
import mmap
import os
import re
import shutil
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

LOCK_NAME = "lock"
CURRENT_NAME = "current"
BUILD_PREFIX = "build-"
_BUILD_RE = re.compile(r"^build-(\d+)$")
_STATE_RE = re.compile(r"^manifest-(\d+)\.bin$")
_MARSHAL_VERSION = 4
_SNAPSHOT_HEAD = b"papers-snapshot\n"
_SNAPSHOT_TAIL = b"\nend-of-snapshot\n"


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What a listing file looked like when indexed: stat for the cheap check, a digest for the real one."""

    path: str
    size: int
    mtime_ns: int
    digest: str


@dataclass(frozen=True, slots=True)
class Manifest:
    """Which inputs and schema one committed generation of the index reflects."""

    schema_version: int
    generation: int
    files: tuple[FileStamp, ...]
    papers: int


@dataclass(frozen=True, slots=True)
class FileDiff:
    """How the listing files on disk differ from a manifest."""

    added: tuple[str, ...]
    changed: tuple[str, ...]
    removed: tuple[str, ...]
    stamps: tuple[FileStamp, ...]
    """Fresh stamps for every current file (digests reused where the stat did not move)."""

    @property
    def clean(self) -> bool:
        return not (self.added or self.changed or self.removed)


def writable(index_dir: Path) -> bool:
    """Whether we may build here: the directory (or, before it exists, its nearest existing parent)."""
    probe = index_dir
    while not probe.exists():
        if probe.parent == probe:
            return False
        probe = probe.parent
    return probe.is_dir() and os.access(probe, os.W_OK | os.X_OK)


def current_build(index_dir: Path) -> Path | None:
    """The live build directory, or None before the first build."""
    try:
        target = os.readlink(index_dir / CURRENT_NAME)
    except OSError:
        return None
    path = index_dir / target
    return path if path.is_dir() else None


def current_token(index_dir: Path) -> str | None:
    """A cheap fingerprint of which build is live (one readlink), checked before every search."""
    try:
        return os.readlink(index_dir / CURRENT_NAME)
    except OSError:
        return None


def new_build_dir(index_dir: Path) -> Path:
    """A fresh, empty `build-<n>` numbered past every existing one: a half-written build is never reused."""
    index_dir.mkdir(parents=True, exist_ok=True)
    numbers = [int(m.group(1)) for m in map(_BUILD_RE.match, os.listdir(index_dir)) if m]
    number = max(numbers, default=0) + 1
    while True:
        path = index_dir / f"{BUILD_PREFIX}{number}"
        try:
            path.mkdir()
            return path
        except FileExistsError:
            number += 1


def swap_current(index_dir: Path, build: Path) -> None:
    """Point `current` at `build` in one atomic step; readers see either the old build or the new one."""
    link = index_dir / f".{CURRENT_NAME}.{os.getpid()}.tmp"
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    os.symlink(build.name, link)
    os.replace(link, index_dir / CURRENT_NAME)
    _fsync_dir(index_dir)


def remove_stale_builds(index_dir: Path, keep: Sequence[Path]) -> None:
    """Delete builds other than `keep` (the live one and its predecessor): abandoned or superseded ones."""
    keep_names = {path.name for path in keep}
    for name in os.listdir(index_dir):
        if _BUILD_RE.match(name) and name not in keep_names:
            shutil.rmtree(index_dir / name, ignore_errors=True)
        elif name.startswith(f".{CURRENT_NAME}.") and name.endswith(".tmp"):
            with contextlib.suppress(OSError):
                (index_dir / name).unlink()


class WriterLock:
    """The one-builder-at-a-time lock: fcntl, so a writer killed with SIGKILL never leaves it held."""

    def __init__(self, handle: IO[bytes]) -> None:
        self._handle = handle

    @classmethod
    def try_acquire(cls, index_dir: Path) -> WriterLock | None:
        """The lock if nobody else holds it, else None at once (callers decide whether to wait)."""
        index_dir.mkdir(parents=True, exist_ok=True)
        handle = open(index_dir / LOCK_NAME, "ab")  # noqa: SIM115 - held until release()
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return None
        return cls(handle)

    @classmethod
    def acquire(cls, index_dir: Path, timeout: float) -> WriterLock | None:
        """Wait up to `timeout` seconds for the lock, polling: another process is finishing a build."""
        deadline = time.monotonic() + timeout
        while True:
            lock = cls.try_acquire(index_dir)
            if lock is not None or time.monotonic() >= deadline:
                return lock
            time.sleep(0.1)

    def release(self) -> None:
        if not self._handle.closed:
            fcntl.flock(self._handle.fileno(), fcntl.LOCK_UN)
            self._handle.close()

    def __enter__(self) -> WriterLock:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def write_atomic(path: Path, data: bytes | Iterable[bytes | memoryview]) -> None:
    """Write via a temporary file and os.replace, so a kill leaves the old file or the new one, never half.

    `data` may come in pieces, written in order (a large snapshot is never joined in memory).
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            if isinstance(data, bytes):
                handle.write(data)
            else:
                handle.writelines(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:  # a full disk or a kill between the two: no temporary file stays behind
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def file_digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "blake2b").hexdigest()[:32]


def stamp(path: str, digest: str | None = None) -> FileStamp:
    info = os.stat(path)
    return FileStamp(
        path, info.st_size, info.st_mtime_ns, digest if digest is not None else file_digest(path)
    )


def diff_files(recorded: Sequence[FileStamp], paths: Sequence[str]) -> FileDiff:
    """Compare listing files with a manifest: stat each, and hash only the ones whose size or mtime moved."""
    old = {entry.path: entry for entry in recorded}
    added: list[str] = []
    changed: list[str] = []
    stamps: list[FileStamp] = []
    for path in paths:
        before = old.get(path)
        try:
            info = os.stat(path)
        except OSError:
            continue
        if before is None:
            added.append(path)
            stamps.append(stamp(path))
        elif (info.st_size, info.st_mtime_ns) == (before.size, before.mtime_ns):
            stamps.append(before)
        else:
            now = stamp(path)
            if now.digest != before.digest:
                changed.append(path)
            stamps.append(now)
    present = {entry.path for entry in stamps}
    removed = [path for path in old if path not in present]
    return FileDiff(tuple(added), tuple(changed), tuple(removed), tuple(stamps))


def kept_share(recorded: Sequence[FileStamp], paths: Sequence[str]) -> float:
    """How much of the listings an update would carry over, stat only: the bytes of files in `paths` that a
    manifest recorded with the same size and mtime, over the larger of the listings now and those recorded."""
    old = {entry.path: entry for entry in recorded}
    kept = now = 0
    for path in paths:
        try:
            info = os.stat(path)
        except OSError:
            continue
        now += info.st_size
        before = old.get(path)
        if before is not None and (info.st_size, info.st_mtime_ns) == (before.size, before.mtime_ns):
            kept += info.st_size
    whole = max(now, sum(entry.size for entry in recorded))
    return kept / whole if whole else 1.0


FileId = tuple[int, int, int]
"""A file as stat sees it: inode, size, mtime_ns."""
_STATE_FILE_RE = re.compile(r"^(manifest|snapshot|hashes)-\d+\.bin$")


class Changed(enum.Enum):
    """How a build's files differ from when it was opened (`changed_files`)."""

    IN_PLACE = "in place"
    """A file written, truncated or removed under its name: never papers, which writes new files."""
    REPLACED = "replaced"
    """A state file replaced whole by another papers process (a rename), the index files as they were."""


DAMAGED_NAME = "damaged"


def mark_damaged(build: Path, reason: str) -> None:
    """Leave word in a build that it was found damaged (and why), so no process searches it again."""
    with contextlib.suppress(OSError):
        write_atomic(build / DAMAGED_NAME, reason.encode("utf-8", "replace"))


def damage_mark(build: Path) -> str | None:
    """Why a build was found damaged (`mark_damaged`), or None."""
    try:
        return (build / DAMAGED_NAME).read_bytes().decode("utf-8", "replace") or "damaged"
    except OSError:
        return None


def build_files(build: Path, generation: int, toc: str, segments: Sequence[str]) -> dict[str, FileId]:
    """The files one generation of a build reads, with their stat, to tell later whether any changed: its
    table of contents `toc`, its segments' files (names starting with one of `segments`) and its state.

    Other generations' files are left out: a commit by another process writes the next generation's, and
    then removes the previous one's, while a reader may have either open.
    """
    state = re.compile(rf"^(manifest|snapshot|hashes)-{generation}\.bin$")
    prefixes = tuple(segments)
    files: dict[str, FileId] = {}
    for name in _listdir(build):
        if name == toc or (prefixes and name.startswith(prefixes)) or state.match(name):
            with contextlib.suppress(OSError):
                info = os.stat(build / name)
                files[name] = (info.st_ino, info.st_size, info.st_mtime_ns)
    return files


def changed_files(build: Path, files: dict[str, FileId]) -> Changed | None:
    """Whether the files `build_files` saw are still as they were (one stat each), else how they changed.

    Papers never rewrites a file of a build: Whoosh commits new segment files and a new table of contents,
    and a generation's state files are replaced by rename (a new inode). So an index file that changed at
    all, or a state file that changed and kept its inode, was written in place by something else.
    """
    replaced = False
    for name, (inode, size, mtime) in files.items():
        try:
            info = os.stat(build / name)
        except OSError:
            return Changed.IN_PLACE
        if (info.st_ino, info.st_size, info.st_mtime_ns) == (inode, size, mtime):
            continue
        if info.st_ino == inode or not _STATE_FILE_RE.match(name):
            return Changed.IN_PLACE
        replaced = True
    return Changed.REPLACED if replaced else None


def _state_path(build: Path, kind: str, generation: int) -> Path:
    return build / f"{kind}-{generation}.bin"


def write_state(
    build: Path,
    manifest: Manifest,
    snapshot: bytes | Iterable[bytes | memoryview],
    hashes: dict[str, bytes],
    *,
    prune: bool = True,
) -> None:
    """Record one generation's snapshot (whole or in pieces), hashes and (last, as the commit marker) its
    manifest; with `prune`, then remove every other generation's (see `prune_state`)."""
    generation = manifest.generation
    parts = [snapshot] if isinstance(snapshot, bytes) else snapshot
    framed = itertools.chain([_SNAPSHOT_HEAD], parts, [_SNAPSHOT_TAIL])  # lazily: parts may be generated
    write_atomic(_state_path(build, "snapshot", generation), framed)
    write_atomic(_state_path(build, "hashes", generation), marshal.dumps(hashes, _MARSHAL_VERSION))
    body = (manifest.schema_version, generation, [_stamp_tuple(s) for s in manifest.files], manifest.papers)
    write_atomic(_state_path(build, "manifest", generation), marshal.dumps(body, _MARSHAL_VERSION))
    _fsync_dir(build)
    if prune:
        prune_state(build, generation)


def prune_state(build: Path, generation: int) -> None:
    """Remove the state of every generation but `generation`. An update writes the next generation's state
    before Whoosh's commit makes that generation visible and prunes only after it, so a reader of either
    generation finds its own snapshot whenever it looks."""
    for name in os.listdir(build):
        match = re.match(r"^(manifest|snapshot|hashes)-(\d+)\.bin$", name)
        if match and int(match.group(2)) != generation:
            with contextlib.suppress(OSError):
                (build / name).unlink()


def read_manifest(build: Path, generation: int) -> Manifest | None:
    """The manifest for `generation`, else the newest older one (an interrupted update), else None."""
    candidates = sorted(
        (
            int(m.group(1))
            for m in map(_STATE_RE.match, _listdir(build))
            if m and int(m.group(1)) <= generation
        ),
        reverse=True,
    )
    for number in candidates:
        try:
            schema_version, gen, files, papers = _load(_state_path(build, "manifest", number))
            return Manifest(schema_version, gen, tuple(FileStamp(*entry) for entry in files), papers)
        except (OSError, ValueError, EOFError, TypeError):
            continue
    return None


def map_snapshot(build: Path, generation: int) -> memoryview | None:
    """The snapshot's payload as a read-only memory map (nothing is read until a part is used), or None when
    it is missing, truncated or overwritten.

    Safe against a writer: snapshots are only ever replaced by rename, so the mapped file never changes.
    """
    try:
        with open(_state_path(build, "snapshot", generation), "rb") as handle:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):  # ValueError: an empty file cannot be mapped
        return None
    view = memoryview(mapped)
    if not (
        len(view) >= len(_SNAPSHOT_HEAD) + len(_SNAPSHOT_TAIL)
        and view[: len(_SNAPSHOT_HEAD)] == _SNAPSHOT_HEAD
        and view[len(view) - len(_SNAPSHOT_TAIL) :] == _SNAPSHOT_TAIL
    ):
        return None
    return view[len(_SNAPSHOT_HEAD) : len(view) - len(_SNAPSHOT_TAIL)]


def snapshot_head(build: Path, generation: int, size: int) -> bytes:
    """The first `size` payload bytes of a snapshot (its format header), or b"" when it cannot be read."""
    try:
        with open(_state_path(build, "snapshot", generation), "rb") as handle:
            return handle.read(len(_SNAPSHOT_HEAD) + size)[len(_SNAPSHOT_HEAD) :]
    except OSError:
        return b""


def snapshot_intact(build: Path, generation: int) -> bool:
    """A cheap check (two small reads) that a snapshot was written whole: its head and its tail are there."""
    try:
        with open(_state_path(build, "snapshot", generation), "rb") as handle:
            head = handle.read(len(_SNAPSHOT_HEAD))
            handle.seek(0, os.SEEK_END)
            if handle.tell() < len(_SNAPSHOT_HEAD) + len(_SNAPSHOT_TAIL):
                return False
            handle.seek(-len(_SNAPSHOT_TAIL), os.SEEK_END)
            return head == _SNAPSHOT_HEAD and handle.read() == _SNAPSHOT_TAIL
    except OSError:
        return False


def read_hashes(build: Path, generation: int) -> dict[str, bytes]:
    try:
        hashes = _load(_state_path(build, "hashes", generation))
    except (OSError, ValueError, EOFError, TypeError):
        return {}
    return hashes if isinstance(hashes, dict) else {}


def _stamp_tuple(entry: FileStamp) -> tuple[str, int, int, str]:
    return (entry.path, entry.size, entry.mtime_ns, entry.digest)


def _load(path: Path) -> Any:
    return marshal.loads(path.read_bytes())


def _listdir(path: Path) -> Iterator[str]:
    try:
        yield from os.listdir(path)
    except OSError:
        return


def _fsync_dir(path: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(path, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def publish(index_dir: Path) -> int:
    """Make a shared index readable, and not writable, by every user: directories 0755, files 0644.

    An admin builds the index once for everyone; readers open it read-only (they cannot take the writer
    lock) and never build a private copy. Returns how many paths were changed.
    """
    changed = 0
    for root, dirs, files in os.walk(index_dir):
        for name, mode in (
            [(root, 0o755)]
            + [(os.path.join(root, d), 0o755) for d in dirs]
            + [(os.path.join(root, f), 0o644) for f in files]
        ):
            try:
                if os.lstat(name).st_mode & 0o777 != mode and not os.path.islink(name):
                    os.chmod(name, mode)
                    changed += 1
            except FileNotFoundError:
                continue  # a stale build removed while walking
    return changed
