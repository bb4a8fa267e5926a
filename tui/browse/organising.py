"""Tags, notes, saved searches and "for you" as the browse screen shows and changes them.

A part the browse screen owns, like `Marking`: the keys stay bound on `BrowseScreen.BINDINGS` (users remap
them by id) and each of their actions calls one method here, through `with_keys_held`. Everything goes
through `library.organiser` and `library.discovery`; the rows and the detail pane are drawn from the sets
cached here, reloaded after each change (one query per change, not one per row per frame); a change is
announced to the screen with `MarksChanged`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.text import Text
from textual.screen import Screen

from index.library import InputError
from tui.browse.messages import MarksChanged
from tui.browse.search_bar import SearchBar
from tui.saving import saving, writable
from tui.screens.note_editor import NoteEditor
from tui.screens.prompt import Prompt
from tui.screens.saved_searches import SavedSearches
from tui.screens.tag_prompt import parse_tag_edit, tag_prompt
from tui.text import literal, one_line
from tui.typeahead import TypeAheadApp

if TYPE_CHECKING:
    from index.library import ForYouHit, Library, View
    from tui.browse.paper_detail import PaperView
    from tui.browse.paper_list import PaperList


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

    A chosen saved search goes to the screen's search bar as if typed there (`SearchBar.search_for`).
    """

    def __init__(
        self,
        host: Screen[None],
        library: Library,
        paper_list: Callable[[], PaperList],
    ) -> None:
        self._host = host
        self._library = library
        self._paper_list = paper_list
        self.tags: Mapping[str, tuple[str, ...]] = {}
        self.noted: frozenset[str] = frozenset()
        self._saved: SavedSearches | None = None  # the saved searches dialog while it is open

    def reload(self) -> None:
        """Re-read the tags and the noted papers after a change (or an undo, or another process's change,
        which an open saved searches dialog shows too)."""
        organiser = self._library.organiser
        self.tags = organiser.tag_map()
        self.noted = organiser.noted_ids()
        if self._saved is not None and self._saved.is_attached:
            self._saved.reload()

    def row_marks(self, paper_id: str) -> tuple[tuple[str, ...], bool]:
        """What a list row shows besides star and unread: the paper's tags and whether it has a note."""
        return self.tags.get(paper_id, ()), paper_id in self.noted

    def decorate(self, view: PaperView, shown: View) -> PaperView:
        """The detail pane's paper with its tags, its note and, in a for-you list, why it is listed (the
        view carries the reasons, computed with the list: for the stars, or for the tag of `foryou:NAME`)."""
        paper_id = view.paper.id
        note = self._library.organiser.note(paper_id) if paper_id in self.noted else ""
        view = replace(view, tags=self.tags.get(paper_id, ()), note=note)
        listed = shown.for_you
        hit = listed.reasons.get(paper_id) if listed is not None else None
        if view.why is None and listed is not None and hit is not None:
            view = replace(view, why=self._why(hit, listed.tag))
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
                nearest = self._library.papers.paper(hit.nearest_id).headline
            except KeyError:
                nearest = hit.nearest_id
            nearest = one_line(nearest)
            cut = nearest if len(nearest) <= NEAREST_WIDTH else nearest[: NEAREST_WIDTH - 1].rstrip() + "…"
            text.append_text(literal(cut))
        return text

    # ---- keys ----------------------------------------------------------------------------------------------

    def _selected(self) -> str | None:
        paper_id = self._paper_list().selected_id
        if paper_id is None:
            self._host.notify("No paper selected.", severity="warning")
        return paper_id

    def _refused(self, error: InputError) -> None:
        self._host.notify(one_line(str(error)), severity="error", markup=False)

    def with_keys_held(self, change: Callable[[], None]) -> None:
        """Run `edit_tags`, `edit_note` or `open_saved` for the key the browse screen bound to it.

        Keys typed after it are held until the dialog it opens has focused its input (`typed_ahead`), so a
        burst such as "tml⏎" over ssh tags the paper "ml" instead of opening more like this.
        """
        app = self._host.app
        if isinstance(app, TypeAheadApp):
            app.hold_keys()
        change()
        if app.screen is self._host and isinstance(app, TypeAheadApp):
            app.release_keys()  # no dialog opened (no paper selected, nothing to save)

    def edit_tags(self) -> None:
        """`t`: ask which tags to add and (`-name`) remove; one answer is one undo step."""
        if (paper_id := self._selected()) is None or not writable(self._host, self._library):
            return
        organiser = self._library.organiser

        def answered(answer: str | None) -> None:
            edit = parse_tag_edit(answer or "")
            if not edit.add and not edit.remove:
                return
            with saving(self._host):
                try:
                    organiser.retag(paper_id, edit.add, edit.remove)
                except InputError as error:
                    self._refused(error)
                    return
                self._host.notify(_tag_summary(edit.add, edit.remove), timeout=2, markup=False)
            self._host.post_message(MarksChanged())

        def check(answer: str) -> str | None:
            edit = parse_tag_edit(answer)
            try:
                organiser.check_tags((*edit.add, *edit.remove))
            except InputError as error:
                return f"{error}: mend it, or esc"
            return None

        prompt = tag_prompt(organiser.tags(paper_id), organiser.all_tags(), check)
        self._host.app.push_screen(prompt, answered)

    def edit_note(self) -> None:
        """`e`: edit the paper's note in a text area, stored when the editor is left."""
        if (paper_id := self._selected()) is None or not writable(self._host, self._library):
            return
        organiser = self._library.organiser
        before = organiser.note(paper_id)

        def save(text: str) -> None:
            if text.strip() == before.strip():
                return
            with saving(self._host):
                try:
                    organiser.set_note(paper_id, text)
                except InputError as error:
                    self._refused(error)
                    return
                self._host.notify("Note saved (u undoes)." if text.strip() else "Note removed.", timeout=2)
            self._host.post_message(MarksChanged())

        headline = self._library.papers.paper(paper_id).headline
        self._host.app.push_screen(NoteEditor(headline, before, save))

    def open_saved(self) -> None:
        """`S`: the saved searches with their unread counts; the chosen one is searched for."""

        def chosen(query: str | None) -> None:
            self._saved = None
            if query is not None:
                self._host.query_one(SearchBar).search_for(query)

        self._saved = SavedSearches(self._library.organiser)
        self._host.app.push_screen(self._saved, chosen)

    def save_search(self, query: str, filter: str) -> None:
        """ctrl+s, or "Save search as…" in the palette: name the query, keeping its filter as `is:`."""
        query = saved_query(query, filter)
        if not writable(self._host, self._library):
            return
        if not query:
            self._host.notify("Type a query or choose a filter first: there is nothing to save.", timeout=3)
            return

        def named(name: str | None) -> None:
            if not name or not name.strip():
                return
            with saving(self._host):
                try:
                    self._library.organiser.save_search(name.strip(), query)
                except InputError as error:
                    self._refused(error)
                    return
                said = f"Saved as {one_line(name.strip())!r} (S lists saved searches)."
                self._host.notify(said, timeout=3, markup=False)
            self._host.post_message(MarksChanged())

        hint = Text(end="", no_wrap=True, overflow="ellipsis")
        hint.append("query ", "dim")
        hint.append(one_line(query))
        self._host.app.push_screen(Prompt("Save this search as", hint, placeholder="a name"), named)


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
