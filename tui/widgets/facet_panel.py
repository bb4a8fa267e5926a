"""The facet panel (`f`): how many of the shown papers come from each venue, year and track.

Choosing an entry (Enter or a click) asks the screen to narrow the query to it; choosing the entry in force,
or its section's "any" entry, asks to drop that clause. Space adds the entry to the values its section
narrows to, or takes it out (`venue:(ICML OR NeurIPS)`: papers from either). The counts come from
`library.discovery.facets`, counted in a worker thread (12-25 ms at 56k papers) so typing a query never
waits for them; only the newest view's counts are shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from tui.text import one_line

if TYPE_CHECKING:
    from index.library import Facets, Library, View

FacetValue = str | int
SECTIONS = (("venue", "Venue"), ("year", "Year"), ("status", "Track"))
"""The facets in the order the panel lists them, with their headings (`status` is what users call a track)."""
LABEL_WIDTH = 26
"""Cells for a value and its count: the panel's width in app.tcss less its border, padding and scrollbar."""
COUNT_WIDTH = 6
WAITING = "Counts appear when the index is ready."


@dataclass(frozen=True, slots=True)
class Entry:
    """What one row of the panel stands for: a value to narrow to, or None for "any" (drop the clause)."""

    field: str
    value: FacetValue | None
    active: bool = False

    @property
    def key(self) -> tuple[str, FacetValue | None]:
        return self.field, self.value


def one_key(value: FacetValue) -> str:
    """A value as the panel compares it with the query's (any case, any spacing)."""
    return " ".join(str(value).split()).casefold()


def entry_label(name: str, count: int | None, *, active: bool) -> Text:
    """A row: a mark when the query holds this clause, the value (cut to fit), its count on the right."""
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    text.append("● " if active else "  ", "bold")
    room = LABEL_WIDTH - 2 - (COUNT_WIDTH if count is not None else 0)
    shown = one_line(name)
    if len(shown) > room:
        shown = shown[: max(room - 1, 0)] + "…"
    text.append(shown.ljust(room), "bold" if active else "")
    if count is not None:
        text.append(f"{count:>{COUNT_WIDTH}}", "dim")
    return text


class FacetPanel(OptionList):
    """Counts per venue, year and track for the screen's current view; posts `Chosen` when one is picked."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="facets.down"),
        Binding("up,k", "cursor_up", "Up", show=False, id="facets.up"),
        Binding("home,g", "first", "First", show=False, id="facets.first"),
        Binding("end,G", "last", "Last", show=False, id="facets.last"),
        Binding("space", "toggle_value", "Add / take out", id="facets.toggle"),
        Binding("escape,q", "close", "Close facets", id="facets.close"),
    ]

    class Request(Message):
        """Something the panel asks of its screen (one handler there takes both kinds)."""

    class Chosen(Request):
        """The user picked an entry: narrow the query to `value` for `field`, or drop that clause (None);
        `toggle`: add `value` to the field's values, or take it out when it is one of them."""

        def __init__(self, field: str, value: FacetValue | None, *, toggle: bool = False) -> None:
            super().__init__()
            self.field = field
            self.value = value
            self.toggle = toggle

    class Closed(Request):
        """The user closed the panel from inside it (Esc): the screen hides it and takes the focus back."""

    def __init__(self, library: Library, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.library = library
        self.border_title = "Facets"
        self.entries: dict[str, Entry] = {}
        self._serial = 0

    def count(self, view: View, query: str) -> None:
        """Recount for `view` (the papers `query` finds) in a thread; a newer call supersedes this one."""
        self._serial += 1
        self._count(self._serial, view, query)

    @work(thread=True, exclusive=True, group="facets", exit_on_error=False)
    def _count(self, serial: int, view: View, query: str) -> None:
        worker = get_current_worker()
        try:
            facets = self.library.discovery.facets_to_choose(view)
        except Exception as error:  # the panel says so; searching and reading go on
            if not worker.is_cancelled:
                message = f"Facets failed: {type(error).__name__}: {one_line(str(error))}"
                self.app.call_from_thread(self.notify, message, severity="error", markup=False)
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._show, serial, facets, query, view.waiting)

    def _show(self, serial: int, facets: Facets, query: str, waiting: bool) -> None:
        if serial != self._serial:
            return  # a newer view's counts are on their way
        highlighted = self._highlighted_entry()
        options: list[Option] = []
        self.entries = {}
        self.border_subtitle = f"{facets.total} papers" if not waiting else ""
        if waiting:
            options.append(Option(Text(WAITING, end=""), disabled=True))
        for field, heading in SECTIONS if not waiting else ():
            values: Sequence[tuple[FacetValue, int]] = getattr(facets, field)
            options.append(Option(Text(heading, style="bold underline", end=""), disabled=True))
            held = {one_key(value) for value in self.library.discovery.chosen(query, field)}
            rows = [Entry(field, value, one_key(value) in held) for value, _count in values]
            unnarrowed = not any(entry.active for entry in rows)
            options.append(self._option(Entry(field, None, unnarrowed), f"any {heading.lower()}", None))
            for entry, (_value, number) in zip(rows, values, strict=True):
                options.append(self._option(entry, str(entry.value), number))
            if not values:
                options.append(Option(Text("  (none listed)", style="dim", end=""), disabled=True))
        self.set_options(options)
        # The entry highlighted before the recount stays highlighted wherever it moved, else the first one.
        same = [key for key, entry in self.entries.items() if highlighted and entry.key == highlighted.key]
        self.highlighted = self.get_option_index(same[0]) if same else 0
        if self.get_option_at_index(self.highlighted).disabled:
            self.action_cursor_down()

    def _highlighted_entry(self) -> Entry | None:
        if self.highlighted is None or self.highlighted >= self.option_count:
            return None
        return self.entries.get(self.get_option_at_index(self.highlighted).id or "")

    def _option(self, entry: Entry, name: str, count: int | None) -> Option:
        option_id = f"facet-{len(self.entries)}"
        self.entries[option_id] = entry
        return Option(entry_label(name, count, active=entry.active), id=option_id)

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        entry = self.entries.get(event.option.id or "")
        if entry is None:
            return
        # Choosing the clause in force takes it away again, like the "any" entry.
        self.post_message(self.Chosen(entry.field, None if entry.active else entry.value))

    def action_toggle_value(self) -> None:
        """Space: the highlighted value joins its section's values, or leaves them ("any" drops them all)."""
        entry = self._highlighted_entry()
        if entry is not None:
            self.post_message(self.Chosen(entry.field, entry.value, toggle=entry.value is not None))

    def action_close(self) -> None:
        self.post_message(self.Closed())
