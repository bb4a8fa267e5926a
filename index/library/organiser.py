"""Tags, notes and saved searches: what a user adds to papers beyond a star and a read mark.

A collaborator `Library` owns (`library.organiser`), so each concern of the facade is one small class; it
reaches the user's `StateStore` and, for unread counts, `Library.view` through the callables it is given,
never through the library itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from index.state.changes import Change, Value
from index.state.fields import PAPER_FIELDS
from index.state.store import Applied, StateStore
from index.state.tags import normalize_tags
from index.views import View

UnreadView = Callable[[str], View]
"""The unread papers a query finds in these listings, in listing order (nothing scored)."""


class Organiser:
    """Tags, notes and saved searches of one user, over the listings of one `Library`."""

    def __init__(self, state: Callable[[], StateStore], unread_view: UnreadView) -> None:
        self._state = state
        self._unread_view = unread_view

    @property
    def state(self) -> StateStore:
        """The store, opened by the library on first use."""
        return self._state()

    # ---- tags -------------------------------------------------------------------------------------------

    def tags(self, paper_id: str) -> tuple[str, ...]:
        """The paper's tags, by name (tags are stored case-folded)."""
        return self.state.tags(paper_id)

    def all_tags(self) -> dict[str, int]:
        """Every tag in use, by name, with how many papers have it (listed here or not): for completion and
        `papers tags`."""
        return self.state.all_tags()

    def tag(self, ids: Iterable[str], names: Iterable[str]) -> Applied:
        """Give every paper every tag as one undo step.

        Raises:
            TagNameError: a name no tag can have (checked before anything changes); one line to show.
        """
        return self.state.tag(ids, names)

    def untag(self, ids: Iterable[str], names: Iterable[str]) -> Applied:
        """Take the tags off the papers as one undo step (the removal travels in exports)."""
        return self.state.untag(ids, names)

    def retag(self, paper_id: str, add: Iterable[str], remove: Iterable[str]) -> Applied:
        """Add some tags to a paper and take others off as one undo step (the reader's tag prompt takes
        `ml -later` as one edit, so one `u` reverts it). A name in both is added.

        Raises:
            TagNameError: a name no tag can have (checked before anything changes); one line to show.
        """
        added = normalize_tags(add)
        removed = [name for name in normalize_tags(remove) if name not in added]
        changes = [Change.tag(paper_id, name, True) for name in added]
        changes += [Change.tag(paper_id, name, False) for name in removed]
        return self.state.apply(changes, "retag")

    @staticmethod
    def check_tags(names: Iterable[str]) -> None:
        """Check names before asking the store, so a front end can keep an answer that holds a bad one.

        Raises:
            TagNameError: the first name no tag can have; its message says what is wrong.
        """
        normalize_tags(names)

    def tagged_ids(self, name: str) -> frozenset[str]:
        """Papers tagged `name`, in any case (cached until any process commits)."""
        return self.state.tagged_ids(name)

    def tag_map(self) -> Mapping[str, tuple[str, ...]]:
        """Each tagged paper's tags (one query, cached): the reader draws list rows from this."""
        return self.state.tag_map()

    # ---- notes ------------------------------------------------------------------------------------------

    def note(self, paper_id: str) -> str:
        """The paper's note, or "" when it has none."""
        return self.state.note(paper_id)

    def set_note(self, paper_id: str, text: str) -> Applied:
        """Replace the paper's note as one undo step; blank text removes it (and the removal travels).

        Raises:
            NoteError: longer than `notes.NOTE_MAX` characters.
        """
        return self.state.set_note(paper_id, text)

    def noted_ids(self) -> frozenset[str]:
        """Papers that have a note (cached): for a marker in list rows."""
        return frozenset(self.state.notes())

    def field_values(self, paper_id: str) -> dict[str, Value]:
        """The paper's value of every field beyond its star and read mark (the note), by name, in the
        export's order; an unset field as its unset value ("", 0): what `papers show` lists."""
        return {
            field.name: self.state.value(paper_id, field.name) for field in PAPER_FIELDS if not field.flag
        }

    # ---- saved searches ---------------------------------------------------------------------------------

    def saved_searches(self) -> list[tuple[str, str]]:
        """(name, query) of each saved search, by name."""
        return [(search.name, search.query or "") for search in self.state.saved_searches()]

    def save_search(self, name: str, query: str) -> bool:
        """Save `query` under `name`, replacing one of that name; False when it was already saved so.

        Raises:
            SavedSearchError: an empty or over-long name, or a control character; one line to show.
        """
        return self.state.save_search(name, query)

    def delete_search(self, name: str) -> bool:
        """Delete a saved search; False when there is none of that name."""
        return self.state.delete_search(name)

    def unread_count(self, query: str) -> int | None:
        """How many unread papers of these listings `query` finds; None while the index is being built.

        Raises:
            IndexUnavailable: the index cannot be searched.
        """
        view = self._unread_view(query)
        return None if view.waiting else view.total
