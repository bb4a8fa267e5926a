"""The browse screen's background index build: progress in the status line, search enabled when it ends."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.worker import get_current_worker

from tui.text import one_line

if TYPE_CHECKING:
    from textual.widget import Widget

    from index.library import Library


WARM_PAUSE = 0.01
"""Seconds the warm-up sleeps between letters of the near-spelling tables: the UI thread keeps its turns."""


class BuildCancelled(Exception):
    """Raised from the progress callback to stop an index build when the reader quits."""


class IndexBuilder:
    """Runs `Library.build_index` in a thread worker of `host`, so the first screen never waits for the index.

    Args:
        host: the screen that owns the worker (Textual cancels it when the screen goes) and shows notices.
        library: the library whose index is built.
        on_progress: called on the UI thread whenever `progress` changes.
        on_ready: called on the UI thread once the index is built and search works.
    """

    def __init__(
        self,
        host: Widget,
        library: Library,
        *,
        on_progress: Callable[[], None],
        on_ready: Callable[[], None],
        on_listings_read: Callable[[list[str]], None],
    ) -> None:
        self._host = host
        self._library = library
        self._on_progress = on_progress
        self._on_ready = on_ready
        self._on_listings_read = on_listings_read
        self.freeze_gc = False
        """Once the search is warm, freeze what is alive (`gc.freeze`): set by the app that asks for it
        (`PapersApp.freeze_gc`), so tests and other hosts leave their process's collector alone."""
        self.progress = ""
        """One short phrase for the status line: "indexing 120/5000", "search unavailable: …", or empty."""
        self._doing = "indexing"

    def start(self) -> None:
        """Build the index in a worker; or, when it is ready, warm its search there: the first key is fast."""
        if self._library.index_ready:
            self._after_first_paint(self._warm, "warm search")
            return
        if self._library.index_format_changed:  # a new version of papers: the old index is rebuilt, once
            self._doing = "rebuilding the index for this version of papers"
        self.progress = f"{self._doing}…" if self._library.papers_complete else "reading listings…"
        self._after_first_paint(self._build, "index build")

    def _after_first_paint(self, work: Callable[[], None], name: str) -> None:
        """Start `work` in a thread once the first screen is painted: a thread started sooner takes the GIL
        from the first paint."""

        def begin() -> None:
            self._host.run_worker(
                work, name=name, group="index", exclusive=True, thread=True, exit_on_error=False
            )

        self._host.call_after_refresh(begin)

    def _warm(self) -> None:
        """The warm-up worker; then, if asked (`self.freeze_gc`), what is alive now is frozen: the long-lived
        library and index objects, which full collections would otherwise keep scanning."""
        self._library.warm_search(pause=WARM_PAUSE)
        if self.freeze_gc:
            gc.freeze()

    def _build(self) -> None:
        """The worker, in its own thread: it reaches the UI only through `call_from_thread`."""
        worker = get_current_worker()
        app = self._host.app
        last = 0.0

        def progress(done: int, total: int) -> None:
            nonlocal last
            if worker.is_cancelled:
                raise BuildCancelled
            now = time.monotonic()
            if now - last >= 0.2 or done >= total:
                last = now
                app.call_from_thread(self._show_progress, done, total)

        try:
            if not self._library.papers_complete:  # the first paint showed the first files' papers
                notices = self._library.read_all_listings()
                if worker.is_cancelled:
                    return
                app.call_from_thread(self._listings_read, notices)
            summary = self._library.build_index(progress)
        except BuildCancelled:
            return
        except Exception as error:  # one line for the user, never a traceback in the UI
            if not worker.is_cancelled:
                app.call_from_thread(self._failed, f"{type(error).__name__}: {error}")
            return
        if not worker.is_cancelled:
            app.call_from_thread(self._done, summary)
            self._library.discovery.warm()  # the for-you list's term weights, before 4 is pressed

    def _listings_read(self, notices: list[str]) -> None:
        self.progress = f"{self._doing}…"
        self._on_listings_read(notices)
        self._on_progress()

    def _show_progress(self, done: int, total: int) -> None:
        self.progress = f"{self._doing} {done}/{total}"
        self._on_progress()

    def _failed(self, message: str) -> None:
        self.progress = "search unavailable: run `papers index`"
        self._on_progress()
        message = (
            f"Index build failed: {one_line(message)}. Run `papers index` in a shell (it shows the whole "
            "error), then reopen the reader."
        )
        self._host.notify(message, severity="error", timeout=15, markup=False)

    def _done(self, summary: str) -> None:
        self.progress = ""
        if summary.startswith("index "):  # "index built/updated/is current"; else why it could not be written
            self._host.notify(f"Index ready: {one_line(summary)}", markup=False)
        else:  # e.g. a full disk: the previous index answers, and the user is told why it is not updated
            self._host.notify(one_line(summary), severity="warning", timeout=15, markup=False)
        self._on_ready()
