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
from tests.conftest import SEEDS
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, list_rows, reader, seeds_library
from tui.browse import panes
from tui.browse.paper_detail import SYNTHESISED
from tui.screens.help import HelpScreen
from tui.screens.help_layout import Styles, key_sheet, query_syntax
from tui.widgets.key_footer import KeyFooter

MULTIVENUE = Path(__file__).resolve().parents[1] / "data" / "multivenue" / "papers.jsonl"


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
        # 120 columns: as wide as the headlines want, less what the abstract needs for ~52-character lines.
        assert list_width(app) == 120 - panes.DETAIL_MEASURE
        assert screen.detail.outer_size.width >= panes.DETAIL_MEASURE
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


async def test_at_120_columns_every_row_shows_60_characters_of_its_headline(tmp_path: Path) -> None:
    """Two venues, so rows could carry a venue column: at 120x40 the headline keeps its 60 characters (the
    detail pane names the venue and shows the selected headline whole); wider, the venue column comes back."""
    listings = tmp_path / "listings"
    listings.mkdir()
    seeds = sorted(SEEDS.glob("*.txt"))[:2]
    for number, (seed, header) in enumerate(zip(seeds, ("NeurIPS 2026", "ICML 2025"), strict=True)):
        body = seed.read_text(encoding="utf-8").split("\n", 1)[1]
        (listings / f"{number}.txt").write_text(f"{header} Papers\n{body}", encoding="utf-8")
    library = Library.open([listings], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            screen = browse(app)
            assert library.papers.spans_several_listings
            rows = list_rows(app)
            shown = [screen.paper_list.ids[number] for number, row in enumerate(rows) if row.strip()]
            assert len(shown) > 20
            for paper_id, row in zip(shown, rows, strict=False):
                headline = library.papers.paper(paper_id).headline
                assert row[4:].startswith(headline[:60].rstrip()), (row, headline)
            selected = library.papers.paper(shown[0]).headline
            assert _squeezed(selected) in _squeezed(detail_text(app)), "the selected headline, whole"
            await pilot.resize_terminal(160, 40)
            await settle(pilot)
            assert any(row.rstrip().endswith(("NeurIPS 2026", "ICML 2025")) for row in list_rows(app))
    finally:
        library.close()


def test_headline_width_is_a_high_percentile_plus_the_row_furniture() -> None:
    lengths = [40] * 10 + [70] * 85 + [200] * 5
    assert panes.headline_width(lengths, where=0) == 70 + panes.MARKS + panes.CHROME
    assert panes.headline_width(lengths, where=9) == 70 + panes.MARKS + panes.CHROME + 10
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


async def test_help_fits_80x24_a_screen_a_page_most_used_keys_first(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        lines = screen_lines(app)
        shown = "\n".join(lines)
        body = app.screen.body
        assert body.max_scroll_y == 0, "the key sheet is one screen at 80x24: nothing of it scrolls away"
        top = next(row for row, line in enumerate(lines) if "╭─ Help · keys" in line)
        bottom = next(row for row, line in enumerate(lines) if "page 1 of 3" in line)
        assert "space" in lines[bottom] and bottom < len(lines) - 1, lines[bottom]
        assert "Most used" in lines[top + 1], "the most used keys come first"
        for row in ("1 All papers", "2 Unread only", "3 Starred only", "m More like this", "n Next unread"):
            assert _squeezed(row) in _squeezed(shown), row
        for row in ("N Previous unread", "o Sort", "u Undo", "R Mark shown read", "> Grow the list"):
            assert _squeezed(row) in _squeezed(shown), row
        for row in ("^s Save search as…", "ctrl+p Command palette", "ctrl+q Quit"):
            assert _squeezed(row) in _squeezed(shown), row
        assert _squeezed(shown).count("ctrl+p") == 1, "one key, one row"
        assert "space More" in _squeezed(lines[-1]), "the footer says how to see the rest"
        await pilot.press("space")
        await pilot.pause()
        lines = screen_lines(app)
        top = next(row for row, line in enumerate(lines) if "Help · query syntax" in line)
        assert "page 2 of 3" in "\n".join(lines[top:]) and app.screen.body.max_scroll_y == 0
        assert "year:2024" in "\n".join(lines)
        await pilot.press("space")
        await pilot.pause()
        lines = screen_lines(app)
        assert "Help · filters" in "\n".join(lines) and app.screen.body.max_scroll_y == 0, "one screen a page"
        assert "is:starred" in "\n".join(lines)
        assert "you are told so." in "\n".join(lines), "the last line of help is on screen"
        for key, page in (("space", 2), ("tab", 0), ("tab", 1), ("tab", 2), ("b", 1), ("b", 0), ("b", 0)):
            await pilot.press(key)
            await pilot.pause()
            assert app.screen.page == page, key
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


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


async def test_notices_take_the_footers_line_and_cover_no_text_at_80_columns(library: Library) -> None:
    app = reader(library)
    long_notice = "config: unknown key binding id(s) " + ", ".join(f"browse.nothing_{n}" for n in range(12))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await settle(pilot)
        screen = browse(app)
        status = screen.query_one("#status-line").region
        footer = screen.query_one(KeyFooter).region
        for press, says in (
            (["o"], "Sorted by"),
            (["j", "s"], "Starred."),
            (["y"], "Copied the paper"),
            (["ctrl+s"], "Type a query or choose a filter first"),
            ([], "config: unknown key binding"),
        ):
            if press:
                await pilot.press(*press)
            else:
                app.notify(long_notice)
            await settle(pilot)
            toasts = list(screen.query(Toast))
            assert len(toasts) == 1, "the newest notice takes the place of the one before"
            toast = toasts[0].region
            assert toast.y == footer.y and toast.height == 1 and toast.right <= 80, toast
            for covered in (status, screen.detail.region, screen.paper_list.region, screen.search_bar.region):
                assert not toast.overlaps(covered), (says, covered)
            line = screen_lines(app)[footer.y]
            assert says in line, line
            assert toasts[0]._notification.timeout <= 3
        assert screen_lines(app)[footer.y].rstrip().endswith("…"), "a long notice is cut on its one line"
        app.notify("Index build failed: run `papers index`.", severity="error")
        await pilot.press("s")
        await settle(pilot)
        assert [toast._notification.message for toast in screen.query(Toast)] == [
            "Index build failed: run `papers index`."
        ], "an error showing is not pushed away by a confirmation"
        assert str(screen.paper_list.selected_id) in app.clipboard


def _squeezed(text: str) -> str:
    """Runs of spaces as one: the sheet pads keys to a column."""
    return " ".join(text.split())


async def test_the_detail_pane_says_when_a_headline_was_made_from_the_abstract(
    library: Library, tmp_path: Path
) -> None:
    """A seed paper has no title: the pane says its bold line is a headline made from the abstract; a paper
    whose listing gives a title shows that title, and no such line."""
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert SYNTHESISED in detail_text(app)
        await pilot.press("j")
        await settle(pilot)
        assert SYNTHESISED in detail_text(app)
    titled = Library.open([MULTIVENUE], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        app = reader(titled)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            shown = browse(app).paper_list.selected_id
            assert shown is not None and titled.papers.paper(shown).title
            assert titled.papers.paper(shown).title.split()[0] in detail_text(app)
            assert SYNTHESISED not in detail_text(app)
    finally:
        titled.close()
