"""Every key of the browse screen, pressed the way a user would, checked against the real library."""

from __future__ import annotations

from textual.command import CommandPalette

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, reader, status_text
from tui.browse.paper_detail import PaperDetail
from tui.browse.paper_list import PaperList
from tui.screens.confirm import ConfirmScreen
from tui.screens.help import HelpScreen


async def test_first_screen_lists_every_paper_and_counts(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = browse(app)
        assert list(screen.paper_list.ids) == [paper.id for paper in library.papers]
        papers, unread, starred = library.marks.counts()
        assert status_text(app).startswith(f"{papers} papers · {unread} unread · {starred} starred")
        assert isinstance(app.focused, PaperList)
        first = library.papers[0]
        assert first.id in detail_text(app)


async def test_movement_keys_move_the_cursor_and_the_detail_follows(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = browse(app).paper_list
        last = len(library.papers) - 1
        steps = [
            ("j", 1), ("down", 2), ("k", 1), ("up", 0), ("G", last), ("g", 0), ("end", last), ("home", 0),
        ]  # fmt: skip
        for key, expected in steps:
            await pilot.press(key)
            assert paper_list.cursor == expected, key
            assert library.papers[expected].id in detail_text(app)
        page = paper_list.scrollable_content_region.height - 1
        expected = 0
        for key, step in [("pagedown", page), ("ctrl+d", page), ("pageup", -page), ("ctrl+u", -page)]:
            await pilot.press(key)
            expected = max(0, min(expected + step, last))
            assert paper_list.cursor == expected, key
        await pilot.press("G")
        await pilot.pause()
        region = paper_list.scrollable_content_region
        assert paper_list.scroll_offset.y <= last < paper_list.scroll_offset.y + region.height


async def test_enter_and_l_open_the_paper_and_h_backspace_tab_go_back(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first, second = library.papers[0].id, library.papers[1].id
        await pilot.press("enter")
        assert isinstance(app.focused, PaperDetail)
        assert first not in library.marks.read, "opening is not reading (the dwell time or r decides)"
        await pilot.press("h")
        assert isinstance(app.focused, PaperList)
        await pilot.press("j", "l")
        assert isinstance(app.focused, PaperDetail)
        assert second not in library.marks.read
        await pilot.press("backspace")
        assert isinstance(app.focused, PaperList)
        await pilot.press("tab")
        assert isinstance(app.focused, PaperDetail)
        await pilot.press("tab")
        assert isinstance(app.focused, PaperList)


async def test_space_pages_the_detail(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        detail = browse(app).detail
        assert detail.max_scroll_y > 0, "the test needs an abstract longer than the pane"
        await pilot.press("space")
        await pilot.pause()
        assert detail.scroll_y > 0


async def test_star_read_toggles_and_undo(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_id = library.papers[0].id
        await pilot.press("s")
        assert paper_id in library.marks.starred
        assert "★ starred" in detail_text(app)
        assert browse(app).paper_list.render_line(0).text.startswith("★")
        assert " 1 starred" in status_text(app)
        await pilot.press("r")
        assert paper_id in library.marks.read
        await pilot.press("r")
        assert paper_id not in library.marks.read
        await pilot.press("u")  # undoes the last toggle (unread -> read again)
        assert paper_id in library.marks.read
        await pilot.press("u", "u")
        assert paper_id not in library.marks.starred


async def test_mark_all_shown_read_asks_first(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert library.marks.counts()[1] == len(library.papers)
        await pilot.press("R")
        await pilot.press("escape")
        assert library.marks.counts()[1] == len(library.papers)
        await pilot.press("R", "y")
        await pilot.pause()
        assert library.marks.counts()[1] == 0
        await pilot.press("u")
        assert library.marks.counts()[1] == len(library.papers), "one undo step restores the whole batch"
        await pilot.press("R", "enter")
        await pilot.pause()
        assert library.marks.counts()[1] == 0


async def test_next_and_previous_unread(library: Library) -> None:
    app = reader(library)
    ids = [paper.id for paper in library.papers]
    library.marks.mark_read(ids[1:4])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = browse(app).paper_list
        await pilot.press("n")
        assert paper_list.cursor == 4
        await pilot.press("N")
        assert paper_list.cursor == 0


async def test_filters_all_unread_starred(library: Library) -> None:
    app = reader(library)
    ids = [paper.id for paper in library.papers]
    library.marks.mark_read(ids[:5])
    library.marks.toggle_star(ids[7])
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = browse(app).paper_list
        await pilot.press("2")
        await settle(pilot)
        assert list(paper_list.ids) == ids[5:]
        assert "unread only" in status_text(app)
        await pilot.press("3")
        await settle(pilot)
        assert list(paper_list.ids) == [ids[7]]
        await pilot.press("1")
        await settle(pilot)
        assert list(paper_list.ids) == ids


async def test_sort_cycle_reaches_recently_starred(library: Library) -> None:
    app = reader(library)
    ids = [paper.id for paper in library.papers]
    library.marks.toggle_star(ids[10])
    library.marks.toggle_star(ids[3])  # starred last, so it comes first
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = browse(app).paper_list
        await pilot.press(*"oooo")  # newest, oldest, venue, then listing order
        await settle(pilot)
        assert "sorted by listing order" in status_text(app)
        assert list(paper_list.ids) == ids
        await pilot.press("o")
        await settle(pilot)
        assert "sorted by recently starred" in status_text(app)
        assert list(paper_list.ids[:2]) == [ids[3], ids[10]]
        await pilot.press("slash", *"learning", "enter")
        await settle(pilot)
        assert list(paper_list.ids) == list(library.view("learning", order="starred", typing=True).ids)
        await pilot.press("o")
        await settle(pilot)
        assert "sorted by" not in status_text(app)
        assert list(paper_list.ids) == list(library.view("learning", typing=True).ids)


async def test_more_like_this_and_back(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        paper_list = browse(app).paper_list
        source = library.papers[2].id
        await pilot.press("j", "j", "m")
        similar = [hit.id for hit in library.discovery.similar(source)]
        assert similar, "the seeds have papers sharing terms"
        assert list(paper_list.ids) == [source, *[i for i in similar if i != source]]
        assert 'like "' in status_text(app)
        await pilot.press("escape")
        assert list(paper_list.ids) == [paper.id for paper in library.papers]
        assert paper_list.selected_id == source


async def test_y_copies_the_paper(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        paper = library.papers[0]
        assert paper.id in app.clipboard
        assert library.papers.rendered(paper.id).text in app.clipboard


async def test_help_screen_lists_keys_and_query_syntax(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("#help-text").content.plain  # type: ignore[attr-defined]
        for needle in ("Mark shown read", "More like this", "Next unread", "ctrl+p"):
            assert needle in text
        syntax = app.screen.query_one("#help-syntax-text-0").content.plain  # type: ignore[attr-defined]
        assert "Query syntax" in syntax and library.query_help.strip().splitlines()[1].split()[0] in syntax
        filters = app.screen.query_one("#help-syntax-text-1").content.plain  # type: ignore[attr-defined]
        assert filters.startswith("Filters") and "is:starred" in filters and "is:starred" not in syntax
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_command_palette_runs_our_commands(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"Star")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert library.papers[0].id in library.marks.starred


async def test_q_quits(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running
