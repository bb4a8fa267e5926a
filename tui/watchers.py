"""Works around a Textual memory leak (textual#6666): drops the watchers that removed widgets leave behind.

The bug: Textualize/textual#6666, "Memory leak — watchers from `self.watch(other, ...)` / `data_bind` are not
removed when the owner is removed from the DOM", open and present in the pinned Textual.
`widget.watch(other, ...)` and `data_bind` store `(widget, callback)` on the *observed* object, and Textual
prunes that list only when the observed reactive changes (`Reactive._check_watchers`). Textual's
Footer binds every FooterKey to its own `compact`, which never changes, and recomposes (new FooterKeys)
whenever the focus or the bindings change, so each focus move keeps ~20 dead widgets with their styles and
render caches alive.

The measure: bench/bench_soak.py (`.venv/bin/python bench/bench_soak.py`: an hour of simulated key traffic
in a headless reader, RSS from /proc/self/statm beside an idle reader's) grows +36 KB a key without this
workaround, about 130 MB over the hour; run it once as is and once with the `set_interval` in
`PapersApp.on_mount` (tui/app.py) taken out to see it again. The watcher lists and the closing flag are
Textual's private state, read through tui/textual_private.py.

The workaround: the app calls `prune` every `PRUNE_EVERY` seconds, which removes exactly what Textual's own
pruning would (entries whose widget is closing) and nothing else.

When to drop it: when the Textual pinned in pyproject.toml includes the fix for #6666. The tripwire is
tests/tui/test_session.py::test_pruning_drops_the_watchers_of_footer_keys_a_recompose_removed, which fails
("Textual no longer leaks here") on a Textual that no longer leaks: then delete this module, its
`set_interval` in tui/app.py and that test, and check with bench/bench_soak.py that RSS stays flat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import App
from textual.dom import DOMNode

from tui.textual_private import is_closing, watcher_lists

PRUNE_EVERY = 10.0
"""Seconds between prunes: growth is bounded by 10 s of key presses, and an idle reader wakes rarely."""


def prune(app: App[Any]) -> int:
    """Drop watcher entries owned by closed widgets from every node of the app's screens.

    Args:
        app: the running app.

    Returns:
        How many entries were dropped.
    """
    dropped = 0
    for node in _nodes(app):
        for entries in watcher_lists(node):
            alive = [entry for entry in entries if not is_closing(entry[0])]
            dropped += len(entries) - len(alive)
            entries[:] = alive  # in place: Textual holds on to the list itself
    return dropped


def _nodes(app: App[Any]) -> Iterable[DOMNode]:
    yield app
    for screen in app.screen_stack:
        yield from screen.walk_children(with_self=True)
