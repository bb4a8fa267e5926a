"""The browse screen's facet panel (`f`) and triage (`T`), as one helper the screen owns.

Like `Marking` and `Organising`: the keys stay bound on `BrowseScreen.BINDINGS` (users remap them by id:
`browse.facets`, `browse.triage`), and its one action hands over to `act`. The work itself is done by
`FacetBrowsing` (tui/screens/facet_view.py) and `Triaging` (tui/screens/triage.py), made when first used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tui.screens.facet_view import FacetBrowsing
from tui.screens.triage import Triaging

if TYPE_CHECKING:
    from index.library import View
    from tui.screens.browse import BrowseScreen
    from tui.widgets.facet_panel import FacetPanel


class Discovering:
    """Facets and triage for one browse screen (the host it is given)."""

    def __init__(self, screen: BrowseScreen) -> None:
        self._screen = screen
        self._facet_browsing: FacetBrowsing | None = None
        self._triaging: Triaging | None = None

    def facet_browsing(self) -> FacetBrowsing:
        if self._facet_browsing is None:
            screen = self._screen
            self._facet_browsing = FacetBrowsing(screen, screen.library, self.show_narrowed, self._to_list)
        return self._facet_browsing

    def triaging(self) -> Triaging:
        if self._triaging is None:
            screen = self._screen
            self._triaging = Triaging(
                screen, screen.library, lambda: screen.paper_list, screen.marking, screen._marks_changed
            )
        return self._triaging

    def _to_list(self) -> None:
        self._screen.set_focus(self._screen.paper_list)

    def show_narrowed(self, query: str) -> None:
        """Run a query the facet panel made and show it in the search bar, as if it had been typed."""
        self._screen.search_bar.set_value(query)
        self._screen._set_query(query)

    def view_changed(self, view: View) -> None:
        """A new view is shown: the panel, when open, counts it."""
        if self._facet_browsing is not None:
            self._facet_browsing.view_changed(view)

    def act(self, what: str) -> None:
        """`f` toggles the facet panel for the view shown; `T` opens triage over it."""
        if what == "facets":
            self.facet_browsing().toggle(self._screen.outcome)
        else:
            self.triaging().open()

    def request(self, request: FacetPanel.Request) -> None:
        """The facet panel's messages (an entry chosen, Esc in the panel), handed over by the screen."""
        self.facet_browsing().request(request, self._screen.query_text)
