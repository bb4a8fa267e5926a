"""Tags, notes, saved searches and "for you" as the browse screen shows and changes them.

A helper object the screen owns, like `Marking`: the keys stay bound on `BrowseScreen.BINDINGS` (users remap
them by id) and its actions hand over to this. Everything goes through `library.organiser` and
`library.discovery`; the rows and the detail pane are drawn from the sets cached here, reloaded after each
change (one query per change, not one per row per frame).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text
from textual.app import SystemCommand
from textual.screen import Screen

from index.state.changes import InputError
from index.views import FOR_YOU_RE, FOR_YOU_SIZE, for_you_tag
from tui.screens.note_editor import NoteEditor
from tui.screens.prompt import Prompt
from tui.screens.saved_searches import SavedSearches
from tui.screens.tag_prompt import parse_tag_edit, tag_prompt
from tui.text import literal, one_line
from tui.typeahead import TypeAheadApp
from tui.widgets.search_bar import SearchBar

if TYPE_CHECKING:
    from index.library import Library
    from index.search.models import ForYouHit
    from index.views import View
    from tui.widgets.paper_detail import PaperView
    from tui.widgets.paper_list import PaperList


class Seeds(NamedTuple):
    """What the for-you reasons depend on; equal seeds need no new reasons."""

    starred: frozenset[str]
    index_ready: bool
    tag: str | None
    """The tag seeding the list; None: the stars."""
    tags: Mapping[str, tuple[str, ...]] | None
    """With a tag, the tag map it was read from (a new map after every tag change)."""


WHY_TERMS = 4
"""Shared key terms named on the for-you line."""
NEAREST_WIDTH = 48
"""Characters of the nearest starred paper's headline on that line: enough to name the paper."""


