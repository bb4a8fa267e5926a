"""Wording for the list `Library.view` fills: the note, the empty list, how to widen it, the status line, and
what the detail pane and a copy hold for one paper."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from rich.text import Text

from index.library import FILTERS, ORDERS, View
from tui.browse.paper_detail import PaperView
from tui.text import one_line, venue_year
from tui.widgets.status_line import Status

if TYPE_CHECKING:
    from index.library import Library
    from tui.browse.similar_view import SimilarView

__all__ = [
    "FILTERS",
    "FILTER_NAMES",
    "ORDERS",
    "ORDER_NAMES",
    "Shown",
    "View",
    "copy_text",
    "describe_view",
    "empty_message",
    "link_text",
    "note",
    "paper_view",
    "restore_view",
    "save_view",
    "status",
    "widen_hint",
]

ORDER_NAMES = {
    "relevance": "relevance",
    "newest": "newest first",
    "oldest": "oldest first",
    "venue": "venue",
    "listing": "listing order",
    "starred": "recently starred",
}
"""How the status line and the `o` notice name each order ("sorted by newest first")."""
FILTER_NAMES = {"all": "all", "unread": "unread only", "starred": "starred only", "foryou": "for you"}
"""How the status line names the 1/2/3/4 filter."""
FILTER_ONES = {"unread": "unread", "starred": "starred", "foryou": "for-you"}
"""The filter as an adjective: "the starred ones", "the for-you list"."""


def note(outcome: View, progress: str) -> Text | None:
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


def empty_message(outcome: View) -> Text:
    """The list's only row when nothing matched: what was searched."""
    parts = []
    if outcome.query:
        parts.append(f'"{one_line(outcome.query)}"')
    if outcome.filter != "all":
        ones = FILTER_ONES.get(outcome.filter, outcome.filter)
        parts.append("the for-you list" if outcome.filter == "foryou" else f"{ones} only")
    return Text(f"No papers for {' · '.join(parts) or 'this library'}.", end="")


def widen_hint(outcome: View, *, typing: bool = False, all_key: str = "1") -> Text:
    """The detail pane when nothing matched: how to find more. While the query is being typed (`typing`) a
    `1` would go into the query, so the hint says to leave the search bar first. `all_key`: the key that
    shows all papers now (a user keymap may move `browse.filter_all`)."""
    text = Text(end="")
    text.append(empty_message(outcome).plain + "\n\n", "bold")
    text.append("To widen the search:\n")
    if outcome.filter != "all":
        ones = FILTER_ONES.get(outcome.filter, outcome.filter)
        press = f"press Enter, then {all_key}," if typing else f"press {all_key}"
        text.append(f"  {press} to show all papers, not only the {ones} ones\n")
    if outcome.query:
        text.append("  use fewer words, or OR between them (a OR b)\n")
        text.append("  end a word with * to match its prefix (diffu*), or ~ for spelling slips (difusion~)\n")
        clear = "Esc" if typing else "/ then Esc"
        text.append(f"  press {clear} to clear the query\n")
    if outcome.suggestion:
        text.append("  ctrl+y searches for ")
        text.append(one_line(outcome.suggestion), "bold")
        text.append(" instead\n")
    text.append("  press ? for the full query syntax\n")
    return text


def copy_text(library: Library, paper_id: str) -> str:
    """What `y` puts on the clipboard: title (or headline), authors, venue, link, id and abstract, each line
    display-safe (pasted into a terminal, listing text must not act)."""
    papers = library.papers
    paper = papers.paper(paper_id)
    parts = [
        one_line(papers.title(paper_id)),
        one_line(", ".join(paper.authors)),
        one_line(venue_year(paper.venue, paper.year)),
        link_text(library, paper_id) or "",
        f"id: {paper.id}",
    ]
    return "\n".join([*(part for part in parts if part), "", papers.rendered(paper_id).text])


def link_text(library: Library, paper_id: str) -> str | None:
    """The paper's link as `L` copies it, control characters stripped; None when it has none."""
    url = library.papers.paper(paper_id).url
    return one_line(url) if url and one_line(url) else None


def paper_view(
    library: Library,
    paper_id: str,
    shown: View,
    similar: SimilarView | None,
    starred: frozenset[str],
    read: frozenset[str],
) -> PaperView:
    """What the detail pane shows: the paper with the matches of the view it is in, or in more like this,
    with why it is listed and its shared terms marked."""
    highlight = similar.highlight(paper_id) if similar is not None else shown.highlight
    return PaperView(
        page=library.papers.page(paper_id, highlight),
        starred=paper_id in starred,
        read=paper_id in read,
        why=similar.why(paper_id) if similar is not None else None,
    )


def restore_view(library: Library) -> tuple[str, str, str, str | None]:
    """The query, filter, order and selected paper of the last session, each checked before it is trusted."""
    query = str(library.session.get("query", "") or "")
    saved_filter = library.session.get("filter", "all")
    saved_order = library.session.get("order", "relevance")
    selected = library.session.get("selected")
    return (
        query,
        saved_filter if saved_filter in FILTERS else "all",
        saved_order if saved_order in ORDERS else "relevance",
        selected if isinstance(selected, str) else None,
    )


def save_view(library: Library, query: str, filter: str, order: str, selected: str | None) -> None:
    """Remember the view for the next start (a read-only store keeps nothing, and that is fine)."""
    if library.marks.read_only:
        return
    library.session.set("query", query)
    library.session.set("filter", filter)
    library.session.set("order", order)
    if selected is not None:
        library.session.set("selected", selected)


class Shown(NamedTuple):
    """What the browse screen shows: the last search's answer, or papers like one (`similar`)."""

    outcome: View
    filter: str
    order: str
    restored: bool
    """The query came back from the last session, unchanged since."""
    similar: SimilarView | None


def status(library: Library, shown: Shown, progress: str, flash: str, width: int) -> Status:
    """The status line for what is shown, fitted to `width` cells (the similar label is cut between words)."""
    papers, unread, starred = library.marks.counts()
    read_only = library.marks.read_only
    line = Status(papers, unread, starred, progress=progress, flash=flash)
    if shown.similar is not None:
        return shown.similar.status(line, width, read_only=read_only)
    mode = describe_view(shown.filter, shown.order, read_only)
    return replace(
        line, query=shown.outcome.query, shown=len(shown.outcome.ids), mode=mode, restored=shown.restored
    )


def describe_view(filter: str, order: str, read_only: bool) -> str:
    """What the status line says about a search view when it is not the plain default (`similar_view` words
    the more-like-this view)."""
    mode = []
    if filter != "all":
        mode.append(FILTER_NAMES.get(filter, filter))
    if order != "relevance":
        mode.append(f"sorted by {ORDER_NAMES[order]}")
    if read_only:
        mode.append("read-only state")
    return " · ".join(mode)
