"""Every private or undocumented part of Textual the reader relies on, in one module, for the pinned Textual.

Textual's documented API (App, Screen, widgets, bindings, messages, workers, the driver's public hooks) is
used where it is needed. What is here Textual does not promise: private attributes of its nodes and app
(`_bindings`, `_keymap`, `_notifications`, the watchers' attribute, `_closing`), private modules
(`textual._xterm_parser`, `textual.widgets._footer`) and private hooks of `Input` and `LinuxDriver`, each
under a name of ours. tests/tui/test_textual_private.py checks each against the installed Textual, and that
no other module of tui/ reads, imports or overrides a Textual internal: an upgrade that moves one fails
there, by name, instead of quietly dropping a key or leaking memory.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TextIO, cast

from textual import events
from textual.app import App
from textual.binding import BindingsMap
from textual.dom import DOMNode
from textual.drivers.linux_driver import LinuxDriver
from textual.notifications import Notification
from textual.widgets import Input
from textual.widgets._footer import FooterKey as FooterKey

WATCHERS = "__watchers"
"""The attribute Textual keeps a node's watchers in (set with setattr, so not name-mangled)."""


def live_bindings(node: DOMNode) -> BindingsMap:
    """`node`'s own bindings with the user's keymap applied, as Textual's binding chain applies it on each key
    (`Screen._binding_chain`): what a key does there now."""
    bindings = node._bindings.copy()
    bindings.apply_keymap(node.app._keymap)
    return bindings


def shown_notifications(app: App[Any]) -> list[Notification]:
    """The notifications on screen now (App has no public read of them)."""
    return list(app._notifications)


def watcher_lists(node: DOMNode) -> Iterator[list[tuple[Any, Any]]]:
    """The lists of `(owner, callback)` watcher entries kept on `node`, one per watched attribute (the lists
    themselves: Textual holds on to them, so a change must be made in place)."""
    watchers = getattr(node, WATCHERS, None)
    if isinstance(watchers, dict):
        yield from watchers.values()


def is_closing(node: Any) -> bool:
    """Whether `node` is being removed (Textual's own watcher pruning asks the same)."""
    return bool(getattr(node, "_closing", False))


class KeyFirstInput(Input):
    """Textual's Input with a hook that sees each key before the input's own handling (`Input._on_key`).

    Textual calls every class's own `_on_key` down the MRO until one prevents the default: a key the hook
    handles is stopped and its default prevented, so `Input._on_key` never types it.
    """

    async def _on_key(self, event: events.Key) -> None:
        if await self.key_first(event):
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    async def key_first(self, event: events.Key) -> bool:
        """Whether this key is handled already (then the input does not type it); a subclass's hook."""
        return False


class LinuxDriverBase(LinuxDriver):
    """Textual's Linux driver, its private state and SIGTSTP/SIGCONT steps under names of ours.

    `suspending` runs on SIGTSTP before the driver suspends application mode; `resuming` decides on SIGCONT
    whether it restarts it (Textual's own restarts it on every SIGCONT).
    """

    @property
    def output(self) -> TextIO:
        """The file the driver's writer thread writes the screen to."""
        return cast(TextIO, self._file)

    @output.setter
    def output(self, file: TextIO) -> None:
        self._file = cast(Any, file)

    @property
    def restarts_after_stop(self) -> bool:
        """Whether a SIGTSTP suspends application mode (so a SIGCONT has something to restart)."""
        return bool(self._auto_restart)

    def xterm_parser(self) -> Any:
        """A parser of the terminal's input bytes into Textual's events, as the driver's own input loop
        makes (`feed(text)` and `tick()` give the events)."""
        from textual._xterm_parser import XTermParser

        return XTermParser(self._debug)

    def _sigtstp_application(self, *_: object) -> None:
        self.suspending()
        super()._sigtstp_application()

    def _sigcont_application(self, *_: object) -> None:
        if self.resuming():
            super()._sigcont_application()

    def suspending(self) -> None:
        """A SIGTSTP arrived: application mode is suspended next (a subclass's hook; nothing here)."""

    def resuming(self) -> bool:
        """A SIGCONT arrived: whether to restart application mode (a subclass's hook; always, here)."""
        return True
