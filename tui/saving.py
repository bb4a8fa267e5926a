"""Changes to the user's state as the reader makes them: refused with a notice when the store cannot save.

A read-only store (an unwritable or untraversable data folder, a `state.db` from a newer `papers`) is known at
start; a disk that fills or is remounted read-only while the reader is open turns the store read-only at the
first failed write (index/state/base.py). Either way the reader keeps running and showing the marks: a key
that would change them says why it did not, once per key press, and the status line says "read-only state".
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from index.library import StateError
from tui.text import one_line

if TYPE_CHECKING:
    from textual.widget import Widget

    from index.library import Library

NOTICE_SECONDS = 5.0


def writable(host: Widget, library: Library) -> bool:
    """Whether changes can be saved; if not, the user is told why (before any dialog asks for text)."""
    marks = library.marks
    if not marks.read_only:
        return True
    reason = one_line(marks.read_only_reason or "the store is read-only")
    host.notify(
        f"Read-only, nothing changed: {reason}", severity="warning", timeout=NOTICE_SECONDS, markup=False
    )
    return False


@contextmanager
def saving(host: Widget) -> Iterator[None]:
    """Run a change; if the store refuses it (the disk filled or turned read-only just now), the rest of the
    block is skipped and the user is told, instead of the reader ending with a traceback."""
    try:
        yield
    except StateError as error:
        message = one_line(str(error))
        host.notify(f"Not saved: {message}", severity="warning", timeout=NOTICE_SECONDS, markup=False)
