"""Type-ahead: keys arriving while the reader is between two states wait, in order, instead of going astray.

Textual routes a key to the widget focused when the App dequeues it, but a non-priority binding (and any
message a key triggers) runs later, after the key has bubbled back up. Over ssh a burst such as "/diffusion⏎s"
arrives in one read, so every key is routed before the first has moved the focus. Focus moves that must take
effect before the next key are therefore priority bindings; where the next key must also wait for work that
finishes asynchronously (the search a submitted query starts), the screen holds the keys until it is done.
"""

from __future__ import annotations

from collections import deque
from typing import Any

from textual import events
from textual.app import App
from textual.screen import Screen
from textual.timer import Timer

HOLD_LIMIT = 3.0
"""Seconds after which held keys are let through anyway: a slow search must never make the reader deaf."""


class TypeAheadApp(App[None]):
    """An App whose screens may hold incoming keys (`hold_keys`) until they can be routed correctly."""

    def __init__(self) -> None:
        super().__init__()
        self._held: deque[events.Key] = deque()
        self._holding = False
        self._hold_timer: Timer | None = None

    def hold_keys(self, *, until_released: bool = False) -> None:
        """Queue keys from now on, until `release_keys` (or HOLD_LIMIT seconds) lets them through.

        The limit is for work that may be slow (a search). `until_released` is for a step that always
        finishes, a message on its way through the queue: under load that can take longer than any limit,
        and keys let through early would go to the widget the step was about to leave.
        """
        self._holding = True
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if not until_released:
            self._hold_timer = self.set_timer(HOLD_LIMIT, self.release_keys)

    def release_keys(self) -> None:
        """Deliver the queued keys in order; one of them may hold the rest again."""
        if self._hold_timer is not None:
            self._hold_timer.stop()
            self._hold_timer = None
        if self._holding:
            self._holding = False
            self.call_later(self._replay)

    async def _replay(self) -> None:
        while self._held and not self._holding:
            await super().on_event(self._held.popleft())

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and (self._holding or self._held):
            self._held.append(event)
            return
        await super().on_event(event)


def typed_ahead(screen: Screen[Any]) -> None:
    """A dialog has focused its input: let through the keys held since the key that opened it."""
    if isinstance(screen.app, TypeAheadApp):
        screen.app.release_keys()
