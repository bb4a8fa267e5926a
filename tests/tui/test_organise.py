"""Tags (`t`), notes (`e`), saved searches (`S`, the palette) and for you (`4`), pressed as a user would."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input, OptionList, Static, TextArea

from index.library import Library
from tests.conftest import SEEDS
from tests.tui.conftest import settle
from tests.tui.helpers import browse, detail_text, list_rows, reader, status_text
from tui.screens.note_editor import NoteEditor
from tui.screens.prompt import Prompt
from tui.screens.saved_searches import SavedSearches
from tui.screens.tag_prompt import complete_tag, parse_tag_edit


def test_tag_answers_split_into_adds_and_removes() -> None:
    assert parse_tag_edit("  ml later -old - -x ") == (("ml", "later"), ("old", "x"))
    assert parse_tag_edit("") == ((), ())


def test_tag_completion_takes_the_last_word_and_skips_what_is_typed() -> None:
    names = ["later", "latent", "ml"]
    assert complete_tag("la", names, ()) == "later"
    assert complete_tag("ml La", names, ()) == "ml Later"
    assert complete_tag("later la", names, ()) == "later latent"  # later is already typed
    assert complete_tag("-l", names, ("ml", "loved")) == "-loved"  # removal completes the paper's own tags
    assert complete_tag("la", names, ("later",)) == "latent"  # adding skips the tags the paper has
    assert complete_tag("ml ", names, ()) is None
    assert complete_tag("zz", names, ()) is None


async def test_t_adds_and_removes_tags_shows_them_and_u_undoes(library: Library) -> None:
    first = library.papers[0].id
    library.organiser.tag([library.papers[5].id], ["later"])  # a tag in use, for completion
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        assert isinstance(app.screen, Prompt)
        await pilot.press(*"ml la", "tab", "enter")
        await settle(pilot)
        assert library.organiser.tags(first) == ("later", "ml")
        assert "#later #ml" in list_rows(app)[0]
        assert "#later #ml" in detail_text(app)

        await pilot.press("t", *"-ml", "enter")
        await settle(pilot)
        assert library.organiser.tags(first) == ("later",)
        assert "#ml" not in list_rows(app)[0]

        await pilot.press("u")
        await settle(pilot)
        assert library.organiser.tags(first) == ("later", "ml")
        assert "#later #ml" in list_rows(app)[0]

        await pilot.press("t", *"nothing", "escape")
        await settle(pilot)
        assert library.organiser.tags(first) == ("later", "ml")
        assert browse(app) is app.screen


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_bad_tag_name_keeps_the_answer_with_the_reason(
    library: Library, size: tuple[int, int]
) -> None:
    """A bad name refuses the answer but keeps it, with the reason in the prompt: mend it and Enter again."""
    first = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("t", *"good bad,name later", "enter")
        await settle(pilot)
        assert library.organiser.tags(first) == ()
        prompt = app.screen
        assert isinstance(prompt, Prompt)
        assert prompt.input.value == "good bad,name later"
        hint = prompt.query_one("#prompt-hint", Static)
        assert "'bad,name'" in str(hint.content) and hint.has_class("-problem")
        await pilot.press(*(["left"] * len("name later")), "backspace", "-")
        assert prompt.input.value == "good bad-name later"
        await pilot.press("enter")
        await settle(pilot)
        assert app.screen is browse(app)
        assert library.organiser.tags(first) == ("bad-name", "good", "later")
        await pilot.press("t", *"x,y", "escape")  # Esc still gives up
        await settle(pilot)
        assert app.screen is browse(app) and library.organiser.tags(first) == ("bad-name", "good", "later")


async def test_tags_never_push_the_venue_column_or_overflow_the_row(library: Library) -> None:
    first = library.papers[0].id
    library.organiser.tag([first], ["a-very-long-tag-name-for-testing", "another-long-one"])
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        paper_list = browse(app).paper_list
        width = paper_list.scrollable_content_region.width
        row = paper_list.render_line(0)
        assert row.cell_length == width
        assert "#a-very" in row.text and "…" in row.text


async def test_e_edits_the_note_saved_on_leaving_and_u_undoes(library: Library) -> None:
    first = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e")
        assert isinstance(app.screen, NoteEditor)
        assert isinstance(app.focused, TextArea)
        await pilot.press(*"read the appendix", "enter", *"[bold]x[/]")
        await pilot.press("escape")
        await settle(pilot)
        assert library.organiser.note(first) == "read the appendix\n[bold]x[/]"
        text = detail_text(app)
        assert "✎ read the appendix" in text and "[bold]x[/]" in text  # shown literally, not as markup
        assert "✎" in list_rows(app)[0]

        await pilot.press("u")
        await settle(pilot)
        assert library.organiser.note(first) == ""
        assert "✎" not in detail_text(app)

        library.organiser.set_note(first, "keep")
        await pilot.press("e")
        app.screen.query_one(TextArea).clear()
        await pilot.press("escape")
        await settle(pilot)
        assert library.organiser.note(first) == ""  # an emptied note is removed


async def test_clicking_outside_the_note_editor_saves_and_closes_it(library: Library) -> None:
    first = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e", *"by mouse")
        await pilot.click(offset=(2, 35))
        await settle(pilot)
        assert browse(app) is app.screen
        assert library.organiser.note(first) == "by mouse"


async def test_a_note_being_typed_is_kept_when_the_reader_quits(library: Library) -> None:
    first = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e", *"half a thought")
        await pilot.press("ctrl+q")
    assert library.organiser.note(first) == "half a thought"


async def _save_search_as(pilot: Pilot[None], keys: list[str], name: str) -> None:
    """Press `keys`, which must open the "Save this search as" prompt, and answer it with `name`."""
    for key in keys:
        if key == "enter":
            await settle(pilot)  # the palette has found the command
        await pilot.press(key)
        if key == "ctrl+p":
            await settle(pilot)
    await settle(pilot)
    assert isinstance(pilot.app.screen, Prompt)
    await pilot.press(*name, "enter")
    await settle(pilot)


async def test_palette_saves_the_search_and_s_lists_it_with_unread_counts(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"diffusion", "enter")
        await settle(pilot)
        found = len(browse(app).paper_list.ids)
        await _save_search_as(pilot, ["ctrl+p", *"Save search", "enter"], "diff")
        assert library.organiser.saved_searches() == [("diff", "diffusion")]
        library.organiser.save_search("all starred", "is:starred")

        await pilot.press("escape")  # clear the query: the saved search must bring it back
        await settle(pilot)
        await pilot.press("S")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SavedSearches)
        options = screen.query_one(OptionList)
        rows = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert rows[0].split() == ["0", "all", "starred", "is:starred"]
        assert rows[1].split()[:3] == [str(found), "diff", "diffusion"]

        await pilot.press("d")  # deletes the highlighted one (the first), once confirmed
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert len(library.organiser.saved_searches()) == 2
        await pilot.press("d", "y")
        await settle(pilot)
        assert library.organiser.saved_searches() == [("diff", "diffusion")]
        await pilot.press("enter")
        await settle(pilot)
        assert browse(app) is app.screen
        assert browse(app).search_bar.value == "diffusion"
        assert len(browse(app).paper_list.ids) == found
        assert browse(app).query_text == "diffusion"


async def test_ctrl_s_saves_the_query_shown_or_the_one_being_typed(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("2", "slash", *"graph", "enter")  # the unread filter is kept as is:unread
        await settle(pilot)
        await _save_search_as(pilot, ["ctrl+s"], "graphs")
        await _save_search_as(pilot, ["slash", "ctrl+u", *"diffusion model", "ctrl+s"], "diff")  # in the bar
        assert library.organiser.saved_searches() == [
            ("diff", "diffusion model is:unread"),
            ("graphs", "graph is:unread"),
        ]


async def test_a_chosen_saved_search_brings_its_own_filter_not_the_one_shown(library: Library) -> None:
    """A saved search keeps its filter as `is:` words: choosing it while `3` (starred) is on must not leave
    only the starred papers of it."""
    library.organiser.save_search("diff", "diffusion")
    library.marks.toggle_star(library.papers[0].id)
    expected = list(library.view("diffusion").ids)
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("3")
        await settle(pilot)
        assert len(browse(app).paper_list.ids) == 1
        await pilot.press("S")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert browse(app).filter == "all"
        assert list(browse(app).paper_list.ids) == expected and len(expected) > 1
        assert "starred only" not in status_text(app)


async def test_saving_with_a_filter_keeps_it_as_an_is_word(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("2")
        await settle(pilot)
        browse(app).organising.save_search(browse(app).query_text, browse(app).filter)
        await pilot.pause()
        assert isinstance(app.screen, Prompt)
        app.screen.query_one(Input).value = "to read"
        await pilot.press("enter")
        await settle(pilot)
    assert library.organiser.saved_searches() == [("to read", "is:unread")]


async def test_4_lists_papers_for_you_with_why(library: Library) -> None:
    seeds = [paper.id for paper in library.papers[:3]]
    library.marks.star(seeds)
    expected = [hit.id for hit in library.discovery.for_you(200)]
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert library.discovery.warmed_for == frozenset(seeds)  # warmed at start, before any key
        await pilot.press("4")
        await settle(pilot)
        screen = browse(app)
        assert screen.filter == "foryou"
        assert list(screen.paper_list.ids) == expected
        assert "for you" in status_text(app)
        text = detail_text(app)
        hit = library.discovery.for_you(1)[0]
        assert text.startswith("For you · shares ")
        assert library.papers.paper(hit.nearest_id).headline[:40] in text.split("\n\n")[0]
        await pilot.press("1")
        await settle(pilot)
        assert not detail_text(app).startswith("For you")


async def test_foryou_tag_lists_papers_like_the_tagged_ones_with_why_then_4_goes_back_to_stars(
    library: Library,
) -> None:
    tagged = [paper.id for paper in library.papers[10:13]]
    library.organiser.tag(tagged, ["later"])
    library.marks.star([paper.id for paper in library.papers[:3]])
    expected = [hit.id for hit in library.discovery.for_you(200, tag="later")]
    by_stars = [hit.id for hit in library.discovery.for_you(200)]
    assert expected and expected != by_stars
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"foryou:later", "enter")
        await settle(pilot)
        await settle(pilot)  # the reasons for the tag are computed in a worker, then shown
        assert list(browse(app).paper_list.ids) == expected
        why = detail_text(app).split("\n\n")[0]
        assert why.startswith("Like your papers tagged later · shares ")
        nearest = library.discovery.for_you(1, tag="later")[0].nearest_id
        assert nearest in tagged and library.papers.paper(nearest).headline[:30] in why
        await pilot.press("escape", "4")  # clear the query, then for you by the stars
        await settle(pilot)
        await settle(pilot)
        assert list(browse(app).paper_list.ids) == by_stars
        assert detail_text(app).startswith("For you · shares ")


async def test_for_you_warms_once_a_building_index_is_ready(tmp_path: Path) -> None:
    library = Library.open([SEEDS], index_dir=tmp_path / "index", data_dir=tmp_path / "data")
    try:
        library.marks.star([paper.id for paper in library.papers[:3]])
        assert not library.index_ready
        app = reader(library)
        async with app.run_test(size=(120, 40)) as pilot:
            await settle(pilot)
            await settle(pilot)
            assert library.index_ready
            assert library.discovery.warmed_for == library.marks.starred
            await pilot.press("4")
            await settle(pilot)
            assert detail_text(app).startswith("For you · shares ")
    finally:
        library.close()


async def test_for_you_without_stars_says_what_to_do(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert browse(app).paper_list.ids == ()
        assert "star a few first" in str(browse(app).search_bar.query_one("#search-note").content)
        assert list_rows(app)[0].strip() == "No papers for the for-you list."
        assert "press 1 to show all papers, not only the for-you ones" in detail_text(app)


async def test_tags_and_a_note_typed_as_one_burst_reach_their_prompts(library: Library) -> None:
    """Over ssh "tml⏎" arrives in one read: "m" must be typed into the prompt, not open more like this."""
    first = library.papers[0].id
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for char in "tml\r":
            app.post_message(events.Key("enter" if char == "\r" else char, char))
        await settle(pilot)
        assert library.organiser.tags(first) == ("ml",)
        assert browse(app).similar is None
        for char in "emy note":
            app.post_message(events.Key("space" if char == " " else char, char))
        app.post_message(events.Key("escape", None))
        await settle(pilot)
        assert library.organiser.note(first) == "my note"
        assert browse(app) is app.screen


async def test_t_e_and_s_typed_into_the_query_are_letters(library: Library) -> None:
    app = reader(library)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"test Set", "enter")
        await settle(pilot)
        assert browse(app).search_bar.value == "test Set"
        assert browse(app) is app.screen
