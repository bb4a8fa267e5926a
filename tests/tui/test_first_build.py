"""The reader's own first build, from inside the running app: the real two-process path, its progress, the
search it enables, and what a failure leaves (a one-line message, no half-built directory, no held lock)."""

from __future__ import annotations

import re
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest
from whoosh.filedb.filestore import FileStorage

from index.library import Library
from index.library import papers as library_papers
from index.listings.catalog import load_catalog, no_headline
from index.search import build as whoosh_build
from index.search.layout import WriterLock
from tests.conftest import SEEDS, set_index_dir
from tests.tui.conftest import settle
from tests.tui.helpers import browse, reader, recorded_notices, status_text
from tui.browse.index_build import IndexBuilder


def _nothing_left_behind(index_dir: Path, live: set[str]) -> None:
    """Only the live build(s) remain, with no helper file of the child, and no lock is held."""
    builds = {path.name for path in index_dir.iterdir() if path.name.startswith("build-")}
    assert builds == live
    for name in builds:
        assert not [path.name for path in (index_dir / name).iterdir() if path.name.startswith("child-")]
        lock = FileStorage(str(index_dir / name)).lock("MAIN_WRITELOCK")
        assert lock.acquire(blocking=False), f"{name}'s Whoosh write lock is still held"
        lock.release()
    held = WriterLock.try_acquire(index_dir)
    assert held is not None, "the index directory's writer lock is still held"
    held.release()


def _spy_on_children(monkeypatch: pytest.MonkeyPatch, kill: bool = False) -> list[Any]:
    """The second processes the build starts (killed at once when `kill`, as a crash or the OOM killer)."""
    started: list[Any] = []
    real = whoosh_build._start_child

    def start(*args: Any) -> tuple[Any, Any]:
        child, counter = real(*args)
        started.append(child)
        if kill:
            child.kill()
        return child, counter

    monkeypatch.setattr(whoosh_build, "_start_child", start)
    monkeypatch.setattr(whoosh_build, "PARALLEL_MIN", 10)  # the seeds' 49 papers take the two-process path
    return started


def _record_status(monkeypatch: pytest.MonkeyPatch, seen: list[str]) -> None:
    real = IndexBuilder._show_progress

    def show(self: IndexBuilder, done: int, total: int) -> None:
        real(self, done, total)
        seen.append(status_text(self._host.app))

    monkeypatch.setattr(IndexBuilder, "_show_progress", show)


