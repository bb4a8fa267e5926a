"""What the list shows for a query, filter and order, and the words that explain an empty or odd result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text

from tui.text import one_line

if TYPE_CHECKING:
    from index.library import Library

FILTERS = ("all", "unread", "starred")
ORDERS = ("listing", "relevance", "starred")
ORDER_NAMES = {"listing": "listing order", "relevance": "relevance", "starred": "recently starred"}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One search's answer as the list will show it."""

    query: str
    filter: str
    ids: list[str]
    notice: str | None = None
    suggestion: str | None = None
    waiting: bool = False
    """True when the query could not run yet because the index is still being built."""


def compute(library: Library, query: str, filter: str, order: str) -> Outcome:
    """Ask the library; runs in a worker thread, so it touches no widget."""
    notice = suggestion = None
    waiting = False
    if not library.index_ready:
        # Honest while indexing: everything is listed, and the note says the query waits for the index.
        waiting = bool(query.strip())
        ids = list(library.ids)
    else:
        result = library.search(query, order="relevance" if order == "relevance" else "listing")
        ids = list(result.ids)
        notice, suggestion = result.notice, result.suggestion
    if filter == "unread":
        read = library.read_ids()
        ids = [paper_id for paper_id in ids if paper_id not in read]
    elif filter == "starred":
        starred = library.starred_ids()
        ids = [paper_id for paper_id in ids if paper_id in starred]
    if order == "starred":
        starred = library.starred_ids()  # only starred papers have a time worth asking for
        stamps = {paper_id: library.starred_at(paper_id) or 0.0 for paper_id in ids if paper_id in starred}
        ids.sort(key=lambda paper_id: -stamps.get(paper_id, 0.0))
    return Outcome(query, filter, ids, notice, suggestion, waiting)


def note(outcome: Outcome, progress: str) -> Text | None:
    """The line under the search bar: indexing wait, malformed-query notice, "did you mean"."""
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    if outcome.waiting:
        text.append(f"index building… ({progress or 'starting'}) — search starts when it is ready")
    if outcome.notice:
        text.append("⚠ " + one_line(outcome.notice), "bold")
    if outcome.suggestion:
        if text.plain:
            text.append("  ")
        text.append("did you mean ")
        text.append(one_line(outcome.suggestion), "bold")
        text.append("?  (ctrl+y to search for it)", "dim")
    return text if text.plain else None


def empty_message(outcome: Outcome) -> Text:
    """The list's only row when nothing matched: what was searched."""
    parts = []
    if outcome.query:
        parts.append(f'"{one_line(outcome.query)}"')
    if outcome.filter != "all":
        parts.append(f"{outcome.filter} only")
    return Text(f"No papers for {' · '.join(parts) or 'this library'}.", end="")


def widen_hint(outcome: Outcome) -> Text:
    """The detail pane when nothing matched: how to find more."""
    text = Text(end="")
    text.append(empty_message(outcome).plain + "\n\n", "bold")
    text.append("To widen the search:\n")
    if outcome.filter != "all":
        text.append(f"  press 1 to show all papers, not only the {outcome.filter} ones\n")
    if outcome.query:
        text.append("  use fewer words, or OR between them (a OR b)\n")
        text.append("  end a word with * to match its prefix (diffu*), or ~ for spelling slips (difusion~)\n")
        text.append("  press / then Esc to clear the query\n")
    if outcome.suggestion:
        text.append("  ctrl+y searches for ")
        text.append(one_line(outcome.suggestion), "bold")
        text.append(" instead\n")
    text.append("  press ? for the full query syntax\n")
    return text


def restore_view(library: Library) -> tuple[str, str, str, str | None]:
    """The query, filter, order and selected paper of the last session, each checked before it is trusted."""
    query = str(library.session_get("query", "") or "")
    saved_filter = library.session_get("filter", "all")
    saved_order = library.session_get("order", "relevance")
    selected = library.session_get("selected")
    return (
        query,
        saved_filter if saved_filter in FILTERS else "all",
        saved_order if saved_order in ORDERS else "relevance",
        selected if isinstance(selected, str) else None,
    )


def save_view(library: Library, query: str, filter: str, order: str, selected: str | None) -> None:
    """Remember the view for the next start (a read-only store keeps nothing, and that is fine)."""
    if library.state_read_only:
        return
    library.session_set("query", query)
    library.session_set("filter", filter)
    library.session_set("order", order)
    if selected is not None:
        library.session_set("selected", selected)


def describe_view(similar_to: str | None, filter: str, order: str, read_only: bool) -> str:
    """What the status line says about the view when it is not the plain default."""
    mode = []
    if similar_to is not None:
        mode.append(f"more like {similar_to[:40]} (Esc returns)")
    if filter != "all":
        mode.append(f"{filter} only")
    if order != "relevance":
        mode.append(f"sorted by {ORDER_NAMES[order]}")
    if read_only:
        mode.append("read-only state")
    return " · ".join(mode)
