"""The reader on state it cannot write: it says so, refuses each change with a notice, never marks a paper
read by itself, keeps showing every mark, and quits with exit 0.

The faults are real: the data folder on a tmpfs remounted read-only, a `state.db` whose `PRAGMA user_version`
is a newer `papers`'s, and a tmpfs that fills up while the reader is open. Keys are pressed through
`App.run_test()`; a user who cannot traverse the data folder is in test_state_untraversable.py.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from textual.app import App
from textual.pilot import Pilot

from index.library import Library
from tests.conftest import SEEDS
from tests.faults.conftest import Mounts
from tests.tui.conftest import eventually, settle
from tests.tui.helpers import browse, reader, status_text

DWELL = 0.3
PAST = 0.9  # three dwells: a clock that must not run has had every chance to fire
REFUSED = "Read-only, nothing changed"
KEYS = ["s", "r", "u", "t", "e", "R", "ctrl+s", "T"]
"""star, read, undo, tags, note, mark all read, save the search, triage: each refused before any dialog."""


def notices(app: App[None]) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


def saved_marks(data_dir: Path, index_dir: Path) -> tuple[frozenset[str], frozenset[str]]:
    """Paper 0 starred, paper 1 read, paper 2 tagged and noted, a saved search: what the fault must keep."""
    library = Library.open([SEEDS], index_dir=index_dir, data_dir=data_dir)
    try:
        ids = library.papers.ids
        library.marks.star([ids[0]])
        library.marks.mark_read([ids[1]])
        library.organiser.tag([ids[2]], ["kept"])
        library.organiser.set_note(ids[2], "kept note")
        library.organiser.save_search("kept", "graph")
        return library.marks.starred, library.marks.read
    finally:
        library.close()


def state_rows(data_dir: Path) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(f"{(data_dir / 'state.db').as_uri()}?mode=ro", uri=True)) as conn:
        return [
            *conn.execute("SELECT * FROM paper_state ORDER BY id"),
            *conn.execute("SELECT * FROM paper_tag ORDER BY id"),
            *conn.execute("SELECT * FROM paper_note ORDER BY id"),
            *conn.execute("SELECT * FROM saved_search ORDER BY name"),
        ]


async def refuses_every_change(
    pilot: Pilot[None], library: Library, marks: tuple[frozenset[str], ...]
) -> None:
    """Each change key gets the read-only notice and changes nothing; dwelling on a paper marks nothing."""
    app = pilot.app
    for key in KEYS:
        app.clear_notifications()
        await pilot.press(key)
        await settle(pilot)
        assert any(REFUSED in told for told in notices(app)), (key, notices(app))
        assert app.screen is browse(app), (key, app.screen)  # no dialog opened to be refused afterwards
        assert (library.marks.starred, library.marks.read) == marks, key
    await pilot.press("j", "j")  # chooses paper 2: the dwell clock must not run on a read-only store
    await pilot.pause(PAST)
    assert (library.marks.starred, library.marks.read) == marks
    assert "marked read" not in status_text(app)


def shows_marks(app: App[None], marks: tuple[frozenset[str], ...]) -> None:
    """The status line says read-only once and counts the stars; the starred paper's row shows its star."""
    status = status_text(app)
    assert status.count("read-only") == 1, status
    assert f"{len(marks[0])} starred" in status, status
    assert browse(app).marking.starred == marks[0]


async def refuses_then_quits(pilot: Pilot[None], library: Library, marks: tuple[frozenset[str], ...]) -> None:
    shows_marks(pilot.app, marks)
    await refuses_every_change(pilot, library, marks)
    shows_marks(pilot.app, marks)
    await pilot.press("q")
    await settle(pilot)


async def read_only_session(library: Library, marks: tuple[frozenset[str], ...]) -> None:
    app = reader(library, mark_read_delay=DWELL)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        said = notices(app)
        assert any("cannot be written" in told or "newer papers" in told for told in said), said
        await refuses_then_quits(pilot, library, marks)
    assert app.return_code == 0


async def test_reader_on_a_read_only_mount(mounts: Mounts, seed_index: Path) -> None:
    data_dir = mounts.tmpfs("state")
    marks = saved_marks(data_dir, seed_index)
    before = state_rows(data_dir)
    mounts.remount_ro(data_dir)
    library = Library.open([SEEDS], index_dir=seed_index, data_dir=data_dir, reader=True)
    try:
        assert library.marks.read_only
        await read_only_session(library, marks)
    finally:
        library.close()
    assert state_rows(data_dir) == before


async def test_reader_on_state_from_a_newer_papers(tmp_path: Path, seed_index: Path) -> None:
    data_dir = tmp_path / "state"
    marks = saved_marks(data_dir, seed_index)
    with closing(sqlite3.connect(data_dir / "state.db")) as conn:
        conn.execute("PRAGMA user_version = 99")
    before = state_rows(data_dir)
    library = Library.open([SEEDS], index_dir=seed_index, data_dir=data_dir, reader=True)
    try:
        await read_only_session(library, marks)
    finally:
        library.close()
    assert state_rows(data_dir) == before  # the session on quit was not written either


async def test_reader_when_the_disk_fills_while_it_is_open(mounts: Mounts, seed_index: Path) -> None:
    data_dir = mounts.tmpfs("state", "2m")
    saved_marks(data_dir, seed_index)
    library = Library.open([SEEDS], index_dir=seed_index, data_dir=data_dir, reader=True)
    ids = library.papers.ids
    app = reader(library, mark_read_delay=DWELL)
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await settle(pilot)
            await pilot.press("j", "j", "j", "s")  # paper 3, starred while the disk has room
            assert await eventually(pilot, lambda: ids[3] in library.marks.read)  # and read by dwelling
            # That dwell's "marked read" flash fades first, so one seen later is a new (wrong) mark.
            assert await eventually(pilot, lambda: "marked read" not in status_text(pilot.app))
            # The WAL's pages go back to the disk, and the disk fills: the next write has nowhere to go.
            with closing(sqlite3.connect(data_dir / "state.db")) as conn:
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            mounts.fill(data_dir)
            marks = (library.marks.starred, library.marks.read)
            assert marks == (frozenset({ids[0], ids[3]}), frozenset({ids[1], ids[3]}))
            app.clear_notifications()
            await pilot.press("R", "y")  # the write that meets the full disk
            await settle(pilot)
            assert any("Not saved" in told and "full" in told for told in notices(app)), notices(app)
            await refuses_then_quits(pilot, library, marks)
        assert app.return_code == 0
    finally:
        library.close()
    (data_dir / "filler").unlink()
    again = Library.open([SEEDS], index_dir=seed_index, data_dir=data_dir)
    try:
        assert (again.marks.starred, again.marks.read) == marks, "every acknowledged mark is still there"
    finally:
        again.close()
