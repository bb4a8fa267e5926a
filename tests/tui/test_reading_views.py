"""Read marks that come only from reading, more like this as a view of its own, and the query Esc and restarts
leave behind: pressed with the real keys."""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len
from textual import events
from textual.widgets import Input

from index.library import Library
from tests.tui.conftest import eventually, settle
from tests.tui.helpers import browse, detail_text, list_rows, reader, search_for, seeds_library, status_text
from tui.browse.paper_detail import PaperDetail
from tui.browse.paper_list import PaperList
from tui.browse.similar_view import REFERENCE_PREFIX
from tui.widgets.status_line import StatusLine

# ---- 1. read marks only from reading -----------------------------------------------------------------------


async def test_opening_a_search_hit_is_not_reading_it_until_it_has_been_open_for_the_dwell_time(
    library: Library,
) -> None:
    # The real default delay, as in the dwell test of test_layout_and_safety: slow keys stay inside it.
    app = reader(library, mark_read_delay=2.0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        top = browse(app).paper_list.selected_id
        assert top is not None
        await pilot.pause(2.5)
        assert top not in library.marks.read, "results shown while the query is typed are not being read"
        unread = library.marks.counts()[1]  # paper one may have been dwelt on before "/" on a slow machine
        await pilot.press("enter", "enter")  # to the list, then open the top hit
        assert isinstance(app.focused, PaperDetail)
        assert top not in library.marks.read, "opening is not reading"
        assert f"{unread} unread" in status_text(app)
        assert "marked read" not in status_text(app)
        assert await eventually(pilot, lambda: top in library.marks.read), "open for the dwell time: read"
        status = status_text(app)
        assert f"{unread - 1} unread" in status and "marked read" in status, status
        assert not any("read" in n.message.lower() for n in app._notifications), "no toast over the text"
        gone = await eventually(pilot, lambda: "marked read" not in status_text(app))
        assert gone, "the status line says it briefly"
        await pilot.press("u")
        assert top not in library.marks.read, "u undoes a mark made by dwelling"
        assert f"{unread} unread" in status_text(app)


async def test_r_marks_read_at_once_whatever_the_dwell(library: Library) -> None:
    app = reader(library, mark_read_delay=60.0)  # never reached here, however slow the machine
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = library.papers[0].id
        await pilot.press("l")
        assert first not in library.marks.read
        await pilot.press("r")
        assert first in library.marks.read


# ---- 2. more like this -------------------------------------------------------------------------------------


def _label_headline(status: str) -> str:
    """The reference's headline as the status line's `like "…" · N` shows it."""
    start = status.index('like "') + len('like "')
    return status[start : status.index('" · ', start)]


def _assert_whole_words(shown: str, headline: str) -> None:
    if shown == headline:
        return
    assert shown.endswith("…"), shown
    stem = shown[:-1]
    assert headline.startswith(stem), (shown, headline)
    assert headline[len(stem)] in " ,;:.-–—(/", f"cut mid-word: {shown!r} of {headline!r}"


async def test_more_like_this_pins_the_reference_counts_its_hits_and_says_why(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "learning")
        screen = browse(app)
        paper_list = screen.paper_list
        # The paper with the longest headline, so the label has to be cut to fit.
        source = max(paper_list.ids, key=lambda paper_id: len(library.papers.paper(paper_id).headline))
        paper_list.select(source)
        await pilot.pause()
        await pilot.press("m")
        await pilot.pause()
        hits = [hit for hit in library.discovery.similar(source) if hit.id != source]
        assert hits, "the seeds have papers sharing terms"
        assert list(paper_list.ids) == [source, *(hit.id for hit in hits)]
        assert paper_list.selected_id == source

        rows = list_rows(app)
        assert REFERENCE_PREFIX.strip() in rows[0], rows[0]
        assert not any(REFERENCE_PREFIX.strip() in row for row in rows[1:])

        status = status_text(app)
        assert f'" · {len(hits)} · Esc returns' in status, status
        assert '"learning"' not in status and "→" not in status, "not the previous query's wording or count"
        headline = library.papers.paper(source).headline
        _assert_whole_words(_label_headline(status), headline)
        assert cell_len(status) <= screen.query_one(StatusLine).content_region.width, "nothing cut at the end"

        count = len(hits)
        assert f"Reference: the {count} papers below are like this one" in detail_text(app)
        await pilot.press("j")
        first = hits[0]
        text = detail_text(app)
        assert 'Like "' in text and first.id in text
        if first.shared_terms:
            assert "shared key terms: " + ", ".join(first.shared_terms) in text

        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        status = status_text(app)
        _assert_whole_words(_label_headline(status), headline)
        assert _label_headline(status).endswith("…"), "80 columns leave no room for the whole headline"
        assert cell_len(status) <= screen.query_one(StatusLine).content_region.width

        await pilot.press("escape")
        assert list(paper_list.ids) == list(library.view("learning", typing=True).ids)
        assert paper_list.selected_id == source
        assert '"learning"' in status_text(app) and "like" not in status_text(app)
        assert REFERENCE_PREFIX.strip() not in list_rows(app)[paper_list.cursor - paper_list.scroll_offset.y]
        assert screen.search_bar.value == "learning", "Esc leaves more like this before it clears anything"


async def test_slash_also_leaves_more_like_this(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("j", "j", "m")
        assert browse(app).similar is not None
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        assert browse(app).similar is None
        assert list(browse(app).paper_list.ids) == [paper.id for paper in library.papers]


# ---- 3. Esc in the list, and a query kept from the last session --------------------------------------------


async def test_escape_in_the_list_clears_an_active_query_and_keeps_the_paper(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "graph")
        screen = browse(app)
        assert len(screen.paper_list.ids) < len(library.papers)
        await pilot.press("j")
        reading = screen.paper_list.selected_id
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.focused, PaperList)
        assert screen.search_bar.value == ""
        assert list(screen.paper_list.ids) == [paper.id for paper in library.papers]
        assert screen.paper_list.selected_id == reading
        assert '"graph"' not in status_text(app)
        await pilot.press("escape")  # no query: nothing to clear, nothing else changes
        await settle(pilot)
        assert app.is_running and screen.paper_list.selected_id == reading


async def test_a_query_restored_from_the_last_session_says_so_until_it_changes(
    seed_index: Path, tmp_path: Path
) -> None:
    data_dir = tmp_path / "data"
    with seeds_library(seed_index, data_dir) as first:
        app = reader(first)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await search_for(pilot, "diffusion")
            assert "restored" not in status_text(app), "a query typed now is not a restored one"
            await pilot.press("q")
    with seeds_library(seed_index, data_dir) as second:
        app = reader(second)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            count = len(second.view("diffusion").ids)
            assert f'restored: "diffusion" → {count}' in status_text(app)
            await search_for(pilot, "graph")  # "/" selects the kept query: typing replaces it
            assert '"graph"' in status_text(app)
            assert "restored" not in status_text(app)
    with seeds_library(seed_index, data_dir) as third:
        app = reader(third)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            assert 'restored: "graph"' in status_text(app)
            await pilot.press("escape")  # in the list: the kept query goes
            await settle(pilot)
            assert "restored" not in status_text(app) and "graph" not in status_text(app)
            assert len(browse(app).paper_list.ids) == len(third.papers)


async def test_keys_typed_right_after_escape_act_on_the_cleared_list(library: Library) -> None:
    """Over ssh "Esc j" arrives in one read: the j must move from the kept paper in the whole list."""
    app = reader(library, debounce=0.1)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "graph")
        screen = browse(app)
        reading = screen.paper_list.selected_id
        assert reading is not None
        for key in (events.Key("escape", "\x1b"), events.Key("j", "j")):
            app.post_message(key)
        await settle(pilot)
        ids = [paper.id for paper in library.papers]
        assert list(screen.paper_list.ids) == ids
        assert screen.paper_list.selected_id == ids[ids.index(reading) + 1]
