"""Keeps a long session's memory flat: drops the watchers that removed widgets leave behind (textual#6666).

`widget.watch(other, ...)` and `data_bind` store `(widget, callback)` on the *observed* object, and Textual
prunes that list only when the observed reactive changes. Textual's Footer binds every FooterKey to its own
`compact`, which never changes, and recomposes (new FooterKeys) whenever the focus or the bindings change, so
each focus move kept ~20 dead widgets with their styles and render caches alive: +36 KB a key in
bench/bench_soak.py, about 130 MB over an hour of use. The fix belongs in Textual; until it lands, the app
calls `prune` now and then, which removes exactly what Textual's own pruning would
(`Reactive._check_watchers`: entries whose widget is closing).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from textual.app import App
from textual.dom import DOMNode

WATCHERS = "__watchers"
"""The attribute Textual keeps watchers in (set with setattr, so not name-mangled)."""

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
        watchers = getattr(node, WATCHERS, None)
        if not isinstance(watchers, dict):
            continue
        for entries in watchers.values():
            alive = [entry for entry in entries if not getattr(entry[0], "_closing", False)]
            dropped += len(entries) - len(alive)
            entries[:] = alive  # in place: Textual holds on to the list itself
    return dropped


def _nodes(app: App[Any]) -> Iterable[DOMNode]:
    yield app
    for screen in app.screen_stack:
        yield from screen.walk_children(with_self=True)
