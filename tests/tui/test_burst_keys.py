"""Editing keys in a burst: any keys that reach the search bar at once end in the query typed slowly.

The terminal driver posts every key of one read before any is handled, so a burst here is posted the same way
(`pilot.press` waits for the app to be idle after each key, which hides a reordering); each burst is compared
with the same keys pressed one at a time with a pause after each, and also through `pilot.press(*keys)`.
"""

from __future__ import annotations

import pytest
from textual import events
from textual.pilot import Pilot

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, reader

SEQUENCES = {
    "backspace then a letter": ["slash", *"graphx", "backspace", "s"],
    "ctrl+a then a letter": ["slash", *"raph", "ctrl+a", "g"],
    "ctrl+u then a word": ["slash", *"graph", "ctrl+u", *"diffusion"],
    "ctrl+w then a word": ["slash", *"graph neural", "ctrl+w", *"network"],
    "cursor keys with typing": [
        "slash", *"grph", "left", "left", "left", "r", "end", "s", "home", "x", "right", "delete",
    ],
    "slash ctrl+u diffusion": ["slash", "ctrl+u", *"diffusion"],
}  # fmt: skip


def _key(name: str) -> events.Key:
    """A key as the driver makes it: a printable one carries its character, a named one (ctrl+u) none."""
    if name == "space":
        return events.Key("space", " ")
    return events.Key(name, name if len(name) == 1 else None)


def _names(keys: list[str]) -> list[str]:
    return ["space" if key == " " else key for key in keys]


async def _typed(
    library: Library, keys: list[str], how: str, debounce: float
) -> tuple[str, int, str, list[str]]:
    """Start with a query already searched ("old query"), type `keys`; what the bar and the list end with."""
    app = reader(library, debounce=debounce)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *_names(list("old query")), "enter")
        await settle(pilot)
        await _deliver(pilot, _names(keys), how)
        await settle(pilot)
        screen = browse(app)
        bar = screen.search_bar
        return bar.value, bar.input.cursor_position, screen.outcome.query, list(screen.paper_list.ids)


async def _deliver(pilot: Pilot[None], keys: list[str], how: str) -> None:
    if how == "slowly":
        for key in keys:
            await pilot.press(key)
            await settle(pilot)
    elif how == "pilot.press":
        await pilot.press(*keys)
    else:  # in one read, as the driver posts them
        for key in keys:
            pilot.app.post_message(_key(key))


_SLOW: dict[str, tuple[str, int, str, list[str]]] = {}
"""What each sequence typed slowly ends in (the same at any debounce), made once per session."""


@pytest.mark.parametrize(("how", "debounce"), [("one read", 0.03), ("one read", 0), ("pilot.press", 0.03)])
@pytest.mark.parametrize("name", list(SEQUENCES))
async def test_a_burst_ends_in_the_query_typed_slowly(
    library: Library, name: str, how: str, debounce: float
) -> None:
    keys = SEQUENCES[name]
    if name not in _SLOW:
        _SLOW[name] = await _typed(library, keys, "slowly", 0.03)
    slow = _SLOW[name]
    assert slow[0] == slow[2], "typed slowly, the query searched is the one shown"
    assert await _typed(library, keys, how, debounce) == slow
