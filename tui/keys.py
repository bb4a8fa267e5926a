"""Keys as the user has them mapped, for the help screen and the command palette (one source: BINDINGS)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import partial

from textual.app import SystemCommand
from textual.binding import Binding
from textual.widget import Widget

Owner = tuple[str, Widget]
Section = tuple[str, Sequence[tuple[str, str]]]

EXTRA_ROWS = {
    "Search bar": [("enter down tab", "Search and go to the list")],
    "Everywhere": [("ctrl+p", "Command palette (all commands, theme)"), ("ctrl+q", "Quit")],
}


def declared(owner: Widget) -> list[Binding]:
    """Bindings a user would look up; one without a description is plumbing (a type-ahead priority twin)."""
    return [
        binding for binding in type(owner).BINDINGS if isinstance(binding, Binding) and binding.description
    ]


def keys_for(owner: Widget, binding: Binding) -> str:
    """The keys bound now, after any user keymap, shown the way the footer shows them."""
    live = owner._bindings.key_to_bindings.items()
    keys = [key for key, bound in live if any(b.id == binding.id for b in bound)] or binding.key.split(",")
    return " ".join(owner.app.get_key_display(Binding(key, binding.action)) for key in keys)


def help_sections(owners: Iterable[Owner]) -> list[Section]:
    sections: list[Section] = []
    for title, owner in owners:
        rows = [(keys_for(owner, binding), binding.description) for binding in declared(owner)]
        sections.append((title, [*EXTRA_ROWS.get(title, []), *rows]))
    return sections


def commands(owners: Iterable[Owner]) -> Iterable[SystemCommand]:
    """Every bound action as a palette command, run in its owner's namespace like the key would."""
    for _title, owner in owners:
        for binding in declared(owner):
            yield SystemCommand(
                binding.description,
                f"key: {keys_for(owner, binding)}",
                partial(owner.run_action, binding.action),
            )
