"""Writing Whoosh segments: the two-process full build and the incremental upsert, both with progress.

Part of the search module. A full build splits the papers in two: this process indexes the first half while a
child renders and indexes the second into its own segment in the same directory; the parent then
commits one TOC naming both segments (what Whoosh's MpWriter does with multisegment=True, minus its job queue,
whose children hang forever when the parent is SIGKILLed). The child asks the kernel to kill it with
its parent. The child is forked only from a process with one thread (`papers index`); from a threaded one
(the reader, whose build runs in a worker thread) it is a fresh `python -m index.search.build`: a forked copy
of a thread pool's worker fails at exit (concurrent.futures joins its own thread, exit code 1) and may
inherit a lock another thread held, and multiprocessing's spawn needs a real `sys.stderr`, which Textual
replaces while the app runs.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import multiprocessing
import os
import pickle
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from whoosh import index as windex
from whoosh.filedb.filestore import FileStorage

from index.headline.pipeline import BATCH
from index.listings.catalog import plain_headlines
from index.models import Paper
from index.render.abstract import to_plain
from index.search.fastwrite import FastSegmentWriter
from index.search.schema import build_schema, document

Progress = Callable[[int, int], None]

LIMIT_MB = 768
"""Posting pool memory per writer (Whoosh's estimate; about 3/4 of it is real) before it spills a sorted run
to disk. Half of 56k abstracts needs ~530 MB: one run, no merge pass, which would double the commit."""
LARGE_BUILD = 80_000
LARGE_LIMIT_MB = 256
"""The pool of a build above LARGE_BUILD papers, which spills runs whatever the pool's size: a small one
keeps the peak of a 250k build (catalog ~500 MB, pool, snapshot) under 2 GB."""
PARALLEL_MIN = 4000
"""Below this a second process costs more (fork, a second segment) than it saves."""
_PROGRESS_EVERY = 200
_CHILD_RESULT = "child-segment.pickle"
_CHILD_INPUT = "child-papers.pickle"
_CHILD_PROGRESS = "child-progress"
_CHILD_LOG = "child-stderr.log"


class BuildError(Exception):
    """The index could not be written (the child failed, the disk is full): a one-line message."""


def build(directory: Path, papers: Sequence[Paper], progress: Progress | None, workers: int) -> list[str]:
    """Create a fresh index of `papers` in the empty `directory` and commit it once.

    A paper with an empty headline gets one here, from the abstract rendered for indexing anyway: each process
    synthesizes the headlines of its own half, where loading the catalog with them would do it all in one.

    Returns:
        Every paper's headline, in the order of `papers`.
    """
    storage = FileStorage(str(directory))
    ix = storage.create_index(build_schema())
    total = len(papers)
    split = total // 2 if workers > 1 and total >= PARALLEL_MIN else total
    limit = LIMIT_MB if total <= LARGE_BUILD else LARGE_LIMIT_MB
    child: Any = None
    counter: Any = None
    if split < total:
        child, counter = _start_child(directory, papers[split:], limit)
    writer = FastSegmentWriter(ix, limitmb=limit)
    headlines: list[str] = []
    try:
        done = 0
        for done, fields in enumerate(_documents(papers[:split], headlines), 1):
            writer.add_document(**fields)
            if progress is not None and done % _PROGRESS_EVERY == 0:
                progress(done + (counter.value if counter is not None else 0), total)
        if child is None:
            writer.commit()
        else:
            headlines += _commit_with_child(
                writer, directory, child, lambda: done + counter.value, progress, total
            )
            os.unlink(directory / _CHILD_RESULT)
    except BaseException:
        with contextlib.suppress(Exception):
            writer.cancel()
        if child is not None and child.is_alive():
            child.kill()
        raise
    finally:
        if isinstance(child, _Subprocess):
            child.close()
    if progress is not None:
        progress(total, total)
    return headlines


def start_method() -> str:
    """How the second process starts: forked (it shares the papers' pages) only when this process has one
    thread, else as a fresh interpreter (see the module's docstring)."""
    return "fork" if threading.active_count() == 1 else "subprocess"


def _start_child(directory: Path, papers: Sequence[Paper], limit: int) -> tuple[Any, Any]:
    """Start the process that indexes `papers` into a segment of its own; returns it and its progress."""
    if start_method() == "subprocess":
        started = _Subprocess(directory, papers, limit)
        return started, started.counter
    ctx = multiprocessing.get_context("fork")
    counter = ctx.Value("q", 0, lock=False)
    child = ctx.Process(target=_child_build, args=(directory, papers, counter, limit), daemon=True)
    # What exists at the fork is never garbage: frozen, no collection in the child walks (so writes to,
    # so copies) the parent's pages of papers; the parent takes its objects back at once.
    gc.freeze()
    try:
        child.start()
    finally:
        gc.unfreeze()
    return child, counter


class _Counter:
    """A progress count in a file of the build (8 bytes): the child writes it, the parent reads it."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

    @property
    def value(self) -> int:
        data = os.pread(self._fd, 8, 0)
        return int.from_bytes(data, "little") if len(data) == 8 else 0

    @value.setter
    def value(self, done: int) -> None:
        os.pwrite(self._fd, done.to_bytes(8, "little"), 0)

    def close(self) -> None:
        os.close(self._fd)


class _Subprocess:
    """The second process as `python -m index.search.build DIR LIMIT PARENT_PID`, with the interface of
    multiprocessing's Process that the build uses; its papers go through a pickle in the build."""

    def __init__(self, directory: Path, papers: Sequence[Paper], limit: int) -> None:
        with open(directory / _CHILD_INPUT, "wb") as handle:
            pickle.dump(list(papers), handle, protocol=pickle.HIGHEST_PROTOCOL)
        self.counter = _Counter(directory / _CHILD_PROGRESS)
        self._log_path = directory / _CHILD_LOG
        with open(self._log_path, "wb") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", __name__, str(directory), str(limit), str(os.getpid())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=log,
                close_fds=True,
            )

    def is_alive(self) -> bool:
        return self._process.poll() is None

    def join(self, timeout: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._process.wait(timeout)

    def kill(self) -> None:
        self._process.kill()
        self._process.wait()

    @property
    def exitcode(self) -> int | None:
        return self._process.poll()

    def last_error(self) -> str:
        """The child's last line on stderr (its exception), for the parent's one-line message."""
        with contextlib.suppress(OSError):
            lines = self._log_path.read_text(errors="replace").strip().splitlines()
            return lines[-1] if lines else ""
        return ""

    def close(self) -> None:
        self.counter.close()
        for name in (_CHILD_INPUT, _CHILD_PROGRESS, _CHILD_LOG):
            with contextlib.suppress(OSError):
                os.unlink(self._log_path.parent / name)


def _commit_with_child(
    writer: FastSegmentWriter,
    directory: Path,
    child: Any,
    done: Callable[[], int],
    progress: Progress | None,
    total: int,
) -> list[str]:
    """Finish this half's segment while the child finishes its own (both sort and write at once), then commit
    one TOC naming both (as Whoosh's MpWriter does); returns the headlines the child made."""
    own = writer.finish_segment()
    while child.is_alive():
        child.join(0.25)
        if progress is not None:
            progress(done(), total)
    if child.exitcode != 0:
        why = child.last_error() if isinstance(child, _Subprocess) else ""
        raise BuildError(
            f"the second indexing process failed (exit code {child.exitcode}{': ' + why if why else ''})"
        )
    with open(directory / _CHILD_RESULT, "rb") as handle:
        child_segment, child_headlines = pickle.load(handle)
    writer.commit_segments([segment for segment in (own, child_segment) if segment is not None])
    headlines: list[str] = child_headlines
    return headlines


def _documents(papers: Sequence[Paper], headlines: list[str]) -> Iterator[dict[str, Any]]:
    """Each paper's fields, its abstract rendered once; its headline (made if empty) joins `headlines`.

    The missing headlines are made a model batch (`BATCH` papers) at a time, in one call each: the same lines
    as one at a time, in about a quarter of the time.
    """
    for start in range(0, len(papers), BATCH):
        chunk = papers[start : start + BATCH]
        plains = [to_plain(paper.abstract) for paper in chunk]
        missing = [number for number, paper in enumerate(chunk) if not paper.headline]
        made = iter(plain_headlines([plains[n] for n in missing], [chunk[n].title for n in missing]))
        for paper, plain in zip(chunk, plains, strict=True):
            if not paper.headline:
                paper = replace(paper, headline=next(made))
            headlines.append(paper.headline)
            yield document(paper, plain)


def _child_build(directory: Path, papers: Sequence[Paper], counter: Any, limit: int) -> None:
    """Runs in the child: index `papers` into a segment of its own and hand it back as a pickle."""
    _die_with_parent()
    ix = FileStorage(str(directory)).open_index()
    writer = FastSegmentWriter(ix, lock=False, limitmb=limit)
    headlines: list[str] = []
    for done, fields in enumerate(_documents(papers, headlines), 1):
        writer.add_document(**fields)
        if done % _PROGRESS_EVERY == 0:
            counter.value = done
    segment = writer.finish_segment()
    counter.value = len(papers)
    tmp = directory / f".{_CHILD_RESULT}.tmp"
    with open(tmp, "wb") as handle:
        pickle.dump((segment, headlines), handle)
    os.replace(tmp, directory / _CHILD_RESULT)


def _die_with_parent(parent: int | None = None) -> None:
    """PR_SET_PDEATHSIG: a build killed with SIGKILL must not leave a child indexing into a dead directory."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
        if os.getppid() == 1 or (parent is not None and os.getppid() != parent):
            os._exit(1)


def _subprocess_main(args: Sequence[str]) -> None:
    """The started child (`_Subprocess`): its papers from the pickle the parent wrote, then `_child_build`."""
    directory, limit, parent = Path(args[0]), int(args[1]), int(args[2])
    _die_with_parent(parent)
    with open(directory / _CHILD_INPUT, "rb") as handle:
        papers: list[Paper] = pickle.load(handle)
    counter = _Counter(directory / _CHILD_PROGRESS)
    _child_build(directory, papers, counter, limit)


def upsert(
    ix: Any,
    changed: Sequence[Paper],
    new_ids: set[str],
    removed: Sequence[str],
    progress: Progress | None,
    plains: Mapping[str, str] | None = None,
    timeout: float = 30.0,
    before_commit: Callable[[int], None] | None = None,
) -> None:
    """Apply one incremental change as a single Whoosh commit (a new generation, or nothing on a kill).

    `plains`: rendered abstracts by paper id already made (for new headlines), so none is rendered twice.
    `before_commit`: called with the generation about to be committed, before its table of contents makes
    it visible, so what a reader needs beside it (the generation's snapshot) is there when it opens it.
    """
    writer = FastSegmentWriter(ix, timeout=timeout, limitmb=128)
    try:
        for paper_id in removed:
            writer.delete_by_term("id", paper_id)
        total = len(changed)
        for done, paper in enumerate(changed, 1):
            plain = plains.get(paper.id) if plains is not None else None
            fields = document(paper, to_plain(paper.abstract) if plain is None else plain)
            # add_document for ids the index never had skips update_document's lexicon lookup and delete.
            (writer.add_document if paper.id in new_ids else writer.update_document)(**fields)
            if progress is not None and done % _PROGRESS_EVERY == 0:
                progress(done, total)
        if before_commit is not None:
            before_commit(int(writer.generation))
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


if __name__ == "__main__":
    _subprocess_main(sys.argv[1:])
