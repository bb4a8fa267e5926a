"""The tag prompt (`t`): `name` adds a tag, `-name` removes one, several words at once, completed as typed.

Completion comes from the tags already in use (most used first), or for a `-word` from the paper's own tags,
so a reading list keeps one spelling of each tag.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from rich.text import Text
from textual.suggester import Suggester

from tui.screens.prompt import Prompt
from tui.text import one_line


class TagEdit(NamedTuple):
    """What one answer to the prompt asks for: the names to add and the names to remove, as typed."""

    add: tuple[str, ...]
    remove: tuple[str, ...]


def parse_tag_edit(answer: str) -> TagEdit:
    """Split an answer into tags to add and (`-name`) to remove; a bare `-` is ignored.

    Names are not checked here: the store says precisely what is wrong with one (`TagNameError`).
    """
    add: list[str] = []
    remove: list[str] = []
    for word in answer.split():
        if word.startswith("-"):
            if word[1:]:
                remove.append(word[1:])
        else:
            add.append(word)
    return TagEdit(tuple(add), tuple(remove))


class TagSuggester(Suggester):
    """Completes the last word of the answer: from `names` (in their order) less the paper's own tags `own`,
    or after a `-` from `own`.

    Matching ignores case, as tags are stored case-folded; the completion keeps what was typed and appends
    the rest of the name, so the input can show it dimmed after the cursor.
    """

    def __init__(self, names: Sequence[str], own: Sequence[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self._names = tuple(names)
        self._own = tuple(own)

    async def get_suggestion(self, value: str) -> str | None:
        return complete_tag(value, self._names, self._own)


def complete_tag(value: str, names: Sequence[str], own: Sequence[str]) -> str | None:
    """`value` with its last word completed to a tag name, or None when no name starts with that word."""
    if not value or value[-1].isspace():
        return None
    word = value.split()[-1]
    removing = word.startswith("-")
    stem = (word[1:] if removing else word).casefold()
    if not stem:
        return None
    # A name already typed, or (to add) one the paper already has, is no completion worth offering.
    skip = set(value.casefold().split()) | (set() if removing else set(own))
    for name in own if removing else names:
        if name.startswith(stem) and name != stem and name not in skip:
            return value + name[len(stem) :]
    return None


def tag_prompt(
    current: Sequence[str], in_use: dict[str, int], check: Callable[[str], str | None] | None = None
) -> Prompt:
    """The prompt for one paper that has the tags `current`, completing from `in_use` (name -> papers);
    an answer `check` finds wrong stays in the prompt with what is wrong (see `Prompt`)."""
    hint = Text(end="", no_wrap=True, overflow="ellipsis")
    if current:
        hint.append("has ", "dim")
        hint.append(one_line(" ".join(f"#{name}" for name in current)))
        hint.append(" · ", "dim")
    hint.append("tag adds, -tag removes, tab completes", "dim")
    names = sorted(in_use, key=lambda name: (-in_use[name], name))
    return Prompt(
        "Tags",
        hint,
        placeholder="tags to add, -tags to remove",
        suggester=TagSuggester(names, tuple(current)),
        check=check,
    )
