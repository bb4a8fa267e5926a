"""The saved searches (`S`): each with how many unread papers it finds now, like newsboat's query feeds.

Enter answers with the search's query (the browse screen runs it and shows it in the search bar), `d`
deletes the highlighted one. Counting runs a search per saved query, so it happens in a worker thread and
each count appears when it is ready; the list is usable before any has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import get_current_worker

from tui.saving import saving
from tui.screens.confirm import ConfirmScreen
from tui.text import one_line
from tui.typeahead import typed_ahead

if TYPE_CHECKING:
    from index.library import Organiser

NAME_WIDTH = 20
"""Cells for a search's name before its query."""
EMPTY_HINT = "No saved searches yet. ctrl+s (Save search as…) names the current query."


def search_row(name: str, query: str, unread: int | str | None) -> Text:
    """One row: the name, its query dimmed, and the unread count (or "…" while counting, "?" on failure)."""
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    count = "…" if unread is None else str(unread)
    text.append(f"{count:>6} ", "bold" if isinstance(unread, int) and unread else "dim")
    shown = one_line(name)
    shown = shown if len(shown) <= NAME_WIDTH else shown[: NAME_WIDTH - 1] + "…"
    text.append(shown.ljust(NAME_WIDTH), "bold")
    text.append("  ")
    text.append(one_line(query) or "(every paper)", "dim")
    return text


class SavedSearches(ModalScreen[str | None]):
    """Lists `organiser`'s saved searches; dismisses with the chosen query, or None (Esc)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Close", id="saved.close"),
        Binding("d,delete", "delete", "Delete", id="saved.delete"),
        # The list's own keys, as in the paper list (the OptionList binds only the arrows, Home and End).
        Binding("down,j", "move('down')", "Down", show=False, id="saved.down"),
        Binding("up,k", "move('up')", "Up", show=False, id="saved.up"),
        Binding("home,g", "move('first')", "First", show=False, id="saved.first"),
        Binding("end,G", "move('last')", "Last", show=False, id="saved.last"),
    ]

    def __init__(self, organiser: Organiser) -> None:
        super().__init__()
        self.organiser = organiser
        self.searches = dict(organiser.saved_searches())
        self._names: list[str] = list(self.searches)

    def compose(self) -> ComposeResult:
        with Vertical(id="saved-dialog") as dialog:
            dialog.border_title = "Saved searches"
            dialog.border_subtitle = "⏎ search · d delete · q close"
            yield OptionList(*self._options(), id="saved-list")
            yield Static(Text(EMPTY_HINT), id="saved-empty")

    def _options(self) -> list[Option]:
        """A row per search, its count still to come; ids are positions in `_names`."""
        return [
            Option(search_row(name, query, None), id=str(number))
            for number, (name, query) in enumerate(self.searches.items())
        ]

    def reload(self) -> None:
        """Another process saved or deleted a search: list what is stored now and count it afresh."""
        searches = dict(self.organiser.saved_searches())
        if searches == self.searches:
            return
        highlighted = self._highlighted_name()
        self.searches = searches
        self._names = list(searches)
        option_list = self.option_list
        option_list.clear_options()
        option_list.add_options(self._options())
        if highlighted in searches:
            option_list.highlighted = self._names.index(highlighted)
        self._show_empty()
        self._count(list(searches.items()))

    @property
    def option_list(self) -> OptionList:
        return self.query_one("#saved-list", OptionList)

    def on_mount(self) -> None:
        self._show_empty()
        self.set_focus(self.option_list)
        typed_ahead(self)
        self._count(list(self.searches.items()))

    def _show_empty(self) -> None:
        empty = not self.searches
        self.option_list.display = not empty
        self.query_one("#saved-empty", Static).display = empty

    @work(thread=True, exclusive=True, group="saved-counts", exit_on_error=False)
    def _count(self, searches: list[tuple[str, str]]) -> None:
        worker = get_current_worker()
        for name, query in searches:
            if worker.is_cancelled:
                return
            try:
                unread: int | str | None = self.organiser.unread_count(query)
            except Exception:  # a saved query that cannot run says so in its row; the others still count
                unread = "?"
            if unread is None:
                unread = "–"  # the index is still being built: nothing to count yet
            self.app.call_from_thread(self._counted, name, query, unread)

    def _counted(self, name: str, query: str, unread: int | str) -> None:
        if self.searches.get(name) == query:  # not deleted meanwhile
            number = str(self._names.index(name))
            self.option_list.replace_option_prompt(number, search_row(name, query, unread))

    def _highlighted_name(self) -> str | None:
        option_list = self.option_list
        if option_list.highlighted is None or not self.searches:
            return None
        option_id = option_list.get_option_at_index(option_list.highlighted).id
        return self._names[int(option_id)] if option_id is not None else None

    @on(OptionList.OptionSelected, "#saved-list")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id is not None:
            self.dismiss(self.searches[self._names[int(event.option.id)]])

    def action_delete(self) -> None:
        """Ask first: `u` does not bring a saved search back."""
        name = self._highlighted_name()
        if name is None:
            return

        def answered(yes: bool | None) -> None:
            if yes and name in self.searches:
                deleted = False
                with saving(self):
                    self.organiser.delete_search(name)
                    deleted = True
                if not deleted:
                    return
                del self.searches[name]
                self.option_list.remove_option(str(self._names.index(name)))
                self._show_empty()
                self.notify(f"Deleted the saved search {one_line(name)!r}.", timeout=2, markup=False)

        self.app.push_screen(ConfirmScreen(f"Delete the saved search {one_line(name)!r}?"), answered)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_move(self, to: str) -> None:
        """j/k/g/G: the list's own moves, as the arrows, Home and End make them."""
        option_list = self.option_list
        moves = {
            "down": option_list.action_cursor_down,
            "up": option_list.action_cursor_up,
            "first": option_list.action_first,
            "last": option_list.action_last,
        }
        moves[to]()
