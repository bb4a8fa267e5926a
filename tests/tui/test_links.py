"""The detail pane's link (an OSC 8 hyperlink only for a safe http/https URL) and its compact header."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.text import Text
from textual.app import App
from textual.widgets import Static

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, reader

GOOD = "https://example.org/paper?id=1#top"
HOSTILE = "https://example.org/\x1b]8;;https://evil.example\x07click"
RECORDS = [
    {"title": "Linked paper", "authors": "Ada Lovelace", "abstract": "About links.", "url": GOOD},
    {"title": "Script paper", "abstract": "About scripts.", "url": "javascript:alert(1)"},
    {"title": "Escaping paper", "abstract": "About escapes.", "url": HOSTILE},
]


@pytest.fixture
def linked_library(tmp_path: Path) -> Iterator[Library]:
    listings = tmp_path / "listings"
    listings.mkdir()
    (listings / "linked.json").write_text(json.dumps(RECORDS), encoding="utf-8")
    opened = Library.open([listings], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    opened.build_index()
    yield opened
    opened.close()


def _links(app: App[None]) -> set[str]:
    """Every link target in the detail pane: in its text and in the segments drawn for the terminal."""
    body = browse(app).query_one("#detail-body", Static)
    content = body.content
    assert isinstance(content, Text)
    targets = {
        span.style.link for span in content.spans if not isinstance(span.style, str) and span.style.link
    }
    drawn = {
        segment.style.link
        for y in range(body.size.height)
        for segment in body.render_line(y)
        if segment.style is not None and segment.style.link
    }
    assert targets == drawn
    return targets


async def test_a_safe_url_is_a_terminal_hyperlink_and_others_are_plain_text(linked_library: Library) -> None:
    app = reader(linked_library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert GOOD in detail_text(app)
        assert _links(app) == {GOOD}

        await pilot.press("j")
        await settle(pilot)
        assert "javascript:alert(1)" in detail_text(app)
        assert _links(app) == set()

        await pilot.press("j")
        await settle(pilot)
        text = detail_text(app)
        assert "\x1b" not in text and "\x07" not in text
        assert "␛]8;;https://evil.example␇click" in text  # shown, made visible, never a link
        assert _links(app) == set()


async def test_stacked_at_80x24_the_header_leaves_the_abstract_most_of_the_pane(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        detail = browse(app).detail
        body = detail.query_one("#detail-body", Static)
        shown = [body.render_line(y).text.strip() for y in range(detail.size.height)]
        start = library.papers.rendered(library.papers[0].id).text[:30]
        first = next(row for row, line in enumerate(shown) if line.startswith(start))
        assert first <= 3, shown  # the title (at most two rows) and one row of facts
        assert detail.size.height - first >= 5, shown
