"""The search bar: a query input that reports a settled query after a short pause in typing."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.timer import Timer
from textual.widgets import Input, Static


class SearchBar(Vertical):
    """Typing posts `QueryChanged` once the user pauses; the screen runs the search, never this widget."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "clear_and_leave", "Clear", id="search.clear"),
        Binding("ctrl+j,down", "leave", "To list", id="search.leave"),
    ]

    class QueryChanged(Message):
        """The query settled (debounced): search for it."""

        def __init__(self, query: str) -> None:
            super().__init__()
            self.query = query

    class Leave(Message):
        """The user is done typing and wants the results (Enter, Esc, ctrl+j, down)."""

    def __init__(self, *, debounce: float = 0.1, id: str | None = None) -> None:
        super().__init__(id=id)
        self.debounce = debounce
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Input(
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

    def take_query(self, *, clear: bool = False) -> str:
        """The query as typed (emptied first if `clear`), for a caller that searches at once (no repeat)."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if clear:
            self.set_value("")
        return self.value

    def set_note(self, note: Text | None) -> None:
        """The one-line note under the query: malformed-query notices, suggestions, indexing progress."""
        widget = self.query_one("#search-note", Static)
        widget.update(note or Text(""))
        widget.display = bool(note and note.plain)

    @on(Input.Changed, "#query")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.debounce <= 0:
            self.post_message(self.QueryChanged(event.value))
        else:
            self._timer = self.set_timer(self.debounce, self._settled)

    def _settled(self) -> None:
        self._timer = None
        self.post_message(self.QueryChanged(self.value))

    @on(Input.Submitted, "#query")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._flush()
        self.post_message(self.Leave())

    def _flush(self) -> None:
        """Search now for a query still waiting out its debounce, so leaving never shows stale results."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
            self.post_message(self.QueryChanged(self.value))

    def action_leave(self) -> None:
        self._flush()
        self.post_message(self.Leave())

    def action_clear_and_leave(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.value:
            self.set_value("")
            self.post_message(self.QueryChanged(""))
        self.post_message(self.Leave())
