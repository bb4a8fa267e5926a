"""Stars and read marks as the browse screen shows and changes them: keys, dwell timer, cached sets.

A part the browse screen owns; the keys stay bound on `BrowseScreen.BINDINGS`, where users remap them by
id, and each of their actions calls one method here. After a change it posts `MarksChanged` to the screen.

Every way a paper becomes read, in the reader and out of it (tests/tui/test_read_paths.py covers each):

1. Dwelling: `Marking.choose` (the user moved to the paper by a key or click, or opened it) starts the
   clock; `Marking._dwelt` marks it after `mark_read_delay` seconds (config `mark_read_delay`, 0 = off) if
   it is still selected, the browse screen is the active screen (no help, palette, prompt or modal over
   it) and the terminal has not reported losing focus. Launch, the restored paper and new results never
   start it (`PaperList.Highlighted.chosen` is False); an overlay or a blur stops it (`pause`) and it
   starts afresh for the same paper when they end (`resume`). The status line flashes "marked read".
2. `r`: `Marking.toggle_read`.
3. `R`: `Marking.mark_all_read`, after a confirm dialog, one undo step.
4. `papers read ID` on the command line (index/cli/state.py), and `papers import` of an export.

Triage (`T`) never marks a paper read (tui/browse/triage.py). `u` undoes any of 1-3, and only this
reader's own changes: what another process changed is never undone here. A read-only store
(tui/saving.py) refuses 2, 3 and `u` with a notice, and its dwell clock never runs.

Other processes of the same user (`papers star` in another terminal, a second reader) change the store too.
`sync` asks the store a few times a second, and whenever the terminal regains focus or an overlay closes,
whether another process committed (one `PRAGMA data_version`, no table read); if so the sets are reloaded
and the screen redraws, so it shows their changes within a second without a key. `s` and `r` act on the
stored value and name the value the screen showed: if another process changed it in between, the key
changes nothing and the screen catches up, so a key never does the opposite of what the screen said.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from tui.browse.messages import MarksChanged
from tui.saving import saving, writable
from tui.screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

    from index.library import Library, Toggled
    from tui.browse.paper_list import PaperList

FLASH_SECONDS = 3.0
"""How long the status line says that dwelling marked a paper read."""
SYNC_SECONDS = 0.25
"""How often the reader asks whether another process changed the store: a change shows within a second."""
INLINE_RELOAD = 5_000
"""Stars and read marks up to which `sync` reloads them on the UI thread (a few ms), not in a worker."""


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
        self._chosen: str | None = None  # the paper the user last moved to or opened
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

    def watch_store(self) -> None:
        """Start asking the store every `SYNC_SECONDS` whether another process changed it (the timer is the
        host's, so it ends with the screen and never holds up quitting)."""
        self._host.set_interval(SYNC_SECONDS, self.sync, name="state sync")

    def sync(self) -> None:
        """Another process changed stars, read marks, tags, notes or saved searches: reload and redraw.

        The check is one `PRAGMA data_version`; only a change costs a reload. Past `INLINE_RELOAD` marks
        (56k read marks take a few hundred ms on a busy machine) that runs in a thread and the redraw
        follows on the UI thread; below it the reload takes a few ms and a thread's round trip would only
        delay the redraw.
        """
        if not self._library.marks.changed_elsewhere():
            return
        if len(self.starred) + len(self.read) <= INLINE_RELOAD:
            self._after_change()
        else:
            self._host.run_worker(
                self._load_changes,
                name="state sync",
                group="state-sync",
                exclusive=True,
                exit_on_error=False,
                thread=True,
            )

    def _load_changes(self) -> None:
        """Read what the redraw needs into the store's cache (a worker thread), then redraw."""
        marks, organiser = self._library.marks, self._library.organiser
        marks.counts()  # the starred and read sets, counted over these listings as the status line does
        organiser.tag_map()
        organiser.noted_ids()
        # The redraw reloads from the cache it just filled: a set this thread read must not overwrite one
        # the UI thread read after a key changed the store meanwhile.
        self._host.app.call_from_thread(self._after_change)

    def selected(self) -> str | None:
        """The selected paper's id, or None after telling the user that no paper is selected."""
        paper_id = self._paper_list().selected_id
        if paper_id is None:
            self._host.notify("No paper selected.", severity="warning")
        return paper_id

    # ---- read by looking -----------------------------------------------------------------------------------

    def choose(self, paper_id: str | None) -> None:
        """The user moved to or opened this paper: start its dwell clock (path 1 of the module docstring)."""
        self._chosen = paper_id
        self.dwell(paper_id)

    @property
    def chosen(self) -> str | None:
        return self._chosen

    def dwell(self, paper_id: str | None) -> None:
        """The list shows `paper_id`: run the dwell clock if it is the paper the user chose, else stop it.

        None stops the clock (no paper, or the reader is typing a query rather than reading). A paper the
        list selected by itself (launch, the restored paper, new results) keeps the clock stopped.
        """
        self._stop_dwell()
        if paper_id is None or paper_id != self._chosen:
            return
        if self._mark_read_delay > 0 and paper_id not in self.read and self._looking() and self._saves():
            self._dwell_timer = self._host.set_timer(self._mark_read_delay, partial(self._dwelt, paper_id))

    def pause(self) -> None:
        """Something covers the detail pane, or the terminal lost focus: the clock stops."""
        self._stop_dwell()

    def resume(self) -> None:
        """The cover is gone or the terminal has the focus again: show what other processes changed
        meanwhile, and the chosen paper, if still selected, starts a whole dwell again."""
        self.sync()
        self.dwell(self._paper_list().selected_id)

    def _looking(self) -> bool:
        """The browse screen is on top (no overlay) and the terminal has focus (where it reports focus)."""
        app = self._host.app
        return app.screen is self._host and app.app_focus

    def _saves(self) -> bool:
        """A read-only store is never marked by dwelling: the clock does not run, so nothing is refused."""
        return not self._library.marks.read_only

    def _stop_dwell(self) -> None:
        if self._dwell_timer is not None:
            self._dwell_timer.stop()
            self._dwell_timer = None

    def _dwelt(self, paper_id: str) -> None:
        self._dwell_timer = None
        if not self._looking() or paper_id != self._chosen:
            return
        if self._paper_list().selected_id == paper_id and paper_id not in self._library.marks.read:
            with saving(self._host):
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
        if (paper_id := self.selected()) is not None and writable(self._host, self._library):
            with saving(self._host):
                toggled = self._library.marks.toggle_star(paper_id, shown=paper_id in self.starred)
                self._tell(toggled, ("Starred.", "Unstarred."), ("starred it", "unstarred it"))
            self._after_change()

    def toggle_read(self) -> None:
        if (paper_id := self.selected()) is not None and writable(self._host, self._library):
            self._stop_dwell()  # the user decided; the dwell timer must not override them
            self._say("")
            with saving(self._host):
                toggled = self._library.marks.toggle_read(paper_id, shown=paper_id in self.read)
                self._tell(
                    toggled, ("Marked read.", "Marked unread."), ("marked it read", "marked it unread")
                )
            self._after_change()

    def _tell(self, toggled: Toggled, done: tuple[str, str], elsewhere: tuple[str, str]) -> None:
        """What a toggle did: `done` (set, cleared), or, when another session had already made the value the
        screen was about to change to, that nothing changed (`elsewhere`: what that session did)."""
        if toggled.changed:
            self._host.notify(done[0] if toggled.value else done[1], timeout=2)
        else:
            did = elsewhere[0] if toggled.value else elsewhere[1]
            self._host.notify(f"Another papers session {did} already; nothing changed.", timeout=3)

    def mark_all_read(self) -> None:
        """Ask first, then mark every shown paper read in one undoable step."""
        ids = list(self._paper_list().ids)
        if not ids or not writable(self._host, self._library):
            return

        def answered(yes: bool | None) -> None:
            if yes:
                with saving(self._host):
                    self._library.marks.mark_read(ids)
                    self._host.notify(f"Marked {len(ids)} papers read (u undoes).", timeout=3)
                self._after_change()

        self._host.app.push_screen(ConfirmScreen(f"Mark all {len(ids)} shown papers as read?"), answered)

    def undo(self) -> None:
        if not writable(self._host, self._library):
            return
        with saving(self._host):
            undone = self._library.marks.undo()
            if undone is None:
                self._host.notify("Nothing to undo.", timeout=2)
                return
            self._say("")
            if undone:
                self._host.notify(
                    f"Undone ({len(undone)} paper{'s' if len(undone) != 1 else ''}).", timeout=2
                )
            else:
                self._host.notify("Nothing undone: another papers session has changed it since.", timeout=3)
        self._after_change()

    def step_unread(self, step: int) -> None:
        """Move the cursor to the next unread paper below (`step` 1) or above (-1) it."""
        paper_list = self._paper_list()
        ids = paper_list.ids
        index = paper_list.cursor + step
        while 0 <= index < len(ids):
            if ids[index] not in self.read:
                paper_list.move(index)  # `n`/`N` choose the paper like any move
                return
            index += step
        self._host.notify("No more unread papers " + ("below." if step > 0 else "above."), timeout=2)
