"""The browse screen's facet panel (`f`) and triage (`T`), as one part the screen owns.

Like `Marking` and `Organising`: the keys stay bound on `BrowseScreen.BINDINGS` (users remap them by id:
`browse.facets`, `browse.triage`), and their actions call `toggle_facets` and `triage`. The work itself is
done by `FacetBrowsing` (facet_view.py) and `Triaging` (triage.py), made when first used; what they change
reaches the screen as messages (messages.py), so this part never needs the screen's own type.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tui.browse.facet_view import FacetBrowsing
from tui.browse.triage import Triaging

if TYPE_CHECKING:
    from textual.screen import Screen

    from index.library import Library, View
    from tui.browse.marking import Marking
    from tui.browse.paper_list import PaperList
    from tui.widgets.facet_panel import FacetPanel


class Discovering:
    """Facets and triage for one browse screen.

    Args:
        host: the browse screen: dialogs, notifications and the parts' messages go through it.
        library: counts, `narrow` and triage's decisions go to it.
        paper_list: the list triage walks from its selected paper (looked up when needed).
        marking: triage stops its dwell clock and reloads its sets.
    """

    def __init__(
        self, host: Screen[None], library: Library, paper_list: Callable[[], PaperList], marking: Marking
    ) -> None:
        self._host = host
        self._library = library
        self._facet_browsing: FacetBrowsing | None = None
        self.triaging = Triaging(host, library, paper_list, marking)  # only stores what it is given

    def facet_browsing(self) -> FacetBrowsing:
        """The facet panel's helper, made when `f` is first pressed."""
        if self._facet_browsing is None:
            self._facet_browsing = FacetBrowsing(self._host, self._library)
        return self._facet_browsing

    def view_changed(self, view: View) -> None:
        """A new view is shown: the panel, when open, counts it."""
        if self._facet_browsing is not None:
            self._facet_browsing.view_changed(view)

    def toggle_facets(self, view: View) -> None:
        """`f`: show the facet panel counting `view`, or hide it."""
        self.facet_browsing().toggle(view)

    def triage(self) -> None:
        """`T`: triage the list from its selected paper."""
        self.triaging.open()

    def request(self, request: FacetPanel.Request, query: str) -> None:
        """The facet panel's messages (an entry chosen, Esc in the panel), handed over by the screen."""
        self.facet_browsing().request(request, query)
