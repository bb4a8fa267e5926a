"""The detail pane: one paper's header, where it was listed, and its abstract with styles and matches."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from index.library import MatchSpan, PaperPage
from index.models import Paper, Rendered
from tui.scrolling import scroll_at_once
from tui.text import literal, one_line, venue_year

# Rendered span styles as Rich styles; chosen so they still read on 16-colour and NO_COLOR terminals
# (bold/italic/underline carry the meaning, colour is a bonus).
SPAN_STYLES = {
    "bold": "bold",
    "italic": "italic",
    "math": "italic cyan",
    "cite": "dim",
    "code": "bold green",
    "link": "underline blue",
}
MATCH_STYLE = "bold reverse"
TAG_STYLE = "bold magenta"


@dataclass(frozen=True, slots=True)
class PaperView:
    """Everything the pane shows about one paper: the library's page of it, and the user's marks on it."""

    page: PaperPage
    starred: bool
    read: bool
    why: Text | None = None
    """Why the paper is listed, shown above it (in more like this: the reference, or the shared terms)."""
    tags: tuple[str, ...] = ()
    note: str = ""
    """The user's note on the paper ("" for none)."""

    @property
    def paper(self) -> Paper:
        return self.page.paper


SYNTHESISED = "headline from the abstract"
"""Said in the facts line of a paper whose listing gives no title, under the headline made for it."""


def paper_text(view: PaperView, width: int = 0) -> Text:
    """The whole pane as one `Text`, built from parts so listing text is never parsed as markup; `width`
    is the pane's, for the facts line (0 before the pane has one).

    The header is the title (and authors) and one dim line of facts, so that stacked at 80x24 the abstract
    still gets most of the pane; the link and the note follow, and where the paper was listed comes last.
    """
    paper = view.paper
    out = Text(end="")
    if view.why is not None and view.why.plain:
        out.append_text(view.why)
        out.append("\n\n")
    out.append_text(literal(one_line(view.page.title), "bold"))
    out.append("\n")
    if paper.authors:
        out.append_text(literal(one_line(", ".join(paper.authors)), "italic"))
        out.append("\n")
    out.append_text(facts_line(view, width))
    out.append("\n")
    if paper.url:
        out.append_text(url_text(paper.url, view.page.link))
        out.append("\n")
    if view.note:
        out.append_text(literal("✎ " + view.note.strip(), "italic"))
        out.append("\n")
    # No blank line before the abstract: the dim facts line already ends the header, and stacked at 80x24
    # every row of the pane's eight counts.
    out.append_text(abstract_text(view.page.rendered, view.page.matches))
    if paper.sources:
        out.append("\n")
    for source in paper.sources:
        out.append("\nin ", "dim")
        out.append_text(literal(one_line(PurePath(source.path).name)))
        out.append(f" ¶{source.paragraph} (line {source.line})", "dim")
    return out


def facts_line(view: PaperView, width: int = 0) -> Text:
    """Venue, star, read mark, tags and id, joined by dots and broken only between facts to fit `width`
    (0: one line), so the id is never split from its label and stays one word to find and copy."""
    paper = view.paper
    facts: list[Text] = []
    venue = venue_year(paper.venue, paper.year)
    if venue:
        facts.append(literal(one_line(venue)))
    facts.append(Text("★ starred" if view.starred else "☆ not starred", "dim"))
    facts.append(Text("read" if view.read else "● unread", "dim"))
    if view.tags:
        facts.append(literal(one_line(" ".join(f"#{name}" for name in view.tags)), TAG_STYLE))
    identity = Text("id ", "dim")
    identity.append_text(literal(paper.id, "dim"))
    facts.append(identity)
    if view.page.synthesised:  # the bold line above is made from the abstract, not the authors' title
        facts.append(Text(SYNTHESISED, "dim italic"))
    return joined_within(facts, width)


