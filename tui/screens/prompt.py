"""A one-line question in a small modal: Enter answers with what was typed, Esc answers None.

The tag prompt and "save this search as…" are both one; a `Suggester` (tags) completes as you type, and
`tab` or `→` at the end of the line accepts its completion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Input, Static

from tui.text import one_line
from tui.typeahead import typed_ahead


class Prompt(ModalScreen[str | None]):
    """Dismisses with the text typed (Enter) or None (Esc); the caller decides what an answer means.

    Args:
        title: the question, shown on the dialog's border.
        hint: one line under the input saying what to type (listing text never goes here unescaped: it is
            shown as a `Text`, never as markup).
        value: the text the input starts with.
        placeholder: shown while the input is empty.
        suggester: completes the input as it is typed.
        check: what is wrong with an answer, or None when it will do: a wrong answer stays in the input,
            with the problem where the hint was, to be mended rather than typed again.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="prompt.cancel"),
        Binding("tab", "complete", "Complete", show=False, id="prompt.complete"),
    ]

    def __init__(
        self,
        title: str,
        hint: Text | str = "",
        *,
        value: str = "",
        placeholder: str = "",
        suggester: Suggester | None = None,
        check: Callable[[str], str | None] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.hint = hint if isinstance(hint, Text) else Text(hint)
        self.initial = value
        self.placeholder = placeholder
        self.suggester = suggester
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="prompt-dialog") as dialog:
            dialog.border_title = self.title_text
            dialog.border_subtitle = "⏎ done · esc cancels"
            yield Input(
                self.initial,
                placeholder=self.placeholder,
                suggester=self.suggester,
                compact=True,
                id="prompt-input",
            )
            hint = Static(self.hint, id="prompt-hint")
            hint.display = bool(self.hint.plain)
            yield hint

    @property
    def input(self) -> Input:
        return self.query_one("#prompt-input", Input)

    def on_mount(self) -> None:
        self.set_focus(self.input)
        typed_ahead(self)

    @on(Input.Submitted, "#prompt-input")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        problem = self.check(event.value) if self.check is not None else None
        if problem is None:
            self.dismiss(event.value)
            return
        hint = self.query_one("#prompt-hint", Static)
        hint.update(Text(one_line(problem), end=""))
        hint.add_class("-problem")  # app.tcss: in the theme's error colour
        hint.display = True
        self.app.bell()

    def action_cancel(self) -> None:
        self.dismiss(None)

    def action_complete(self) -> None:
        """Accept the suggester's completion (what `→` does at the end of the line; tab is easier to find)."""
        field = self.input
        field.cursor_position = len(field.value)
        field.action_cursor_right()
