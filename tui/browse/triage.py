"""Triage (`T`): the shown papers one at a time, large, each starred, skipped or kept for later with one key.

Triage never marks a paper read. Deciding from a whole-screen view in a second or two is sorting, not
reading; and a dwell clock here would put read marks between triage's own changes in the undo log, so `u`
could no longer revert exactly the last decision. Papers triaged stay unread until they are read in the
reader (dwell or `r`), by the same rule as always (tui/browse/marking.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from tui import keys
from tui.browse.messages import ListFocusRequested, MarksChanged
from tui.browse.paper_detail import PaperView, abstract_text, facts_line, url_text
from tui.saving import saving, writable
from tui.screens.help import HelpScreen
from tui.scrolling import scroll_at_once
from tui.text import literal, one_line
from tui.typeahead import TypeAheadApp, typed_ahead
from tui.widgets.key_footer import KeyFooter

if TYPE_CHECKING:
    from index.library import Library
    from tui.browse.marking import Marking
    from tui.browse.paper_list import PaperList

LATER_TAG = "later"
"""The tag `l` gives: a reading list of its own (`tag:later`, `papers export --tag later`)."""
Decision = Literal["star", "skip", "later"]
DONE_WORDS = {"star": "★ starred", "skip": "skipped", "later": f"#{LATER_TAG}"}


@dataclass(frozen=True, slots=True)
class Step:
    """One decision: where it was taken and whether it changed the store (so undo knows what to revert)."""

    position: int
    decision: Decision
    changed: bool

    @property
    def counts(self) -> bool:
        """Whether the tallies count it: a skip always, a star or `later` only when it was new."""
        return self.changed or self.decision == "skip"


class TriageScreen(Screen[str | None]):
    """Walks `ids` from `start`; dismisses with the id of the paper triage stopped at (None if no papers)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "decide('star')", "Star", id="triage.star"),
        Binding("x,space", "decide('skip')", "Skip", id="triage.skip"),
        Binding("l", "decide('later')", "Later", id="triage.later"),
        Binding("u", "undo", "Undo", id="triage.undo"),
        Binding("q,escape", "leave", "Back to list", id="triage.leave"),
        Binding("question_mark", "help", "Help", id="triage.help"),
        Binding("down,j", "scroll('down')", "Scroll down", show=False, id="triage.down"),
        Binding("up,k", "scroll('up')", "Scroll up", show=False, id="triage.up"),
        Binding("home,g", "scroll('home')", "Top", show=False, id="triage.top"),
        Binding("end,G", "scroll('end')", "Bottom", show=False, id="triage.bottom"),
    ]

    def __init__(self, library: Library, ids: Sequence[str], start: int) -> None:
        super().__init__()
        self.library = library
        self.ids = tuple(ids)
        self.position = max(0, min(start, len(self.ids)))
        self.history: list[Step] = []
        self.said = ""

    def compose(self) -> ComposeResult:
        yield Static(id="triage-progress")
        with VerticalScroll(id="triage-body"):
            yield Static(id="triage-title")
            yield Static(id="triage-meta")
            yield Static(id="triage-abstract")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show()
        typed_ahead(self)  # the keys typed after `T` are for this screen

    @property
    def current(self) -> str | None:
        return self.ids[self.position] if self.position < len(self.ids) else None

    # ---- drawing -------------------------------------------------------------------------------------------

    def progress_text(self) -> Text:
        """`Triage  37 / 412`, then what the last key did and the tallies so far."""
        total = len(self.ids)
        text = Text(end="", no_wrap=True, overflow="ellipsis")
        text.append("Triage  ", "bold")
        text.append(f"{min(self.position + 1, total)} / {total}", "bold")
        # Papers that were starred or tagged `later` already are not counted again: a tally says what
        # this triage changed, the number `u` in it would take back.
        counted = [step.decision for step in self.history if step.counts]
        tallies = [
            f"{counted.count(decision)} {DONE_WORDS[decision]}" for decision in ("star", "later", "skip")
        ]
        text.append("   " + " · ".join(tallies), "dim")
        if self.said:
            text.append("   " + self.said)
        return text

    def _show(self) -> None:
        self.query_one("#triage-progress", Static).update(self.progress_text())
        title, meta, abstract = self._paper_parts()
        self.query_one("#triage-title", Static).update(title)
        self.query_one("#triage-meta", Static).update(meta)
        self.query_one("#triage-abstract", Static).update(abstract)
        self.query_one("#triage-body", VerticalScroll).scroll_home(animate=False)

    def _paper_parts(self) -> tuple[Text, Text, Text]:
        paper_id = self.current
        if paper_id is None:
            done = Text(f"That was the last of the {len(self.ids)} papers.", end="")
            hint = Text("u undoes the last decision · q goes back to the list", style="dim", end="")
            return done, hint, Text("", end="")
        library = self.library
        page = library.papers.page(paper_id)
        paper = page.paper
        view = PaperView(
            page=page,
            starred=paper_id in library.marks.starred,
            read=paper_id in library.marks.read,
            tags=library.organiser.tags(paper_id),
        )
        meta = Text(end="")
        if paper.authors:
            meta.append_text(literal(one_line(", ".join(paper.authors)), "italic"))
            meta.append("\n")
        body = self.query_one("#triage-body", VerticalScroll)
        meta.append_text(
            facts_line(view, max(0, body.content_region.width - body.styles.scrollbar_size_vertical))
        )
        if paper.url:
            meta.append("\n")
            meta.append_text(url_text(paper.url, page.link))
        return literal(one_line(page.title)), meta, abstract_text(page.rendered, ())

    # ---- keys ----------------------------------------------------------------------------------------------

    def action_decide(self, decision: Decision) -> None:
        """Star, skip or tag `later` the paper shown, then show the next one."""
        paper_id = self.current
        if paper_id is None:
            self.app.bell()
            return
        changed = saved = False
        with saving(self):
            if decision == "star":
                changed = bool(self.library.marks.star([paper_id]).changed)
            elif decision == "later":
                changed = bool(self.library.organiser.tag([paper_id], [LATER_TAG]).changed)
            saved = True
        if not saved:
            return  # the disk stopped taking writes: stay on this paper, the notice says why
        self.history.append(Step(self.position, decision, changed))
        already = "" if changed or decision == "skip" else "already "
        self.said = f"last: {already}{DONE_WORDS[decision]}"
        self.position += 1
        self._show()

    def action_undo(self) -> None:
        """Back to the last paper decided, with its star or tag taken off again (a skip changed nothing)."""
        if not self.history:
            self.notify("Nothing to undo in this triage.", timeout=2)
            return
        step = self.history[-1]
        if step.changed:
            # The store's newest change is this decision (triage marks nothing else); one another session
            # made since would be undone instead, as `u` in the list would, and the store leaves alone a
            # slot that changed again after it.
            undone = False
            with saving(self):
                self.library.marks.undo()
                undone = True
            if not undone:
                return
        self.history.pop()
        self.position = step.position
        self.said = f"undone: {DONE_WORDS[step.decision]}"
        self._show()

    def action_leave(self) -> None:
        stopped = self.current if self.current is not None else (self.ids[-1] if self.ids else None)
        self.dismiss(stopped)

    def action_help(self) -> None:
        # Only this screen's section: the sheet's fixed rows (search bar, palette) are the browse screen's.
        sections = [section for section in keys.help_sections([("Triage", self)]) if section[0] == "Triage"]
        self.app.push_screen(HelpScreen(sections, self.library.query_help))

    def action_scroll(self, how: str) -> None:
        """j/k a line, g/G to the top or the end of the paper, as in the detail pane."""
        scroll_at_once(self.query_one("#triage-body", VerticalScroll), how)


