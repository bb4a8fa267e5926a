"""`p`: two-line rows, the second the clause of the abstract that states the paper's contribution, dimmed,
with the query's matches; remembered by the next session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tui.conftest import settle
from tests.tui.helpers import browse, list_rows, reader, search_for, seeds_library


def _clause(row: str) -> str:
    return " ".join(row.split()).rstrip("…")


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_p_shows_each_papers_contribution_under_its_headline_and_is_remembered(
    seed_index: Path, tmp_path: Path, size: tuple[int, int]
) -> None:
    data_dir = tmp_path / "data"
    with seeds_library(seed_index, data_dir) as library:
        app = reader(library)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            paper_list = browse(app).paper_list
            one_line = [row for row in list_rows(app) if row.strip()]
            await pilot.press("p")
            await settle(pilot)
            rows = list_rows(app)
            ids = paper_list.ids
            assert len(rows) >= 6
            for number in range(len(rows) // 2):
                headline, preview = rows[2 * number], rows[2 * number + 1]
                assert headline[4:].strip() and one_line[number][4:].strip() == headline[4:].strip()
                clause, _ = library.papers.preview(ids[number])
                assert preview.startswith("    ") and clause.strip()
                assert " ".join(clause.split()).startswith(_clause(preview)[:20]), (preview, clause)
            # "we propose"-like clauses, not the opening sentence, where an abstract has one
            assert any(_clause(row).lower().startswith("we ") for row in rows[1::2])
            # the cursor moves by paper, two lines at a time, and the list scrolls to keep it in view
            await pilot.press(*["down"] * 15)
            await settle(pilot)
            assert paper_list.cursor == 15
            assert paper_list.scroll_offset.y <= 2 * 15 < paper_list.scroll_offset.y + len(rows)
        app = reader(library)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert browse(app).paper_list.row_height == 2, "the next session keeps the preview lines"
            await pilot.press("p")
            await settle(pilot)
            assert browse(app).paper_list.row_height == 1
            paper_list = browse(app).paper_list
            top = paper_list.scroll_offset.y
            for y, row in enumerate(list_rows(app)[:6]):
                headline = library.papers.paper(paper_list.ids[top + y]).headline
                assert row[4:].startswith(headline[:20]), "one line per paper again"
    with seeds_library(seed_index, data_dir) as library:
        app = reader(library)
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            assert browse(app).paper_list.row_height == 1


async def test_a_preview_line_marks_the_querys_matches_dimmed(seed_index: Path, tmp_path: Path) -> None:
    with seeds_library(seed_index, tmp_path / "data") as library:
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await pilot.press("p")
            await search_for(pilot, "propose")
            await settle(pilot)
            paper_list = browse(app).paper_list
            match = paper_list.get_component_rich_style("paper-list--match")
            dimmed = paper_list.get_component_rich_style("paper-list--preview")
            assert match.reverse and dimmed.color is not None
            marked: list[str] = []
            height = paper_list.scrollable_content_region.height
            for y in range(3, height, 2):  # past the cursor's row, which is drawn in the cursor's colours
                segments = [segment for segment in paper_list.render_line(y) if segment.text.strip()]
                marked += [s.text for s in segments if s.style is not None and s.style.reverse]
                plain = [s for s in segments if s.style is not None and not s.style.reverse]
                assert all(s.style is not None and s.style.color == dimmed.color for s in plain)
            assert marked and {text.lower() for text in marked} <= {"propose", "proposed", "proposes"}
