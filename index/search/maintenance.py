"""Keeping one index directory usable and current: opening it, judging freshness, building and updating.

Whoever builds or updates an index holds its `IndexMaintenance` (`Library`, and through it `papers index`
and the reader's build worker); a `SearchIndex` (index.py) reads through the same one's `searcher`, under
its lock. Nothing here ranks, highlights or decodes a paper.
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from index.listings.catalog import load_catalog, no_headline, with_headlines
from index.listings.reader import expand_paths
from index.models import Catalog
from index.search import build as whoosh_build
from index.search import layout, snapshot, snapshot_encode, whoosh_private
from index.search.answers import UpdateReport
from index.search.carry import carry_headlines
from index.search.layout import Manifest, WriterLock
from index.search.schema import SCHEMA_VERSION, content_hash, weighting
from index.search.splice import Spliced, splice

BUILD_WAIT = 600.0
"""How long a process with no index at all waits for another one that is building it."""


CHANGED_IN_PLACE = "its files were changed in place, not by papers"
MOSTLY_NEW = 0.5
"""Below this share of the listings' bytes carried over, an update is a full build instead (`_mostly_new`)."""


class IndexUnavailable(Exception):
    """No usable index and none can be built here: a one-line message for the user."""


class IndexWriteFailed(IndexUnavailable):
    """The disk refused the index's files (full, read-only, over quota): nothing half-written is left, and
    the previous index, when there is one (`kept`), is still the one searched."""

    def __init__(self, message: str, *, kept: bool) -> None:
        super().__init__(message)
        self.kept = kept


_DISK_REFUSED = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO}
"""OSErrors that mean the index's disk takes no more writes, as opposed to a listing that cannot be read."""


