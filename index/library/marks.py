"""Stars and read marks of one user, as the front ends read and change them (`library.marks`).

Every change is one SQLite transaction with a change-log row, committed before the call returns, so a
killed reader, a second session or a re-index never loses it; `undo` walks that log back one step at a time
whatever kind of change (stars, read marks, tags, notes) the step was.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from index.library.papers import Papers
from index.state.store import Applied, StateStore


class Counts(NamedTuple):
    """What the status line counts: papers of these listings, how many are unread, how many starred."""

    papers: int
    unread: int
    starred: int


class Marks:
    """Stars and read marks over one library's papers.

    Args:
        state: the user's store, opened by the library on first use.
        papers: the library's papers (counts are of these listings, not of everything ever marked).
    """

    def __init__(self, state: Callable[[], StateStore], papers: Callable[[], Papers]) -> None:
        self._state = state
        self._papers = papers

    @property
    def starred(self) -> frozenset[str]:
        """Every starred id, one query cached until any process commits: rows are drawn from this set."""
        return self._state().starred_ids()

    @property
    def read(self) -> frozenset[str]:
        """Every read id, cached like `starred`."""
        return self._state().read_ids()

    @property
    def read_only(self) -> bool:
        """Whether changes cannot be saved (a read-only data directory); `read_only_reason` says why."""
        return self._state().read_only

    @property
    def read_only_reason(self) -> str | None:
        return self._state().read_only_reason

    def toggle_star(self, paper_id: str) -> bool:
        """Star the paper, or unstar it when it is starred; returns whether it is starred now."""
        return self._state().toggle_star(paper_id)

    def toggle_read(self, paper_id: str) -> bool:
        """Mark the paper read, or unread when it is read; returns whether it is read now."""
        return self._state().toggle_read(paper_id)

    def star(self, ids: Iterable[str]) -> Applied:
        """Star every paper as one undo step; `Applied.changed` names the ones that were not starred."""
        return self._state().star(ids)

    def unstar(self, ids: Iterable[str]) -> Applied:
        return self._state().unstar(ids)

    def mark_read(self, ids: Iterable[str]) -> Applied:
        """Mark papers read as one undo step (so `R` on 500 papers is undone by one `u`)."""
        return self._state().mark_read(ids)

    def mark_unread(self, ids: Iterable[str]) -> Applied:
        return self._state().mark_unread(ids)

    def undo(self) -> list[str] | None:
        """Revert the last change of any kind: the papers it touched, or None when there was none."""
        return self._state().undo()

    def counts(self) -> Counts:
        """Papers, unread and starred among the papers of these listings."""
        position = self._papers().position
        state = self._state()
        read = sum(1 for paper_id in state.read_ids() if paper_id in position)
        starred = sum(1 for paper_id in state.starred_ids() if paper_id in position)
        return Counts(len(position), len(position) - read, starred)

    def starred_newest_first(self) -> list[tuple[str, float]]:
        """Starred papers as (id, time starred), newest first, listed here or not."""
        return self._state().starred()
