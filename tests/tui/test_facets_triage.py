"""The facet panel (`f`) and triage (`T`), pressed as a user would, over listings from several venues."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from rich.text import Text
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import Static

from index.library import Library
from tests.tui.conftest import settle
from tests.tui.helpers import browse, list_rows, reader
from tui.browse.paper_list import PaperList
from tui.browse.screen import BrowseScreen
from tui.browse.triage import TriageScreen
from tui.screens.help import HelpScreen
from tui.widgets.facet_panel import FacetPanel


def panel_rows(panel: FacetPanel) -> list[str]:
    rows = []
    for index in range(panel.option_count):
        prompt = panel.get_option_at_index(index).prompt
        rows.append((prompt.plain if isinstance(prompt, Text) else str(prompt)).rstrip())
    return rows


def row(name: str, count: int, *, active: bool = False) -> str:
    """A row as the panel draws it: the mark, the name, the count at the right (26 cells)."""
    return ("● " if active else "  ") + name.ljust(18) + f"{count:>6}"


async def choose(pilot: Pilot[None], panel: FacetPanel, label: str) -> None:
    """Move the highlight to the row starting with `label` with j and k, then press Enter."""
    await highlight(pilot, panel, label)
    await pilot.press("enter")
    await settle(pilot)


async def highlight(pilot: Pilot[None], panel: FacetPanel, label: str) -> None:
    """Move the highlight to the row starting with `label` with j and k, as a user would."""
    target = next(i for i, text in enumerate(panel_rows(panel)) if text[2:].startswith(label))
    for _ in range(panel.option_count):
        if panel.highlighted == target:
            break
        await pilot.press("j" if (panel.highlighted or 0) < target else "k")
    assert panel.highlighted == target, (label, panel_rows(panel))


async def open_facets(app: App[None], pilot: Pilot[Any]) -> tuple[BrowseScreen, FacetPanel]:
    """Press `f` in a settled reader: its browse screen and the facet panel that opened."""
    await settle(pilot)
    screen = browse(app)
    await pilot.press("f")
    await settle(pilot)
    return screen, screen.query_one(FacetPanel)


def titles(app_list: PaperList, library: Library) -> list[str]:
    return [library.papers.paper(paper_id).title or "" for paper_id in app_list.ids]


async def test_f_shows_counts_and_choosing_narrows_the_query(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, panel = await open_facets(app, pilot)
        assert panel.display and app.focused is panel
        rows = panel_rows(panel)
        assert rows[:6] == [
            "Venue",
            "● any venue",
            row("NeurIPS", 5),
            row("ICML", 4),
            row("ICLR", 3),
            row("AutoML Conf", 2),
        ]
        assert row("2024", 6) in rows and row("Poster", 8) in rows and "Track" in rows
        assert panel.border_subtitle == "14 papers"

        await choose(pilot, panel, "ICML")
        assert screen.search_bar.input.value == "venue:ICML"
        assert len(screen.paper_list.ids) == 4
        assert {venues.papers.paper(paper_id).venue for paper_id in screen.paper_list.ids} == {"ICML"}
        rows = panel_rows(panel)
        assert row("ICML", 4, active=True) in rows and "  any venue" in rows
        assert [r for r in rows if r.strip()[:4] in ("2024", "2023")] == [row("2024", 2), row("2023", 2)]
        assert app.focused is panel  # a year can be chosen next without going back

        await choose(pilot, panel, "2024")
        assert screen.search_bar.input.value == "venue:ICML year:2024"
        assert titles(screen.paper_list, venues) == [
            "Bandits with {BERT} Features",
            "Regret Bounds via \\emph{Optimism}",
        ]

        await choose(pilot, panel, "ICML")  # chosen again: the clause goes
        assert screen.search_bar.input.value == "year:2024"
        assert len(screen.paper_list.ids) == 6
        await choose(pilot, panel, "any year")
        assert screen.search_bar.input.value == ""
        assert len(screen.paper_list.ids) == 14
        assert "● any year" in panel_rows(panel)

        await pilot.press("f")
        assert not panel.display and isinstance(app.focused, PaperList)


async def test_counts_follow_a_typed_query_and_esc_closes_the_panel(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, panel = await open_facets(app, pilot)
        await pilot.press("slash", *"graph", "enter")
        await settle(pilot)
        shown = {venues.papers.paper(paper_id).venue for paper_id in screen.paper_list.ids}
        assert shown and len(screen.paper_list.ids) < 14
        assert panel.border_subtitle == f"{len(screen.paper_list.ids)} papers"
        listed_venues = {
            r[2:].split()[0] for r in panel_rows(panel)[2:] if r.startswith("  ") and r[-1].isdigit()
        }
        assert {venue.split()[0] for venue in shown if venue} <= listed_venues
        screen.set_focus(panel)
        await pilot.press("escape")
        await pilot.pause()
        assert not panel.display and isinstance(app.focused, PaperList)
        assert screen.search_bar.input.value == "graph"  # Esc in the panel closes it, the query stays


async def test_clicking_an_entry_narrows_too(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(120, 40)) as pilot:
        screen, panel = await open_facets(app, pilot)
        line = next(i for i, text in enumerate(panel_rows(panel)) if text[2:].startswith("ICLR"))
        await pilot.click(FacetPanel, offset=(4, line + 1))  # +1: the border above the first row
        await settle(pilot)
        assert screen.search_bar.input.value == "venue:ICLR"
        assert len(screen.paper_list.ids) == 3


def triage_text(app: object, part: str) -> str:
    screen = app.screen  # type: ignore[attr-defined]
    assert isinstance(screen, TriageScreen), screen
    content = screen.query_one(f"#triage-{part}", Static).content
    return content.plain if isinstance(content, Text) else str(content)


async def test_triage_walks_the_list_from_the_selected_paper(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = browse(app)
        ids = list(screen.paper_list.ids)
        await pilot.press("j", "T")
        await pilot.pause()
        assert triage_text(app, "progress").startswith("Triage  2 / 14")
        assert triage_text(app, "title") == venues.papers.title(ids[1])  # its LaTeX rendered
        assert "\\" not in triage_text(app, "title") and "{" not in triage_text(app, "title")
        assert "We study diffusion schedules" in triage_text(app, "abstract")  # the whole abstract
        assert "Grace Hopper" in triage_text(app, "meta")

        await pilot.press("s")  # star and on to the next
        assert ids[1] in venues.marks.starred
        assert triage_text(app, "progress").startswith("Triage  3 / 14")
        assert triage_text(app, "title") == venues.papers.title(ids[2])  # its LaTeX rendered
        await pilot.press("x", "l", "space")  # skip, later, skip
        assert venues.organiser.tags(ids[3]) == ("later",)
        assert triage_text(app, "progress").startswith("Triage  6 / 14   1 ★ starred · 1 #later · 2 skipped")

        await pilot.press("u")  # the skip: back one, nothing to revert
        assert triage_text(app, "progress").startswith("Triage  5 / 14")
        await pilot.press("u")  # the later: back one more, and the tag comes off
        assert triage_text(app, "progress").startswith("Triage  4 / 14")
        assert venues.organiser.tags(ids[3]) == ()
        assert triage_text(app, "title") == venues.papers.title(ids[3])  # its LaTeX rendered
        await pilot.press("l", "q")
        await pilot.pause()

        assert app.screen is screen
        assert screen.paper_list.selected_id == ids[4]  # where triage stopped
        assert venues.organiser.tags(ids[3]) == ("later",) and (ids[1] in venues.marks.starred)
        assert venues.marks.read == frozenset()  # triage decides; it does not mark papers read
        assert list_rows(app)[1].lstrip().startswith("★")  # the list shows the new star at once


async def test_triage_to_the_end_then_esc_and_undo_at_the_start(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = browse(app)
        ids = list(screen.paper_list.ids)
        await pilot.press("G", "T")
        await pilot.pause()
        await pilot.press("u")  # nothing decided yet: nothing in the store is undone
        assert triage_text(app, "progress").startswith("Triage  14 / 14")
        await pilot.press("s")
        assert triage_text(app, "title") == "That was the last of the 14 papers."
        await pilot.press("s")  # nothing left: no change
        await pilot.press("u")
        assert ids[-1] not in venues.marks.starred
        await pilot.press("question_mark")  # triage's own keys, as mapped now
        assert isinstance(app.screen, HelpScreen)
        assert [title for title, _rows in app.screen.sections] == ["Triage"]
        assert ("s", "Star") in app.screen.sections[0][1] and ("x space", "Skip") in app.screen.sections[0][1]
        await pilot.press("escape")
        assert isinstance(app.screen, TriageScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen and screen.paper_list.selected_id == ids[-1]


async def test_triage_walks_the_current_view_only(venues: Library) -> None:
    app = reader(venues)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = browse(app)
        await pilot.press("slash", *"venue:ICLR", "enter")
        await settle(pilot)
        shown = list(screen.paper_list.ids)
        assert len(shown) == 3
        await pilot.press("T")
        await pilot.pause()
        assert triage_text(app, "progress").startswith("Triage  1 / 3")
        await pilot.press("x", "x", "l")
        assert triage_text(app, "progress").startswith("Triage  3 / 3")
        assert venues.organiser.tags(shown[2]) == ("later",)


# ---- snapshots (reviewed as PNGs before acceptance) -------------------------------------------------------

SnapCompare = Callable[..., bool]


def test_facet_panel_snapshot(venues: Library, snap_compare: SnapCompare) -> None:
    """The panel beside the list after choosing ICML: the query in the bar, ICML marked, years recounted."""

    async def narrow(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("f")
        await settle(pilot)
        await pilot.press("down", "down", "enter")
        await settle(pilot)

    assert snap_compare(reader(venues), terminal_size=(120, 40), run_before=narrow)


def test_triage_snapshot(venues: Library, snap_compare: SnapCompare) -> None:
    """Triage after starring the second paper: the third one large, progress and tallies above it."""

    async def triage(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("j", "T", "s")
        await pilot.pause()

    assert snap_compare(reader(venues), terminal_size=(100, 30), run_before=triage)


async def test_keys_typed_ahead_reach_triage_and_the_panel(venues: Library) -> None:
    """A burst read at once over ssh acts as if typed slowly: "Tsl" stars and tags in triage (the list's own
    `s` must not toggle a star on the paper shown); "jfT" typed into the query stays text."""
    app = reader(venues)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = browse(app)
        ids = list(screen.paper_list.ids)
        for key in [events.Key(char, char) for char in "Tsl"]:
            app.post_message(key)
        await settle(pilot)
        assert isinstance(app.screen, TriageScreen)
        assert venues.marks.starred == {ids[0]} and venues.organiser.tags(ids[1]) == ("later",)
        await pilot.press("q")
        await pilot.pause()
        for key in [events.Key("slash", "/"), *(events.Key(char, char) for char in "fT")]:
            app.post_message(key)
        await settle(pilot)
        assert app.screen is screen and screen.search_bar.input.value == "fT"
        assert not screen.query(FacetPanel)


STATES = ["unread", "read", "starred", "later"]
TRIAGE_KEYS = {"s": "star", "x": "skip", "space": "skip", "l": "later"}


def _marks(library: Library, paper_id: str) -> tuple[bool, bool, tuple[str, ...]]:
    return paper_id in library.marks.starred, paper_id in library.marks.read, library.organiser.tags(paper_id)


@pytest.mark.parametrize("state", STATES)
@pytest.mark.parametrize("key", list(TRIAGE_KEYS))
async def test_every_triage_key_counts_and_undoes_exactly_in_every_state(
    venues: Library, state: str, key: str
) -> None:
    paper_id = venues.papers[0].id
    if state == "read":
        venues.marks.mark_read([paper_id])
    elif state == "starred":
        venues.marks.star([paper_id])
    elif state == "later":
        venues.organiser.tag([paper_id], ["later"])
    before = _marks(venues, paper_id)
    app = reader(venues)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert browse(app).paper_list.selected_id == paper_id
        await pilot.press("T")
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        decision = TRIAGE_KEYS[key]
        already = (decision == "star" and state == "starred") or (decision == "later" and state == "later")
        new = {"star": 0, "later": 0, "skip": 0}
        if not already:
            new[decision] = 1
        progress = triage_text(app, "progress")
        tallies = f"{new['star']} ★ starred · {new['later']} #later · {new['skip']} skipped"
        assert tallies in progress, (state, key, progress)
        assert ("already" in progress) == already, progress
        starred, read, tags = _marks(venues, paper_id)
        assert starred == (before[0] or decision == "star")
        assert read == before[1], "triage never changes a read mark"
        assert ("later" in tags) == ("later" in before[2] or decision == "later")
        await pilot.press("u")
        await pilot.pause()
        assert _marks(venues, paper_id) == before, "u in triage puts the paper back exactly"
        assert "0 ★ starred · 0 #later · 0 skipped" in triage_text(app, "progress")


async def test_triage_and_facet_keys_remap_by_id(venues: Library) -> None:
    """The ids help shows for triage and the facet panel work in `[keymap]`: `w` tags later, `c` closes."""
    app = reader(venues, keymap={"triage.later": "w", "facets.close": "c"})
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = browse(app).paper_list.selected_id
        assert first is not None
        await pilot.press("T", "w")
        await pilot.pause()
        assert "later" in venues.organiser.tags(first)
        await pilot.press("q", "f")
        await settle(pilot)
        panel = browse(app).query_one(FacetPanel)
        assert panel.display and panel.has_focus
        await pilot.press("c")
        await pilot.pause()
        assert not panel.display
        messages = [notification.message for notification in app._notifications]
        assert not any("unknown" in message for message in messages), messages


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_space_picks_several_values_of_one_facet(venues: Library, size: tuple[int, int]) -> None:
    """Space adds a venue to the ones shown (`venue:(ICML OR NeurIPS)`: papers from either), takes it out
    again, and leaves a year chosen with Enter alone; Enter on one value still narrows to it alone."""
    app = reader(venues)
    async with app.run_test(size=size) as pilot:
        screen, panel = await open_facets(app, pilot)
        await highlight(pilot, panel, "ICML")
        await pilot.press("space")
        await settle(pilot)
        assert screen.search_bar.input.value == "venue:ICML"
        await highlight(pilot, panel, "NeurIPS")
        await pilot.press("space")
        await settle(pilot)
        assert screen.search_bar.input.value == "venue:(ICML OR NeurIPS)"
        assert {venues.papers.paper(paper_id).venue for paper_id in screen.paper_list.ids} == {
            "ICML",
            "NeurIPS",
        }
        assert len(screen.paper_list.ids) == 9
        assert venues.view("venue:(ICML OR NeurIPS)").total == 9  # the query as the CLI would run it
        rows = panel_rows(panel)
        assert row("NeurIPS", 5, active=True) in rows and row("ICML", 4, active=True) in rows
        assert "  any venue" in rows and app.focused is panel

        await highlight(pilot, panel, "AutoML Conf")
        await pilot.press("space")
        await settle(pilot)
        assert screen.search_bar.input.value == 'venue:(ICML OR NeurIPS OR "AutoML Conf")'
        assert len(screen.paper_list.ids) == 11

        await choose(pilot, panel, "2024")  # Enter on a year: that section alone changes
        assert screen.search_bar.input.value == 'venue:(ICML OR NeurIPS OR "AutoML Conf") year:2024'
        await highlight(pilot, panel, "ICML")
        await pilot.press("space")  # out again
        await settle(pilot)
        assert screen.search_bar.input.value == 'year:2024 venue:(NeurIPS OR "AutoML Conf")'
        assert {venues.papers.paper(i).venue for i in screen.paper_list.ids} <= {"NeurIPS", "AutoML Conf"}

        # The venues are counted without the venue clause, over 2024's papers: ICML is still there to add
        # (ICLR, with no paper of 2024, is not), and Enter on it makes it the one venue.
        assert row("ICML", 2) in panel_rows(panel) and not any("ICLR" in r for r in panel_rows(panel))
        await choose(pilot, panel, "ICML")
        assert screen.search_bar.input.value == "year:2024 venue:ICML"
        await highlight(pilot, panel, "any venue")
        await pilot.press("space")  # on "any": every venue again
        await settle(pilot)
        assert screen.search_bar.input.value == "year:2024"
        assert "● any venue" in panel_rows(panel)


async def test_the_facet_panel_takes_the_list_keys(venues: Library) -> None:
    """g and G go to the first and last entry, j and k move, q closes like Esc, as in every list."""
    app = reader(venues)
    async with app.run_test(size=(80, 24)) as pilot:
        _screen, panel = await open_facets(app, pilot)
        await pilot.press("G")
        assert panel.highlighted == panel.option_count - 1
        await pilot.press("g")
        first = panel.highlighted
        assert first is not None and not panel.get_option_at_index(first).disabled
        await pilot.press("j")
        assert panel.highlighted == first + 1
        await pilot.press("k")
        assert panel.highlighted == first
        await pilot.press("q")
        await pilot.pause()
        assert not panel.display and isinstance(app.focused, PaperList)
        assert app.is_running  # q closed the panel, it did not quit
