"""A change to one slot of one paper, the marks an export carries, and the order every merge agrees on.

A change sets one slot of one paper: a field (`starred`, `read`, the `note`; fields.py describes each) or
one tag (`tag:<name>`, on or off). Every slot holds a value and the time it was set, so the same law merges
them all: per paper and slot, the greatest (time, value) wins.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Field = Literal["starred", "read"]
"""The flags a reader toggles with one key."""
TAG_PREFIX = "tag:"
NOTE = "note"
UNDO_DEPTH = 100
"""Change groups a store keeps for undo (the reader promises at least 50)."""


class InputError(ValueError):
    """A tag name, note or saved search the store cannot keep as given; the message is one line to show."""


@dataclass(frozen=True, slots=True)
class Change:
    """Set one slot of one paper: `field` is a field's name ("starred", "read", "note") or "tag:<name>"
    (see `Change.tag`).

    `value` is a bool for flags and tags, the text for the note. `at=None` is a local action: it always takes
    effect, stamped now (and never earlier than the value it replaces, so it also wins later merges). A given
    `at` is a merged value: it applies only when `(at, value)` is newer than what is stored, which makes
    merging idempotent and order-independent.
    """

    paper_id: str
    field: str
    value: bool | int | str
    at: float | None = None

    @classmethod
    def tag(cls, paper_id: str, name: str, on: bool, at: float | None = None) -> Change:
        """Tag (or untag) a paper; `name` must already be normalized (`tags.normalize_tag`)."""
        return cls(paper_id, TAG_PREFIX + name, on, at)

    @classmethod
    def note(cls, paper_id: str, text: str, at: float | None = None) -> Change:
        """Set a paper's note; `text` must already be cleaned (`notes.clean_note`), "" removes it."""
        return cls(paper_id, NOTE, text, at)


@dataclass(frozen=True, slots=True)
class TagMark:
    """One tag of one paper and when it was set; `tagged=False` is a removal that travels in exports."""

    name: str
    tagged: bool
    at: float


@dataclass(frozen=True, slots=True)
class NoteMark:
    """A paper's note and when it was written; empty text is a removal that travels in exports."""

    text: str
    at: float


Value = int | str
Stored = tuple[Value, float] | None
"""A slot as stored: (value, time), or None when it was never set. Flags and tags store 0/1."""


def newer(candidate: tuple[Value, float], current: Stored) -> bool:
    """Total order on (time, value): ties on time go to the set value (1 over 0, longer text over ""), so
    merges agree on every machine."""
    if current is None:
        return True
    return (candidate[1], candidate[0]) > (current[1], current[0])


def to_float(value: object) -> float:
    if isinstance(value, int | float):
        return float(value)
    raise TypeError(f"expected a number in the state database, found {value!r}")
