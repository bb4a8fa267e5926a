"""The paper list: a Line API widget that draws only the visible rows, so 50,000 papers cost what 50 do."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import ClassVar, NamedTuple

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip

from tui.text import one_line, venue_year


class Row(NamedTuple):
    """What one list row shows; looked up only for rows on screen, so state changes need no rebuild."""

    starred: bool
    unread: bool
    headline: str
    where: str
    tags: tuple[str, ...] = ()
    noted: bool = False


Describe = Callable[[str], Row]
Preview = Callable[[str], tuple[str, Sequence[tuple[int, int]]]]
"""A paper's preview line (the clause stating its contribution) and the matches in it, as offsets."""
PREVIEW_INDENT = "    "
"""The preview line starts under the headline, past the marks."""

WHERE_WIDTH = 16
"""The venue column is as wide as the longest venue and year shown, up to this."""
HEADLINE_ROOM = 60
"""Cells of headline a row keeps before it gives room to the venue column: a headline is read before its
venue, and the detail pane names the selected paper's venue anyway."""
TAGS_WIDTH = 20
"""At most this many cells of tags (and the note mark) in a row, and never over a third of the headline."""
TAGS_MIN = 4
NO_COLOR_CURSOR = Style(reverse=True)


class PaperList(ScrollView, can_focus=True):
    """A cursor over a sequence of paper ids; the screen supplies the ids and how to describe each one."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("down,j", "cursor_down", "Down", show=False, id="list.down"),
        Binding("up,k", "cursor_up", "Up", show=False, id="list.up"),
        Binding("home,g", "first", "First", show=False, id="list.first"),
        Binding("end,G", "last", "Last", show=False, id="list.last"),
        Binding("pagedown,ctrl+d", "page_down", "Page down", show=False, id="list.page_down"),
        Binding("pageup,ctrl+u", "page_up", "Page up", show=False, id="list.page_up"),
        Binding("enter,l", "open", "Open", id="list.open"),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "paper-list--cursor",
        "paper-list--star",
        "paper-list--unread",
        "paper-list--where",
        "paper-list--tags",
        "paper-list--empty",
        "paper-list--preview",
        "paper-list--match",
    }

    cursor: reactive[int] = reactive(0, always_update=True, init=False)

    class Highlighted(Message):
        """The cursor moved to another paper (or the list became empty): the detail pane follows it.

        `chosen` is True when the user moved it (a key or a click), False when the list did (new results,
        the paper restored from the last session): only a chosen paper can become read by dwelling.
        """

        def __init__(self, paper_id: str | None, *, chosen: bool = False) -> None:
            super().__init__()
            self.paper_id = paper_id
            self.chosen = chosen

    class Opened(Message):
        """The user asked to read the paper under the cursor (`Enter`, `l`)."""

        def __init__(self, paper_id: str) -> None:
            super().__init__()
            self.paper_id = paper_id

    def __init__(self, describe: Describe, *, preview: Preview | None = None, id: str | None = None) -> None:
        super().__init__(id=id)
        self._describe = describe
        self._preview = preview
        self.row_height = 1
        """2 when each paper's row has its preview line under the headline (the screen's `p`)."""
        self._ids: Sequence[str] = ()
        self.show_where = False
        self.where_width = WHERE_WIDTH
        self.empty_message: Text = Text("No papers.")
        self._by_user = False  # the next cursor change comes from a key or click

    @property
    def ids(self) -> Sequence[str]:
        return self._ids

    @property
    def selected_id(self) -> str | None:
        return self._ids[self.cursor] if 0 <= self.cursor < len(self._ids) else None

    def set_ids(self, ids: Sequence[str], *, select: str | None = None) -> None:
        """Show new papers, keeping `select` (or the current paper) under the cursor if still listed."""
        keep = select if select is not None else self.selected_id
        self._ids = ids
        self.virtual_size = Size(self.size.width, len(ids) * self.row_height)
        index = 0
        if keep is not None:
            try:
                index = ids.index(keep)
            except ValueError:
                index = 0
        self.scroll_to(y=0, animate=False, immediate=True)
        self.cursor = index
        self.refresh()

    def set_row_height(self, height: int) -> None:
        """One line per paper, or two with the preview line; the paper under the cursor stays in view."""
        self.row_height = height
        self.virtual_size = Size(self.size.width, len(self._ids) * height)
        self.refresh()
        self.call_after_refresh(self._keep_cursor_visible)

    def select(self, paper_id: str) -> bool:
        """Move the cursor to a paper if it is listed."""
        try:
            self.cursor = self._ids.index(paper_id)
        except ValueError:
            return False
        return True

    def validate_cursor(self, value: int) -> int:
        return max(0, min(value, len(self._ids) - 1)) if self._ids else 0

    def watch_cursor(self, old: int, new: int) -> None:
        for index in (old, new):
            for line in range(self.row_height):
                self.refresh_line(index * self.row_height + line)
        self._keep_cursor_visible()
        chosen, self._by_user = self._by_user, False
        self.post_message(self.Highlighted(self.selected_id, chosen=chosen))

    def move(self, index: int) -> None:
        """Move the cursor because the user asked to (a key, a click, `n`/`N`): the paper is chosen."""
        self._by_user = True
        self.cursor = index
        self._by_user = False  # validate_cursor may leave it unchanged; a later set_ids is not chosen

    def _keep_cursor_visible(self) -> None:
        if not self._ids:
            return
        self.scroll_to_region(
            Region(0, self.cursor * self.row_height, 1, self.row_height),
            animate=False,
            force=True,
            immediate=True,
            spacing=None,
        )

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(event.size.width, len(self._ids) * self.row_height)
        self.call_after_refresh(self._keep_cursor_visible)

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height // self.row_height - 1)

    def action_cursor_down(self) -> None:
        self.move(self.cursor + 1)

    def action_cursor_up(self) -> None:
        self.move(self.cursor - 1)

    def action_first(self) -> None:
        self.move(0)

    def action_last(self) -> None:
        self.move(len(self._ids) - 1)

    def action_page_down(self) -> None:
        self.move(self.cursor + self._page())

    def action_page_up(self) -> None:
        self.move(self.cursor - self._page())

    def action_open(self) -> None:
        paper_id = self.selected_id
        if paper_id is not None:
            self.post_message(self.Opened(paper_id))

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index = (self.scroll_offset.y + offset.y) // self.row_height
        if 0 <= index < len(self._ids):
            self.move(index)
            if event.chain > 1:
                self.action_open()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        base = self.rich_style
        line = self.scroll_offset.y + y
        index, part = divmod(line, self.row_height)
        if not self._ids:
            if y == 0:
                style = self.get_component_rich_style("paper-list--empty")
                return self._strip(Text("  ", end="") + self.empty_message, width, base + style)
            return Strip.blank(width, base)
        if index >= len(self._ids):
            return Strip.blank(width, base)
        if part:
            return self._preview_line(index, width, base)
        return self._headline_line(index, width, base)

    def _headline_line(self, index: int, width: int, base: Style) -> Strip:
        """A paper's row: its marks, headline, tags and venue."""
        row = self._describe(self._ids[index])
        text = Text(end="", no_wrap=True, overflow="ellipsis")
        text.append("★ " if row.starred else "  ", self.get_component_rich_style("paper-list--star"))
        text.append("● " if row.unread else "  ", self.get_component_rich_style("paper-list--unread"))
        headline_width = width - 4
        where = ""
        if self.show_where and row.where and headline_width - self.where_width - 1 >= HEADLINE_ROOM:
            where = one_line(row.where)[: self.where_width]
            headline_width -= self.where_width + 1
        tags = tag_label(row.tags, row.noted, headline_width // 3)
        if tags.plain:
            headline_width -= tags.cell_len + 1
        headline = Text(one_line(row.headline), end="", no_wrap=True, overflow="ellipsis")
        headline.truncate(max(1, headline_width), overflow="ellipsis", pad=bool(where or tags.plain))
        text.append_text(headline)
        if tags.plain:
            text.append(" ")
            text.append_text(tags.copy())
            text.stylize(self.get_component_rich_style("paper-list--tags"), len(text) - len(tags))
        if where:
            where_style = self.get_component_rich_style("paper-list--where")
            text.append(" " + where.rjust(self.where_width), where_style)
        style = base
        if index == self.cursor:
            style = base + self.get_component_rich_style("paper-list--cursor")
            if self.app.no_color:
                style += NO_COLOR_CURSOR  # colours stripped: only reverse video shows the selection
        return self._strip(text, width, style)

    def _preview_line(self, index: int, width: int, base: Style) -> Strip:
        """The second line of a paper's row: its contribution clause, dimmed, with the query's matches."""
        if self._preview is None:
            return Strip.blank(width, base)
        clause, matches = self._preview(self._ids[index])
        text = Text(PREVIEW_INDENT, end="", no_wrap=True, overflow="ellipsis")
        shown = Text(one_line(clause), end="", no_wrap=True, overflow="ellipsis")
        match_style = self.get_component_rich_style("paper-list--match")
        for start, end in matches:
            shown.stylize(match_style, start, end)
        text.append_text(shown)
        text.truncate(max(1, width), overflow="ellipsis")
        style = base + self.get_component_rich_style("paper-list--preview")
        if index == self.cursor:
            style += self.get_component_rich_style("paper-list--cursor")
            if self.app.no_color:
                style += NO_COLOR_CURSOR
        return self._strip(text, width, style)

    def _strip(self, text: Text, width: int, style: Style) -> Strip:
        segments = [
            Segment(seg.text, style + seg.style if seg.style else style)
            for seg in text.render(self.app.console)
        ]
        return Strip(segments).adjust_cell_length(width, style)


def venue_width(venue_years: Iterable[tuple[str | None, int | None]]) -> int:
    """The venue column's width: the longest venue and year among the papers, at most WHERE_WIDTH."""
    return min(WHERE_WIDTH, max((cell_len(venue_year(*shown)) for shown in venue_years), default=0))


def tag_label(tags: tuple[str, ...], noted: bool, room: int) -> Text:
    """`#tag #tag ✎` cut to fit `room` cells (at most TAGS_WIDTH), or empty when fewer than TAGS_MIN fit:
    tags take cells from the headline, never from the marks or the venue column."""
    label = " ".join(f"#{one_line(name)}" for name in tags)
    if noted:
        label = f"{label} ✎".lstrip()
    width = min(room, TAGS_WIDTH)
    if not label or width < TAGS_MIN:
        return Text(end="")
    text = Text(label, end="", no_wrap=True, overflow="ellipsis")
    if text.cell_len > width:
        text.truncate(width, overflow="ellipsis")
    return text
