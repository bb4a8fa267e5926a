"""The organising half of `Library`: tags, notes, saved searches and session memory kept per set of listings.

A mixin so `library.py` stays one screenful per concern; everything here goes through the user's
`StateStore` (`Library.state`) and, for unread counts, `Library.view`.

Session memory (the reader's last query, filter, order and selected paper) is kept per library: under a
key made from a digest of the resolved listing paths, so opening other listings never restores a query
meant for these. Keys in `GLOBAL_SESSION_KEYS` (the theme) stay one per user. Values saved before session
memory was per library (unscoped keys) are read only by the default library, the one opened with no
`--listings` (`$PAPERS_LISTINGS`, the config, else the bundled seeds): that is where they were almost
always written; the first save there replaces them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from index.config import Config, resolve_listings
from index.state.store import Applied, StateStore

if TYPE_CHECKING:
    from index.views import View

GLOBAL_SESSION_KEYS = frozenset({"theme"})
"""Session keys that are the user's whatever the listings (everything else is kept per library)."""


def listings_digest(paths: Iterable[Path]) -> str:
    """A stable name for a set of listings: the same files or folders in any order, by any relative path."""
    resolved = sorted({str(_resolved(path)) for path in paths})
    return hashlib.sha256("\0".join(resolved).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def _resolved(path: Path) -> Path:
    try:
        return path.expanduser().resolve()
    except (OSError, RuntimeError):  # a symlink loop or an unreadable parent: the path as given
        return path.expanduser().absolute()


class Organising:
    """Tags, notes, saved searches and per-library session memory, for `Library` to inherit."""

    listing_paths: list[Path]
    config: Config

    if TYPE_CHECKING:

        @property
        def state(self) -> StateStore: ...

        def view(
            self,
            query: str = "",
            filter: str = "all",
            order: str = "relevance",
            *,
            limit: int | None = None,
            highlight_top: int = 0,
        ) -> View: ...

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
        view = self.view(query, "unread", "listing")  # listing order: nothing is scored
        return None if view.waiting else view.total

    # ---- session memory, per set of listings ------------------------------------------------------------

    @property
    def session_scope(self) -> str:
        """The digest session values of these listings are kept under."""
        return listings_digest(self.listing_paths)

    def _is_default_library(self) -> bool:
        return listings_digest(resolve_listings(None, self.config)) == self.session_scope

    def _session_key(self, key: str) -> str:
        return key if key in GLOBAL_SESSION_KEYS else f"library:{self.session_scope}:{key}"

    def session_get(self, key: str, default: Any = None) -> Any:
        """A remembered reader setting for these listings (`GLOBAL_SESSION_KEYS` for every library)."""
        scoped = self._session_key(key)
        if scoped != key and not self.state.has_session(scoped) and self._is_default_library():
            return self.state.get_session(key, default)  # saved before session memory was per library
        return self.state.get_session(scoped, default)

    def session_set(self, key: str, value: Any) -> None:
        """Remember a reader setting for these listings. A read-only store keeps it in memory for this run
        rather than interrupting the reader."""
        scoped = self._session_key(key)
        legacy = key if scoped != key and self._is_default_library() else None
        self.state.set_session(scoped, value, replaces=legacy)
