"""The help screen: a key sheet in as many columns as fit (keys as mapped now), then the query syntax."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.keys import Section
from tui.screens.help_layout import Styles, key_sheet, query_syntax
from tui.scrolling import scroll_at_once
from tui.widgets.key_footer import KeyFooter


class HelpSheet(Static):
    """The key sheet and query syntax, laid out again for each width it is given."""

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
        text = key_sheet(self.sections, width, styles)
        text.append("\n")
        text.append_text(query_syntax(self.query_help, width, styles))
        text.rstrip()
        self.update(text)


class HelpScreen(ModalScreen[None]):
    """Shown over the browse screen; any of the close keys returns to it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", "Close help", id="help.close"),
        Binding("down,j", "scroll('down')", "Down", show=False, id="help.down"),
        Binding("up,k", "scroll('up')", "Up", show=False, id="help.up"),
        Binding("pagedown,space", "scroll('page_down')", "Page down", show=False, id="help.page_down"),
        Binding("pageup", "scroll('page_up')", "Page up", show=False, id="help.page_up"),
    ]

    def __init__(self, sections: Sequence[Section], query_help: str) -> None:
        super().__init__()
        self.sections = sections
        self.query_help = query_help

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-body") as body:
            body.border_title = "Keys"
            yield HelpSheet(self.sections, self.query_help, id="help-text")
        yield KeyFooter()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, how: str) -> None:
        scroll_at_once(self.query_one("#help-body", VerticalScroll), how)
