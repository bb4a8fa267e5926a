"""The browse screen: search bar, paper list and detail side by side, status line; it owns the view state.

It composes the parts of `tui/browse/`, runs the searches, and redraws when a part's message arrives
(`MarksChanged`, `QueryRequested`, `ListFocusRequested`). Every key's action calls one typed method of the
part that does the work.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.actions import SkipAction
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding, BindingType
from textual.reactive import reactive
from textual.screen import Screen
from textual.worker import get_current_worker

from tui import keys
from tui.browse import results
from tui.browse.discovering import Discovering
from tui.browse.index_build import IndexBuilder
from tui.browse.marking import Marking
from tui.browse.messages import ListFocusRequested, MarksChanged, QueryRequested
from tui.browse.organising import Organising
from tui.browse.panes import Panes
from tui.browse.paper_detail import PaperDetail
from tui.browse.paper_list import PaperList, Row, venue_width
from tui.browse.search_bar import SearchBar
from tui.browse.searching import Searches
from tui.browse.similar_view import SimilarView
from tui.screens.help import HelpScreen
from tui.text import one_line, venue_year
from tui.typeahead import TypeAheadApp
from tui.widgets.facet_panel import FacetPanel
from tui.widgets.key_footer import KeyFooter
from tui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from index.library import Library


FULL_SCREEN_CLASS = "-full-screen"
PREVIEW_KEY = "preview_lines"
"""The session memory's key for whether rows show their preview line (`p`)."""
"""The screen's class while the detail pane has the whole screen (app.tcss hides the rest)."""


