"""The reader's App: styling, app-wide keys, the injected Library, and the remembered theme."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.theme import Theme

from tui.screens.browse import BrowseScreen

if TYPE_CHECKING:
    from index.library import Library


class PapersApp(App[None]):
    """Holds the library and shows the browse screen; everything else belongs to screens and widgets."""

    CSS_PATH = "app.tcss"
    TITLE = "papers"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", "Quit", show=False, priority=True, id="app.quit"),
    ]

    def __init__(self, library: Library, *, debounce: float = 0.1, mark_read_delay: float = 2.0) -> None:
        super().__init__()
        self.library = library
        self.debounce = debounce
        self.mark_read_delay = mark_read_delay

    def on_mount(self) -> None:
        theme = self.library.session_get("theme")
        if isinstance(theme, str) and theme in self.available_themes:
            self.theme = theme
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.push_screen(
            BrowseScreen(self.library, debounce=self.debounce, mark_read_delay=self.mark_read_delay)
        )

    def _remember_theme(self, theme: Theme) -> None:
        if not self.library.state_read_only:
            self.library.session_set("theme", theme.name)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        if isinstance(screen, BrowseScreen):
            yield from screen.commands()


def make_app(library: Library, **options: Any) -> PapersApp:
    """Build the reader around an open Library; the CLI, pilot tests and snapshot tests all come through here.

    Args:
        library: the opened facade over listings, index and state.
        **options: `debounce` (seconds to wait after typing before searching, default 0.1) and
            `mark_read_delay` (seconds a paper must stay open to count as read, default 2; 0 disables).
    """
    return PapersApp(library, **options)
