"""Other processes of the same user change the store while the reader is open (issue 38, "one truth").

A real `papers` subprocess stars, reads, tags and notes the paper the reader shows, or a second reader
(its own `Library`, so its own SQLite connection, as a second process has) toggles it. Without a key press
the screen must show the change within `SHOW_WITHIN`; a key must then do what the screen shows; and `u`
must undo only this reader's own changes, never the other process's.
"""

from __future__ import annotations

import asyncio
import functools
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot

from index.library import Counts, Library
from tests.conftest import SEEDS, run_papers
from tests.tui.conftest import eventually, settle
from tests.tui.helpers import detail_text, list_rows, reader, seeds_library, status_text
from tui.app import PapersApp
from tui.browse import marking
from tui.browse.marking import INLINE_RELOAD
from tui.screens.saved_searches import SavedSearches

SHOW_WITHIN = 3.0
"""Seconds from the other process's commit to the screen showing it. The reader checks 4 times a second, so
it shows within about 0.3 s on an idle machine; the bound leaves room for a loaded CI runner (1.07 s seen
with two test workers and other jobs on 2 cores) while still failing a screen that stays stale."""


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    return tmp_path / "data"


@pytest.fixture
def library(seed_index: Path, data_dir: Path) -> Iterator[Library]:
    """The seeds as the reader opens them, over this test's own state."""
    with seeds_library(seed_index, data_dir) as opened:
        yield opened


