"""Keys as the user has them mapped, for the help screen and the command palette (one source: BINDINGS)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import partial

from textual.app import SystemCommand
from textual.binding import Binding
from textual.dom import DOMNode
from textual.widget import Widget

from tui.textual_private import live_bindings

Owner = tuple[str, Widget]
Row = tuple[str, str]
"""Keys as displayed, and what they do; a row without keys is a note under its section."""
Section = tuple[str, Sequence[Row]]

SHEET: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "Most used",
        (
            "browse.search", "list.open", "browse.star", "browse.read", "browse.next_unread",
            "browse.previous_unread", "browse.filter_all", "browse.filter_unread", "browse.filter_starred",
            "browse.filter_foryou", "browse.similar", "browse.leave_similar", "browse.sort", "browse.undo",
            "browse.mark_all", "browse.copy", "browse.copy_link", "browse.copy_bibtex",
        ),
    ),
    (
        "Moving",
        (
            "list.down", "list.up", "list.first", "list.last", "list.page_down", "list.page_up",
            "detail.down", "detail.up", "detail.top", "detail.bottom", "detail.page_down", "detail.page_up",
            "browse.switch", "detail.back", "detail.page", "browse.full_screen", "panes.grow", "panes.shrink",
        ),
    ),
    (
        "Organise",
        (
            "browse.tag", "browse.note", "browse.saved", "browse.save_search", "browse.facets",
            "browse.triage",
        ),
    ),
    ("Search bar", ("search.enter", "search.clear", "search.leave", "browse.suggestion")),
    ("Everywhere", ("browse.help", "browse.quit", "app.palette", "app.quit")),
    (
        "Triage",
        ("triage.star", "triage.skip", "triage.later", "triage.undo", "triage.leave", "triage.help"),
    ),
)  # fmt: skip
"""The help sheet's sections, most used keys first; a binding not named here is added to its owner's."""

OWNER_SECTION = {
    "Paper list": "Moving",
    "Paper detail": "Moving",
    "Panes": "Moving",
    "Search bar": "Search bar",
    "Everywhere": "Most used",
    "Triage": "Triage",
}
"""The section for an owner's bindings that SHEET omits (owners titled as `BrowseScreen.binding_owners`)."""
EXTRA_ROWS = {
    "search.enter": ("⏎ ↓ tab", "Go to the list"),
    "app.palette": ("ctrl+p", "Command palette"),
    "app.quit": ("ctrl+q", "Quit"),
}
"""Keys that have no described binding of their own on the owners (Textual's, or plumbing twins)."""
FOLDED = frozenset(
    {"detail.down", "detail.up", "detail.top", "detail.bottom", "detail.page_down", "detail.page_up"}
)
"""Detail keys left out when they are the list's moving keys (the usual case); SAME_KEYS_NOTE says so."""
SAME_KEYS_NOTE = "also scroll the paper"


def declared(owner: Widget) -> list[Binding]:
    """Bindings a user would look up; one without a description is plumbing (a type-ahead priority twin)."""
    return [
        binding for binding in type(owner).BINDINGS if isinstance(binding, Binding) and binding.description
    ]


def keys_for(owner: Widget, binding: Binding) -> str:
    """The keys bound now, after any user keymap, shown the way the footer shows them."""
    live = live_bindings(owner).key_to_bindings.items()
    keys = [key for key, bound in live if any(b.id == binding.id for b in bound)] or binding.key.split(",")
    return " ".join(owner.app.get_key_display(Binding(key, binding.action)) for key in keys)


def help_sections(owners: Iterable[Owner]) -> list[Section]:
    """The key sheet: SHEET's sections in its order; a binding SHEET does not name joins its owner's section.

    Within a section a row whose keys repeat an earlier row's (the detail pane scrolls with the list's
    moving keys) is folded into a note, so the sheet stays one screen at 80x24.
    """
    named = {binding_id for _title, ids in SHEET for binding_id in ids}
    rows: dict[str, Row] = dict(EXTRA_ROWS)
    unnamed: dict[str, list[Row]] = {}
    for owner_title, owner in owners:
        for binding in declared(owner):
            row = (keys_for(owner, binding), binding.description)
            if binding.id is not None and binding.id in named and binding.id not in rows:
                rows[binding.id] = row
            else:
                unnamed.setdefault(OWNER_SECTION.get(owner_title, owner_title), []).append(row)
    sections: list[Section] = []
    for title, ids in SHEET:
        listed: list[Row] = []
        folded = False
        for binding_id in (binding_id for binding_id in ids if binding_id in rows):
            row = rows[binding_id]
            if binding_id in FOLDED and any(row[0] == keys for keys, _description in listed):
                # The same keys as a row above: one note, where the first of them would have been, says so.
                listed += [] if folded else [("", SAME_KEYS_NOTE)]
                folded = True
            else:
                listed.append(row)
        listed += unnamed.pop(title, [])
        if listed:
            sections.append((title, listed))
    return sections + list(unnamed.items())


def commands(owners: Iterable[Owner]) -> Iterable[SystemCommand]:
    """Every bound action as a palette command, run in its owner's namespace like the key would."""
    for _title, owner in owners:
        for binding in declared(owner):
            yield SystemCommand(
                binding.description,
                f"key: {keys_for(owner, binding)}",
                partial(owner.run_action, binding.action),
            )


def key_names(keys: str) -> set[str]:
    """A binding's comma-separated keys in the long form Textual matches on ("?" is "question_mark")."""
    return {binding.key for binding in Binding.make_bindings([Binding(keys, "")])}


def remap_clashes(nodes: Iterable[DOMNode], keymap: Mapping[str, str]) -> list[tuple[str, str, str]]:
    """Keys a user's keymap gives to a binding that another binding of the same focus chain also uses.

    Two bindings clash when both hold a key and one's node is the other's or an ancestor of it (a key goes
    to the focused widget, then up through its ancestors to the screen and the app); siblings never see
    the same key at once. Only pairs where the keymap moved at least one of the two are reported: the
    reader's own shared keys (`j` in the list and in the detail pane) are by design.

    Returns:
        `(remapped id, the other id, key)` for each clash, remapped ids first in the keymap's order.
    """
    bound: list[tuple[DOMNode, str, set[str]]] = []
    for node in nodes:
        for cls in type(node).__mro__:
            for binding in cls.__dict__.get("BINDINGS", ()):
                if isinstance(binding, Binding) and binding.id is not None:
                    bound.append((node, binding.id, key_names(keymap.get(binding.id, binding.key))))
    clashes: list[tuple[str, str, str]] = []
    for node, binding_id, held in bound:
        if binding_id not in keymap:
            continue
        for other_node, other_id, other_held in bound:
            shared = held & other_held
            if other_id == binding_id or not shared:
                continue
            if other_node is node or other_node in node.ancestors or node in other_node.ancestors:
                clashes.append((binding_id, other_id, min(shared)))
    return list(dict.fromkeys(clashes))
