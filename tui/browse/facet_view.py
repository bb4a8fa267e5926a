"""The facet panel as the browse screen uses it: shown and hidden by `f`, recounted with each view, and a
chosen entry turned into the query the search bar then shows (`venue:X`, `year:N`, `status:X`).

A part the browse screen owns (through `Discovering`): the `f` key stays bound on `BrowseScreen.BINDINGS`
(users remap it by id) and its action calls `toggle`; the panel is mounted the first time it is shown. A
chosen entry goes to the screen as `QueryRequested`; closing the panel sends `ListFocusRequested`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.browse.messages import ListFocusRequested, QueryRequested
from tui.browse.panes import Panes
from tui.text import one_line
from tui.widgets.facet_panel import FacetPanel, FacetValue

if TYPE_CHECKING:
    from textual.screen import Screen

    from index.library import Library, View

PANEL_ID = "facet-panel"
PANES_ID = "panes"
"""The container the panel docks into (app.tcss docks it on the left of the list)."""


class FacetBrowsing:
    """Shows facet counts for the host's view and narrows its query by the one chosen.

    Args:
        host: the browse screen: it holds the panes the panel docks into, and the focus.
        library: counts and `narrow` come from `library.discovery`.
    """

    def __init__(
        self,
        host: Screen[None],
        library: Library,
    ) -> None:
        self._host = host
        self._library = library
        self._panel: FacetPanel | None = None

    @property
    def shown(self) -> bool:
        return self._panel is not None and self._panel.display

    def toggle(self, view: View) -> None:
        """`f`: show the panel with counts for `view` and focus it, or hide it and give the focus back."""
        if self.shown:
            self.close()
            return
        panes = self._host.query_one(f"#{PANES_ID}", Panes)
        if self._panel is None:
            self._panel = FacetPanel(self._library, id=PANEL_ID)
            panes.mount(self._panel, before=0)
        self._panel.display = True
        self._panel.count(view, view.query)
        self._host.set_focus(self._panel)
        panes.apply()  # the list's width, from what the panel leaves

    def close(self) -> None:
        if self._panel is not None and self._panel.display:
            self._panel.display = False
            self._host.post_message(ListFocusRequested())
            self._host.query_one(f"#{PANES_ID}", Panes).apply()

    def view_changed(self, view: View) -> None:
        """A new view is shown: recount, when the panel is open (a hidden panel costs nothing)."""
        if self._panel is not None and self._panel.display:
            self._panel.count(view, view.query)

    def request(self, request: FacetPanel.Request, query: str) -> None:
        """The panel's messages, handed over by the screen: an entry chosen, or Esc in the panel."""
        if isinstance(request, FacetPanel.Chosen):
            self.choose(query, request.field, request.value, toggle=request.toggle)
        else:
            self.close()

    def choose(self, query: str, field: str, value: FacetValue | None, *, toggle: bool = False) -> None:
        """Narrow `query` by the entry chosen (None drops the field's clause; `toggle` adds the value to the
        field's or takes it out) and run it; the panel keeps the focus, so a venue and then a year can be
        chosen in a row."""
        discovery = self._library.discovery
        try:
            if toggle and value is not None:
                narrowed = discovery.toggle(query, field, value)
            else:
                narrowed = discovery.narrow(query, field, value)
        except ValueError as error:  # a value with no word to search for
            self._host.notify(one_line(str(error)), severity="warning", markup=False)
            return
        self._host.post_message(QueryRequested(narrowed))
        if self._panel is not None:
            self._host.set_focus(self._panel)