async def test_the_first_build_runs_both_processes_inside_the_app_and_enables_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index_dir = set_index_dir(tmp_path / "index", SEEDS)
    (index_dir / "build-3").mkdir(parents=True)  # what a reader killed mid-build leaves
    (index_dir / "build-3" / "MAIN_WRITELOCK").touch()
    started = _spy_on_children(monkeypatch)
    seen: list[str] = []
    _record_status(monkeypatch, seen)
    library = Library.open([SEEDS], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        assert not library.index_ready
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert len(browse(app).paper_list.ids) == len(library.papers), "the list is there at once"
            await settle(pilot)
            assert len(started) == 1 and whoosh_build.start_method() == "subprocess"
            assert started[0].exitcode == 0
            assert any("indexing" in line and f"/{len(library.papers)}" in line for line in seen), seen
            assert library.index_ready
            assert "indexing" not in status_text(app) and "unavailable" not in status_text(app)
            await pilot.press("slash", *"diffusion")
            await settle(pilot)
            ids = list(browse(app).paper_list.ids)
            assert ids and ids == list(library.view("diffusion").ids)
            assert len(ids) < len(library.papers)
        live = index_dir / "current"
        _nothing_left_behind(index_dir, {live.readlink().name})
    finally:
        library.close()


async def test_a_failed_first_build_says_what_to_do_and_leaves_nothing_behind(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = _spy_on_children(monkeypatch, kill=True)
    index_dir = tmp_path / "index"
    library = Library.open([SEEDS], index_dir=index_dir, data_dir=tmp_path / "data")
    try:
        app = reader(library)
        notices = recorded_notices(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert len(started) == 1
            assert not library.index_ready
            assert "search unavailable: run `papers index`" in status_text(app)
            failures = [notice for notice in notices if notice.startswith("Index build failed")]
            assert len(failures) == 1, notices
            assert "\n" not in failures[0]
            assert "second indexing process failed (exit code -9)" in failures[0]
            assert "Run `papers index`" in failures[0]
            assert len(browse(app).paper_list.ids) == len(library.papers), "the list still works"
        _nothing_left_behind(set_index_dir(index_dir, SEEDS), set())
    finally:
        library.close()


async def test_a_first_run_paints_the_first_files_at_once_then_lists_every_paper_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 250k papers take seconds to read: with no index the reader paints the first files' papers and reads the
    # rest in its build worker. Here the first seed file is a first screen, and the rest waits for `release`.
    monkeypatch.setattr(library_papers, "FIRST_SCREEN", 10)
    release = threading.Event()
    read_all = Library.read_all_listings

    def read_when_released(self: Library) -> list[str]:
        assert release.wait(30)
        return read_all(self)

    monkeypatch.setattr(Library, "read_all_listings", read_when_released)
    whole = [paper.id for paper in load_catalog([SEEDS], no_headline).papers]
    library = Library.open([SEEDS], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        first = list(library.papers.ids)
        assert not library.papers_complete and 0 < len(first) < len(whole)
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert list(browse(app).paper_list.ids) == first
            assert "reading listings" in status_text(app)
            await pilot.press("j", "j")  # the user moves while the rest is read
            chosen = browse(app).paper_list.selected_id
            assert chosen == first[2]
            release.set()
            await settle(pilot)
            assert list(browse(app).paper_list.ids) == whole, "every paper, the first ones in their places"
            assert browse(app).paper_list.selected_id == chosen, "the cursor stays where the user moved it"
            assert "reading listings" not in status_text(app)
            assert f"{len(whole)} papers" in status_text(app)
            await pilot.press("slash", *"graph", "enter")
            await settle(pilot)
            assert '"graph" →' in status_text(app), "and search works once the build is done"
    finally:
        release.set()
        library.close()


async def test_a_listing_added_since_the_index_was_built_is_read_and_indexed_behind_the_first_paint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listings = tmp_path / "listings"
    listings.mkdir()
    first_file, *rest = sorted(SEEDS.glob("*.txt"))
    shutil.copy(first_file, listings / first_file.name)
    index_dir = tmp_path / "index"
    built = Library.open([listings], index_dir=index_dir, data_dir=tmp_path / "data")
    try:
        built.build_index()
    finally:
        built.close()
    for path in rest:  # new listings: the index no longer covers them
        shutil.copy(path, listings / path.name)
    monkeypatch.setattr(library_papers, "FIRST_SCREEN", 10)
    whole = [paper.id for paper in load_catalog([listings], no_headline).papers]
    library = Library.open([listings], index_dir=index_dir, data_dir=tmp_path / "data")
    try:
        assert not library.index_ready and not library.papers_complete
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert library.index_ready and library.papers_complete
            assert list(browse(app).paper_list.ids) == whole
            new_paper = library.papers.paper(whole[-1])
            word = max(re.findall(r"[A-Za-z]{6,}", new_paper.abstract), key=len)
            await pilot.press("slash", *word, "enter")
            await settle(pilot)
            assert whole[-1] in browse(app).paper_list.ids, f"a paper of an added listing: {word!r} finds it"
    finally:
        library.close()


async def test_a_broken_listing_read_after_the_first_paint_is_reported_and_the_others_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    listings = tmp_path / "listings"
    listings.mkdir()
    for path in sorted(SEEDS.glob("*.txt")):
        shutil.copy(path, listings / path.name)
    (listings / "zz_broken.json").write_text('{"papers": [', encoding="utf-8")  # read last, after the paint
    monkeypatch.setattr(library_papers, "FIRST_SCREEN", 10)
    whole = [paper.id for paper in load_catalog([SEEDS], no_headline).papers]
    library = Library.open([listings], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        assert not library.papers_complete
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert list(browse(app).paper_list.ids) == whole, "the good listings all load"
            warnings = [str(n.message) for n in app._notifications if "zz_broken.json" in str(n.message)]
            expected = [str(n) for n in load_catalog([listings], no_headline).notices]
            assert len(warnings) == len(expected) > 0, "what a full read says about it, shown once"
            assert all("\n" not in warning for warning in warnings), "one line each"
    finally:
        library.close()