def joined_within(facts: Sequence[Text], width: int, separator: str = " · ") -> Text:
    """`facts` joined by `separator`, starting a new line before a fact that would pass `width` cells."""
    line = Text(end="")
    used = 0
    for number, fact in enumerate(facts):
        if number:
            if width and used + len(separator) + fact.cell_len > width:
                line.append("\n")
                used = 0
            else:
                line.append(separator, "dim")
                used += len(separator)
        line.append_text(fact)
        used += fact.cell_len
    return line


def url_text(url: str, target: str | None) -> Text:
    """The paper's link: a terminal hyperlink (OSC 8, through the link style) to `target`, the URL the
    library found safe to hand a terminal (`PaperPage.link`); otherwise the same text with no link, so a
    hostile URL can neither run nor hide where it goes."""
    if target is None:
        return literal(one_line(url), "dim")
    return Text(target, style=Style(underline=True, link=target), end="")


def abstract_text(rendered: Rendered, matches: Sequence[MatchSpan]) -> Text:
    """The rendered abstract with its style spans and the current query's matches applied by offset."""
    text = literal(rendered.text)
    length = len(rendered.text)
    for span in rendered.spans:
        text.stylize(SPAN_STYLES.get(span.style, ""), max(0, span.start), min(length, span.end))
    for match in matches:
        text.stylize(MATCH_STYLE, max(0, match.start), min(length, match.end))
    return text


class PaperDetail(VerticalScroll, can_focus=True):
    """Scrollable view of one paper; the screen decides which paper and when it changes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h,backspace", "back", "Back to list", id="detail.back"),
        Binding("space", "read_on", "Page / next", id="detail.page"),
        Binding("down,j", "scroll('down')", "Scroll down", show=False, id="detail.down"),
        Binding("up,k", "scroll('up')", "Scroll up", show=False, id="detail.up"),
        Binding("home,g", "scroll('home')", "Top", show=False, id="detail.top"),
        Binding("end,G", "scroll('end')", "Bottom", show=False, id="detail.bottom"),
        Binding("pagedown,ctrl+d", "scroll('page_down')", "Page down", show=False, id="detail.page_down"),
        Binding("pageup,ctrl+u", "scroll('page_up')", "Page up", show=False, id="detail.page_up"),
    ]

    _shown: tuple[PaperView | None, Text | None] = (None, None)
    """What `show` was last given, to render again when the width changes."""
    _body_width = 0

    class Back(Message):
        """The reader is done with this paper and wants the list again."""

    class ReadOn(Message):
        """`space` at the end of the paper: the reader wants the next one (mutt's and newsboat's `space`)."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Select a paper to read it."), id="detail-body")

    def show(
        self, view: PaperView | None, *, placeholder: Text | None = None, keep_scroll: bool = False
    ) -> None:
        """Show a paper (from the top unless only its marks changed), or explain why the pane is empty."""
        self._shown = (view, placeholder)
        self._render_body()
        if not keep_scroll:
            self.scroll_home(animate=False)

    def _render_body(self) -> None:
        view, placeholder = self._shown
        body = self.query_one("#detail-body", Static)
        self._body_width = self._facts_width()
        body.update(paper_text(view, self._body_width) if view is not None else (placeholder or Text("")))

    def on_resize(self) -> None:
        """Break the facts line again for the new width (the abstract rewraps by itself)."""
        if self._shown[0] is not None and self._facts_width() != self._body_width:
            self._render_body()

    def _facts_width(self) -> int:
        """The text width, keeping room for the scrollbar (it comes and goes with the abstract)."""
        return max(0, self.content_region.width - self.styles.scrollbar_size_vertical)

    def action_back(self) -> None:
        self.post_message(self.Back())

    def action_read_on(self) -> None:
        """A page further down, or past the end of the paper, the next paper."""
        if self.scroll_y >= self.max_scroll_y:
            self.post_message(self.ReadOn())
        else:
            scroll_at_once(self, "page_down")

    def action_scroll(self, how: str) -> None:
        scroll_at_once(self, how)