class IndexMaintenance:
    """One index directory, opened for reading; writes go through the lock and a fresh build or a commit.

    Args:
        index_dir: the directory (`current` names the live build inside it).
    """

    def __init__(self, index_dir: Path) -> None:
        self.lock = threading.RLock()
        """Held by whoever reads through `searcher` (the owner's searches) and by every reopen and close:
        Whoosh's readers seek and read shared file handles, so two threads reading at once get each
        other's bytes, and a reopen closes the handles a search is reading."""
        self.index_dir = index_dir
        self.read_only = not layout.writable(index_dir)
        self.notices: list[str] = []
        self.ix: Any = None
        """The open Whoosh index, None when there is none (or it is damaged: see `_broken`)."""
        self.searcher: Any = None
        """A searcher of `ix`'s generation; replaced on every reopen."""
        self._reopen_hooks: list[Callable[[], None]] = []
        self.opened = 0
        """How many times the directory has been (re)opened: a caller holding papers read at an earlier
        opening knows they may no longer be what is searched."""
        self._token: str | None = None
        self._build: Path | None = None
        self._broken: str | None = None
        self._snapshot: snapshot.Snapshot | None = None
        self._open_generation = -1
        self._files: dict[str, layout.FileId] = {}
        """The live build's files as opened (`layout.build_files`): what `refresh` compares the disk with."""
        self._changed: tuple[str | None, int] | None = None
        """The (build, generation) found changed in place: not to be trusted again, whatever opens."""

    # ----- opening and freshness -------------------------------------------------------------------------

    def on_reopen(self, hook: Callable[[], None]) -> None:
        """Call `hook` after every (re)open, so a reader of this directory drops what it cached for the
        previous generation (`SearchIndex`)."""
        self._reopen_hooks.append(hook)

    @classmethod
    def open(cls, index_dir: Path) -> IndexMaintenance:
        """Whatever index `index_dir` holds, open (possibly none yet: see `ensure_current`); never writes."""
        opened = cls(index_dir)
        opened.reopen()
        return opened

    def reopen(self) -> None:
        """Open whatever the directory holds now (possibly nothing yet); never writes."""
        with self.lock:
            self._reopen()

    def _reopen(self) -> None:
        self.close()
        self._snapshot = None
        self._token = layout.current_token(self.index_dir)
        self._build = layout.current_build(self.index_dir)
        self._broken = None
        self._files = {}
        if self._build is not None:
            self._open_build(self._build)
        marked = layout.damage_mark(self._build) if self._build is not None else None
        if self.ix is not None and (marked or self._changed == (self._token, self._generation())):
            self.close()
            self._broken = marked or CHANGED_IN_PLACE
        self.opened += 1
        for hook in self._reopen_hooks:
            hook()

    def _open_build(self, build: Path) -> None:
        """Open `build`'s newest generation and note the files that generation reads, as they are now.

        Only that generation's files: another process's commit writes the next generation's files and then
        removes the previous one's while this reader may have either open, and `refresh` would take a file
        of another generation that came or went for this one changed in place.
        """
        try:
            self.ix = whoosh_build.open_reader_index(build)
            self.searcher = self.ix.searcher(weighting=weighting())
            opened = self.searcher.reader().generation()  # None for an index without a segment
            self._open_generation = int(self.ix.latest_generation() if opened is None else opened)
            toc, segments = whoosh_private.generation_files(self.ix, self.searcher)
            self._files = layout.build_files(build, self._open_generation, toc, segments)
        except Exception as error:  # any damage (missing segment, bad TOC, unpickling) means: rebuild
            self.close()
            self._broken = f"{type(error).__name__}: {error}".splitlines()[0][:160]

    def refresh(self) -> None:
        """Pick up a rebuild (`current` moved) or another process's commit (one readlink + one listdir), and
        notice the live build's files changed in place (a stat each), which papers itself never does.

        Raises:
            IndexUnavailable: there is no usable index to search.
        """
        with self.lock:
            if layout.current_token(self.index_dir) != self._token:
                self._reopen()
            elif self.searcher is not None and not self.searcher.up_to_date():
                # A fresh searcher, not searcher.refresh(): refresh() reuses segment readers and can miss
                # deletions committed to an existing segment (an update that removed papers).
                self._reopen()
            elif self._build is not None and (moved := layout.changed_files(self._build, self._files)):
                if moved is layout.Changed.IN_PLACE and self._same_generation():
                    # Overwritten, truncated or removed under this reader: what it answers from is not what
                    # was built, and may answer nothing at all, so it is not searched until rebuilt.
                    self._found_damaged(CHANGED_IN_PLACE)
                self._reopen()  # else another papers process committed or rewrote this generation's state
        if self.ix is None:
            raise IndexUnavailable(
                f"no usable search index in {self.index_dir}"
                + (f" ({self._broken})" if self._broken else "")
                + "; run `papers index`"
            )

    def _same_generation(self) -> bool:
        """Whether the live build and its generation are still the ones open: files that went away with a
        commit made meanwhile by another process were not changed in place."""
        return layout.current_token(self.index_dir) == self._token and (
            self.searcher is None or self.searcher.up_to_date()
        )

    @property
    def exists(self) -> bool:
        return self.ix is not None

    def unreadable(self, error: Exception) -> IndexUnavailable:
        """An error reading the index (a damaged file Whoosh trips on): it is not searched again until
        rebuilt, and the error for the user says so."""
        reason = f"{type(error).__name__}: {error}".splitlines()[0][:160]
        with self.lock:
            self._found_damaged(reason)
            self._reopen()
        # No advice here: the reader rebuilds it now, and the next command finds the mark and rebuilds it.
        return IndexUnavailable(f"the search index in {self.index_dir} cannot be read ({reason})")

    def _found_damaged(self, reason: str) -> None:
        """This build is not searched again until rebuilt: by this process, and by the next one (a mark in
        the build, when it may be written), which would otherwise open it and answer from it again."""
        self._changed = (self._token, self._generation())
        if self._build is not None and not self.read_only:
            layout.mark_damaged(self._build, reason)

    def damaged(self) -> IndexUnavailable:
        """The error for a stored snapshot that cannot be decoded (the fix is a rebuild)."""
        return IndexUnavailable(
            f"the search index in {self.index_dir} is damaged; rebuild it: papers index --rebuild"
        )

    def load_snapshot(self) -> snapshot.Snapshot | None:
        """This generation's papers without reading a listing: the list columns now, each paper on first use.

        None when there is no index; raises IndexUnavailable when the stored snapshot is damaged or of an
        older format (`staleness` reports that, and `ensure_current` re-encodes it).
        """
        with self.lock:
            if self._snapshot is None and self._build is not None and self.ix is not None:
                manifest = self._manifest()
                data = layout.map_snapshot(self._build, manifest.generation) if manifest else None
                self._snapshot = snapshot.Snapshot.open(data) if data is not None else None
                if self._snapshot is None:
                    raise self.damaged()
            return self._snapshot

    def _stored_headlines(self) -> dict[str, str]:
        """This generation's headlines by paper id; empty when a full build is due or its snapshot is missing
        or of another format (then every headline is made again)."""
        manifest = self._manifest() if self._full_build_reason() is None else None
        if manifest is None or self._build is None:
            return {}
        data = layout.map_snapshot(self._build, manifest.generation)
        stored = snapshot.Snapshot.open(data) if data is not None else None
        return dict(zip(stored.ids, stored.made, strict=True)) if stored is not None else {}

    def _generation(self) -> int:
        """The generation open (not the newest on disk: another process may have committed since, and its
        snapshot is not the one that matches what this process searches)."""
        return self._open_generation if self.ix is not None else -1

    def _manifest(self) -> Manifest | None:
        if self._build is None or self.ix is None:
            return None
        return layout.read_manifest(self._build, self._generation())

    def _full_build_reason(self) -> str | None:
        if self._broken is not None:
            return f"the index in {self.index_dir} was unreadable ({self._broken})"
        if self.ix is None:
            return "no index yet"
        manifest = self._manifest()
        if manifest is None:
            return "the index has no manifest"
        if manifest.schema_version != SCHEMA_VERSION:
            return f"the index format changed (version {manifest.schema_version} -> {SCHEMA_VERSION})"
        if self._build is not None and not layout.snapshot_intact(self._build, manifest.generation):
            self._broken = "its catalog snapshot is damaged"
            return f"the index in {self.index_dir} was unreadable ({self._broken})"
        return None

    def format_changed(self) -> bool:
        """Whether the index was written by another version of the schema (it is rebuilt on first use)."""
        if self._broken is not None or self.ix is None:
            return False
        manifest = self._manifest()
        return manifest is not None and manifest.schema_version != SCHEMA_VERSION

    def staleness(self, listing_paths: Sequence[Path]) -> str | None:
        """Why the index does not reflect `listing_paths` (stat first, digest only moved files), or None."""
        reason = self._full_build_reason()
        if reason is not None:
            return reason
        manifest = self._manifest()
        assert manifest is not None
        if manifest.generation != self._generation():
            return "an earlier update was interrupted"
        assert self._build is not None
        head = layout.snapshot_head(self._build, manifest.generation, snapshot.HEAD_SIZE)
        if snapshot.format_of(head) != snapshot_encode.FORMAT:
            return "the stored catalog has an older format"
        diff = layout.diff_files(manifest.files, _listing_files(listing_paths))
        if diff.clean:
            return None
        parts = [
            f"{len(v)} {k}"
            for k, v in (("added", diff.added), ("changed", diff.changed), ("removed", diff.removed))
            if v
        ]
        return "listing files " + ", ".join(parts)

    def ensure_current(
        self, listing_paths: Sequence[Path], progress: whoosh_build.Progress | None = None
    ) -> UpdateReport | None:
        """Bring the index up to date with the listings if needed and possible; first use builds it.

        A read-only index is used as is (with a notice when stale); when another process holds the lock, the
        previous index is searched, or, when there is none, this waits for the other build to finish.
        """
        reason = self.staleness(listing_paths)
        if reason is None:
            return None
        if self.read_only:
            if self.ix is None:
                raise IndexUnavailable(
                    f"no usable search index in {self.index_dir} ({reason}) and the directory is not "
                    "writable; ask its owner to run `papers index`, or pass --index-dir DIR"
                )
            self.notices.append(
                f"the index in {self.index_dir} is older than the listings ({reason}); searching it as is"
            )
            return None
        lock = WriterLock.try_acquire(self.index_dir)
        if lock is None:
            if self.ix is not None:
                self.notices.append(
                    "another papers process is updating the index; searching the previous one"
                )
                return None
            lock = self._wait_for_lock("building")
        with lock, self._writing():
            self.reopen()
            if self.staleness(listing_paths) is None:
                return None
            mostly_new = self._mostly_new(listing_paths)
            if mostly_new is not None:
                return self._apply(load_catalog(listing_paths, no_headline), progress, mostly_new)
            spliced = self._splice(listing_paths, progress)
            if spliced is not None:
                return spliced
            # No headline is made here: a full build makes them in its two processes while indexing, an
            # update takes the stored ones and makes only those of new or changed papers (`carry_headlines`).
            stored = self._stored_headlines()
            catalog = load_catalog(listing_paths, no_headline, stored)
            return self._apply(catalog, progress, rebuild_reason=None, stored=stored)

    def _mostly_new(self, listing_paths: Sequence[Path]) -> str | None:
        """Why to build afresh rather than update: most of the indexed listings are gone or most of the
        listings are new (other listings under the same paths), where a full build in two processes is
        much faster than adding papers one by one to the old index and deleting its papers. None otherwise;
        stat only."""
        manifest = self._manifest()
        if manifest is None or self._full_build_reason() is not None:
            return None
        kept = layout.kept_share(manifest.files, _listing_files(listing_paths))
        if kept >= MOSTLY_NEW:
            return None
        return f"only {kept:.0%} of the listings are as indexed"

    # ----- writing ---------------------------------------------------------------------------------------

    def update(self, catalog: Catalog, progress: whoosh_build.Progress | None = None) -> UpdateReport:
        """Make the index match `catalog`, re-indexing only papers whose content changed (or rebuilding)."""
        return self._locked_apply(catalog, progress, None)

    def rebuild(self, catalog: Catalog, progress: whoosh_build.Progress | None = None) -> UpdateReport:
        """Build a fresh index of `catalog` beside the live one and swap it in atomically."""
        return self._locked_apply(catalog, progress, "rebuild requested")

    def _locked_apply(
        self, catalog: Catalog, progress: whoosh_build.Progress | None, reason: str | None
    ) -> UpdateReport:
        if self.read_only:
            raise IndexUnavailable(f"the index directory {self.index_dir} is not writable")
        with self._wait_for_lock("updating"), self._writing():
            self.reopen()
            return self._apply(catalog, progress, reason)

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """A write the disk refuses becomes one line saying what is still searched (the build and commit
        paths leave nothing half-written behind them)."""
        try:
            yield
        except OSError as error:
            if error.errno not in _DISK_REFUSED:
                raise
            kept = self.ix is not None
            then = "the previous index is still in use" if kept else "there is no index yet"
            room = "; free some space, or" if error.errno in (errno.ENOSPC, errno.EDQUOT) else "; "
            raise IndexWriteFailed(
                f"cannot write the index in {self.index_dir} ({error.strerror or error}): {then}"
                f"{room} pass --index-dir DIR",
                kept=kept,
            ) from error

    def _wait_for_lock(self, doing: str) -> WriterLock:
        """The writer lock, waiting up to BUILD_WAIT for another process that is `doing` the same."""
        lock = WriterLock.acquire(self.index_dir, BUILD_WAIT)
        if lock is None:
            raise IndexUnavailable(
                f"another papers process is still {doing} the index; try again in a minute"
            )
        return lock

    def _apply(
        self,
        catalog: Catalog,
        progress: whoosh_build.Progress | None,
        rebuild_reason: str | None,
        stored: Mapping[str, str] | None = None,
    ) -> UpdateReport:
        """Under the lock: a full build when needed (or asked), else one incremental commit.

        `stored`: the stored headlines `catalog` was loaded with, if any; papers with an empty headline get
        one made (by the full build's indexers, or by `carry_headlines`).
        """
        start = time.monotonic()
        stamps = _stamps(catalog, self._manifest())
        reason = rebuild_reason or self._full_build_reason()
        if reason is not None:
            if self._broken is not None:
                self.notices.append(f"{reason}; rebuilding it")
            # Under the lock: a build-N other than the live one was left by a killed builder; none is kept.
            layout.remove_stale_builds(self.index_dir, [self._build] if self._build else [])
            build = layout.new_build_dir(self.index_dir)
            try:
                headlines = whoosh_build.build(
                    build, catalog.papers, progress, workers=min(2, os.cpu_count() or 1)
                )
                catalog = with_headlines(catalog, headlines)
                hashes = {paper.id: content_hash(paper) for paper in catalog.papers}
                generation = whoosh_build.open_reader_index(build).latest_generation()
                manifest = Manifest(SCHEMA_VERSION, generation, stamps, len(catalog.papers))
                shown = snapshot_encode.shown_lines(catalog)
                parts = snapshot_encode.encode_parts(catalog, shown)
                layout.write_state(build, manifest, parts, hashes)
                previous = self._build
                layout.swap_current(self.index_dir, build)
            except BaseException:  # a failed or cancelled build leaves no half-written directory
                if layout.current_token(self.index_dir) != build.name:
                    shutil.rmtree(build, ignore_errors=True)
                raise
            layout.remove_stale_builds(self.index_dir, [build] + ([previous] if previous else []))
            counts = (len(catalog.papers), 0, 0)
        else:
            assert self._build is not None
            manifest_before = self._manifest()
            assert manifest_before is not None
            old = layout.read_hashes(self._build, manifest_before.generation)
            catalog, hashes, plains = carry_headlines(catalog, stored or {}, old)
            removed = [paper_id for paper_id in old if paper_id not in hashes]
            changed = [paper for paper in catalog.papers if old.get(paper.id) != hashes[paper.id]]
            new_ids = {paper.id for paper in changed if paper.id not in old}
            written = Spliced(changed, new_ids, removed, plains, hashes, [], (), len(catalog.papers))
            shown = snapshot_encode.shown_lines(catalog)
            counts = self._commit(written, stamps, snapshot_encode.encode_parts(catalog, shown), progress)
        self.reopen()
        # What was just written is in memory: the next `load_snapshot` need not map and decode it again.
        self._snapshot = snapshot.Snapshot.from_catalog(catalog, shown)
        return UpdateReport(
            *counts,
            seconds=round(time.monotonic() - start, 2),
            rebuilt=reason is not None,
            papers=len(catalog.papers),
            reason=reason or "",
        )

    def _commit(
        self,
        change: Spliced,
        stamps: tuple[layout.FileStamp, ...],
        parts: Iterable[snapshot_encode.Chunk],
        progress: whoosh_build.Progress | None,
    ) -> tuple[int, int, int]:
        """One incremental Whoosh commit (when anything changed), then the state that marks it done.

        Returns:
            Papers added, updated and removed.
        """
        assert self._build is not None
        before = set(os.listdir(self._build))
        generation_before = self._generation()
        build = self._build

        def write_state(generation: int, prune: bool) -> None:
            manifest = Manifest(SCHEMA_VERSION, generation, stamps, change.papers)
            layout.write_state(build, manifest, parts, change.hashes, prune=prune)

        try:
            if change.removed or change.changed:
                # The new generation's state is written before Whoosh's table of contents makes the generation
                # visible, and the old one's removed only after: a reader in another process that opens
                # either generation at any moment finds the snapshot that matches it (it once searched the
                # new generation with the old snapshot and answered nothing).
                writer_ix = whoosh_build.open_writer_index(build)
                whoosh_build.upsert(
                    writer_ix,
                    change.changed,
                    change.new_ids,
                    change.removed,
                    progress,
                    change.plains,
                    before_commit=lambda generation: write_state(generation, prune=False),
                )
                writer_ix.close()
                layout.prune_state(build, whoosh_build.open_reader_index(build).latest_generation())
            else:
                write_state(generation_before, prune=True)
        except OSError:
            # A full disk mid-commit, before Whoosh wrote its table of contents: the segment and state files
            # it began are no generation's, so they go and the live build is as it was (under the lock).
            if self.ix.latest_generation() == generation_before:
                for name in set(os.listdir(self._build)) - before:
                    with contextlib.suppress(OSError):
                        (self._build / name).unlink()
            raise
        added = len(change.new_ids)
        return (added, len(change.changed) - added, len(change.removed))

    def _splice(
        self, listing_paths: Sequence[Path], progress: whoosh_build.Progress | None
    ) -> UpdateReport | None:
        """Under the lock: the update by splicing the stored snapshot (see splice.py), or None when it does
        not apply (a full build is due, the previous update was interrupted, the snapshot is unreadable)."""
        start = time.monotonic()
        manifest = self._manifest() if self._full_build_reason() is None else None
        if manifest is None or manifest.generation != self._generation() or self._build is None:
            return None
        data = layout.map_snapshot(self._build, manifest.generation)
        stored = snapshot.Snapshot.open(data) if data is not None else None
        if stored is None:
            return None
        old = layout.read_hashes(self._build, manifest.generation)
        try:
            change = splice(stored, manifest.files, listing_paths, old)
        except snapshot.SnapshotDamaged:
            return None
        if change is None:
            return None
        stamps = layout.diff_files(manifest.files, [os.path.abspath(f) for f in change.files]).stamps
        counts = self._commit(change, stamps, change.parts, progress)
        papers = change.papers
        del change, stored, data  # the copied records point into the previous snapshot's mapping
        self.reopen()
        return UpdateReport(*counts, seconds=round(time.monotonic() - start, 2), rebuilt=False, papers=papers)

    def take_notices(self) -> list[str]:
        """One-line notices gathered so far (stale read-only index, rebuilt corrupt index), then cleared."""
        taken, self.notices = self.notices, []
        return taken

    def close(self) -> None:
        with self.lock:
            if self.searcher is not None:
                self.searcher.close()
            self.searcher = None
            self.ix = None


def _listing_files(listing_paths: Sequence[Path]) -> list[str]:
    files, _notices = expand_paths(listing_paths)
    return [os.path.abspath(path) for path in files]


def _stamps(catalog: Catalog, recorded: Manifest | None) -> tuple[layout.FileStamp, ...]:
    """Stamps of the catalog's listing files; a file whose size and mtime did not move keeps its recorded
    digest (hashing 160 unchanged files cost 0.1 s of every update)."""
    named = catalog.files or [listing.path for listing in catalog.listings]
    paths = [os.path.abspath(path) for path in named]
    return layout.diff_files(recorded.files if recorded is not None else (), paths).stamps
