"""Silent zero is a bug: an index overwritten or made unreadable under a running reader is noticed on the next
query (a notice, then a rebuild), never answered as "no papers" for every query."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot

from index.library import Library
from tests.conftest import DATA, SEEDS, run_papers, set_index_dir
from tests.tui.conftest import settle
from tests.tui.helpers import browse, reader, recorded_notices, search_for, status_text


def _copy_other_index_over(live: Path, other: Path) -> None:
    """Another set's index copied over this one file by file, as `cp -r other/* live/` does: the names both
    have are rewritten in place, the rest added."""
    for path in (other / "current").resolve().iterdir():
        if path.is_file():
            with open(path, "rb") as source, open(live / path.name, "wb") as target:
                shutil.copyfileobj(source, target)


def _zeros_over(live: Path, _other: Path) -> None:
    """Every file of the live build overwritten with zeros, its size kept (a botched restore, a bad disk)."""
    for path in live.iterdir():
        if path.is_file() and path.stat().st_size:
            with open(path, "r+b") as handle:
                handle.write(bytes(path.stat().st_size))


def _postings_garbled(live: Path, _other: Path) -> None:
    """Only the posting and term files garbled in place: the table of contents still opens."""
    for path in [*live.glob("*.pst"), *live.glob("*.trm")]:
        with open(path, "r+b") as handle:
            handle.seek(path.stat().st_size // 3)
            handle.write(os.urandom(512))


def _truncated(live: Path, _other: Path) -> None:
    """Every file of the live build cut to nothing (a full disk during a restore), the reader's snapshot
    still mapped."""
    for path in live.iterdir():
        if path.is_file():
            os.truncate(path, 0)


async def _until_ready(pilot: Pilot[None], library: Library) -> None:
    """Let the query, the notice and the build worker it starts run (a few seconds at most for the seeds)."""
    await settle(pilot)
    for _ in range(100):
        if library.index_ready and "indexing" not in status_text(pilot.app):
            return
        await pilot.pause(0.1)
        await settle(pilot)


def _build(listings: Path, root: Path, data: Path) -> None:
    built = Library.open([listings], index_dir=root, data_dir=data)
    try:
        built.build_index()
    finally:
        built.close()


@pytest.mark.parametrize("damage", [_copy_other_index_over, _zeros_over, _postings_garbled, _truncated])
def test_an_index_changed_in_place_under_the_reader_is_noticed_and_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[Path, Path], None]
) -> None:
    asyncio.run(_changed_under_the_reader(tmp_path, monkeypatch, damage))


async def _changed_under_the_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, damage: Callable[[Path, Path], None]
) -> None:
    root, data = tmp_path / "ix", tmp_path / "data"
    _build(SEEDS, root, data)
    _build(DATA / "listings", root, data)
    fresh = Library.open([SEEDS], index_dir=tmp_path / "fresh", data_dir=tmp_path / "fresh-data")
    fresh.build_index()
    expected = {query: fresh.view(query).ids for query in ("graph", "neural")}
    fresh.close()
    assert all(expected.values())
    library = Library.open([SEEDS], index_dir=root, data_dir=data)
    try:
        assert library.index_ready
        app = reader(library)
        notices = recorded_notices(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await search_for(pilot, "graph")
            assert tuple(browse(app).paper_list.ids) == expected["graph"]
            await pilot.press("s")  # a star before the damage: it must survive the rebuild
            await settle(pilot)
            starred = set(library.marks.starred)
            assert len(starred) == 1

            live = (set_index_dir(root, SEEDS) / "current").resolve()
            damage(live, set_index_dir(root, DATA / "listings"))
            await pilot.press("slash", "ctrl+u", *"neural", "enter")
            await _until_ready(pilot, library)

            told = [notice for notice in notices if "search index" in notice]
            assert told and "rebuilding it" in told[0], notices
            assert "\n" not in told[0]
            assert any(notice.startswith("Index ready") for notice in notices), notices
            assert library.index_ready
            assert (set_index_dir(root, SEEDS) / "current").resolve() != live, "no rebuild happened"
            assert tuple(browse(app).paper_list.ids) == expected["neural"], "not the seeds' right answer"
            assert "unavailable" not in status_text(app)
            assert set(library.marks.starred) == starred
    finally:
        library.close()


def test_an_index_another_process_rebuilt_is_read_again_not_rebuilt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asyncio.run(_rebuilt_by_another_process(tmp_path, monkeypatch))


async def _rebuilt_by_another_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root, data = tmp_path / "ix", tmp_path / "data"
    _build(SEEDS, root, data)
    library = Library.open([SEEDS], index_dir=root, data_dir=data)
    try:
        expected = library.view("neural").ids
        app = reader(library)
        notices = recorded_notices(app, monkeypatch)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            rebuilt = run_papers("--listings", str(SEEDS), "--index-dir", str(root), "index", "--rebuild")
            assert rebuilt.returncode == 0, rebuilt.stderr
            theirs = (set_index_dir(root, SEEDS) / "current").resolve()
            await search_for(pilot, "neural")
            await _until_ready(pilot, library)
            told = [notice for notice in notices if "search index" in notice]
            assert told and told[0].endswith("rebuilt or updated by another process; reading it again")
            assert library.index_ready
            assert (set_index_dir(root, SEEDS) / "current").resolve() == theirs, "the reader rebuilt it again"
            assert tuple(browse(app).paper_list.ids) == expected
    finally:
        library.close()


def test_a_command_that_trips_on_a_damaged_index_says_one_line_and_the_next_rebuilds_it(
    tmp_path: Path,
) -> None:
    where = ("--listings", str(SEEDS), "--index-dir", str(tmp_path / "ix"), "--data-dir", str(tmp_path / "d"))
    assert run_papers(*where, "index").returncode == 0
    live = (set_index_dir(tmp_path / "ix", SEEDS) / "current").resolve()
    for path in live.glob("*.pst"):  # the postings zeroed; the table of contents still opens
        path.write_bytes(bytes(path.stat().st_size))
    tripped = run_papers(*where, "search", "graph")
    assert tripped.returncode == 1
    assert tripped.stderr.count("\n") == 1 and "cannot be read" in tripped.stderr, tripped.stderr
    assert "Traceback" not in tripped.stderr
    again = run_papers(*where, "search", "graph", "--json")
    assert again.returncode == 0, again.stderr
    assert "unreadable" in again.stderr and "rebuilding it" in again.stderr
    assert again.stdout.strip() != "[]"
    assert (set_index_dir(tmp_path / "ix", SEEDS) / "current").resolve() != live
