"""Stars and read marks as the browse screen shows and changes them: keys, dwell timer, cached sets.

A part the browse screen owns; the keys stay bound on `BrowseScreen.BINDINGS`, where users remap them by
id, and each of their actions calls one method here. After a change it posts `MarksChanged` to the screen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from tui.browse.messages import MarksChanged
from tui.screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

    from index.library import Library
    from tui.browse.paper_list import PaperList

FLASH_SECONDS = 3.0
"""How long the status line says that dwelling marked a paper read."""


class Marking:
    """Changes stars and read marks; after each change it reloads `starred`/`read` and posts `MarksChanged`.

    Args:
        host: the screen it works for: notifications, the dwell timer, the confirm dialog and its messages go
            through it.
        library: where the marks are stored.
        paper_list: the list whose selected and shown papers the keys act on (looked up when needed, since
            the host composes it after creating this).
        mark_read_delay: seconds a paper must stay selected to count as read; 0 turns that off.

    Opening a paper (`Enter`) is not reading it: only dwelling or an explicit `r` marks it read, and when
    dwelling does, `flash` says so for a few seconds (the status line shows it; a toast would hide text).
    """

    def __init__(
        self,
        host: Screen[None],
        library: Library,
        paper_list: Callable[[], PaperList],
        *,
        mark_read_delay: float,
    ) -> None:
        self._host = host
        self._library = library
        self._paper_list = paper_list
        self._mark_read_delay = mark_read_delay
        self._dwell_timer: Timer | None = None
        self._flash_timer: Timer | None = None
        self.flash = ""
        self.starred: frozenset[str] = frozenset()
        self.read: frozenset[str] = frozenset()

    def reload(self) -> None:
        """Rows are drawn from these sets: one query per change instead of two per visible row per frame."""
        self.starred = self._library.marks.starred
        self.read = self._library.marks.read

    def _after_change(self) -> None:
        self.reload()
        self._host.post_message(MarksChanged())

    def selected(self) -> str | None:
        """The selected paper's id, or None after telling the user that no paper is selected."""
        paper_id = self._paper_list().selected_id
        if paper_id is None:
            self._host.notify("No paper selected.", severity="warning")
        return paper_id

    # ---- read by looking -----------------------------------------------------------------------------------

    def dwell(self, paper_id: str | None) -> None:
        """A paper was selected: it counts as read once it has stayed selected for `mark_read_delay`.

        None stops the clock (no paper, or the reader is typing a query rather than reading).
        """
        self._stop_dwell()
        if paper_id is not None and self._mark_read_delay > 0 and paper_id not in self.read:
            self._dwell_timer = self._host.set_timer(self._mark_read_delay, partial(self._dwelt, paper_id))

    def _stop_dwell(self) -> None:
        if self._dwell_timer is not None:
            self._dwell_timer.stop()
            self._dwell_timer = None

    def _dwelt(self, paper_id: str) -> None:
        self._dwell_timer = None
        if self._paper_list().selected_id == paper_id and paper_id not in self._library.marks.read:
            self._library.marks.mark_read([paper_id])  # one undo step, like `r`
            self._say("marked read (u undoes)")
            self._after_change()

    def _say(self, message: str) -> None:
        """Set `flash` (the caller redraws) and clear it again after `FLASH_SECONDS`."""
        if self._flash_timer is not None:
            self._flash_timer.stop()
            self._flash_timer = None
        self.flash = message
        if message:
            self._flash_timer = self._host.set_timer(FLASH_SECONDS, self._unsay)

    def _unsay(self) -> None:
        self._flash_timer = None
        self.flash = ""
        self._host.post_message(MarksChanged())

    # ---- keys ----------------------------------------------------------------------------------------------

    def toggle_star(self) -> None:
        if (paper_id := self.selected()) is not None:
            starred = self._library.marks.toggle_star(paper_id)
            self._host.notify("Starred." if starred else "Unstarred.", timeout=2)
            self._after_change()

    def toggle_read(self) -> None:
        if (paper_id := self.selected()) is not None:
            self._stop_dwell()  # the user decided; the dwell timer must not override them
            self._say("")
            read = self._library.marks.toggle_read(paper_id)
            self._host.notify("Marked read." if read else "Marked unread.", timeout=2)
            self._after_change()

    def mark_all_read(self) -> None:
        """Ask first, then mark every shown paper read in one undoable step."""
        ids = list(self._paper_list().ids)
        if not ids:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._library.marks.mark_read(ids)
                self._host.notify(f"Marked {len(ids)} papers read (u undoes).", timeout=3)
                self._after_change()

        self._host.app.push_screen(ConfirmScreen(f"Mark all {len(ids)} shown papers as read?"), answered)

    def undo(self) -> None:
        undone = self._library.marks.undo()
        if undone is None:
            self._host.notify("Nothing to undo.", timeout=2)
            return
        self._say("")
        self._host.notify(f"Undone ({len(undone)} paper{'s' if len(undone) != 1 else ''}).", timeout=2)
        self._after_change()

    def step_unread(self, step: int) -> None:
        """Move the cursor to the next unread paper below (`step` 1) or above (-1) it."""
        paper_list = self._paper_list()
        ids = paper_list.ids
        index = paper_list.cursor + step
        while 0 <= index < len(ids):
            if ids[index] not in self.read:
                paper_list.cursor = index
                return
            index += step
        self._host.notify("No more unread papers " + ("below." if step > 0 else "above."), timeout=2)
