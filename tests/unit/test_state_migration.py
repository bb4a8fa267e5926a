"""Upgrading a state file of schema 1 (stars, read marks, session memory) to the current schema loses nothing.

The schema-1 file is rebuilt from `tests/data/state/schema-1.sql`, a dump of a database written by the code
of that version (before tags, notes and saved searches), so this test keeps meaning what it says however the
code changes later.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from index.config import Config
from index.library import Library
from index.state.db import DB_NAME, SCHEMA_VERSION
from index.state.store import PaperState, StateStore
from tests.conftest import DATA, SEEDS
from tests.unit.test_state import _unwritable

SCHEMA_1 = DATA / "state" / "schema-1.sql"
BEFORE = [
    PaperState("aaaaaaaaaaaa", True, 1700000000.25, True, 1700000100.5),
    PaperState("bbbbbbbbbbbb", False, 1700000200.0, True, 1700000300.0),
    PaperState("cccccccccccc", True, 1700000400.125, False, 1700000500.0),
    PaperState("dddddddddddd", False, None, True, 1700000600.0),
    PaperState("eeeeeeeeeeee", True, 1700000700.0, False, None),
]
SESSION = {
    "query": "diffusion is:unread",
    "filter": "unread",
    "order": "listing",
    "selected": "cccccccccccc",
    "theme": "nord",
}


def _schema_1(data_dir: Path) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / DB_NAME
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA_1.read_text(encoding="utf-8"))
    conn.close()
    return path


def _version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_the_fixture_is_schema_1() -> None:
    assert SCHEMA_VERSION > 1
    assert "PRAGMA user_version = 1;" in SCHEMA_1.read_text(encoding="utf-8")


def test_upgrading_keeps_every_mark_session_value_and_undo_step(tmp_path: Path) -> None:
    path = _schema_1(tmp_path)
    assert _version(path) == 1
    with StateStore.open(tmp_path) as store:
        assert store.notices == () and not store.read_only
        assert _version(path) == SCHEMA_VERSION
        assert store.records() == BEFORE
        assert store.starred_ids() == {"aaaaaaaaaaaa", "cccccccccccc", "eeeeeeeeeeee"}
        assert store.read_ids() == {"aaaaaaaaaaaa", "bbbbbbbbbbbb", "dddddddddddd"}
        assert [paper_id for paper_id, _at in store.starred()] == [
            "eeeeeeeeeeee",
            "cccccccccccc",
            "aaaaaaaaaaaa",
        ]
        assert {key: store.get_session(key) for key in SESSION} == SESSION
        # The undo log schema 1 kept is another session's changes: this session has nothing to undo.
        assert store.undo() is None
        assert "eeeeeeeeeeee" in store.starred_ids()

        # The new features work on the upgraded file, undo included.
        store.tag(["aaaaaaaaaaaa"], ["later"])
        store.set_note("bbbbbbbbbbbb", "42")
        assert store.save_search("later", "tag:later")
        assert store.undo() == ["bbbbbbbbbbbb"] and store.note("bbbbbbbbbbbb") == ""
        assert store.tags("aaaaaaaaaaaa") == ("later",)
        assert [s.name for s in store.saved_searches()] == ["later"]
        store.set_note("bbbbbbbbbbbb", "42")
    with StateStore.open(tmp_path) as again:  # reopening migrates nothing twice
        assert again.notices == ()
        assert again.note("bbbbbbbbbbbb") == "42" and again.tags("aaaaaaaaaaaa") == ("later",)
        assert again.state("cccccccccccc") == BEFORE[2]


def test_a_schema_1_file_in_a_folder_that_cannot_be_written_still_shows_its_marks(tmp_path: Path) -> None:
    path = _schema_1(tmp_path / "data")
    with _unwritable(tmp_path / "data"), StateStore.open(tmp_path / "data") as store:
        assert store.read_only
        assert store.records() == BEFORE  # migrated in memory, not "showing no stars"
        assert store.tags("aaaaaaaaaaaa") == () and store.notes() == {}
        assert store.get_session("query") == SESSION["query"]
    assert _version(path) == 1  # the file itself untouched


def _library(listings: list[Path], data_dir: Path) -> Library:
    return Library(listings, data_dir.parent / "index", data_dir, config=Config())


def test_old_unscoped_session_values_are_read_by_the_default_library_only(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    _schema_1(data_dir)
    other = tmp_path / "other.txt"
    other.write_text("Other venue 2025\n\nA different abstract about nothing in the seeds.\n")

    default = _library([SEEDS], data_dir)  # Config() with no listings: the bundled seeds are the default
    elsewhere = _library([other], data_dir)
    try:
        assert default.session.get("query") == SESSION["query"]
        assert default.session.get("selected") == SESSION["selected"]
        assert elsewhere.session.get("query") is None  # another library never gets this one's query
        assert elsewhere.session.get("theme") == "nord"  # the theme is the user's, whatever the listings
        default.session.set("query", "graphs")
        elsewhere.session.set("query", "robots")
        assert default.session.get("query") == "graphs" and elsewhere.session.get("query") == "robots"
        # The first save of the default library replaced the old unscoped value.
        assert default._state_store().get_session("query") is None
        assert default.session.get("filter") == "unread"  # the others are still read until saved
    finally:
        default.close()
        elsewhere.close()


def test_session_scope_is_the_set_of_listings_however_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    for path in (first, second):
        path.write_text("Venue 2025\n\nAn abstract.\n")
    monkeypatch.chdir(tmp_path)
    one = _library([first, second], tmp_path / "data")
    two = _library([Path("b.txt"), Path("./a.txt"), first], tmp_path / "data")
    three = _library([first], tmp_path / "data")
    try:
        assert one.session.scope == two.session.scope != three.session.scope
    finally:
        for library in (one, two, three):
            library.close()
