"""The state store in-process: stars, read marks, undo, session memory, damaged files, read-only folders."""

from __future__ import annotations

import contextlib
import csv
import io
import os
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from index.state.db import DB_NAME, SCHEMA_VERSION
from index.state.store import (
    UNDO_DEPTH,
    Change,
    NoteMark,
    PaperState,
    SavedSearch,
    StateReadOnlyError,
    StateStore,
    TagMark,
)
from index.state.transfer import (
    Described,
    ImportFormatError,
    first_sentence,
    parse_document,
    parse_export,
    to_csv,
    to_json,
)
from tests.conftest import REPO

A, B, C = "aaaaaaaaaaaa", "bbbbbbbbbbbb", "cccccccccccc"


@pytest.fixture
def store(tmp_path: Path) -> Iterator[StateStore]:
    opened = StateStore.open(tmp_path / "data")
    assert opened.notices == ()
    assert not opened.read_only
    yield opened
    opened.close()


def test_star_and_read_marks_with_tombstones(store: StateStore) -> None:
    store.star([A, B])
    store.mark_read([B])
    assert store.starred_ids() == {A, B}
    assert store.read_ids() == {B}
    store.unstar([A])
    store.mark_unread([B])
    assert store.starred_ids() == {B}
    assert store.read_ids() == set()
    records = {record.id: record for record in store.records()}
    # Unstarring keeps a tombstone with its time, so a merge elsewhere can tell "unstarred" from "unknown".
    assert records[A].starred is False and records[A].starred_at is not None
    assert records[B].read is False and records[B].read_at is not None
    assert store.is_starred(B) and not store.is_starred(A) and not store.is_read(B)


def test_toggles_return_the_new_value(store: StateStore) -> None:
    assert store.toggle_star(A) is True
    assert store.toggle_star(A) is False
    assert store.toggle_read(A) is True
    assert store.states([A, C]) == {
        A: PaperState(A, False, store.state(A).starred_at, True, store.state(A).read_at),
        C: PaperState(C),
    }


def test_starred_lists_newest_first_and_restarring_keeps_the_first_time(store: StateStore) -> None:
    store.star([A])
    store.star([B])
    first_time = dict(store.starred())[A]
    store.star([A])  # already starred: not a change, keeps its time
    assert [paper_id for paper_id, _ in store.starred()] == [B, A]
    assert dict(store.starred())[A] == first_time


