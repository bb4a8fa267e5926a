"""Search as you type: results follow the query, notices and suggestions show, zero results explain."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest
from textual.widgets import Input

from index.library import Library
from tests.conftest import SEEDS, run_papers
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, list_rows, note_text, reader, search_for, status_text
from tui.browse.paper_list import PaperList


async def test_typing_searches_and_enter_returns_to_the_list(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        assert isinstance(app.focused, Input)
        await pilot.press(*"diffusion")
        await settle(pilot)
        expected = list(library.view("diffusion").ids)
        assert 0 < len(expected) < len(library.papers)
        assert list(browse(app).paper_list.ids) == expected
        assert f'"diffusion" → {len(expected)}' in status_text(app)
        assert expected[0] not in library.marks.starred, "typing `s` in the bar must not star anything"
        await pilot.press("enter")
        assert isinstance(app.focused, PaperList)


async def test_the_status_shows_a_quoted_query_as_typed_with_its_quotes_once(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for query in ('"graph neural network"', '"graph neural" calibration'):
            await pilot.press("slash", "ctrl+u", *query, "enter")
            await settle(pilot)
            count = len(library.view(query).ids)
            assert f"{query} → {count}" in status_text(app) and '""' not in status_text(app), status_text(app)


async def test_every_keystroke_of_a_word_narrows_the_list_instead_of_emptying_it(library: Library) -> None:
    """`grap` finds the graph papers while it is typed (no "did you mean"); a finished word matches whole."""
    graph = set(library.view("graph").ids)
    assert len(graph) >= 5
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        counts = []
        for letter in "graph":
            await pilot.press(letter)
            await settle(pilot)
            counts.append(len(browse(app).paper_list.ids))
            assert "did you mean" not in note_text(app).lower(), note_text(app)
        assert counts == sorted(counts, reverse=True) and counts[-1] >= len(graph), counts
        await pilot.press("backspace")  # `grap`: every graph paper, and the other words starting so
        await settle(pilot)
        assert graph <= set(browse(app).paper_list.ids)
        for paper_id in browse(app).paper_list.ids:
            text = f"{library.papers.paper(paper_id).headline} {library.papers.rendered(paper_id).text}"
            assert "grap" in text.lower(), paper_id


async def test_typing_a_prefix_in_the_reader_finds_what_papers_search_prefix_star_does(
    library: Library, seed_index: Path
) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for typed in ("grap", "reinfo", "diffu", "graph neu", "lang"):
            await pilot.press("slash", "ctrl+u", *typed)
            await settle(pilot)
            shown = list(browse(app).paper_list.ids)
            result = run_papers(
                "--listings", str(SEEDS), "--index-dir", str(seed_index), "--data-dir", str(library.data_dir),
                "search", f"{typed}*", "--json", "--limit", "1000",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            assert shown and shown == [row["id"] for row in json.loads(result.stdout)], typed


async def test_matches_are_highlighted_in_the_detail(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "diffusion")
        paper_id = browse(app).paper_list.selected_id
        assert paper_id is not None
        matches = library.papers.page(paper_id, library.view("diffusion").highlight).matches
        assert matches
        body = browse(app).query_one("#detail-body").content  # type: ignore[attr-defined]
        styled = {(span.start, span.end) for span in body.spans if "reverse" in str(span.style)}
        offset = body.plain.index(library.papers.rendered(paper_id).text)
        assert {(offset + match.start, offset + match.end) for match in matches} <= styled


async def test_escape_clears_the_query_and_other_keys_also_leave(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"graph")
        await settle(pilot)
        assert len(browse(app).paper_list.ids) < len(library.papers)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.focused, PaperList)
        assert browse(app).search_bar.value == ""
        assert len(browse(app).paper_list.ids) == len(library.papers)
        for leave in ("tab", "ctrl+j", "down"):
            await pilot.press("slash")
            assert isinstance(app.focused, Input)
            await pilot.press(leave)
            assert isinstance(app.focused, PaperList), leave


async def test_state_filters_in_the_query_language(library: Library) -> None:
    starred = library.papers[5].id
    library.marks.toggle_star(starred)
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "is:starred")
        assert list(browse(app).paper_list.ids) == [starred]


async def test_zero_results_say_what_was_searched_and_how_to_widen(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await search_for(pilot, "zqxjkwv")
        assert list(browse(app).paper_list.ids) == []
        assert '"zqxjkwv"' in list_rows(app)[0]
        assert "To widen the search" in detail_text(app)
        assert '"zqxjkwv" → 0' in status_text(app)


async def test_malformed_query_shows_its_notice(library: Library) -> None:
    query = 'title:"unclosed'
    result = library.view(query)
    assert result.notice, "an unbalanced quote is reported"
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *query)
        await settle(pilot)
        assert result.notice in note_text(app)
        assert list(browse(app).paper_list.ids) == list(result.ids)


async def test_did_you_mean_is_shown_and_accepted_with_ctrl_y(library: Library) -> None:
    query = "difusion"
    suggestion = library.view(query).suggestion
    assert suggestion, "the search module suggests a spelling for a near miss"
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *query)
        await settle(pilot)
        assert f"did you mean {suggestion}?" in note_text(app)
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert browse(app).search_bar.value == suggestion
        assert list(browse(app).paper_list.ids) == list(library.view(suggestion).ids)


async def test_search_waits_for_a_building_index_then_works(tmp_path: Path) -> None:
    library = Library.open([SEEDS], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        assert not library.index_ready
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert len(browse(app).paper_list.ids) == len(library.papers), "first screen never waits"
            await pilot.press("slash", *"diffusion")
            await settle(pilot)
            assert library.index_ready
            assert list(browse(app).paper_list.ids) == list(library.view("diffusion").ids)
            assert "indexing" not in status_text(app)
    finally:
        library.close()


async def test_a_ready_index_is_warmed_at_start_and_a_building_one_is_not(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first keystroke of a session must not pay for numpy and the field lengths (bench_ssh's first key):
    the reader reads them in a worker as soon as it is up, and only from an index that is ready."""
    warmed: list[bool] = []
    real = Library.warm_search
    monkeypatch.setattr(
        Library, "warm_search", lambda self, **kw: warmed.append(self.index_ready) or real(self, **kw)
    )
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert warmed == [True]
        await pilot.press("slash", *"diffusion")
        await settle(pilot)
        assert list(browse(app).paper_list.ids) == list(library.view("diffusion").ids)
    building = Library.open([SEEDS], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        async with reader(building).run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert building.index_ready and warmed == [True]  # built, then searched at once: no warming
    finally:
        building.close()


async def test_the_papers_command_freezes_what_is_alive_once_search_is_warm(library: Library) -> None:
    """Full collections scanning the library's long-lived objects were 90-100 ms pauses inside keystrokes;
    `papers` (freeze_gc=True) freezes them after the warm-up, and a plain app (as in tests) does not."""
    assert gc.get_freeze_count() == 0
    async with reader(library).run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert gc.get_freeze_count() == 0
    try:
        async with reader(library, freeze_gc=True).run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            assert gc.get_freeze_count() > 0
            await pilot.press("slash", *"diffusion")
            await settle(pilot)
            assert list(browse(pilot.app).paper_list.ids) == list(library.view("diffusion").ids)
    finally:
        gc.unfreeze()


async def test_a_field_value_being_typed_matches_as_a_prefix(library: Library) -> None:
    """`headline:diffu` and `venue:neur` narrow the list while typed, as a last word does; finished (Enter
    with a space, or the CLI) they match whole words."""
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for typed in ("headline:diffu", "abstract:diffu", "venue:neur"):
            await pilot.press("slash", "ctrl+u", *typed)
            await settle(pilot)
            expected = list(library.view(f"{typed}*").ids)
            assert expected and list(browse(app).paper_list.ids) == expected, typed
            assert library.view(typed).ids != tuple(expected), "finished, the value is a whole word"
            assert "did you mean" not in note_text(app).lower()
            await pilot.press("enter")
