"""SVG snapshots of the reader (reviewed as PNGs before acceptance): layouts, highlights, help, no hits."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import reader

SnapCompare = Callable[..., bool]


async def _settled(pilot: Pilot[Any]) -> None:
    await settle(pilot)


def test_main_screen_80x24(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(reader(library), terminal_size=(80, 24), run_before=_settled)


def test_main_screen_120x40(library: Library, snap_compare: SnapCompare) -> None:
    library.toggle_star(library.papers[1].id)
    library.mark_read([library.papers[2].id])
    assert snap_compare(reader(library), terminal_size=(120, 40), press=["j"], run_before=_settled)


def test_search_with_highlights(library: Library, snap_compare: SnapCompare) -> None:
    async def search(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash", *"diffusion models", "enter")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(120, 40), run_before=search)


def test_help_screen(library: Library, snap_compare: SnapCompare) -> None:
    assert snap_compare(
        reader(library), terminal_size=(100, 40), press=["question_mark"], run_before=_settled
    )


def test_zero_results(library: Library, snap_compare: SnapCompare) -> None:
    async def search(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("slash", *"zqxjkwv", "enter")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(120, 40), run_before=search)