class BrowseScreen(Screen[None]):
    """Receives the widgets' messages, asks the library, and pushes the answers down into the widgets.

    Parts it owns do the work: `Marking` marks, `Organising` tags, notes and saved searches, `Discovering`
    facets and triage, `IndexBuilder` the build, `Searches` the search worker. Keys stay bound here (remapped
    by id); each action calls one method of a part, and the parts answer with messages.
    """

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]  # noqa: RUF012 (Textual declares it so)

    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: it moves the focus, so it must act when dequeued, before the keys typed after it are
        # routed (see tui/typeahead.py); it skips itself while the search has focus, so "/" can be typed.
        Binding("slash", "focus_search", "Search", priority=True, id="browse.search"),
        Binding("tab", "switch_pane", "Switch pane", show=False, id="browse.switch"),
        Binding("s", "toggle_star", "Star", id="browse.star"),
        Binding("r", "toggle_read", "Read", id="browse.read"),
        Binding("R", "mark_all_read", "Mark shown read", show=False, id="browse.mark_all"),
        Binding("u", "undo", "Undo", show=False, id="browse.undo"),
        Binding("n", "step_unread(1)", "Next unread", show=False, id="browse.next_unread"),
        Binding("N", "step_unread(-1)", "Previous unread", show=False, id="browse.previous_unread"),
        Binding("1", "filter('all')", "All papers", show=False, id="browse.filter_all"),
        Binding("2", "filter('unread')", "Unread only", show=False, id="browse.filter_unread"),
        Binding("3", "filter('starred')", "Starred only", show=False, id="browse.filter_starred"),
        Binding("4", "filter('foryou')", "For you", show=False, id="browse.filter_foryou"),
        # Priority like "/": they open a dialog that the keys typed after them must reach (tui/typeahead.py).
        Binding("t", "edit_tags", "Tag", show=False, priority=True, id="browse.tag"),
        Binding("e", "edit_note", "Note", show=False, priority=True, id="browse.note"),
        Binding("S", "open_saved", "Saved searches", show=False, priority=True, id="browse.saved"),
        Binding(
            "ctrl+s",
            "save_search",
            "Save search as…",
            show=False,
            priority=True,
            id="browse.save_search",
        ),
        Binding("f", "toggle_facets", "Facets", show=False, priority=True, id="browse.facets"),
        Binding("T", "triage", "Triage", show=False, priority=True, id="browse.triage"),
        Binding("o", "cycle_order", "Sort", show=False, id="browse.sort"),
        Binding("m", "more_like_this", "More like this", show=False, id="browse.similar"),
        Binding("p", "toggle_preview", "Preview lines", show=False, id="browse.preview"),
        # Enter reaches the screen only from the detail pane (the list opens the paper with it, the search
        # bar leaves with it): Enter on an open paper gives it the whole screen, as `v` does anywhere.
        Binding("v,enter", "toggle_full_screen", "Full screen", show=False, id="browse.full_screen"),
        # Priority too, so keys typed after it act on the list it leaves behind; it skips itself when it has
        # nothing to do here (the search bar's own Esc clears the query being typed).
        Binding(
            "escape", "leave", "Back / clear query", show=False, priority=True, id="browse.leave_similar"
        ),
        Binding("y", "copy", "Copy paper", show=False, id="browse.copy"),
        # Shown in the footer only while the paper has a link / what BibTeX needs (`check_action`).
        Binding("L", "copy_link", "Link to clipboard", id="browse.copy_link"),
        Binding("b", "copy_bibtex", "BibTeX to clipboard", id="browse.copy_bibtex"),
        Binding("ctrl+y", "accept_suggestion", "Accept suggestion", show=False, id="browse.suggestion"),
        Binding("question_mark", "help", "Help", id="browse.help"),
        Binding("q", "app.quit", "Quit", id="browse.quit"),
    ]

    # The view state. Each watcher redraws what depends on it, so an action only says what changed.
    query_text: reactive[str] = reactive("", init=False)
    """The query the list answers (typed, chosen, accepted); a new one runs."""
    filter: reactive[str] = reactive("all", init=False)
    """The 1-4 filter; a new one runs the query again and is remembered."""
    order: reactive[str] = reactive("relevance", init=False)
    """The order `o` cycles through; a new one runs the query again and is remembered."""
    similar: reactive[SimilarView | None] = reactive(None, always_update=True, init=False)
    """More like this: while set, the list shows papers like its source instead of the search's answer."""
    outcome: reactive[results.View] = reactive(results.View("", "all", ()), always_update=True, init=False)
    """The newest search's answer; every answer redraws the list, its note and the status line."""
    full_screen: reactive[bool] = reactive(False, init=False)
    """The detail pane has the whole screen (the search bar, the list and the facets are hidden)."""

    space_at_end = "next"
    """What `space` past the end of a paper opens: "next" or "unread" (the app sets it from the config)."""

    def __init__(self, library: Library, *, debounce: float = 0.03, mark_read_delay: float = 2.0) -> None:
        super().__init__()
        self.library = library
        self.debounce = debounce
        self._previews: dict[str, tuple[str, Sequence[tuple[int, int]]]] = {}
        self.marking = Marking(self, library, lambda: self.paper_list, mark_read_delay=mark_read_delay)
        self.organising = Organising(self, library, lambda: self.paper_list)
        self.discovering = Discovering(self, library, lambda: self.paper_list, self.marking)
        self.searches = Searches(
            self,
            library,
            on_answer=self._apply,
            on_lost=self._index_lost,
            leaving=lambda: self.search_bar.leaving,
        )
        self.indexing = IndexBuilder(
            self,
            library,
            on_progress=self._on_progress,
            on_ready=self.run_search,
            on_listings_read=self._listings_read,
        )
        self.query_restored = False  # the query came back from the last session and is still unchanged
        self._restore_id: str | None = None
        self._current: str | None = None
        self._copyable: frozenset[str] = frozenset()
        """The copy actions the selected paper has something for ("copy_link", "copy_bibtex")."""

    # ---- composition and start-up -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield SearchBar(debounce=self.debounce, id="search-bar")
        with Panes(self.library, id="panes"):
            yield PaperList(self._describe, preview=self._preview, id="paper-list")
            yield PaperDetail(id="paper-detail")
        yield StatusLine(id="status-line")
        yield KeyFooter()

    @property
    def paper_list(self) -> PaperList:
        return self.query_one(PaperList)

    @property
    def detail(self) -> PaperDetail:
        return self.query_one(PaperDetail)

    @property
    def search_bar(self) -> SearchBar:
        return self.query_one(SearchBar)

    def on_mount(self) -> None:
        library = self.library
        self.marking.reload()
        self.organising.reload()
        self._fit_rows_to_papers()
        if library.session.get(PREVIEW_KEY, False) is True:
            self.paper_list.set_row_height(2)
        # The last session's view is set without its watchers: the first paint below shows it, and the
        # search for it runs once, at the end.
        query, filter, order, self._restore_id = results.restore_view(library)
        self.set_reactive(BrowseScreen.query_text, query)
        self.set_reactive(BrowseScreen.filter, filter)
        self.set_reactive(BrowseScreen.order, order)
        self.search_bar.set_value(query)
        self.query_restored = bool(query)
        # First paint never waits for the index: show every paper in listing order straight away.
        self.set_reactive(BrowseScreen.outcome, results.View("", "all", tuple(library.papers.ids)))
        self.paper_list.set_ids(self.outcome.ids, select=self._restore_id)
        self.set_focus(self.paper_list)
        self.watch(self.app, "app_focus", self._app_focus_changed, init=False)
        self.marking.watch_store()  # other processes' changes show within a second, and on focus
        for notice in library.notices:
            self.notify(one_line(notice), severity="warning", timeout=10, markup=False)
        self.indexing.start()  # builds the index, or warms its search when it is ready
        self._refresh_status()
        if self.query_text or self.filter != "all" or self.order != "relevance":
            self.run_search()

    def _fit_rows_to_papers(self) -> None:
        papers = self.library.papers
        self.paper_list.show_where = papers.spans_several_listings
        self.paper_list.where_width = venue_width(papers.venue_years)

    def _listings_read(self, notices: list[str]) -> None:
        """Every listing is read (the first paint had the first files' papers, which keep their places): list
        them all, on the paper the user moved to, or still the one the last session left if they did not."""
        self._fit_rows_to_papers()
        for notice in notices:
            self.notify(one_line(notice), severity="warning", timeout=10, markup=False)
        moved = self.marking.chosen is not None
        self._restore_id = self._current if moved else self._restore_id or self._current
        self.run_search()

    def on_unmount(self) -> None:
        self.save_session()

    def save_session(self) -> None:
        results.save_view(self.library, self.query_text, self.filter, self.order, self._current)

    # ---- index build (the worker lives in IndexBuilder) ---------------------------------------------------

    def _on_progress(self) -> None:
        self._refresh_status()
        if self.outcome.waiting:
            self.search_bar.set_note(results.note(self.outcome, self.indexing.progress))

    def _index_lost(self, why: str, replaced: bool) -> None:
        """A search found the index damaged or changed under the reader, or `replaced` by another process:
        say so, have it made current (rebuilt when damaged; the query runs again once it is ready), and
        meanwhile list every paper as while indexing."""
        if replaced:
            self.notify(f"{why}; reading it again", markup=False)
        elif self.library.index_read_only:
            self.notify(f"{why}; run `papers index`, then reopen the reader", severity="error", markup=False)
            self.run_search()
            return
        else:
            self.notify(f"{why}; rebuilding it", severity="warning", markup=False)
        self.indexing.start()
        self.run_search()

    # ---- searching -----------------------------------------------------------------------------------------

    def run_search(self) -> None:
        """Search for the current query, filter and order in a thread; only the newest answer is shown."""
        self.searches.run(self.query_text, self.filter, self.order)

    def _apply(self, outcome: results.View) -> None:
        """The newest search's answer (`Searches` drops older ones) becomes the list, unless the list is
        showing similar papers."""
        if self.similar is None:
            self.outcome = outcome

    def watch_outcome(self, old: results.View, outcome: results.View) -> None:
        """An answer: the list (on its best hit when the query is new), its note, the facets, the status."""
        # A query that waited for the index is new once it really runs: show its best hit, not paper one.
        new_query = outcome.query != old.query or old.waiting
        # For you is a ranking: its best are on top, and the selection goes there to show them.
        new_ranking = outcome.filter == "foryou" and old.filter != "foryou"
        select, self._restore_id = self._restore_id, None
        if select is None and (new_query or new_ranking) and outcome.ids:
            select = outcome.ids[0]  # a new query shows its best hit; a filter or sort keeps the paper
        self._previews.clear()  # their matches are the old answer's
        self.paper_list.empty_message = results.empty_message(outcome)
        self.paper_list.set_ids(outcome.ids, select=select)
        self.discovering.view_changed(outcome)
        self.search_bar.set_note(results.note(outcome, self.indexing.progress))
        self._refresh_status()

    # ---- widget messages -----------------------------------------------------------------------------------

    def _set_query(self, query: str) -> None:
        """A query the user asked for (typed, cleared, accepted): it ends a similar list, a restored query."""
        self.similar = None
        self.query_text = query

    def watch_query_text(self) -> None:
        self.query_restored = False
        self.run_search()

    def watch_filter(self) -> None:
        self._view_asked()

    def watch_order(self) -> None:
        self._view_asked()

    def _view_asked(self) -> None:
        """A new filter or order: remember it, and ask for the list again."""
        self.save_session()
        self.run_search()
        self._refresh_status()

    def watch_similar(self, old: SimilarView | None, new: SimilarView | None) -> None:
        """Papers like one replace the list, and leaving them brings the search's answer back."""
        if new is not None:
            self.searches.supersede()  # any search still running must not replace the similar list
            self.paper_list.set_ids(new.ids, select=new.source)  # the detail follows: now the reference
        elif old is not None:
            self.paper_list.set_ids(self.outcome.ids, select=old.source)
        self._refresh_status()

    @on(SearchBar.QueryChanged)
    def _query_changed(self, event: SearchBar.QueryChanged) -> None:
        if event.query == self.query_text and self.similar is None:
            return  # leaving the search already ran it
        self._set_query(event.query)

    @on(SearchBar.Leave)
    def _leave_search(self, event: SearchBar.Leave) -> None:
        self.search_bar.leaving = False  # from here, results for the current serial answer this Leave
        self.set_focus(self.paper_list)
        if self.paper_list.selected_id is None:
            self._show_detail(None)  # the hint on widening, for keys pressed in the list now
        if event.chosen:  # a saved search keeps its filter as `is:` words: the 1-4 filter must not add one
            self.filter = "all"
        if event.query != self.query_text or self.similar is not None or event.chosen:
            self._set_query(event.query)  # the dwell clock starts when its results are shown
        else:
            self.marking.dwell(self.paper_list.selected_id)  # back to reading the paper shown
        if self.searches.settled:
            self.searches.release_keys()  # nothing to wait for; otherwise the results release them
        elif isinstance(self.app, TypeAheadApp):
            self.app.hold_keys()  # the focus has moved: from now on a slow search may end the hold

    @on(PaperList.Highlighted)
    def _highlighted(self, event: PaperList.Highlighted) -> None:
        self._current = event.paper_id if event.paper_id is not None else self._current
        self._show_detail(event.paper_id)
        # Results changing under a query being typed are not being read: no dwell clock until the list.
        typing = self.focused is self.search_bar.input
        if event.chosen and not typing:
            self.marking.choose(event.paper_id)  # the user moved here: a dwell may now mark it read
        else:
            self.marking.dwell(None if typing else event.paper_id)

    @on(PaperList.Opened)
    def _opened(self, event: PaperList.Opened) -> None:
        self.set_focus(self.detail)
        if self.marking.chosen != event.paper_id:
            self.marking.choose(
                event.paper_id
            )  # opening the restored paper chooses it; a running clock runs on

    def on_screen_suspend(self) -> None:
        self.marking.pause()  # help, the palette or a modal covers the detail pane: nobody is reading it

    def on_screen_resume(self) -> None:
        self.marking.resume()

    def _app_focus_changed(self, focused: bool) -> None:
        if focused:
            self.marking.resume()
        else:
            self.marking.pause()  # the terminal reported losing focus (AppBlur): nobody is looking

    @on(PaperDetail.Back)
    def _back(self) -> None:
        self.set_focus(self.paper_list)  # which ends full-screen reading (`_focus_moved`)

    @on(PaperDetail.ReadOn)
    def _read_on(self) -> None:
        """`space` at the end of the paper: the next paper, or the next unread one (`space_at_end`)."""
        if self.space_at_end == "unread":
            self.marking.step_unread(1)
            return
        paper_list = self.paper_list
        if paper_list.cursor + 1 >= len(paper_list.ids):
            self.notify("This is the last paper of the list.", timeout=2)
            return
        paper_list.move(paper_list.cursor + 1)

    def action_toggle_full_screen(self) -> None:
        if self.focused is self.search_bar.input:
            raise SkipAction  # a "v" typed into the query
        if self.paper_list.selected_id is None:
            return
        self.full_screen = not self.full_screen

    def watch_full_screen(self, full: bool) -> None:
        self.set_class(full, FULL_SCREEN_CLASS)
        if full:
            self.set_focus(self.detail)

    @on(events.DescendantFocus)
    def _focus_moved(self, event: events.DescendantFocus) -> None:
        """Whatever takes the focus from the detail pane (the list, the search bar, the facets) needs the
        screen back."""
        if self.full_screen and event.widget is not self.detail:
            self.full_screen = False

    @classmethod
    def _binding(cls, binding_id: str) -> Binding:
        """This screen's binding of `binding_id` (for the keys it is bound to now: `keys.keys_for`)."""
        return next(b for b in cls.BINDINGS if isinstance(b, Binding) and b.id == binding_id)

    def _show_detail(self, paper_id: str | None, *, keep_scroll: bool = False) -> None:
        self._offer_copies(paper_id)
        if paper_id is None:
            typing = self.focused is self.search_bar.input
            all_key = keys.keys_for(self, self._binding("browse.filter_all"))
            hint = results.widen_hint(self.outcome, typing=typing, all_key=all_key)
            self.detail.show(None, placeholder=hint)
            return
        marks = self.marking
        view = results.paper_view(
            self.library, paper_id, self.outcome, self.similar, marks.starred, marks.read
        )
        self.detail.show(self.organising.decorate(view, self.outcome), keep_scroll=keep_scroll)

    @on(MarksChanged)
    def _marks_changed(self) -> None:
        """Marks, tags or notes changed: redraw rows, the open paper and counts; the list is not re-run."""
        self.organising.reload()
        self.paper_list.refresh()
        self._show_detail(self.paper_list.selected_id, keep_scroll=True)
        self._refresh_status()

    def _refresh_status(self) -> None:
        status_line = self.query_one(StatusLine)
        view = results.Shown(self.outcome, self.filter, self.order, self.query_restored, self.similar)
        width = status_line.content_region.width or self.app.size.width - 2
        shown = results.status(self.library, view, self.indexing.progress, self.marking.flash, width)
        status_line.show(shown)

    @on(events.Resize)
    def _refit_status(self) -> None:
        self.call_after_refresh(self._refresh_status)  # the similar label is fitted to the line's width

    def _preview(self, paper_id: str) -> tuple[str, Sequence[tuple[int, int]]]:
        """The preview line of a row on screen, with the matches of the answer shown (cached per answer:
        a scroll redraws every row)."""
        found = self._previews.get(paper_id)
        if found is None:
            highlight = self.similar.highlight(paper_id) if self.similar else self.outcome.highlight
            clause, matches = self.library.papers.preview(paper_id, highlight)
            found = self._previews[paper_id] = (clause, [(match.start, match.end) for match in matches])
        return found

    def _describe(self, paper_id: str) -> Row:
        paper = self.library.papers.paper(paper_id)
        where = venue_year(paper.venue, paper.year)
        marks = self.marking
        headline = self.similar.row_headline(paper_id, paper.headline) if self.similar else paper.headline
        tags, noted = self.organising.row_marks(paper_id)
        return Row(paper_id in marks.starred, paper_id not in marks.read, headline, where, tags, noted)

    # ---- actions -------------------------------------------------------------------------------------------

    def action_focus_search(self) -> None:
        # set_focus, not widget.focus(): focus() waits for the next loop turn, so letters typed in the same
        # burst as "/" (over ssh they arrive together) would still go to the list and star, undo or sort.
        if self.focused is self.search_bar.input:  # has_focus lags a turn behind
            raise SkipAction  # a "/" typed into the query
        self.similar = None
        self.marking.dwell(None)  # typing a query is not reading the paper shown
        self.set_focus(self.search_bar.input)

    def action_switch_pane(self) -> None:
        self.set_focus(self.detail if self.paper_list.has_focus else self.paper_list)

    def action_toggle_star(self) -> None:
        self.marking.toggle_star()

    def action_toggle_read(self) -> None:
        self.marking.toggle_read()

    def action_mark_all_read(self) -> None:
        self.marking.mark_all_read()

    def action_undo(self) -> None:
        self.marking.undo()

    def _organise(self, change: Callable[[], None]) -> None:
        if self.focused is self.search_bar.input:
            raise SkipAction  # a letter typed into the query
        self.organising.with_keys_held(change)

    def action_edit_tags(self) -> None:
        self._organise(self.organising.edit_tags)

    def action_edit_note(self) -> None:
        self._organise(self.organising.edit_note)

    def action_open_saved(self) -> None:
        self._organise(self.organising.open_saved)

    def action_save_search(self) -> None:
        """Names the query being typed when the search bar has the focus, else the query shown."""
        query = self.search_bar.value if self.focused is self.search_bar.input else self.query_text
        self.organising.with_keys_held(lambda: self.organising.save_search(query, self.filter))

    def action_step_unread(self, step: int) -> None:
        self.marking.step_unread(step)

    def action_toggle_facets(self) -> None:
        if self.focused is self.search_bar.input:
            raise SkipAction  # an "f" typed into the query
        self.discovering.toggle_facets(self.outcome)

    def action_triage(self) -> None:
        if self.focused is self.search_bar.input:
            raise SkipAction  # a "T" typed into the query
        self.discovering.triage()

    @on(FacetPanel.Request)
    def _facet_request(self, request: FacetPanel.Request) -> None:
        request.stop()
        self.discovering.request(request, self.query_text)

    @on(QueryRequested)
    def _query_requested(self, request: QueryRequested) -> None:
        """A part chose a query (a facet entry): show it in the search bar and run it, as if typed."""
        self.search_bar.set_value(request.query)
        self._set_query(request.query)

    @on(ListFocusRequested)
    def _focus_list(self) -> None:
        self.set_focus(self.paper_list)

    def action_filter(self, name: str) -> None:
        self.similar = None
        self.filter = name

    def action_toggle_preview(self) -> None:
        """Two-line rows, the second the clause stating the paper's contribution; remembered per user."""
        shown = self.paper_list.row_height == 1
        self.paper_list.set_row_height(2 if shown else 1)
        self.library.session.set(PREVIEW_KEY, shown)

    def action_cycle_order(self) -> None:
        self.similar = None
        self.order = results.ORDERS[(results.ORDERS.index(self.order) + 1) % len(results.ORDERS)]
        self.notify(f"Sorted by {results.ORDER_NAMES[self.order]}.", timeout=2)

    def action_more_like_this(self) -> None:
        if (paper_id := self.marking.selected()) is None:
            return
        if not self.library.index_ready:
            self.notify("More like this needs the search index; it is still being built.", severity="warning")
            return
        self.similar = SimilarView.of(self.library, paper_id)
        self.set_focus(self.paper_list)

    def action_leave(self) -> None:
        """Esc: back from more like this; in the list, else clear the query (keeping the paper selected)."""
        if self.focused is self.search_bar.input:
            raise SkipAction
        if self.full_screen:
            self.full_screen = False
        elif self.similar is not None:
            self.similar = None
        elif self.query_text and self.focused is self.paper_list:
            if isinstance(self.app, TypeAheadApp):
                self.app.hold_keys()  # keys typed next act on the whole list; its answer lets them through
            self.search_bar.set_value("")
            self._restore_id = self._current
            self._set_query("")
        else:
            raise SkipAction

    def action_copy(self) -> None:
        if (paper_id := self.marking.selected()) is None:
            return
        self.app.copy_to_clipboard(results.copy_text(self.library, paper_id))
        self.notify("Copied the paper to the clipboard.", timeout=2)

    def _offer_copies(self, paper_id: str | None) -> None:
        """Show the link and BibTeX keys in the footer only when the paper shown has them."""
        copyable: set[str] = set()
        if paper_id is not None:
            if results.link_text(self.library, paper_id):
                copyable.add("copy_link")
            if self.library.exports.citable(paper_id):
                copyable.add("copy_bibtex")
        if copyable != self._copyable:
            self._copyable = frozenset(copyable)
            self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("copy_link", "copy_bibtex"):
            return action in self._copyable
        return True

    def action_copy_link(self) -> None:
        if (paper_id := self.marking.selected()) is None:
            return
        if (link := results.link_text(self.library, paper_id)) is None:
            self.notify("This paper has no link.", timeout=2)
            return
        self.app.copy_to_clipboard(link)
        self.notify("Copied the link to the clipboard.", timeout=2)

    def action_copy_bibtex(self) -> None:
        """The entry is made in a thread: its key is numbered among every paper's (as an export numbers
        it), which the first time reads all of them (some 2 s at 56k papers); a key never waits for that."""
        if (paper_id := self.marking.selected()) is None:
            return
        self.run_worker(
            partial(self._make_bibtex, paper_id),
            name="_make_bibtex",
            group="bibtex",
            exclusive=True,
            exit_on_error=False,
            thread=True,
        )

    def _make_bibtex(self, paper_id: str) -> None:
        entry = self.library.exports.entry(paper_id)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._copy_bibtex, entry)

    def _copy_bibtex(self, entry: str | None) -> None:
        if entry is None:
            self.notify("No BibTeX for this paper: it needs a title and an author.", timeout=2)
            return
        self.app.copy_to_clipboard(entry)
        self.notify("Copied the BibTeX entry to the clipboard.", timeout=2)

    def action_accept_suggestion(self) -> None:
        suggestion = self.outcome.suggestion
        if not suggestion:
            self.notify("No suggestion to accept.", timeout=2)
            return
        self.search_bar.set_value(suggestion)
        self._set_query(suggestion)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(keys.help_sections(self.binding_owners()), self.library.query_help))

    def binding_owners(self) -> list[keys.Owner]:
        """Where the keys live, in the order help and the palette list them."""
        return [
            ("Paper list", self.paper_list),
            ("Paper detail", self.detail),
            ("Panes", self.query_one(Panes)),
            ("Search bar", self.search_bar),
            ("Everywhere", self),
        ]

    def commands(self) -> Iterable[SystemCommand]:
        yield from keys.commands(self.binding_owners())
