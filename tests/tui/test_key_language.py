"""One key language: every list-like screen takes j/k/g/G/q/Esc alike, pressed as a user would."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.containers import VerticalScroll
from textual.widgets import OptionList

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, reader
from tui.browse.triage import TriageScreen
from tui.screens.help import HelpScreen
from tui.screens.saved_searches import SavedSearches

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES)
async def test_saved_searches_take_the_list_keys(library: Library, size: tuple[int, int]) -> None:
    for name, query in (("a graphs", "graph"), ("b diffusion", "diffusion"), ("c robots", "robot")):
        library.organiser.save_search(name, query)
    app = reader(library)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        saved = app.screen
        assert isinstance(saved, SavedSearches)
        options = saved.query_one(OptionList)
        assert options.highlighted == 0
        await pilot.press("j")
        assert options.highlighted == 1
        await pilot.press("G")
        assert options.highlighted == 2
        await pilot.press("k")
        assert options.highlighted == 1
        await pilot.press("g")
        assert options.highlighted == 0
        await pilot.press("q")  # q closes the window, as Esc does; it does not quit
        await settle(pilot)
        assert app.is_running and app.screen is browse(app)
        await pilot.press("S")
        await settle(pilot)
        await pilot.press("j", "enter")
        await settle(pilot)
        assert browse(app).search_bar.input.value == "diffusion"
        await pilot.press("S")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert app.screen is browse(app)


@pytest.fixture
def long_abstracts(tmp_path: Path) -> Iterator[Library]:
    """Two papers whose abstracts overflow triage's page even at 120x40."""
    listing = tmp_path / "long.txt"
    sentence = "We study how bandit regret bounds carry over to language model features in practice. "
    listing.write_text(f"Long 2026 Papers\n\n{sentence * 60}\n\nAgain. {sentence * 40}\n", encoding="utf-8")
    opened = Library.open([listing], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    opened.build_index()
    yield opened
    opened.close()


@pytest.mark.parametrize("size", SIZES)
async def test_triage_j_k_g_G_scroll_the_abstract(long_abstracts: Library, size: tuple[int, int]) -> None:
    """A long abstract in triage: j/k scroll it a line, G/g to its end and top; q leaves as in every list."""
    app = reader(long_abstracts)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        first = browse(app).paper_list.selected_id
        await pilot.press("T")
        await settle(pilot)
        triage = app.screen
        assert isinstance(triage, TriageScreen) and triage.current == first
        body = triage.query_one("#triage-body", VerticalScroll)
        assert body.max_scroll_y > 2, size
        await pilot.press("j", "j")
        await pilot.pause()
        assert body.scroll_y == 2
        await pilot.press("k")
        await pilot.pause()
        assert body.scroll_y == 1
        await pilot.press("G")
        await pilot.pause()
        assert body.scroll_y == body.max_scroll_y
        await pilot.press("g")
        await pilot.pause()
        assert body.scroll_y == 0
        assert triage.current == first  # scrolling decided nothing
        await pilot.press("q")
        await settle(pilot)
        assert app.is_running and app.screen is browse(app)


@pytest.mark.parametrize("size", SIZES)
async def test_help_takes_the_list_keys_and_each_page_fits(library: Library, size: tuple[int, int]) -> None:
    app = reader(library)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        for _page in help_screen.pages:
            body = help_screen.body
            assert body.max_scroll_y == 0, (size, help_screen.page, body.max_scroll_y)
            await pilot.press("tab")
            await pilot.pause()
        for key in ("j", "k", "g", "G"):
            await pilot.press(key)  # nothing to scroll, and nothing breaks
        await pilot.press("q")
        await settle(pilot)
        assert app.is_running and app.screen is browse(app)


@pytest.mark.parametrize("size", SIZES)
async def test_the_widen_hint_never_has_a_1_typed_into_the_query(
    library: Library, size: tuple[int, int]
) -> None:
    """With starred only (3) and nothing starred, typing a query shows how to widen it; done as it says, the
    filter goes to all papers and the query keeps what was typed, no `1` in it."""
    app = reader(library)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("3", "slash", *"graph")
        await settle(pilot)
        screen = browse(app)
        assert screen.paper_list.ids == ()
        assert "press Enter, then 1, to show all papers" in detail_text(app)
        await pilot.press("enter", "1")
        await settle(pilot)
        assert screen.search_bar.input.value == "graph"
        assert screen.filter == "all" and screen.paper_list.ids
        await pilot.press("3")
        await settle(pilot)
        assert "press 1 to show all papers" in detail_text(app)  # in the list, 1 is the key itself


async def test_the_widen_hint_names_the_key_a_keymap_moved_show_all_papers_to(library: Library) -> None:
    """With `browse.filter_all` remapped to `A`, the hint says `A`, and `A` does what it says."""
    app = reader(library, keymap={"browse.filter_all": "A"})
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert browse(app).paper_list.ids == ()
        assert "press A to show all papers" in detail_text(app)
        await pilot.press("A")
        await settle(pilot)
        assert browse(app).filter == "all" and browse(app).paper_list.ids


@pytest.mark.parametrize("size", SIZES)
async def test_4_puts_the_best_recommendation_on_top(library: Library, size: tuple[int, int]) -> None:
    papers = list(library.papers)
    library.marks.star([papers[0].id, papers[1].id])
    app = reader(library)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        screen = browse(app)
        await pilot.press(*["j"] * 30)
        await settle(pilot)
        assert screen.paper_list.cursor == 30
        await pilot.press("4")
        await settle(pilot)
        assert screen.paper_list.ids, "for you found nothing to recommend"
        assert screen.paper_list.cursor == 0
        assert screen.paper_list.selected_id == screen.paper_list.ids[0]
        assert screen.paper_list.scroll_y == 0
