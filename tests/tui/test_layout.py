"""The layout uses the screen: list width from the headlines, rows when stacked, help, footer and toasts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.style import Style
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Footer
from textual.widgets._footer import FooterKey
from textual.widgets._toast import Toast

from index.library import Library
from index.search.query import QUERY_HELP
from tests.tui.conftest import settle
from tests.tui.helpers import browse, list_rows, reader, seeds_library
from tui.browse import panes
from tui.screens.help import HelpScreen
from tui.screens.help_layout import Styles, key_sheet, query_syntax
from tui.widgets.key_footer import KeyFooter


def screen_lines(app: App[Any]) -> list[str]:
    """The active screen as the terminal shows it, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def list_width(app: App[Any]) -> int:
    return browse(app).paper_list.outer_size.width


async def test_list_width_follows_the_terminal_and_the_headlines(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        screen = browse(app)
        # 120 columns: as wide as the headlines want, less what the abstract needs for ~60-character lines.
        assert list_width(app) == 120 - panes.DETAIL_MEASURE
        assert screen.detail.outer_size.width >= 60
        await pilot.resize_terminal(200, 50)
        await settle(pilot)
        preferred = screen.query_one(panes.Panes).preferred
        assert list_width(app) == preferred < 200 - panes.DETAIL_MEASURE
        rows = [row for row in list_rows(app) if row.strip()]
        whole = [row for row in rows if not row.rstrip().endswith("…")]
        assert len(whole) >= 0.85 * len(rows), "at 200 columns nearly every headline is whole"
        await pilot.resize_terminal(100, 30)
        await settle(pilot)
        assert screen.detail.outer_size.width >= panes.DETAIL_MEASURE


def test_headline_width_is_a_high_percentile_plus_the_row_furniture() -> None:
    lengths = [40] * 10 + [70] * 85 + [200] * 5
    assert panes.headline_width(lengths, where=False) == 70 + panes.MARKS + panes.CHROME
    assert panes.headline_width(lengths, where=True) == 70 + panes.MARKS + panes.CHROME + 17
    assert panes.fit(120, 37, 200, stacked=False).auto == 120 - panes.DETAIL_MEASURE
    assert panes.fit(90, 21, 0, stacked=True).auto == panes.LIST_ROWS + 1
    assert panes.fit(90, 12, 0, stacked=True).auto == 12 - panes.DETAIL_ROWS


async def test_grow_and_shrink_keys_resize_the_list_and_are_remembered(
    seed_index: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    with seeds_library(seed_index, data_dir) as first:
        app = reader(first)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            start = list_width(app)
            await pilot.press("greater_than_sign", "greater_than_sign", "greater_than_sign")
            await pilot.pause()
            assert list_width(app) == start + 3 * panes.WIDTH_STEP
            await pilot.press("less_than_sign")
            await pilot.pause()
            assert list_width(app) == start + 2 * panes.WIDTH_STEP
            await pilot.press("tab", "greater_than_sign")  # from the detail pane too
            await pilot.pause()
            wider = list_width(app)
            assert wider == start + 3 * panes.WIDTH_STEP
            await pilot.resize_terminal(80, 24)  # stacked: the same keys make the list taller or shorter
            await settle(pilot)
            rows = browse(app).paper_list.outer_size.height
            await pilot.press("less_than_sign")
            await pilot.pause()
            shorter = browse(app).paper_list.outer_size.height
            assert shorter == rows - panes.HEIGHT_STEP
            await pilot.press("q")
    with seeds_library(seed_index, data_dir) as second:
        app = reader(second)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert list_width(app) == wider
            for _ in range(40):  # never narrower than LIST_MIN, never leaving the detail less than DETAIL_MIN
                await pilot.press("less_than_sign")
            await pilot.pause()
            assert list_width(app) == panes.LIST_MIN
            for _ in range(40):
                await pilot.press("greater_than_sign")
            await pilot.pause()
            assert list_width(app) == 120 - panes.DETAIL_MIN
            await pilot.resize_terminal(80, 24)
            await settle(pilot)
            assert browse(app).paper_list.outer_size.height == shorter


async def test_stacked_at_80x24_the_list_shows_twelve_rows_and_the_abstract_scrolls(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = browse(app)
        assert screen.has_class("-narrow")
        assert len([row for row in list_rows(app) if row.strip()]) >= 12
        detail = screen.detail
        assert (
            detail.region.y >= screen.paper_list.region.bottom and detail.region.height >= panes.DETAIL_ROWS
        )
        await pilot.press("enter", "space")
        await pilot.pause()
        assert detail.scroll_y > 0, "the rest of the abstract is a page away"


async def test_help_fits_80x24_with_the_most_used_keys_on_the_first_screen(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        shown = "\n".join(screen_lines(app))
        for row in ("1 All papers", "2 Unread only", "3 Starred only", "m More like this", "n Next unread"):
            assert _squeezed(row) in _squeezed(shown), row
        for row in ("N Previous unread", "o Sort", "u Undo", "R Mark shown read", "> Grow the list"):
            assert _squeezed(row) in _squeezed(shown), row
        assert "Query syntax" in shown, "the query syntax starts on the first screen; the rest scrolls"
        await pilot.press("space")
        await pilot.pause()
        assert "is:starred" in "\n".join(screen_lines(app))


async def test_help_shows_keys_as_remapped(library: Library) -> None:
    app = reader(library, keymap={"panes.grow": "plus", "browse.filter_unread": "U"})
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        shown = _squeezed("\n".join(screen_lines(app)))
        assert "+ Grow the list" in shown and "U Unread only" in shown


def test_key_sheet_columns_fit_the_width_and_query_help_loses_no_word() -> None:
    styles = Styles(Style(), Style(), Style())
    sections = [
        ("Most used", [(key, "Previous unread") for key in "/lsrnN123mouRy"]),
        ("Moving", [("pgdn ^d", "Shrink the list")] * 11),
        ("Search bar", [("⏎ ↓ tab", "Accept suggestion")] * 4),
    ]
    for width in (75, 100, 40):
        lines = key_sheet(sections, width, styles).plain.splitlines()
        assert max(len(line.rstrip()) for line in lines) <= width
    assert len(key_sheet(sections, 75, styles).plain.splitlines()) <= 16  # three columns
    for width in (60, 76, 100):
        words = query_syntax(QUERY_HELP, width, styles).plain.split()
        assert words == QUERY_HELP.split()
        assert max(len(line) for line in query_syntax(QUERY_HELP, width, styles).plain.splitlines()) <= width


async def _footer_labels(pilot: Pilot[Any], width: int) -> tuple[list[tuple[str, str]], str]:
    app = pilot.app
    footer = app.screen.query_one(Footer)
    keys = [key for key in footer.query(FooterKey) if key.display]
    for key in keys:
        assert key.region.right <= width, (key.key_display, key.description, key.region)
    return [(key.key_display, key.description) for key in keys], screen_lines(app)[-1]


async def test_no_footer_label_is_cut_at_80_columns(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        for focus in ([], ["enter"], ["slash"], ["escape", "question_mark"]):
            await pilot.press(*focus)
            await settle(pilot)
            assert isinstance(app.screen.query_one(Footer), KeyFooter)
            labels, line = await _footer_labels(pilot, 80)
            assert labels, line
            for key, description in labels:
                assert f"{key} {description}" in line, (key, description, line)
                assert description in ("", description.strip()) and not description.endswith("…")
        await pilot.press("escape")
        await pilot.resize_terminal(56, 24)
        await settle(pilot)
        labels, line = await _footer_labels(pilot, 56)
        assert ("?", "Help") in labels, line


async def test_toasts_sit_on_the_status_line_and_go_quickly(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40), notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await settle(pilot)
        screen = browse(app)
        toasts = list(screen.query(Toast))
        assert toasts, "sorting says so"
        status = screen.query_one("#status-line").region
        for toast in toasts:
            assert toast.region.y == status.y and toast.region.height == 1
            assert not toast.region.overlaps(screen.detail.region)
            assert not toast.region.overlaps(screen.paper_list.region)
            assert toast._notification.timeout <= 3


def _squeezed(text: str) -> str:
    """Runs of spaces as one: the sheet pads keys to a column."""
    return " ".join(text.split())
