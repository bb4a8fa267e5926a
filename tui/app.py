"""The reader's App: styling, app-wide keys, the injected Library, and the remembered theme."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.driver import Driver
from textual.filter import Monochrome, NoColor
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.theme import Theme

from tui import keys, watchers
from tui.browse.screen import BrowseScreen
from tui.terminal import TerminalDriver, driver_class
from tui.text import one_line
from tui.textual_private import shown_notifications
from tui.typeahead import TypeAheadApp

if TYPE_CHECKING:
    from index.library import Library


SEVERITY_RANK: dict[SeverityLevel, int] = {"information": 0, "warning": 1, "error": 2}


class PapersApp(TypeAheadApp):
    """Holds the library and shows the browse screen; everything else belongs to screens and widgets."""

    CSS_PATH = "app.tcss"
    NOTIFICATION_TIMEOUT = 3  # seconds; toasts say small things (app.tcss puts them on the footer's line)
    TITLE = "papers"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit"),
    ]

    def __init__(
        self,
        library: Library,
        *,
        debounce: float = 0.03,
        mark_read_delay: float = 2.0,
        space_at_end: str = "next",
        theme: str | None = None,
        keymap: Mapping[str, str] | None = None,
        freeze_gc: bool = False,
    ) -> None:
        super().__init__()
        if self.no_color:
            # NO_COLOR means no colour codes at all; Textual's default is greys (Monochrome), still colours.
            self._filters = [f for f in self._filters if not isinstance(f, Monochrome)] + [NoColor()]
        self.library = library
        self.debounce = debounce
        self.mark_read_delay = mark_read_delay
        self.space_at_end = space_at_end
        self.default_theme = theme
        self.keymap_overrides = dict(keymap or {})
        self._keymap_problems: list[str] = []
        self.freeze_gc = freeze_gc
        """Freeze the objects alive once the search is warm (`gc.freeze`), as the `papers` command does: the
        library's tens of thousands of long-lived objects would make each full collection a 90-100 ms pause in
        the middle of a keystroke at 56k papers. Tests leave the pytest process alone."""

    def on_mount(self) -> None:
        # The theme picked in the palette wins over the config's default: it is the later, explicit choice.
        remembered = self.library.session.get("theme")
        for theme in (remembered, self.default_theme):
            if isinstance(theme, str) and theme in self.available_themes:
                self.theme = theme
                break
        else:
            if self.default_theme:
                # The config file's text, never markup: `theme = "[/]"` would end the reader with MarkupError.
                message = one_line(f"config: unknown theme {self.default_theme!r}; using {self.theme!r}")
                self.notify(message, severity="warning", timeout=10, markup=False)
        if self.keymap_overrides:
            self._apply_keymap()
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.set_interval(watchers.PRUNE_EVERY, lambda: watchers.prune(self))  # textual#6666, see there
        browse = BrowseScreen(self.library, debounce=self.debounce, mark_read_delay=self.mark_read_delay)
        browse.space_at_end = self.space_at_end
        browse.indexing.freeze_gc = self.freeze_gc  # the app's choice, handed to the builder that acts on it
        self.push_screen(browse)

    def get_driver_class(self) -> type[Driver]:
        # The driver that ends the session cleanly when the terminal goes away (see tui/terminal.py).
        return driver_class(super().get_driver_class())

    def on_terminal_driver_ended(self, event: TerminalDriver.Ended) -> None:
        """Hangup, SIGTERM or a vanished terminal: save the view now (the exit may be cut short); quit."""
        self.log.system(f"session ended: {event.reason}")
        for screen in self.screen_stack:
            if isinstance(screen, BrowseScreen):
                try:
                    screen.save_session()
                except Exception as error:  # the view is a nicety; exiting promptly is what matters now
                    self.log.error(f"session not saved: {error}")
        self.exit(return_code=event.exit_code)

    def _apply_keymap(self) -> None:
        """Remap bindings by id (config `[keymap]`); an unknown id is named, not silently dropped, and a key
        another binding uses is named with it when the screen holding both is first shown."""
        known = binding_ids()
        unknown = sorted(set(self.keymap_overrides) - known)
        self._keymap_problems = []
        if unknown:
            self._keymap_problems.append(f"unknown binding id(s) {', '.join(unknown)} (see ? for the ids)")
        self.keymap_overrides = {key: value for key, value in self.keymap_overrides.items() if key in known}
        self.set_keymap(self.keymap_overrides)
        self._clashes_told: set[tuple[str, str]] = set()
        self.screen_change_signal.subscribe(self, self._check_remaps)

    def _check_remaps(self, screen: Screen[Any]) -> None:
        """A screen is shown: once it is composed, say once per pair which remapped key another key uses."""
        self.call_after_refresh(self._tell_clashes, screen)

    def _tell_clashes(self, screen: Screen[Any]) -> None:
        nodes = [self, screen, *screen.query("*")]
        said, self._keymap_problems = self._keymap_problems, []
        for binding_id, other_id, key in keys.remap_clashes(nodes, self.keymap_overrides):
            pair = (min(binding_id, other_id), max(binding_id, other_id))
            if pair not in self._clashes_told:
                self._clashes_told.add(pair)
                value = self.keymap_overrides[binding_id]
                said.append(f"{binding_id} = {value!r} takes {key}, which {other_id} also uses (remap one)")
        if said:
            message = one_line(f"config: keymap: {'; '.join(said)}")
            self.notify(message, severity="warning", timeout=10, markup=False)

    def _remember_theme(self, theme: Theme) -> None:
        if not self.library.marks.read_only:
            self.library.session.set("theme", theme.name)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """A new notice takes the place of the one showing, as there is one line for them (see app.tcss); a
        warning or error still showing outranks a passing confirmation, whose change the list and the status
        line show anyway."""
        if any(
            SEVERITY_RANK[shown.severity] > SEVERITY_RANK[severity] for shown in shown_notifications(self)
        ):
            return
        self.clear_notifications()
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, BrowseScreen):
            yield from screen.commands()


def declared_bindings() -> list[tuple[str, type[DOMNode], Binding]]:
    """Every binding with an id that a class of the reader declares in its own `BINDINGS`, with the class.

    Found from the classes themselves (every subclass of Textual's `DOMNode` defined in `tui`, which this
    module imports, directly or not), so a new screen's keys are remappable the day it is written.
    """
    found: list[tuple[str, type[DOMNode], Binding]] = []
    seen: set[type[DOMNode]] = set()
    pending: list[type[DOMNode]] = [DOMNode]
    while pending:
        cls = pending.pop()
        for sub in cls.__subclasses__():
            if sub not in seen:
                seen.add(sub)
                pending.append(sub)
    for owner in sorted(seen, key=lambda cls: (cls.__module__, cls.__qualname__)):
        if not owner.__module__.startswith("tui.") or "BINDINGS" not in owner.__dict__:
            continue
        for binding in owner.__dict__["BINDINGS"]:
            if isinstance(binding, Binding) and binding.id is not None:
                found.append((binding.id, owner, binding))
    return found


def binding_ids() -> set[str]:
    """Every binding id a user may remap in the config's `[keymap]` table."""
    return {binding_id for binding_id, _owner, _binding in declared_bindings()}


def make_app(library: Library, **options: Any) -> PapersApp:
    """Build the reader around an open Library; the CLI, pilot tests and snapshot tests all come through here.

    Args:
        library: the opened facade over listings, index and state.
        **options: `debounce` (seconds to wait after typing before searching, default 0.03) and
            `mark_read_delay` (seconds a paper must stay chosen to count as read, default 2; 0 disables),
            `space_at_end` ("next" or "unread": what `space` opens at the end of an abstract),
            `theme` (the config's default theme), `keymap` (binding id -> keys, from the config) and
            `freeze_gc` (see `PapersApp.freeze_gc`).
    """
    return PapersApp(library, **options)
