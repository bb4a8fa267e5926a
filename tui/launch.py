"""The reader as the `papers` command opens it when no subcommand is given.

The command line (`index.cli`) finds this through the `papers.reader` entry point (pyproject.toml) and hands
it the opened library: the core never imports the reader, and the reader knows the core only through
`index.library`.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.app import App

    from index.library import Library

FRAME_RATE = 120
"""Textual's frame-rate cap (60 unless TEXTUAL_FPS says otherwise). A keystroke of a search paints two frames
(the letter, then the results), and each may wait for the next slot of the frame clock: at 60 that is up to
17 ms each, at 120 up to 8, which is a quarter of a keystroke's time to painted results at 56k papers.
Frames only come when something changed, so an idle reader costs nothing more. A user's TEXTUAL_FPS wins."""


def run_reader(library: Library) -> int:
    """Run the reader on `library` (opened with `Library.open`) until the user quits.

    Textual is imported only here, so every subcommand starts without paying for it.

    Returns:
        The exit code: 0 after a normal quit, 128 + N after signal N or a hangup (see tui/terminal.py).
    """
    os.environ.setdefault("TEXTUAL_FPS", str(FRAME_RATE))  # read once, when Textual is imported
    from tui.app import make_app  # deferred: subcommands never pay for importing Textual

    config = library.config
    app = make_app(
        library,
        mark_read_delay=config.mark_read_delay,
        space_at_end=config.space_at_end,
        theme=config.theme,
        keymap=config.keymap,
        freeze_gc=True,
    )
    asyncio.run(_run_then_leave(app))
    return app.return_code or 0


async def _run_then_leave(app: App[None]) -> None:
    """Run `app`; once it has closed and given the terminal back, exit at once if a worker is still busy.

    asyncio.run would otherwise join the worker threads before returning: a search stops within its budget
    (index/search/bounds.py), but a first index build takes minutes. What a worker leaves behind is safe to
    drop: a search reads, a build writes a new directory that replaces the old one only when complete, and
    every change to stars and marks is a committed SQLite transaction.
    """
    await app.run_async()
    current = threading.current_thread()
    if any(
        thread.is_alive() and not thread.daemon for thread in threading.enumerate() if thread is not current
    ):
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        os._exit(app.return_code or 0)
