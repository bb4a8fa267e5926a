"""The help screen: the key sheet (keys as mapped now, most used first), then the query syntax on two pages
(the words and fields, then the filters).

Each page is laid out for the width it is given and scrolls when the terminal is shorter than the page, so
every page is one screen at 80x24 and nothing is ever out of reach: space goes on through a page and
then to the next one, the page's border says which page this is and which keys show the others.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import ContentSwitcher, Static

from tui.keys import Section
from tui.screens.help_layout import Styles, key_sheet, query_syntax, split_query_help
from tui.scrolling import scroll_at_once
from tui.widgets.key_footer import KeyFooter


class HelpPage(Static):
    """One page of help text, laid out again for each width it is given."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"help-sheet--title", "help-sheet--key", "help-sheet--note"}

    def __init__(self, sections: Sequence[Section], query_help: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.sections = sections
        self.query_help = query_help
        self._width = 0

    def on_mount(self) -> None:
        self.lay_out(self.app.size.width - 6)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._width:
            self.lay_out(event.size.width)

    def lay_out(self, width: int) -> None:
        self._width = width
        style = self.get_component_rich_style
        styles = Styles(style("help-sheet--title"), style("help-sheet--key"), style("help-sheet--note"))
        text = Text(end="")
        if self.sections:
            text.append_text(key_sheet(self.sections, width, styles))
        if self.query_help:
            text.append_text(query_syntax(self.query_help, width, styles))
        text.rstrip()
        self.update(text)


class HelpScreen(ModalScreen[None]):
    """Shown over the browse screen (or triage); any of the close keys returns to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close help", id="help.close"),
        Binding("space,pagedown", "page_down", "More", id="help.page_down"),
        Binding("pageup,b", "page_up", "Back", id="help.page_up"),
        Binding("tab,right", "turn(1)", "Other page", show=False, id="help.next_page"),
        Binding("shift+tab,left", "turn(-1)", "Other page", show=False, id="help.previous_page"),
        Binding("down,j", "scroll('down')", "Down", show=False, id="help.down"),
        Binding("up,k", "scroll('up')", "Up", show=False, id="help.up"),
        Binding("home,g", "scroll('home')", "Top", show=False, id="help.top"),
        Binding("end,G", "scroll('end')", "Bottom", show=False, id="help.bottom"),
    ]

    def __init__(self, sections: Sequence[Section], query_help: str) -> None:
        super().__init__()
        self.sections = sections
        self.query_help = query_help
        self.texts = split_query_help(query_help) if query_help else []
        self.pages: list[tuple[str, str]] = [("help-keys", "keys")]
        self.pages += [(f"help-syntax-{number}", name) for number, (name, _text) in enumerate(self.texts)]
        self.page = 0

    def compose(self) -> ComposeResult:
        with ContentSwitcher(initial="help-keys", id="help-pages"):
            with VerticalScroll(id="help-keys", classes="help-body"):
                yield HelpPage(self.sections, "", id="help-text")
            for number, (_name, text) in enumerate(self.texts):
                with VerticalScroll(id=f"help-syntax-{number}", classes="help-body"):
                    yield HelpPage((), text, id=f"help-syntax-text-{number}")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show(0)

    @property
    def body(self) -> VerticalScroll:
        """The page being shown."""
        return self.query_one(f"#{self.pages[self.page][0]}", VerticalScroll)

    def _show(self, page: int) -> None:
        self.page = page
        page_id, title = self.pages[page]
        self.query_one(ContentSwitcher).current = page_id
        body = self.body
        body.border_title = "Help" if len(self.pages) == 1 else f"Help · {title}"
        if len(self.pages) > 1:
            where = f"page {page + 1} of {len(self.pages)}"
            after = self.pages[(page + 1) % len(self.pages)][1]
            if page + 1 < len(self.pages):
                body.border_subtitle = f"{where} · space or tab: {after}"
            else:
                body.border_subtitle = f"{where} · b: {self.pages[page - 1][1]} · tab: {after}"
        body.scroll_home(animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, how: str) -> None:
        scroll_at_once(self.body, how)

    def action_turn(self, step: int) -> None:
        self._show((self.page + step) % len(self.pages))

    def action_page_down(self) -> None:
        """Through the page first, then on to the next one: space alone reads all of help."""
        body = self.body
        if body.scroll_y < body.max_scroll_y:
            scroll_at_once(body, "page_down")
        elif self.page + 1 < len(self.pages):
            self._show(self.page + 1)

    def action_page_up(self) -> None:
        body = self.body
        if body.scroll_y > 0:
            scroll_at_once(body, "page_up")
        elif self.page > 0:
            self._show(self.page - 1)
            self.body.scroll_end(animate=False)
