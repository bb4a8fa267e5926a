"""Every path that marks a paper read (tui/browse/marking.py lists them), and the ones that must not.

Read means read: only a paper the user moved to (a key or a click) or opened, after the dwell, with the
browse screen on top and the terminal focused. Each "and wait" test waits well past the dwell.
"""

from __future__ import annotations

from textual import events

from index.library import Library
from tests.tui.conftest import eventually, settle
from tests.tui.helpers import browse, reader, status_text

DWELL = 0.3
PAST = 0.9  # three dwells: a clock that should not run has had every chance to fire
SLOW_DWELL = 1.0
"""For the tests where the clock starts at `j` and something else (the blur, an overlay's screen) must land
before it fires: on a loaded CI box that took longer than DWELL (the command palette's first open did)."""


def unread(library: Library) -> int:
    return library.marks.counts()[1]


async def test_launch_and_wait_marks_nothing_read(library: Library) -> None:
    app = reader(library, mark_read_delay=DWELL)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(PAST)
        assert library.marks.read == frozenset(), "the paper shown at launch was not chosen"
        assert "marked read" not in status_text(app)


async def test_restore_and_wait_marks_nothing_read(library: Library) -> None:
    first = reader(library, mark_read_delay=0)
    async with first.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j")
        await settle(pilot)
    restored_id = library.papers[3].id
    app = reader(library, mark_read_delay=DWELL)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert browse(app).paper_list.selected_id == restored_id, "the session brought the paper back"
        await pilot.pause(PAST)
        assert library.marks.read == frozenset(), "the restored paper was not chosen this session"
        await pilot.press("enter")  # opening it is choosing it
        assert await eventually(pilot, lambda: library.marks.read == {restored_id}), library.marks.read


async def test_a_chosen_paper_becomes_read_after_the_dwell_and_u_undoes_it(library: Library) -> None:
    app = reader(library, mark_read_delay=DWELL)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        before = unread(library)
        await pilot.press("j")
        chosen = library.papers[1].id
        assert await eventually(pilot, lambda: library.marks.read == {chosen}), library.marks.read
        assert "marked read" in status_text(app), "the status says when dwelling marked a paper read"
        await pilot.press("u")
        assert library.marks.read == frozenset() and unread(library) == before


async def test_clicking_a_row_chooses_it(library: Library) -> None:
    app = reader(library, mark_read_delay=DWELL)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.click("#paper-list", offset=(3, 2))
        clicked = browse(app).paper_list.selected_id
        assert clicked is not None and clicked != library.papers[0].id, "the click moved the cursor"
        assert await eventually(pilot, lambda: library.marks.read == {clicked}), library.marks.read


async def test_next_unread_chooses_the_paper(library: Library) -> None:
    app = reader(library, mark_read_delay=DWELL)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("n")
        chosen = library.papers[1].id
        assert await eventually(pilot, lambda: library.marks.read == {chosen}), library.marks.read


async def test_overlay_and_wait_marks_nothing_read(library: Library) -> None:
    dwell = SLOW_DWELL  # the clock stops only when the overlay's screen is on top
    app = reader(library, mark_read_delay=dwell)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = browse(app)
        chosen = library.papers[1].id
        # help, the command palette, and a modal (R's confirm dialog; Esc says no)
        for opener in ["question_mark", "ctrl+p", "R"]:
            await pilot.press("k", "j")  # chose paper 1 (again): its clock starts afresh
            await pilot.press(opener)
            await pilot.pause(2 * dwell)
            assert app.screen is not screen, opener
            assert library.marks.read == frozenset(), f"under {opener}'s overlay nobody reads the paper"
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen, opener
        # Back on the list, the chosen paper starts a whole dwell again.
        assert await eventually(pilot, lambda: library.marks.read == {chosen}), library.marks.read


async def test_blur_and_wait_marks_nothing_read_and_focus_starts_the_clock_again(library: Library) -> None:
    dwell = SLOW_DWELL  # the blur is posted after `j` started the clock
    app = reader(library, mark_read_delay=dwell)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j")
        app.post_message(events.AppBlur())  # what Textual posts when the terminal reports losing focus
        await pilot.pause(3 * dwell)
        assert library.marks.read == frozenset(), "the terminal lost focus: nobody is looking"
        app.post_message(events.AppFocus())
        chosen = library.papers[1].id
        assert await eventually(pilot, lambda: library.marks.read == {chosen}), library.marks.read


async def test_a_dwell_of_zero_leaves_only_r(library: Library) -> None:
    app = reader(library, mark_read_delay=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("j", "enter")
        await pilot.pause(PAST)
        assert library.marks.read == frozenset()
        await pilot.press("h", "r")
        assert library.marks.read == {library.papers[1].id}


async def test_R_then_u_restores_exactly(library: Library) -> None:
    app = reader(library, mark_read_delay=DWELL)  # the real clock: it must not add a mark of its own
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.pause(PAST)
        before = unread(library)
        assert before == len(library.papers)
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert unread(library) == 0
        await pilot.press("u")
        await pilot.pause(PAST)
        assert unread(library) == before and library.marks.read == frozenset()
        assert f"{before} unread" in status_text(app)
