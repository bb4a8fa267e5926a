"""Reading what the reader shows, the way a user would see it: list rows, detail text, status line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from index.library import Library
from tests.conftest import SEEDS
from tests.tui.conftest import settle
from tui.app import PapersApp, make_app
from tui.browse.screen import BrowseScreen


def reader(library: Library, **options: Any) -> PapersApp:
    """The app as tests drive it: searches run at once (no debounce) and dwelling never marks read."""
    options.setdefault("debounce", 0)
    options.setdefault("mark_read_delay", 0)
    return make_app(library, **options)


@contextmanager
def seeds_library(index_dir: Path, data_dir: Path) -> Iterator[Library]:
    """The seeds opened as the reader opens them, over `data_dir`, and closed afterwards: one run of the
    reader, for tests that quit and start again over the same data to see what it remembered."""
    opened = Library.open([SEEDS], index_dir=index_dir, data_dir=data_dir)
    try:
        yield opened
    finally:
        opened.close()


def recorded_notices(app: App[None], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every notice `app` shows from now on, in order (each is still shown)."""
    notices: list[str] = []
    real_notify = app.notify

    def notify(message: str, **options: Any) -> None:
        notices.append(message)
        real_notify(message, **options)

    monkeypatch.setattr(app, "notify", notify)
    return notices


async def search_for(pilot: Pilot[None], query: str) -> None:
    """Type `query` into the search bar as a user does ("/", the query, Enter back to the list) and let its
    answer reach the screen."""
    await pilot.press("slash", *query, "enter")
    await settle(pilot)


def browse(app: App[None]) -> BrowseScreen:
    screen = app.screen
    assert isinstance(screen, BrowseScreen), screen
    return screen


def _plain(widget: Static) -> str:
    content = widget.content
    return content.plain if isinstance(content, Text) else str(content)


def detail_text(app: App[None]) -> str:
    return _plain(browse(app).query_one("#detail-body", Static))


def status_text(app: App[None]) -> str:
    return _plain(browse(app).query_one("#status-line", Static))


def note_text(app: App[None]) -> str:
    return _plain(browse(app).query_one("#search-note", Static))


def list_rows(app: App[None]) -> list[str]:
    """The list's visible rows as plain text (what the Line API actually draws)."""
    paper_list = browse(app).paper_list
    return [paper_list.render_line(y).text for y in range(paper_list.scrollable_content_region.height)]
