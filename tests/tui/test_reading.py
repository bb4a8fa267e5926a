"""Reading as mutt and newsboat users expect (issue 40): orders by year and venue, full-screen reading with
`space` paging on to the next paper, and copying a paper's link and BibTeX entry, pressed as a user would at
80x24 and 120x40 over listings from several venues and years."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.app import App
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, reader, search_for, status_text

SIZES = [(80, 24), (120, 40)]


@pytest.fixture(params=SIZES, ids=["80x24", "120x40"])
def size(request: pytest.FixtureRequest) -> tuple[int, int]:
    """The small terminal and the roomy one: each test here runs at both."""
    shape: tuple[int, int] = request.param
    return shape


@asynccontextmanager
async def reading(library: Library, size: tuple[int, int], **options: Any) -> AsyncIterator[Pilot[None]]:
    """The reader over `library` at `size`, its first answer on the screen."""
    async with reader(library, **options).run_test(size=size) as pilot:
        await settle(pilot)
        yield pilot


def years(library: Library, ids: Iterator[str] | tuple[str, ...]) -> list[int | None]:
    return [library.papers.paper(paper_id).year for paper_id in ids]


def listed(library: Library, ids: tuple[str, ...]) -> list[int]:
    return [library.papers.position[paper_id] for paper_id in ids]


async def test_o_cycles_newest_oldest_venue_and_the_status_line_names_it(
    venues: Library, size: tuple[int, int]
) -> None:
    async with reading(venues, size) as pilot:
        app = pilot.app
        paper_list = browse(app).paper_list
        await pilot.press("o")
        await settle(pilot)
        assert "sorted by newest first" in status_text(app)
        newest = paper_list.ids
        assert years(venues, newest) == sorted(years(venues, newest), reverse=True)
        assert years(venues, newest)[:3] == [2025] * 3 and years(venues, newest)[-2:] == [2022] * 2
        in_2024 = [paper_id for paper_id in newest if venues.papers.paper(paper_id).year == 2024]
        assert listed(venues, tuple(in_2024)) == sorted(listed(venues, tuple(in_2024)))  # then listing order
        await pilot.press("o")
        await settle(pilot)
        assert "sorted by oldest first" in status_text(app)
        assert years(venues, paper_list.ids) == sorted(years(venues, newest))
        await pilot.press("o")
        await settle(pilot)
        assert "sorted by venue" in status_text(app)
        where = [venues.papers.paper(paper_id).venue for paper_id in paper_list.ids]
        assert where == ["AutoML Conf"] * 2 + ["ICLR"] * 3 + ["ICML"] * 4 + ["NeurIPS"] * 5
        icml = [venues.papers.paper(paper_id).year for paper_id in paper_list.ids][5:9]
        assert icml == [2024, 2024, 2023, 2023]  # the newest year first within a venue
        # The order holds for a query, which keeps it until `o` comes back round to relevance.
        await search_for(pilot, "graph")
        assert "sorted by venue" in status_text(app)
        assert list(paper_list.ids) == list(venues.view("graph", order="venue").ids)
        assert len(paper_list.ids) >= 2
        await pilot.press(*"ooo")  # listing order, recently starred, relevance
        await settle(pilot)
        assert "sorted by" not in status_text(app)
        assert list(paper_list.ids) == list(venues.view("graph", typing=True).ids)


def footer_labels(app: App[None]) -> list[str]:
    """The footer's keys as drawn: each key's label (cut to its first word when the line is short)."""
    return [key.description for key in app.screen.query(FooterKey)]


def paper_at(library: Library, title_start: str) -> int:
    return next(n for n, paper in enumerate(library.papers) if (paper.title or "").startswith(title_start))


async def test_L_copies_the_link_and_b_the_bibtex_entry_offered_in_the_footer(
    venues: Library, size: tuple[int, int]
) -> None:
    async with reading(venues, size) as pilot:
        app = pilot.app
        paper = venues.papers[0]
        labels = footer_labels(app)
        assert any(label.startswith("Link") for label in labels), labels
        assert any(label.startswith("BibTeX") for label in labels), labels
        await pilot.press("L")
        assert app.clipboard == "https://example.org/paper/1"
        await pilot.press("b")  # the entry is made in a worker: the copy follows it
        await settle(pilot)
        entry = app.clipboard
        assert entry.startswith("@inproceedings{lovelace2024attention"), entry
        assert "title = {Attention Over Graph Neural Networks}" in entry
        assert "author = {Ada Lovelace and Alan Turing}" in entry
        assert "url = {https://example.org/paper/1}" in entry and entry.endswith("}\n")
        exported = venues.exports.write("bibtex").text  # the key an export of every paper gives it
        assert entry.strip() in exported
        # `y` has the authors and the link too.
        await pilot.press("y")
        lines = app.clipboard.splitlines()
        assert lines[:5] == [
            "Attention Over Graph Neural Networks",
            "Ada Lovelace, Alan Turing",
            "NeurIPS 2024",
            "https://example.org/paper/1",
            f"id: {paper.id}",
        ]
        # A paper with no author cannot be cited: its footer offers the link only, and `b` copies nothing.
        for _ in range(paper_at(venues, "Untitled workshop note")):
            await pilot.press("j")
        await settle(pilot)
        labels = footer_labels(app)
        assert any(label.startswith("Link") for label in labels), labels
        assert not any(label.startswith("BibTeX") for label in labels), labels
        await pilot.press("b")
        await settle(pilot)
        assert app.clipboard.startswith("Attention Over Graph Neural Networks")  # still what `y` copied
        await pilot.press("L")
        assert app.clipboard == "https://example.org/paper/12"


async def test_papers_without_a_link_or_authors_offer_neither_key(library: Library) -> None:
    app = reader(library)  # the seeds: plain-text listings, no titles, authors or links
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        labels = footer_labels(app)
        assert labels and not any(label.startswith(("Link", "BibTeX")) for label in labels), labels
        await pilot.press("L", "b")
        await settle(pilot)
        assert app.clipboard == ""


async def test_enter_on_an_open_paper_gives_it_the_whole_screen_and_v_gives_it_back(
    library: Library, size: tuple[int, int]
) -> None:
    async with reading(library, size) as pilot:
        app = pilot.app
        screen = browse(app)
        detail, paper_list = screen.detail, screen.paper_list
        split = detail.outer_size
        await pilot.press("j", "enter")  # open the second paper: the detail pane has the focus
        assert app.focused is detail and not screen.full_screen
        await pilot.press("enter")  # Enter on the open paper
        await pilot.pause()
        assert screen.full_screen and app.focused is detail
        assert not paper_list.display or paper_list.region.area == 0
        assert detail.outer_size == (size[0], size[1] - 2)  # the status line and the keys stay
        assert detail.outer_size.height > split.height or detail.outer_size.width > split.width
        assert library.papers[1].id in detail_text(app)
        await pilot.press("v")
        await pilot.pause()
        assert not screen.full_screen and detail.outer_size == split and app.focused is detail
        await pilot.press("v")  # `v` from anywhere, and `h` back to the list ends it too
        await pilot.pause()
        assert screen.full_screen
        await pilot.press("h")
        await pilot.pause()
        assert not screen.full_screen and app.focused is paper_list
        await pilot.press("v", "escape")
        await pilot.pause()
        assert not screen.full_screen and paper_list.selected_id == library.papers[1].id


async def test_space_pages_then_opens_the_next_paper(library: Library, size: tuple[int, int]) -> None:
    async with reading(library, size) as pilot:
        app = pilot.app
        screen = browse(app)
        detail, paper_list = screen.detail, screen.paper_list
        ids = [paper.id for paper in library.papers]
        await pilot.press("enter", "v")
        await pilot.pause()
        pages = 0
        for _paper in range(3):
            shown = paper_list.selected_id
            while paper_list.selected_id == shown:
                before = detail.scroll_y
                at_end = detail.scroll_y >= detail.max_scroll_y
                await pilot.press("space")
                await pilot.pause()
                if not at_end:  # a page down, not a new paper
                    pages += 1
                    assert paper_list.selected_id == shown and detail.scroll_y > before
            # Past the end: the next paper, from its top, still full screen.
            assert ids.index(paper_list.selected_id) == ids.index(shown) + 1
            assert detail.scroll_y == 0 and screen.full_screen and app.focused is detail
            assert library.papers.title(paper_list.selected_id)[:30] in detail_text(app)
        if size == (80, 24):
            assert pages > 0  # the seeds' abstracts are longer than one page at 80x24


async def test_space_at_the_end_opens_the_next_unread_paper_when_configured(library: Library) -> None:
    ids = [paper.id for paper in library.papers]
    library.marks.toggle_read(ids[1])
    library.marks.toggle_read(ids[2])
    app = reader(library, space_at_end="unread")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = browse(app)
        await pilot.press("enter")
        while screen.paper_list.selected_id == ids[0]:
            await pilot.press("space")
            await pilot.pause()
        assert screen.paper_list.selected_id == ids[3]  # the two read papers are passed over


async def test_space_on_the_last_paper_says_so(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = browse(app)
        await pilot.press("G", "enter", "enter")
        last = screen.paper_list.selected_id
        await pilot.press("space", "space")
        await pilot.pause()
        assert screen.paper_list.selected_id == last
        assert any("last paper" in str(notice.message) for notice in app._notifications)


def test_full_screen_snapshot(
    venues: Library, snap_compare: Callable[..., bool], size: tuple[int, int]
) -> None:
    """The paper with the whole screen, its link and BibTeX keys in the footer."""

    async def opened(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("enter", "enter")
        await settle(pilot)

    assert snap_compare(reader(venues), terminal_size=size, run_before=opened)


async def test_setting_the_view_state_redraws_with_no_other_call(venues: Library) -> None:
    """The view state is reactive: a part (or the palette) that sets it gets the search, the list, the status
    line and the remembered session, as the keys do."""
    venues.marks.toggle_star(venues.papers[3].id)
    async with reading(venues, (120, 40)) as pilot:
        screen = browse(pilot.app)
        screen.order = "oldest"
        screen.filter = "starred"
        await settle(pilot)
        assert list(screen.paper_list.ids) == [venues.papers[3].id]
        assert "starred only · sorted by oldest first" in status_text(pilot.app)
        assert (venues.session.get("filter"), venues.session.get("order")) == ("starred", "oldest")
        screen.filter = "all"
        await settle(pilot)
        assert years(venues, tuple(screen.paper_list.ids)) == sorted(
            years(venues, tuple(screen.paper_list.ids))
        )
        screen.query_text = "graph"
        await settle(pilot)
        assert list(screen.paper_list.ids) == list(venues.view("graph", order="oldest", typing=True).ids)
        source = screen.paper_list.selected_id
        assert source is not None
        await pilot.press("m")
        assert screen.similar is not None and screen.paper_list.ids[0] == source
        screen.similar = None  # as Esc does
        assert list(screen.paper_list.ids) == list(screen.outcome.ids)
        assert screen.paper_list.selected_id == source and "like" not in status_text(pilot.app)