class Organising:
    """Changes tags and notes, opens the saved searches, and explains the for-you list.

    Args:
        host: the browse screen: notifications, dialogs and the for-you worker go through it.
        library: where tags, notes and saved searches are stored.
        paper_list: the list whose selected paper the keys act on (looked up when needed).
        changed: redraws what shows tags, notes and the for-you reasons (rows, the open paper); the list is
            not re-run.

    A chosen saved search goes to the screen's search bar as if typed there (`SearchBar.search_for`).
    """

    def __init__(
        self,
        host: Screen[None],
        library: Library,
        paper_list: Callable[[], PaperList],
        changed: Callable[[], None],
    ) -> None:
        self._host = host
        self._library = library
        self._paper_list = paper_list
        self._changed = changed
        self.tags: Mapping[str, tuple[str, ...]] = {}
        self.noted: frozenset[str] = frozenset()
        self.for_you: dict[str, ForYouHit] = {}
        self._for_you_for: Seeds | None = None  # what the reasons in `for_you` were computed for
        self._for_you_running = False

    def start(self) -> None:
        """The screen is up: read the tags and notes, and warm for you (in a worker) if the index is ready."""
        self.reload()
        self.warm()

    def reload(self) -> None:
        """Re-read the tags and the noted papers after a change (or an undo)."""
        organiser = self._library.organiser
        self.tags = organiser.tag_map()
        self.noted = organiser.noted_ids()

    def row_marks(self, paper_id: str) -> tuple[tuple[str, ...], bool]:
        """What a list row shows besides star and unread: the paper's tags and whether it has a note."""
        return self.tags.get(paper_id, ()), paper_id in self.noted

    def decorate(self, view: PaperView, shown: View) -> PaperView:
        """The detail pane's paper with its tags, its note and, in a for-you list, why it is listed.

        A `foryou:NAME` query lists papers like those tagged NAME: their reasons are computed for that tag,
        and none are shown until they are (the ones for the stars would name the wrong nearest paper)."""
        paper_id = view.paper.id
        note = self._library.organiser.note(paper_id) if paper_id in self.noted else ""
        view = replace(view, tags=self.tags.get(paper_id, ()), note=note)
        tag = for_you_tag(shown.query)
        if view.why is None and (tag or shown.filter == "foryou" or FOR_YOU_RE.search(shown.query)):
            self._refresh_for_you(tag)
            done = self._for_you_for
            hit = self.for_you.get(paper_id) if done is not None and done.tag == tag else None
            if hit is not None:
                view = replace(view, why=self._why(hit, tag))
        return view

    def _why(self, hit: ForYouHit, tag: str | None) -> Text:
        text = Text(end="")
        text.append("For you" if tag is None else "Like your papers tagged ", "bold")
        if tag is not None:
            text.append_text(literal(one_line(tag), "bold"))
        if hit.terms:
            text.append(" · shares ", "dim")
            text.append_text(literal(one_line(", ".join(hit.terms[:WHY_TERMS])), "italic"))
        if hit.nearest_id:
            text.append(" · most like ", "dim")
            try:
                nearest = self._library.paper(hit.nearest_id).headline
            except KeyError:
                nearest = hit.nearest_id
            nearest = one_line(nearest)
            cut = nearest if len(nearest) <= NEAREST_WIDTH else nearest[: NEAREST_WIDTH - 1].rstrip() + "…"
            text.append_text(literal(cut))
        return text

    # ---- for you: warmed and refreshed in a worker, never on a keystroke ----------------------------------

    def _seeds(self, tag: str | None = None) -> Seeds:
        """What the reasons depend on: the stars, whether the index is ready and the tag (see `Seeds`).

        Read marks are left out on purpose: the paper being read is marked read after a while, and its
        reason must not vanish from the pane then. The store hands out the same cached set until something
        is committed, and tuples compare their parts by identity first, so comparing seeds is nearly free.
        """
        return Seeds(
            self._library.starred_ids(), self._library.index_ready, tag, None if tag is None else self.tags
        )

    def warm(self) -> None:
        """Compute the for-you list in a worker until it has been computed over a ready index (the screen
        asks at start and before each search), so its cold first call, which reads the term weights, never
        sits on a keystroke; later it is recomputed only while for you is shown."""
        done = self._for_you_for
        if done is None or not done.index_ready:
            self._refresh_for_you()

    def _refresh_for_you(self, tag: str | None = None) -> None:
        seeds = self._seeds(tag)
        if self._for_you_running or self._for_you_for == seeds:
            return
        self._for_you_running = True
        self._host.run_worker(
            partial(self._compute_for_you, seeds),
            name="for you",
            group="foryou",
            thread=True,
            exit_on_error=False,
        )

    def _compute_for_you(self, seen: Seeds) -> None:
        """The worker, in its own thread: it reaches the UI only through `call_from_thread`."""
        try:
            hits = self._library.discovery.for_you(FOR_YOU_SIZE, tag=seen.tag)
        except Exception as error:  # the list itself reports a failing index; the reasons are a nicety
            self._host.app.call_from_thread(self._for_you_failed, seen, error)
            return
        self._host.app.call_from_thread(self._for_you_ready, seen, {hit.id: hit for hit in hits})

    def _for_you_ready(self, seen: Seeds, hits: dict[str, ForYouHit]) -> None:
        self._for_you_running = False
        self.for_you = hits
        self._for_you_for = seen
        self._changed()

    def _for_you_failed(self, seen: Seeds, error: Exception) -> None:
        self._for_you_running = False
        self.for_you = {}  # no reasons rather than another list's
        self._for_you_for = seen  # not retried on every highlight; the next star or tag change retries
        self._host.log.error(f"for you failed: {error!r}")

    # ---- keys ----------------------------------------------------------------------------------------------

    def _selected(self) -> str | None:
        paper_id = self._paper_list().selected_id
        if paper_id is None:
            self._host.notify("No paper selected.", severity="warning")
        return paper_id

    def _refused(self, error: InputError) -> None:
        self._host.notify(one_line(str(error)), severity="error", markup=False)

    def act(self, what: str) -> None:
        """Run one of the keys the browse screen binds to `organise(...)`: "tags", "note" or "saved".

        Keys typed after it are held until the dialog it opens has focused its input (`typed_ahead`), so a
        burst such as "tml⏎" over ssh tags the paper "ml" instead of opening more like this.
        """
        actions = {"tags": self.edit_tags, "note": self.edit_note, "saved": self.open_saved}
        app = self._host.app
        if isinstance(app, TypeAheadApp):
            app.hold_keys()
        actions[what]()
        if app.screen is self._host and isinstance(app, TypeAheadApp):
            app.release_keys()  # no dialog opened (no paper selected, nothing to save)

    def edit_tags(self) -> None:
        """`t`: ask which tags to add and (`-name`) remove; one answer is one undo step."""
        if (paper_id := self._selected()) is None:
            return
        organiser = self._library.organiser

        def answered(answer: str | None) -> None:
            edit = parse_tag_edit(answer or "")
            if not edit.add and not edit.remove:
                return
            try:
                organiser.retag(paper_id, edit.add, edit.remove)
            except InputError as error:
                self._refused(error)
                return
            self._host.notify(_tag_summary(edit.add, edit.remove), timeout=2, markup=False)
            self._changed()

        prompt = tag_prompt(organiser.tags(paper_id), organiser.all_tags())
        self._host.app.push_screen(prompt, answered)

    def edit_note(self) -> None:
        """`e`: edit the paper's note in a text area, stored when the editor is left."""
        if (paper_id := self._selected()) is None:
            return
        organiser = self._library.organiser
        before = organiser.note(paper_id)

        def save(text: str) -> None:
            if text.strip() == before.strip():
                return
            try:
                organiser.set_note(paper_id, text)
            except InputError as error:
                self._refused(error)
                return
            self._host.notify("Note saved (u undoes)." if text.strip() else "Note removed.", timeout=2)
            self._changed()

        headline = self._library.paper(paper_id).headline
        self._host.app.push_screen(NoteEditor(headline, before, save))

    def open_saved(self) -> None:
        """`S`: the saved searches with their unread counts; the chosen one is searched for."""

        def chosen(query: str | None) -> None:
            if query is not None:
                self._host.query_one(SearchBar).search_for(query)

        self._host.app.push_screen(SavedSearches(self._library.organiser), chosen)

    def save_search(self, query: str, filter: str) -> None:
        """The palette's "Save this search as…": name the query shown (with its filter, as an `is:` word)."""
        query = saved_query(query, filter)
        if not query:
            self._host.notify("Type a query or choose a filter first: there is nothing to save.", timeout=3)
            return

        def named(name: str | None) -> None:
            if not name or not name.strip():
                return
            try:
                self._library.organiser.save_search(name.strip(), query)
            except InputError as error:
                self._refused(error)
                return
            self._host.notify(f"Saved as {name.strip()!r} (S lists saved searches).", timeout=3, markup=False)

        hint = Text(end="", no_wrap=True, overflow="ellipsis")
        hint.append("query ", "dim")
        hint.append(one_line(query))
        self._host.app.push_screen(Prompt("Save this search as", hint, placeholder="a name"), named)

    def commands(self, current: Callable[[], tuple[str, str]]) -> Iterable[SystemCommand]:
        """Palette commands with no key of their own; `current` is the query and filter shown when run."""
        yield SystemCommand(
            "Save this search as…",
            "name the current query; S lists saved searches",
            lambda: self.save_search(*current()),
        )


def saved_query(query: str, filter: str) -> str:
    """The query to save for what is shown: the reader's filter becomes an `is:` word, so it is kept."""
    word = {"unread": "is:unread", "starred": "is:starred", "foryou": "is:foryou"}.get(filter)
    query = query.strip()
    if word is None or word in query.split():
        return query
    return f"{query} {word}".strip()


def _tag_summary(add: Iterable[str], remove: Iterable[str]) -> str:
    parts = [" ".join(f"#{one_line(name).casefold()}" for name in add)]
    parts += [" ".join(f"-#{one_line(name).casefold()}" for name in remove)]
    return "Tags: " + " ".join(part for part in parts if part) + " (u undoes)"
