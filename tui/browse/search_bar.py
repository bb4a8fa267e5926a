"""The search bar: a query input that reports a settled query after a short pause in typing."""

from __future__ import annotations

import time
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static

from tui.textual_private import KeyFirstInput, live_bindings
from tui.typeahead import TypeAheadApp


class QueryInput(KeyFirstInput):
    """The query's input, whose own keys (BSpace, ctrl+a/u/w, cursor keys) act the moment it receives them.

    Textual runs a widget's non-priority binding only once the key has bubbled up to the App, one message
    queue per ancestor, while a letter is typed as soon as the input receives it; in a burst (keys that
    arrive in one read over ssh) "x BSpace s" would end "xs" with the BSpace applied last. Running the
    binding here keeps every key in the order it came.
    """

    async def key_first(self, event: events.Key) -> bool:
        for binding in live_bindings(self).key_to_bindings.get(event.key, ()):
            if not binding.priority and await self.app.run_action(binding.action, self):
                return True
        return False


class SearchBar(Vertical):
    """Typing posts `QueryChanged` once the user pauses; the screen runs the search, never this widget."""

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority, so they act when dequeued, before keys typed after them are routed (tui/typeahead.py).
        Binding("escape", "clear_and_leave", "Clear", id="search.clear", priority=True),
        # down apart: a priority binding takes the footer slot of the input's own "down", so it would show
        # instead of ^j.
        Binding("ctrl+j", "leave", "To list", id="search.leave", priority=True),
        Binding("down,enter", "leave", show=False, priority=True),
    ]

    class QueryChanged(Message):
        """The query settled (debounced): search for it."""

        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    class Leave(Message):
        """The user is done typing and wants the results for `query` (Enter, Esc, ctrl+j, down).

        Keys typed after it are held (tui/typeahead.py) until the receiver has shown those results.
        `chosen`: the query was chosen whole (a saved search), so its `is:` words are the whole filter.
        """

        def __init__(self, query: str, chosen: bool = False) -> None:
            super().__init__()
            self.query = query
            self.chosen = chosen

    def __init__(self, *, debounce: float = 0.03, id: str | None = None) -> None:
        """`debounce`: seconds of quiet after which a key searches at once, and that end a burst. Short,
        because a keystroke's search takes a few ms at 56k (index/search/fastrank.py) and every ms is felt
        over ssh; not zero, so a burst that arrives at once (a paste, keys queued by a slow link) runs two
        searches (its first key and its end), not one per letter."""
        super().__init__(id=id)
        self.debounce = debounce
        self._timer: Timer | None = None
        self._sent = float("-inf")  # when the last QueryChanged went
        self.leaving = False
        """Leave was pressed and its receiver does not have it yet (it sets this back): keys held for it wait
        for that query's results, not for those of a letter searched on the way (a burst "/diffusion⏎s"
        searches "d" at once, and its results may land after the Leave is posted but before it is handled)."""

    def compose(self) -> ComposeResult:
        yield QueryInput(
            placeholder='Search (/) — words, "phrases", title:…, is:starred; ? for help',
            compact=True,
            id="query",
        )
        yield Static(Text(""), id="search-note")

    @property
    def input(self) -> Input:
        return self.query_one("#query", Input)

    @property
    def value(self) -> str:
        return self.input.value

    def set_value(self, query: str) -> None:
        """Replace the query text without triggering another search (the caller already ran it)."""
        with self.input.prevent(Input.Changed):
            self.input.value = query
        self.input.cursor_position = len(query)

    def search_for(self, query: str) -> None:
        """Show `query` and ask for its results as if it had been typed and left (a saved search chosen)."""
        self.set_value(query)
        self.post_message(self.Leave(query, chosen=True))

    def set_note(self, note: Text | None) -> None:
        """The one-line note under the query: malformed-query notices, suggestions, indexing progress."""
        widget = self.query_one("#search-note", Static)
        widget.update(note or Text(""))
        widget.display = bool(note and note.plain)

    @on(Input.Changed, "#query")
    def _typed(self, event: Input.Changed) -> None:
        """A key that comes after `debounce` of quiet searches at once (typing leaves 100+ ms between keys,
        so nearly every key does); one inside a burst waits for the burst to end, which searches once."""
        event.stop()
        quiet = self._timer is None and time.monotonic() - self._sent >= self.debounce
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if quiet or self.debounce <= 0:
            self._send()
        else:
            self._timer = self.set_timer(self.debounce, self._settled)

    def _settled(self) -> None:
        self._timer = None
        self._send()

    def _send(self) -> None:
        self._sent = time.monotonic()
        self.post_message(self.QueryChanged(self.value))

    def action_leave(self) -> None:
        self._leave(clear=False)

    def action_clear_and_leave(self) -> None:
        self._leave(clear=True)

    def _leave(self, *, clear: bool) -> None:
        """Hold later keys; read the query once the input has handled the letters queued before this key.

        No time limit until the receiver has the Leave (it sets one while it waits for the search): `_left`
        always runs, and a key let through before it would be typed into the query it is about to leave.
        """
        if isinstance(self.app, TypeAheadApp):
            self.app.hold_keys(until_released=True)
        self.leaving = True
        self.input.call_later(self._left, clear)

    def _left(self, clear: bool) -> None:
        if self._timer is not None:
            self._timer.stop()  # the receiver searches for the query now; no debounced repeat
            self._timer = None
        if clear:
            self.set_value("")
        self.post_message(self.Leave(self.value))