class Triaging:
    """Opens triage over the browse screen's list and puts the cursor where it stopped.

    Args:
        host: the browse screen, told by `MarksChanged` and `ListFocusRequested` when triage ends.
        library: where decisions are stored.
        paper_list: the list whose papers, in order from the selected one, triage walks.
        marking: its dwell clock is stopped while triage is open (the list's paper is not being read), and
            its star set reloaded afterwards.
    """

    def __init__(
        self,
        host: Screen[None],
        library: Library,
        paper_list: Callable[[], PaperList],
        marking: Marking,
    ) -> None:
        self._host = host
        self._library = library
        self._paper_list = paper_list
        self._marking = marking

    def open(self) -> None:
        """`T`. Keys typed after it are held until triage is shown (`typed_ahead`), so a burst such as "Tss"
        over ssh stars two papers in triage rather than toggling a star in the list."""
        app = self._host.app
        if isinstance(app, TypeAheadApp):
            app.hold_keys()
        if not self._push() and isinstance(app, TypeAheadApp):
            app.release_keys()

    def _push(self) -> bool:
        paper_list = self._paper_list()
        if not paper_list.ids:
            self._host.notify("No papers to triage.", timeout=2)
            return False
        if not writable(self._host, self._library):  # triage is all changes
            return False
        self._marking.dwell(None)
        screen = TriageScreen(self._library, paper_list.ids, paper_list.cursor)
        self._host.app.push_screen(screen, self._returned)
        return True

    def _returned(self, stopped: str | None) -> None:
        paper_list = self._paper_list()
        if stopped is not None:
            paper_list.select(stopped)
        self._marking.reload()
        self._host.post_message(MarksChanged())
        self._host.post_message(ListFocusRequested())
        self._marking.dwell(paper_list.selected_id)  # back in the list: the usual rule for reading applies
