"""The messages the browse screen's parts send it, so that no part calls back into the screen.

The parts (marking, organising, discovering, triage, the facet panel's helper) change the store or choose
a query; the screen owns the list, the detail pane and the status line, and redraws them when one of these
arrives. A part holds the screen only as the `Screen` it posts to and notifies through.
"""

from __future__ import annotations

from textual.message import Message


class MarksChanged(Message):
    """Stars, read marks, tags, notes or the status flash changed: redraw rows, the open paper and counts.

    The list itself is not re-run: a star never moves a paper out from under the cursor.
    """


class QueryRequested(Message):
    """Search for `query` and show it in the search bar, as if it had been typed there.

    Sent by the facet panel's helper when an entry narrows the query.
    """

    def __init__(self, query: str) -> None:
        super().__init__()
        self.query = query


class ListFocusRequested(Message):
    """Give the focus back to the paper list (a panel closed, triage ended)."""