def test_state_and_session_survive_reopening(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as first:
        first.star([A])
        first.set_session("query", {"text": "diffusion", "filters": ["is:starred"], "n": 3})
        first.set_session("selected", A)
    with StateStore.open(tmp_path) as second:
        assert second.starred_ids() == {A}
        assert second.get_session("query") == {"text": "diffusion", "filters": ["is:starred"], "n": 3}
        assert second.get_session("selected") == A
        assert second.get_session("missing", "default") == "default"


def test_undo_reverts_the_last_group_and_reports_its_ids(store: StateStore) -> None:
    store.star([A])
    store.mark_read([A, B, C])  # "mark all shown as read": one group
    assert store.undo() == [A, B, C]
    assert store.read_ids() == set()
    assert store.starred_ids() == {A}
    assert store.undo() == [A]
    assert store.starred_ids() == set()
    assert store.undo() is None


def test_undo_keeps_at_least_fifty_steps(store: StateStore) -> None:
    ids = [f"{index:012x}" for index in range(UNDO_DEPTH + 20)]
    for paper_id in ids:
        store.star([paper_id])
    for paper_id in reversed(ids[-50:]):
        assert store.undo() == [paper_id]
    assert store.starred_ids() == set(ids[:-50])


def test_undo_after_toggles_walks_back_through_each_step(store: StateStore) -> None:
    store.toggle_read(A)
    store.toggle_read(A)
    store.toggle_read(A)
    assert store.read_ids() == {A}
    assert store.undo() == [A] and store.read_ids() == set()
    assert store.undo() == [A] and store.read_ids() == {A}
    assert store.undo() == [A] and store.read_ids() == set()


def test_undo_reverts_only_this_stores_own_changes(tmp_path: Path) -> None:
    """Each session undoes its own changes: another process's newer change is never undone here."""
    with StateStore.open(tmp_path) as mine, StateStore.open(tmp_path) as theirs:
        mine.star([A])
        theirs.star([B])
        assert mine.undo() == [A]
        assert mine.starred_ids() == {B} and mine.undo() is None
        assert theirs.undo() == [B]
        assert theirs.starred_ids() == set() and theirs.undo() is None


def test_undo_leaves_a_slot_another_store_changed_since(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as mine, StateStore.open(tmp_path) as theirs:
        mine.star([A, B])
        theirs.unstar([B])
        assert mine.undo() == [A], "only A still holds the star this store gave it"
        assert mine.starred_ids() == set() and theirs.undo() == [B] and mine.starred_ids() == {B}


def test_a_change_that_did_not_commit_is_not_undoable(store: StateStore) -> None:
    store.star([A])
    with pytest.raises(TypeError):  # B is written, then the bad value rolls the whole group back
        store.apply([Change(B, "starred", True), Change(C, "starred", "yes")])
    assert store.starred_ids() == {A}
    assert store.undo() == [A] and store.undo() is None


def test_toggle_against_what_was_shown(tmp_path: Path) -> None:
    """A toggle names the value the caller showed; if another store changed it, nothing is written."""
    with StateStore.open(tmp_path) as mine, StateStore.open(tmp_path) as theirs:
        theirs.star([A])
        stale = mine.toggle(A, "starred", shown=False)
        assert not stale.changed and stale.value and mine.starred_ids() == {A}
        assert mine.undo() is None, "nothing written, nothing to undo"
        fresh = mine.toggle(A, "starred", shown=True)
        assert fresh.changed and not fresh.value and theirs.starred_ids() == set()


def test_a_toggle_that_writes_nothing_is_no_news_to_another_process(tmp_path: Path) -> None:
    """A stale toggle (another session already made the change) writes nothing, so a reader in another
    process does not reload its marks; a toggle that writes is news to it."""
    toggle = (
        "import sys; from pathlib import Path; from index.state.store import StateStore\n"
        "with StateStore.open(Path(sys.argv[1])) as store:\n"
        "    print(store.toggle(sys.argv[2], 'starred', shown=sys.argv[3] == 'shown').changed)"
    )

    def other_process(shown: bool) -> str:
        argv = [sys.executable, "-c", toggle, str(tmp_path), A, "shown" if shown else "hidden"]
        return subprocess.run(argv, capture_output=True, text=True, check=True, cwd=REPO).stdout.strip()

    with StateStore.open(tmp_path) as mine:
        mine.star([A])
        assert not mine.changed_elsewhere()
        assert other_process(shown=False) == "False", "the other process showed no star: nothing to do"
        assert not mine.changed_elsewhere(), "nothing was written"
        assert other_process(shown=True) == "True"
        assert mine.changed_elsewhere() and mine.starred_ids() == set()


def test_changed_elsewhere_sees_other_connections_only(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as mine, StateStore.open(tmp_path) as theirs:
        assert not mine.changed_elsewhere()
        mine.star([A])
        assert not mine.changed_elsewhere(), "its own commits are not news to it"
        theirs.tag([A], ["later"])
        assert mine.changed_elsewhere() and not mine.changed_elsewhere(), "reported once"


def test_undo_leaves_alone_a_field_changed_outside_the_log(store: StateStore) -> None:
    store.star([A, B])
    # A write the log never saw (say, an older papers): undo must not clobber it.
    conn = sqlite3.connect(store.path)
    with conn:
        conn.execute("UPDATE paper_state SET starred = 0 WHERE id = ?", (B,))
    conn.close()
    assert store.undo() == [A]
    assert store.starred_ids() == set()


def test_a_local_change_wins_over_a_merged_time_from_a_fast_clock(store: StateStore) -> None:
    future = 4_000_000_000.0
    store.merge([PaperState(A, starred=True, starred_at=future)])
    store.unstar([A])
    assert store.state(A).starred_at is not None and store.state(A).starred_at > future
    # Re-importing the old export must not bring the star back.
    store.merge([PaperState(A, starred=True, starred_at=future)])
    assert store.starred_ids() == set()


def test_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        with StateStore.open(tmp_path / "deep" / "data") as opened:
            opened.star([A])
            data_dir = tmp_path / "deep" / "data"
            assert data_dir.stat().st_mode & 0o777 == 0o700
            names = sorted(path.name for path in data_dir.iterdir())
            assert names == [DB_NAME, f"{DB_NAME}-shm", f"{DB_NAME}-wal"]
            for name in names:
                assert (data_dir / name).stat().st_mode & 0o777 == 0o600, name
    finally:
        os.umask(old)


def _single_notice(opened: StateStore) -> str:
    assert len(opened.notices) == 1, opened.notices
    text = str(opened.notices[0])
    assert "\n" not in text
    return text


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_damaged_file_is_moved_aside_and_a_fresh_one_used(tmp_path: Path, damage: str) -> None:
    with StateStore.open(tmp_path) as first:
        first.star([f"{index:012x}" for index in range(400)])
    path = tmp_path / DB_NAME
    original = path.read_bytes()
    damaged = os.urandom(8192) if damage == "garbage" else original[: len(original) // 2]
    path.write_bytes(damaged)

    with StateStore.open(tmp_path) as second:
        notice = _single_notice(second)
        assert "damaged" in notice and "moved aside" in notice
        assert not second.read_only
        assert second.starred_ids() == set()
        second.star([A])
        assert second.starred_ids() == {A}
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(f"{DB_NAME}.corrupt-")]
    assert len(aside) == 1 and aside[0].name in notice
    assert aside[0].read_bytes() == damaged  # kept for the user, never deleted


def test_a_data_dir_that_cannot_be_created_opens_read_only(tmp_path: Path) -> None:
    # A regular file where a parent folder should be: mkdir fails even for root, as on a read-only home.
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with StateStore.open(blocker / "papers") as opened:
        assert opened.read_only
        assert "cannot be written" in _single_notice(opened)
        assert opened.starred_ids() == set() and opened.read_ids() == set() and opened.starred() == []
        with pytest.raises(StateReadOnlyError, match="cannot save stars or read marks"):
            opened.star([A])
        with pytest.raises(StateReadOnlyError):
            opened.undo()
        # Session memory still works for this run rather than interrupting the reader.
        opened.set_session("query", "attention")
        assert opened.get_session("query") == "attention"


@contextlib.contextmanager
def _unwritable(folder: Path) -> Iterator[None]:
    """Make `folder` and its files unwritable for this process.

    As a normal user chmod does it. Root ignores permission bits, so as root (CI) the folder and files get
    the immutable attribute (`chattr +i`), which stops root too; where the filesystem has no such attribute
    the test is skipped rather than pretending.
    """
    files = [path for path in folder.iterdir() if path.is_file()]
    if os.geteuid() != 0:
        for path in files:
            path.chmod(0o400)
        folder.chmod(0o500)
        try:
            yield
        finally:
            folder.chmod(0o700)
            for path in files:
                path.chmod(0o600)
        return
    targets = [str(path) for path in [*files, folder]]
    result = subprocess.run(["chattr", "+i", *targets], capture_output=True, text=True)
    if result.returncode != 0:
        subprocess.run(["chattr", "-i", *targets], capture_output=True)
        pytest.skip(f"running as root and cannot make files immutable here: {result.stderr.strip()}")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", *targets], check=True)


def test_an_unwritable_data_dir_keeps_existing_stars_readable(tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with StateStore.open(data_dir) as first:
        first.star([A, B])
        first.mark_read([C])
    with _unwritable(data_dir), StateStore.open(data_dir) as opened:
        assert opened.read_only
        assert "cannot be written" in _single_notice(opened)
        assert opened.starred_ids() == {A, B}
        assert opened.read_ids() == {C}
        with pytest.raises(StateReadOnlyError):
            opened.toggle_star(A)
        assert opened.starred_ids() == {A, B}


def test_a_database_from_a_newer_papers_is_read_but_not_written(tmp_path: Path) -> None:
    with StateStore.open(tmp_path) as first:
        first.star([A])
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with StateStore.open(tmp_path) as opened:
        assert opened.read_only
        assert "newer" in _single_notice(opened)
        assert opened.starred_ids() == {A}  # what it still reads as ours shows
        with pytest.raises(StateReadOnlyError, match="newer papers"):
            opened.star([B])
    conn = sqlite3.connect(tmp_path / DB_NAME)
    conn.execute("ALTER TABLE paper_state RENAME COLUMN starred_at TO starred_when")
    conn.close()
    with StateStore.open(tmp_path) as opened:  # a schema this papers cannot read: nothing shown, nothing lost
        assert opened.read_only
        assert "showing no stars" in _single_notice(opened)
        assert opened.starred_ids() == set()


# -- merging: newest timestamp wins per paper and slot (flags, each tag, the note) and per saved search --

IDS = st.sampled_from([A, B, C, "dddddddddddd"])
TIMES = st.sampled_from([1.0, 2.0, 2.5, 1_700_000_000.25])  # few values, so ties happen
TAG_NAMES = st.sampled_from(["later", "ml", "théorie"])
NOTE_TEXTS = st.sampled_from(["", "read §3", "dataset: open source", "a"])  # "" is a cleared note


@st.composite
def paper_records(draw: st.DrawFn) -> PaperState:
    starred_at, read_at = draw(st.none() | TIMES), draw(st.none() | TIMES)
    starred = starred_at is not None and draw(st.booleans())
    read = read_at is not None and draw(st.booleans())
    names = draw(st.lists(TAG_NAMES, max_size=3, unique=True))
    tags = tuple(TagMark(name, draw(st.booleans()), draw(TIMES)) for name in sorted(names))
    note = draw(st.none() | st.builds(NoteMark, NOTE_TEXTS, TIMES))
    return PaperState(draw(IDS), starred, starred_at, read, read_at, tags, note)


SAVED = st.lists(
    st.builds(
        SavedSearch,
        st.sampled_from(["later", "Diffusion, unread"]),
        st.none() | st.sampled_from(["", "tag:ml"]),
        TIMES,
    ),
    max_size=3,
)
Export = tuple[list[PaperState], list[SavedSearch]]
EXPORTS = st.tuples(st.lists(paper_records(), max_size=8), SAVED)


def _after(*exports: Export) -> tuple[list[PaperState], list[SavedSearch]]:
    with tempfile.TemporaryDirectory() as folder, StateStore.open(Path(folder)) as fresh:
        for papers, saved in exports:
            fresh.merge(papers, saved=saved)
        return fresh.records(), fresh.search_records()


Slot = tuple[float, bool | str]


def _model(*exports: Export) -> tuple[dict[str, dict[str, Slot]], dict[str, tuple[float, bool, str]]]:
    """The law itself: per paper and slot, the greatest (time, value) seen; per saved search name, the
    greatest (time, saved rather than deleted, query)."""
    best: dict[str, dict[str, Slot]] = {}
    searches: dict[str, tuple[float, bool, str]] = {}
    for papers, saved in exports:
        for record in papers:
            fields = best.setdefault(record.id, {})
            slots: list[tuple[str, float | None, bool | str]] = [
                ("starred", record.starred_at, record.starred),
                ("read", record.read_at, record.read),
                ("note", record.note.at if record.note else None, record.note.text if record.note else ""),
            ]
            slots += [(f"tag:{mark.name}", mark.at, mark.tagged) for mark in record.tags]
            for name, at, value in slots:
                if at is not None and (name not in fields or (at, value) > fields[name]):
                    fields[name] = (at, value)
        for search in saved:
            key = (search.at, search.query is not None, search.query or "")
            searches[search.name] = max(searches.get(search.name, key), key)
    return {paper_id: fields for paper_id, fields in best.items() if fields}, searches


@settings(max_examples=80, deadline=None)
@given(EXPORTS, EXPORTS)
def test_merge_is_newest_wins_idempotent_and_order_independent(first: Export, second: Export) -> None:
    a_then_b = _after(first, second)
    assert a_then_b == _after(second, first)
    assert a_then_b == _after(first, second, first, second)
    assert _model(a_then_b) == _model(first, second)


@settings(max_examples=40, deadline=None)
@given(EXPORTS)
def test_importing_twice_changes_nothing_the_second_time(export: Export) -> None:
    papers, saved = export
    with tempfile.TemporaryDirectory() as folder, StateStore.open(Path(folder)) as fresh:
        fresh.merge(papers, saved=saved)
        before = fresh.records(), fresh.search_records()
        again = fresh.merge(papers, saved=saved)
        assert again.changed == () and again.searches == ()
        assert (fresh.records(), fresh.search_records()) == before


@settings(max_examples=40, deadline=None)
@given(EXPORTS)
def test_json_export_round_trips_exactly(export: Export) -> None:
    records, saved = _after(export)
    parsed = parse_document(to_json(records, {}, 1_700_000_000.5, saved))
    assert parsed.papers == records and parsed.saved == saved
    assert parse_export(to_json(records, {}, 1.0)) == records
    assert _after((parsed.papers, parsed.saved)) == (records, saved)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not valid JSON (line 1"),
        ("[]", "not a papers export"),
        ('{"format": "papers-state", "version": 3, "papers": []}', "version 3 is newer"),
        ('{"format": "papers-state", "version": 1}', '"papers" must be a list'),
        ('{"format": "papers-state", "version": 1, "papers": [{"id": "XYZ"}]}', "paper 1: 'id' must be 12"),
        (
            '{"format": "papers-state", "version": 1, "papers": [{"id": "aaaaaaaaaaaa", "starred": true}]}',
            "paper 1: 'starred' is true but starred_at is missing",
        ),
        (
            '{"format": "papers-state", "version": 1, "papers": [{"id": "aaaaaaaaaaaa", "read_at": "noon"}]}',
            "paper 1: read_at must be a time",
        ),
    ],
)
def test_bad_exports_are_rejected_with_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(ImportFormatError) as caught:
        parse_export(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_first_sentence() -> None:
    assert first_sentence("We study X. Then Y happens.") == "We study X."
    assert first_sentence("No full stop here") == "No full stop here"
    assert first_sentence("Using e.g. transformers we win. More.") == "Using e.g. transformers we win."
    assert first_sentence("x" * 500).endswith("…")


def test_change_with_an_explicit_time_is_a_merge_not_an_action(store: StateStore) -> None:
    store.apply([Change(A, "starred", True, at=5.0)])
    assert store.apply([Change(A, "starred", False, at=4.0)]).changed == ()
    assert store.starred_ids() == {A}


def test_id_sets_see_every_other_connections_commits(tmp_path: Path) -> None:
    """starred_ids()/read_ids() are cached for search filters; a commit anywhere must refresh them."""
    with StateStore.open(tmp_path) as reader, StateStore.open(tmp_path) as writer:
        assert reader.starred_ids() == set() and reader.read_ids() == set()
        writer.star([A])
        assert reader.starred_ids() == {A}
        writer.mark_read([B])
        writer.unstar([A])
        assert reader.starred_ids() == set() and reader.read_ids() == {B}
        reader.star([C])
        assert reader.starred_ids() == {C}
        # The cached set is shared, so it must be immutable: nobody can corrupt it by accident.
        assert isinstance(reader.starred_ids(), frozenset)
        assert reader.starred_ids() == {C}


def test_csv_export_defuses_spreadsheet_formulas_from_listings() -> None:
    record = PaperState(A, True, 1.0)
    text = to_csv([record], {A: Described('=HYPERLINK("http://x")', "@venue", "")})
    row = next(csv.DictReader(io.StringIO(text)))
    assert row["headline"] == '\'=HYPERLINK("http://x")' and row["venue"] == "'@venue"
    assert row["starred_at"] == "1970-01-01T00:00:01Z"


def test_a_full_disk_mid_write_is_one_clear_error_and_changes_nothing(tmp_path: Path) -> None:
    store = StateStore.open(tmp_path)
    store.star([A])
    # SQLite reports a page cap exactly as a full disk (SQLITE_FULL), without needing to fill a real disk
    # (tests/faults/ fills a real one).
    store._conn.execute("PRAGMA max_page_count = 1")
    with pytest.raises(StateReadOnlyError, match="database or disk is full") as caught:
        store.mark_read([f"{index:012x}" for index in range(5000)])
    assert "\n" not in str(caught.value)
    assert store.read_ids() == set() and store.starred_ids() == {A}
    # From now on the store is read-only, so no later change is half-tried on a disk known to be full ...
    assert store.read_only and "full" in (store.read_only_reason or "")
    with pytest.raises(StateReadOnlyError):
        store.mark_read([B])
    store.close()
    with StateStore.open(tmp_path) as again:  # ... until the next start, once there is room again
        again.mark_read([B])
        assert again.read_ids() == {B} and again.starred_ids() == {A}
