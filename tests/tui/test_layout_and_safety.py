"""Layout at small and large sizes, untrusted text shown literally, and state remembered between runs."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input

from index.library import Library
from tests.tui.conftest import eventually, settle
from tests.tui.helpers import browse, detail_text, list_rows, reader, search_for, seeds_library
from tui.browse.paper_detail import PaperDetail


async def test_panes_stack_below_100_columns_and_relayout_live(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = browse(app)
        paper_list, detail = screen.paper_list, screen.detail
        assert paper_list.region.y == detail.region.y and paper_list.region.right <= detail.region.x
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        assert screen.has_class("-narrow")
        assert paper_list.region.x == detail.region.x and paper_list.region.bottom <= detail.region.y
        assert paper_list.region.height >= 5 and detail.region.height >= 5
        await pilot.press("j", "enter", "space", "h", "slash", *"graph", "enter")
        await settle(pilot)
        assert len(paper_list.ids) < len(library.papers)
        await pilot.resize_terminal(120, 40)
        await settle(pilot)
        assert paper_list.region.y == detail.region.y


async def test_markup_and_escape_sequences_are_shown_literally(hostile_library: Library) -> None:
    app = reader(hostile_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = browse(app)
        seen = []
        for index in range(len(screen.paper_list.ids)):
            screen.paper_list.cursor = index
            await pilot.pause()
            seen.append(detail_text(app))
            for row in list_rows(app):
                assert "\x1b" not in row and "\x9b" not in row
        text = "\n".join(seen)
        assert "[bold red]" in text and "[@click=app.quit]" in text and "[link=file:///etc/passwd]" in text
        for control in ("\x1b", "\x07", "\x9b", "\x9d"):
            assert control not in text
        await pilot.click(PaperDetail)
        await pilot.pause()
        assert app.is_running, "a [@click=...] in the text is inert"
        assert "\x1b" not in app.export_screenshot()


async def test_query_filter_selection_and_marks_survive_a_restart(seed_index: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    with seeds_library(seed_index, data_dir) as first:
        app = reader(first)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await search_for(pilot, "learning")
            await pilot.press("j", "s", "2")
            await settle(pilot)
            selected = browse(app).paper_list.selected_id
            await pilot.press("q")
    with seeds_library(seed_index, data_dir) as second:
        assert selected in second.marks.starred
        app = reader(second)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = browse(app)
            assert screen.search_bar.value == "learning"
            assert screen.filter == "unread"
            assert screen.paper_list.selected_id == selected
            assert isinstance(screen.search_bar.query_one(Input), Input)


async def test_dwelling_on_a_paper_marks_it_read_but_scrolling_past_does_not(library: Library) -> None:
    # The real default delay: keys under a loaded CI machine can take a few hundred ms each, and passing
    # three papers must stay well inside the dwell time for "scrolling past" to mean what it says.
    app = reader(library, mark_read_delay=2.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "j")
        ids = [paper.id for paper in library.papers]
        assert not any((paper_id in library.marks.read) for paper_id in ids[1:4])
        assert await eventually(pilot, lambda: ids[3] in library.marks.read)
        assert not any((paper_id in library.marks.read) for paper_id in ids[1:3])
