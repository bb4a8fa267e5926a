"""The browse screen's background index build: progress in the status line, search enabled when it ends."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen
from textual.worker import get_current_worker

from tui.text import one_line

if TYPE_CHECKING:
    from index.library import Library


class BuildCancelled(Exception):
    """Raised from the progress callback to stop an index build when the reader quits."""


class IndexBuilding(Screen[None]):
    """Runs `Library.build_index` in a thread so the first screen never waits for the index.

    Subclasses provide the library and react through `_show_progress`, `_index_done` and `_index_failed`.
    """

    library: Library
    _progress: str

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def _build_index(self) -> None:
        worker = get_current_worker()
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            if worker.is_cancelled:
                raise BuildCancelled
            now = time.monotonic()
            if now - last >= 0.2 or done >= total:
                last = now
                self.app.call_from_thread(self._show_progress, done, total)

        try:
            summary = self.library.build_index(progress)
        except BuildCancelled:
            return
        except Exception as error:  # one line for the user, never a traceback in the UI
            if not worker.is_cancelled:
                self.app.call_from_thread(self._index_failed, f"{type(error).__name__}: {error}")
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._index_done, summary)

    def _show_progress(self, done: int, total: int) -> None:
        self._progress = f"indexing {done}/{total}"
        self._on_progress()

    def _index_failed(self, message: str) -> None:
        self._progress = "search unavailable"
        self._on_progress()
        self.notify(f"Index build failed: {one_line(message)}", severity="error", timeout=15, markup=False)

    def _index_done(self, summary: str) -> None:
        self._progress = ""
        self.notify(one_line(summary), title="Index ready", markup=False)
        self._on_index_ready()

    def _on_progress(self) -> None:
        """Show `_progress` (the status line, and the search note while a search waits for the index)."""
        raise NotImplementedError

    def _on_index_ready(self) -> None:
        raise NotImplementedError
