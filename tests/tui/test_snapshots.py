"""SVG snapshots of the reader (reviewed as PNGs before acceptance): layouts, highlights, help, no hits.

The 120x40 main screen is also the README's screenshot, `docs/screenshot.svg`: `--snapshot-update` copies it
there, and a test fails while the two differ.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import reader

SnapCompare = Callable[..., bool]

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "screenshot.svg"
MAIN_120x40 = Path(__file__).parent / "__snapshots__" / "test_snapshots" / "test_main_screen_120x40.svg"


async def _settled(pilot: Pilot[Any]) -> None:
    await settle(pilot)


def test_main_screen_80x24(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(reader(library), terminal_size=(80, 24), run_before=_settled)


def test_main_screen_120x40(
    library: Library, snap_compare: SnapCompare, request: pytest.FixtureRequest
) -> None:
    library.marks.toggle_star(library.papers[1].id)
    library.marks.mark_read([library.papers[2].id])
    if request.config.option.update_snapshots:
        # syrupy writes snapshots when the session ends; config clean-ups run after that, in this process.
        request.config.add_cleanup(lambda: shutil.copyfile(MAIN_120x40, SCREENSHOT))
    assert snap_compare(reader(library), terminal_size=(120, 40), press=["j"], run_before=_settled)


def test_readme_screenshot_is_the_120x40_snapshot(request: pytest.FixtureRequest) -> None:
    if request.config.option.update_snapshots:
        pytest.skip("--snapshot-update copies the snapshot when the session ends")
    assert SCREENSHOT.read_bytes() == MAIN_120x40.read_bytes(), (
        f"docs/screenshot.svg is stale: cp {MAIN_120x40.relative_to(ROOT)} {SCREENSHOT.relative_to(ROOT)}"
    )


def test_search_with_highlights(library: Library, snap_compare: SnapCompare) -> None:
    async def search(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash", *"diffusion models", "enter")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(120, 40), run_before=search)


def test_main_screen_100x30(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(reader(library), terminal_size=(100, 30), run_before=_settled)


def test_help_screen(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(
        reader(library), terminal_size=(100, 40), press=["question_mark"], run_before=_settled
    )


def test_help_screen_100x30(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(
        reader(library), terminal_size=(100, 30), press=["question_mark"], run_before=_settled
    )


def test_help_screen_query_syntax_120x40(library: Library, snap_compare: SnapCompare) -> None:
    """The second page: the query syntax's words and fields (the filters are the third), at 120x40."""
    assert snap_compare(
        reader(library), terminal_size=(120, 40), press=["question_mark", "space"], run_before=_settled
    )


def test_help_screen_80x24(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(reader(library), terminal_size=(80, 24), press=["question_mark"], run_before=_settled)


@pytest.mark.parametrize("pages", [1, 2], ids=["query-syntax", "filters"])
def test_help_screen_later_pages_80x24(library: Library, snap_compare: SnapCompare, pages: int) -> None:
    """Each page of help is one screen at 80x24, the query syntax's two as well as the keys."""
    press = ["question_mark", *["space"] * pages]
    assert snap_compare(reader(library), terminal_size=(80, 24), press=press, run_before=_settled)


def test_notice_on_the_footer_line_80x24(library: Library, snap_compare: SnapCompare) -> None:
    """A notice ("Starred.") takes the footer's line: the status line and the abstract stay readable."""
    assert snap_compare(reader(library), terminal_size=(80, 24), press=["j", "s"], run_before=_settled)


def test_detail_focused_80x24(library: Library, snap_compare: SnapCompare) -> None:
    """Stacked panes with the paper open: the footer's labels shortened to fit, none cut."""
    assert snap_compare(reader(library), terminal_size=(80, 24), press=["j", "enter"], run_before=_settled)


def test_zero_results(library: Library, snap_compare: SnapCompare) -> None:
    async def search(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash", *"zqxjkwv", "enter")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(120, 40), run_before=search)
