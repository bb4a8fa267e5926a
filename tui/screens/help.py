"""The help screen: every key (as currently mapped) and the query syntax."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from tui.keys import Section
from tui.scrolling import scroll_at_once
from tui.text import literal


def help_text(sections: Iterable[Section], query_help: str) -> Text:
    text = Text(end="")
    for title, rows in sections:
        text.append(title + "\n", "bold underline")
        for keys, description in rows:
            text.append(f"  {keys:<22}", "bold")
            text.append(description + "\n")
        text.append("\n")
    text.append("Query syntax\n", "bold underline")
    text.append_text(literal(query_help))
    return text


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
        with VerticalScroll(id="help-body"):
            yield Static(help_text(self.sections, self.query_help), id="help-text")
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_scroll(self, how: str) -> None:
        scroll_at_once(self.query_one("#help-body", VerticalScroll), how)
