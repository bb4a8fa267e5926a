"""Reading as mutt and newsboat users expect (issue 40): orders by year and venue, full-screen reading with
`space` paging on to the next paper, and copying a paper's link and BibTeX entry, pressed as a user would at
80x24 and 120x40 over listings from several venues and years."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, reader, search_for, status_text

SIZES = [(80, 24), (120, 40)]


def years(library: Library, ids: Iterator[str] | tuple[str, ...]) -> list[int | None]:
    return [library.papers.paper(paper_id).year for paper_id in ids]


def listed(library: Library, ids: tuple[str, ...]) -> list[int]:
    return [library.papers.position[paper_id] for paper_id in ids]


@pytest.mark.parametrize("size", SIZES)
async def test_o_cycles_newest_oldest_venue_and_the_status_line_names_it(
    venues: Library, size: tuple[int, int]
) -> None:
    app = reader(venues)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
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