def pilot_test(body: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an `async def` pilot test in a fresh event loop (tests/tui/ has a conftest hook for that)."""

    @functools.wraps(body)
    def test(*args: Any, **kwargs: Any) -> None:
        asyncio.run(body(*args, **kwargs))

    return test


async def _papers(library: Library, index_dir: Path, *args: str) -> None:
    """Run `papers ARGS` as another terminal would, on the reader's data, while the reader keeps running."""
    result = await asyncio.to_thread(
        run_papers,
        "--listings", str(SEEDS), "--index-dir", str(index_dir), "--data-dir", str(library.data_dir), *args,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr


async def _shown(pilot: Pilot[None], condition: Callable[[], bool], what: str) -> None:
    """`condition` (what the screen shows) comes true within `SHOW_WITHIN` with no key pressed."""
    started = time.monotonic()
    assert await eventually(pilot, condition, timeout=10 * SHOW_WITHIN), f"{what}: never shown"
    took = time.monotonic() - started
    assert took <= SHOW_WITHIN, f"{what}: shown after {took:.2f} s"


def _messages(app: PapersApp) -> list[str]:
    return [str(notification.message) for notification in app._notifications]


def _starred_on_screen(app: PapersApp) -> bool:
    return "★ starred" in detail_text(app) and list_rows(app)[0].startswith("★")


def _unstarred_on_screen(app: PapersApp) -> bool:
    return "☆ not starred" in detail_text(app) and not list_rows(app)[0].startswith("★")


@pilot_test
async def test_a_star_by_papers_star_shows_without_a_key_s_unstars_and_u_leaves_it(
    library: Library, seed_index: Path
) -> None:
    paper_id = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert _unstarred_on_screen(app) and " 0 starred" in status_text(app)

        await _papers(library, seed_index, "star", paper_id)
        await _shown(
            pilot,
            lambda: _starred_on_screen(app) and " 1 starred" in status_text(app),
            "a star from another terminal",
        )

        await pilot.press("u")  # this reader changed nothing: the other terminal's star is not its to undo
        assert library.marks.starred == {paper_id} and _starred_on_screen(app)
        assert "Nothing to undo." in _messages(app)

        await pilot.press("s")  # the screen says starred, so s unstars, as it promised
        assert library.marks.starred == frozenset()
        assert _unstarred_on_screen(app) and " 0 starred" in status_text(app)
        assert "Unstarred." in _messages(app)

        await pilot.press("u")  # undoes this reader's unstar, and only that
        assert library.marks.starred == {paper_id} and _starred_on_screen(app)
        app.clear_notifications()
        await pilot.press("u")
        assert library.marks.starred == {paper_id}, "the other terminal's star stays"
        assert _messages(app) == ["Nothing to undo."]


@pilot_test
async def test_with_many_marks_the_reload_leaves_the_ui_thread_and_still_shows_in_time(
    library: Library, seed_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `INLINE_RELOAD` marks the reload runs in a worker; the screen still shows the change in time."""
    library.marks.mark_read(
        f"{number:012x}" for number in range(INLINE_RELOAD + 1)
    )  # papers listed elsewhere
    paper_id = library.papers[0].id
    counted_in: set[str] = set()
    counts = library.marks.counts

    def spied() -> Counts:
        counted_in.add(threading.current_thread().name)
        return counts()

    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(library.marks, "counts", spied)
        await _papers(library, seed_index, "star", paper_id)
        await _shown(pilot, lambda: _starred_on_screen(app), "a star, with many read marks")
        assert counted_in - {threading.main_thread().name}, "the marks were read in a worker thread"


@pilot_test
async def test_read_tags_and_a_note_by_papers_show_without_a_key(library: Library, seed_index: Path) -> None:
    paper_id = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        unread = len(library.papers)
        assert "● unread" in detail_text(app) and f" {unread} unread" in status_text(app)

        await _papers(library, seed_index, "read", paper_id)
        await _shown(
            pilot,
            lambda: "● unread" not in detail_text(app) and f" {unread - 1} unread" in status_text(app),
            "a read mark from another terminal",
        )
        await _papers(library, seed_index, "tag", paper_id, "later")
        await _shown(pilot, lambda: "#later" in detail_text(app) and "#later" in list_rows(app)[0], "a tag")
        await _papers(library, seed_index, "note", paper_id, "see", "appendix")
        await _shown(
            pilot, lambda: "✎ see appendix" in detail_text(app) and "✎" in list_rows(app)[0], "a note"
        )

        await pilot.press("r")  # shown read, so r marks it unread
        assert paper_id not in library.marks.read and "● unread" in detail_text(app)
        await pilot.press("u", "u")  # back to read; then nothing of this reader's is left to undo
        assert paper_id in library.marks.read
        assert (
            library.organiser.tags(paper_id) == ("later",)
            and library.organiser.note(paper_id) == "see appendix"
        )


@pilot_test
async def test_an_open_saved_searches_list_shows_one_saved_elsewhere(
    library: Library, seed_index: Path
) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        dialog = app.screen
        assert isinstance(dialog, SavedSearches) and dialog.searches == {}
        await _papers(library, seed_index, "saved", "add", "graphs", "graph")
        await _shown(pilot, lambda: dialog.searches == {"graphs": "graph"}, "a search saved elsewhere")
        assert await eventually(
            pilot, lambda: "graphs" in str(dialog.option_list.get_option_at_index(0).prompt)
        )


@pilot_test
async def test_two_readers_toggling_one_paper_agree_and_undo_only_their_own(
    library: Library, seed_index: Path, data_dir: Path
) -> None:
    paper_id = library.papers[0].id
    mine = reader(library)
    with seeds_library(seed_index, data_dir) as other_library:
        theirs = reader(other_library)
        async with mine.run_test(size=(120, 40)) as pilot, theirs.run_test(size=(120, 40)) as other:
            await settle(pilot)
            await settle(other)
            await other.press("s")
            assert _starred_on_screen(theirs)
            await _shown(pilot, lambda: _starred_on_screen(mine), "the other reader's star")

            await pilot.press("s")  # shown starred: unstars
            assert library.marks.starred == frozenset() and _unstarred_on_screen(mine)
            await _shown(other, lambda: _unstarred_on_screen(theirs), "this reader's unstar, in the other")

            await other.press("u")  # the other reader undoes its own star; mine has already unstarred it
            assert library.marks.starred == frozenset(), "a change made since is left alone"
            assert "Nothing undone: another papers session has changed it since." in _messages(theirs)
            await pilot.press("u")  # mine undoes its unstar
            assert library.marks.starred == {paper_id}
            await _shown(other, lambda: _starred_on_screen(theirs), "the undo, in the other reader")


@pilot_test
async def test_a_key_pressed_before_the_screen_caught_up_changes_nothing(
    library: Library, seed_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between another process's commit and the next check, `s` must not do the opposite of the screen."""
    paper_id = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        monkeypatch.setattr(library.marks, "changed_elsewhere", lambda: False)  # the check has not run yet
        await _papers(library, seed_index, "star", paper_id)
        assert _unstarred_on_screen(app), "the stale screen still says not starred"
        await pilot.press("s")  # meant as "star": it is starred already, so nothing changes
        assert library.marks.starred == {paper_id}
        assert _starred_on_screen(app), "the screen caught up with the store"
        assert "Another papers session starred it already; nothing changed." in _messages(app)
        await pilot.press("s")  # now the screen says starred: s unstars
        assert library.marks.starred == frozenset() and _unstarred_on_screen(app)


@pilot_test
async def test_a_change_made_while_the_terminal_was_away_shows_on_focus(
    library: Library, seed_index: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Regaining focus checks at once, whatever the timer's phase (here the timer never fires)."""
    monkeypatch.setattr(marking, "SYNC_SECONDS", 3600.0)
    paper_id = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.post_message(events.AppBlur())  # the user went to another terminal
        await _papers(library, seed_index, "star", paper_id)
        await pilot.pause(0.3)
        assert _unstarred_on_screen(app), "no timer ran: only focus can show it"
        app.post_message(events.AppFocus())  # and came back
        await _shown(pilot, lambda: _starred_on_screen(app), "a star made while the terminal was away")
