"""SVG snapshots of the tag prompt and the note editor (reviewed as PNGs before acceptance)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.pilot import Pilot

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import reader

SnapCompare = Callable[..., bool]


def _tagged(library: Library) -> None:
    """A paper with tags (shown in its row and the header) and a tag in use elsewhere, for completion."""
    first, second = library.papers[0].id, library.papers[1].id
    library.organiser.tag([first], ["later", "robotics"])
    library.organiser.tag([second], ["latent-space"])
    library.organiser.set_note(first, "Compare with the PeRM baseline.")


def test_tag_prompt_80x24(library: Library, snap_compare: SnapCompare) -> None:
    _tagged(library)

    async def typed(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("t", *"ml -rob lat")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(80, 24), run_before=typed)


def test_tag_prompt_120x40(library: Library, snap_compare: SnapCompare) -> None:
    _tagged(library)

    async def typed(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("t", *"ml lat")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(120, 40), run_before=typed)


def test_note_editor_80x24(library: Library, snap_compare: SnapCompare) -> None:
    _tagged(library)

    async def opened(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)

    assert snap_compare(reader(library), terminal_size=(80, 24), run_before=opened)
