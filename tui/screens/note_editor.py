"""The note editor (`e`): a TextArea over the paper's note, saved when the reader leaves it.

There is no save key to forget: Esc, a click outside the dialog, or the session ending (the screen is
unmounted) all hand the text to `save` exactly once, and an emptied note is removed by the store.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static, TextArea

from tui.text import one_line
from tui.typeahead import typed_ahead


class NoteEditor(ModalScreen[None]):
    """Edits one paper's note; `save` receives the text when the editor is left, however it is left.

    Args:
        headline: the paper's headline, for the dialog's title (untrusted: shown as text, never markup).
        note: the note as stored now ("" for none).
        save: stores the text (the caller compares it with `note` and handles errors).
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        # Not priority: the text area has no use for Esc (tab moves focus), so Esc reaches this after the keys
        # typed before it, and a burst "note text⏎Esc" keeps all of its text.
        Binding("escape", "leave", "Save and close", id="note.leave"),
    ]

    def __init__(self, headline: str, note: str, save: Callable[[str], None]) -> None:
        super().__init__()
        self.headline = headline
        self.note = note
        self._save = save
        self._saved = False
        self._text = note  # kept as it changes: on unmount the text area may already be gone

    def compose(self) -> ComposeResult:
        with Vertical(id="note-dialog"):
            yield Static(Text(one_line(self.headline), no_wrap=True, overflow="ellipsis"), id="note-title")
            yield TextArea(self.note, soft_wrap=True, show_line_numbers=False, id="note-text")
            yield Static(Text("Esc saves and closes · an empty note is removed", "dim"), id="note-hint")

    @property
    def text_area(self) -> TextArea:
        return self.query_one("#note-text", TextArea)

    def on_mount(self) -> None:
        area = self.text_area
        self.set_focus(area)
        area.move_cursor(area.document.end)
        typed_ahead(self)

    def on_text_area_changed(self, event: TextArea.Changed) -> None:
        self._text = event.text_area.text

    def _store(self) -> None:
        if self._saved:
            return
        self._saved = True
        try:
            # The area itself while it is there: its Changed messages may be queued behind a burst of keys.
            text = self.text_area.text
        except NoMatches:
            text = self._text
        self._save(text)

    def action_leave(self) -> None:
        self._store()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        if event.widget is self:  # the backdrop around the dialog: leaving by mouse saves too
            self.action_leave()

    def on_unmount(self) -> None:
        # The session ended (ctrl+q, hangup) while the editor was open: what was typed is still kept.
        self._store()
