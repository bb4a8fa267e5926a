"""The browse screen's marking keys: star, read, mark all shown read, undo, next/previous unread.

A mixin so the screen module stays about composition and data flow; the keys themselves are bound on
`BrowseScreen.BINDINGS`, where users remap them by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from tui.screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from textual.timer import Timer

    from index.library import Library
    from tui.widgets.paper_list import PaperList


class MarkingActions(Screen[None]):
    """Actions that change stars and read marks; each ends in `_marks_changed` so every pane redraws."""

    library: Library
    _read: frozenset[str]
    _read_timer: Timer | None

    @property
    def paper_list(self) -> PaperList:
        raise NotImplementedError

    def _marks_changed(self) -> None:
        raise NotImplementedError

    def _selected(self) -> str | None:
        paper_id = self.paper_list.selected_id
        if paper_id is None:
            self.notify("No paper selected.", severity="warning")
        return paper_id

    def action_toggle_star(self) -> None:
        if (paper_id := self._selected()) is not None:
            starred = self.library.toggle_star(paper_id)
            self.notify("Starred." if starred else "Unstarred.", timeout=2)
            self._marks_changed()

    def action_toggle_read(self) -> None:
        if (paper_id := self._selected()) is not None:
            if self._read_timer is not None:
                self._read_timer.stop()  # the user decided; the dwell timer must not override them
                self._read_timer = None
            read = self.library.toggle_read(paper_id)
            self.notify("Marked read." if read else "Marked unread.", timeout=2)
            self._marks_changed()

    def action_mark_all_read(self) -> None:
        ids = list(self.paper_list.ids)
        if not ids:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.library.mark_read(ids)
                self.notify(f"Marked {len(ids)} papers read (u undoes).", timeout=3)
                self._marks_changed()

        self.app.push_screen(ConfirmScreen(f"Mark all {len(ids)} shown papers as read?"), answered)

    def action_undo(self) -> None:
        undone = self.library.undo()
        if undone is None:
            self.notify("Nothing to undo.", timeout=2)
            return
        self.notify(f"Undone ({len(undone)} paper{'s' if len(undone) != 1 else ''}).", timeout=2)
        self._marks_changed()

    def _step_unread(self, step: int) -> None:
        ids = self.paper_list.ids
        index = self.paper_list.cursor + step
        while 0 <= index < len(ids):
            if ids[index] not in self._read:
                self.paper_list.cursor = index
                return
            index += step
        self.notify("No more unread papers " + ("below." if step > 0 else "above."), timeout=2)

    def action_next_unread(self) -> None:
        self._step_unread(1)

    def action_previous_unread(self) -> None:
        self._step_unread(-1)
