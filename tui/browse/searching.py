"""The browse screen's search worker: each query runs in a thread, and only the newest answer is shown."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from index.library import IndexReplaced, IndexUnavailable
from tui.text import one_line
from tui.typeahead import TypeAheadApp

if TYPE_CHECKING:
    from textual.widget import Widget

    from index.library import Library, View


class Searches:
    """Runs `Library.view` in a thread worker of `host` and hands on the newest answer only.

    Each run takes the next serial number; an answer that is not the newest run's is dropped, since a newer
    one is on its way. Keys held while a query runs (`tui/typeahead.py`) are let go once it has answered.

    Args:
        host: the screen that owns the worker (a new search cancels the last one) and shows a failure.
        library: the library whose view is asked for.
        on_answer: called on the UI thread with the newest run's answer.
        on_lost: called on the UI thread with one line when a search finds the index is not what the
            papers were read from (damaged or changed under the reader, or replaced by another process: the
            flag), so it is no longer ready: the host has it made current again.
        leaving: whether a Leave from the search bar is on its way, which then lets the held keys go itself.
    """

    def __init__(
        self,
        host: Widget,
        library: Library,
        *,
        on_answer: Callable[[View], None],
        on_lost: Callable[[str, bool], None],
        leaving: Callable[[], bool],
    ) -> None:
        self._host = host
        self._library = library
        self._on_answer = on_answer
        self._on_lost = on_lost
        self._leaving = leaving
        self._serial = 0
        self._applied = 0

    @property
    def settled(self) -> bool:
        """Whether the newest run has answered (or failed), so no held key is waiting for it."""
        return self._serial == self._applied

    def run(self, query: str, filter: str, order: str) -> None:
        """Search for `query` with `filter` and `order` in a thread; any older run's answer is dropped."""
        self._serial += 1
        serial = self._serial
        self._host.run_worker(
            partial(self._search, serial, query, filter, order),
            name="_search",
            group="search",
            description=f"_search({serial!r}, {query!r}, {filter!r}, {order!r})",
            exclusive=True,
            exit_on_error=False,
            thread=True,
        )

    def supersede(self) -> None:
        """Drop every answer still on its way (the list shows something else now): nothing is waited for."""
        self._serial += 1
        self._applied = self._serial

    def release_keys(self, hold: bool = False) -> None:
        """The newest run is answered: let the held keys go, unless `hold` (a Leave from the search bar on
        its way lets them go itself)."""
        self._applied = self._serial
        app = self._host.app
        if isinstance(app, TypeAheadApp) and not hold:
            app.release_keys()

    def _search(self, serial: int, query: str, filter: str, order: str) -> None:
        worker = get_current_worker()
        app = self._host.app
        try:
            # The last word may be unfinished; a newer search or quitting cancels the worker, which stops it.
            outcome = self._library.view(
                query, filter, order, typing=True, cancelled=lambda: worker.is_cancelled
            )
        except IndexUnavailable as error:  # never an empty answer from an index that is not these papers'
            if not worker.is_cancelled:
                app.call_from_thread(self.release_keys)
                app.call_from_thread(self._on_lost, one_line(str(error)), isinstance(error, IndexReplaced))
            return
        except Exception as error:  # a failing search is reported in one line; the reader keeps going
            if not worker.is_cancelled:
                message = f"Search failed: {type(error).__name__}: {one_line(str(error))}"
                app.call_from_thread(self._host.notify, message, severity="error", markup=False)
                app.call_from_thread(self.release_keys)
            return
        if not worker.is_cancelled:
            app.call_from_thread(self._answered, serial, outcome)

    def _answered(self, serial: int, outcome: View) -> None:
        if serial != self._serial:
            return  # a newer search is on its way
        if not outcome.waiting:
            # Keys typed after leaving the search act on these results (a Leave on its way releases them);
            # a query waiting for the index keeps them held until it has really run (typeahead.HOLD_LIMIT).
            self.release_keys(hold=self._leaving())
        self._on_answer(outcome)
