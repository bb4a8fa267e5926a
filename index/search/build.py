"""Writing Whoosh segments: the two-process full build and the incremental upsert, both with progress.

Part of the search module. A full build splits the papers in two: this process indexes the first half while a
forked child renders and indexes the second into its own segment in the same directory; the parent then
commits one TOC naming both segments (what Whoosh's MpWriter does with multisegment=True, minus its job queue,
whose children hang forever when the parent is SIGKILLed). The child asks the kernel to kill it with
its parent.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import os
import pickle
import signal
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.filedb.filestore import FileStorage
from whoosh.writing import SegmentWriter

from index.models import Paper
from index.render.abstract import to_plain
from index.search.schema import build_schema, document

Progress = Callable[[int, int], None]

LIMIT_MB = 256
"""Posting pool memory per writer before it spills a run to disk: one run for 28k abstracts, no merge pass."""
PARALLEL_MIN = 4000
"""Below this a second process costs more (fork, a second segment) than it saves."""
_PROGRESS_EVERY = 200
_CHILD_RESULT = "child-segment.pickle"


class BuildError(Exception):
    """The index could not be written (the child failed, the disk is full): a one-line message."""


def build(directory: Path, papers: Sequence[Paper], progress: Progress | None, workers: int) -> None:
    """Create a fresh index of `papers` in the empty `directory` and commit it once."""
    storage = FileStorage(str(directory))
    ix = storage.create_index(build_schema())
    total = len(papers)
    split = total // 2 if workers > 1 and total >= PARALLEL_MIN else total
    counter: Any = None
    child = None
    if split < total:
        ctx = multiprocessing.get_context("fork")
        counter = ctx.Value("q", 0, lock=False)
        child = ctx.Process(target=_child_build, args=(directory, papers[split:], counter), daemon=True)
        child.start()
    writer = ix.writer(limitmb=LIMIT_MB)
    try:
        done = 0
        for done, paper in enumerate(papers[:split], 1):
            writer.add_document(**document(paper, to_plain(paper.abstract)))
            if progress is not None and done % _PROGRESS_EVERY == 0:
                progress(done + (counter.value if counter is not None else 0), total)
        if child is None:
            writer.commit()
        else:
            # Finish this half's segment while the child finishes its own: both sort and write at once.
            # (private Whoosh API, used the same way by whoosh.multiproc.MpWriter)
            own = writer._finalize_segment() if writer._added else None
            while child.is_alive():
                child.join(0.25)
                if progress is not None:
                    progress(done + counter.value, total)
            if child.exitcode != 0:
                raise BuildError(f"the second indexing process failed (exit code {child.exitcode})")
            with open(directory / _CHILD_RESULT, "rb") as handle:
                child_segment = pickle.load(handle)
            if own is None:
                writer._close_segment()
            writer._commit_toc([segment for segment in (own, child_segment) if segment is not None])
            writer._finish()
            os.unlink(directory / _CHILD_RESULT)
    except BaseException:
        with contextlib.suppress(Exception):
            writer.cancel()
        if child is not None and child.is_alive():
            child.kill()
        raise
    if progress is not None:
        progress(total, total)


def _child_build(directory: Path, papers: Sequence[Paper], counter: Any) -> None:
    """Runs in the forked child: index `papers` into a segment of its own and hand it back as a pickle."""
    _die_with_parent()
    ix = FileStorage(str(directory)).open_index()
    writer = SegmentWriter(ix, _lk=False, limitmb=LIMIT_MB)
    for done, paper in enumerate(papers, 1):
        writer.add_document(**document(paper, to_plain(paper.abstract)))
        if done % _PROGRESS_EVERY == 0:
            counter.value = done
    segment = writer._finalize_segment()
    counter.value = len(papers)
    tmp = directory / f".{_CHILD_RESULT}.tmp"
    with open(tmp, "wb") as handle:
        pickle.dump(segment, handle)
    os.replace(tmp, directory / _CHILD_RESULT)


def _die_with_parent() -> None:
    """PR_SET_PDEATHSIG: a build killed with SIGKILL must not leave a child indexing into a dead directory."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
        if os.getppid() == 1:
            os._exit(1)


def upsert(
    ix: Any,
    changed: Sequence[Paper],
    new_ids: set[str],
    removed: Sequence[str],
    progress: Progress | None,
    timeout: float = 30.0,
) -> None:
    """Apply one incremental change as a single Whoosh commit (a new generation, or nothing on a kill)."""
    writer = ix.writer(timeout=timeout, limitmb=128)
    try:
        for paper_id in removed:
            writer.delete_by_term("id", paper_id)
        total = len(changed)
        for done, paper in enumerate(changed, 1):
            fields = document(paper, to_plain(paper.abstract))
            # add_document for ids the index never had skips update_document's lexicon lookup and delete.
            (writer.add_document if paper.id in new_ids else writer.update_document)(**fields)
            if progress is not None and done % _PROGRESS_EVERY == 0:
                progress(done, total)
        writer.commit()
    except BaseException:
        with contextlib.suppress(Exception):
            writer.cancel()
        raise
    if progress is not None:
        progress(len(changed), len(changed))


def open_reader_index(directory: Path) -> Any:
    """Open a build for reading only: no lock file is ever created, so a read-only shared index works."""
    return windex.open_dir(str(directory), readonly=True)


def open_writer_index(directory: Path) -> Any:
    return windex.open_dir(str(directory))


def wait_seconds(start: float) -> float:
    return round(time.monotonic() - start, 2)
