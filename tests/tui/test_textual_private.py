"""What tui/textual_private.py relies on in Textual, checked against the installed (pinned) Textual.

A failure here means the pinned Textual moved something the adapter reads, and its message says what: an
upgrade moves the pin, runs this file, and mends the adapter where it fails. The behaviour built on these
internals has its own tests (keys in a burst, test_burst_keys.py; a remapped key in the help and footer,
test_keys.py; one notice at a time, test_layout_and_safety.py; the hangup path and the watcher pruning,
test_session.py); here each internal is shown to be what the adapter takes it for, and the rest of tui/ to
touch none but through the adapter.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path
from typing import ClassVar

import pytest
import textual
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingsMap, BindingType
from textual.driver import Driver
from textual.drivers.linux_driver import LinuxDriver
from textual.widget import Widget
from textual.widgets import Footer, Input

import tui
from tests.conftest import REPO
from tests.private_api import private as _private
from tests.private_api import private_names, private_reads
from tui import textual_private
from tui.textual_private import (
    WATCHERS,
    FooterKey,
    KeyFirstInput,
    LinuxDriverBase,
    is_closing,
    live_bindings,
    shown_notifications,
    watcher_lists,
)

ADAPTER = REPO / "tui" / "textual_private.py"
STDLIB = frozenset({"os", "sys"})
"""Modules whose private names (`os._exit`) are documented Python, not Textual's."""
ATTRIBUTE_CALLS = frozenset({"getattr", "setattr", "hasattr", "delattr"})


def moved(what: str) -> str:
    return f"the pinned Textual moved {what}: mend tui/textual_private.py"


class _Owner(Widget, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "noop", "Do", id="owner.do")]

    def action_noop(self) -> None:
        pass


class _Swallowing(KeyFirstInput):
    async def key_first(self, event: events.Key) -> bool:
        return event.key == "x"


class _App(App[None]):
    def compose(self) -> ComposeResult:
        yield _Owner()
        yield _Swallowing(id="swallowing")
        yield KeyFirstInput(id="plain")
        yield Footer()


async def test_a_nodes_bindings_and_the_apps_keymap_are_what_the_binding_chain_applies() -> None:
    app = _App()
    async with app.run_test() as pilot:
        owner = app.query_one(_Owner)
        assert isinstance(owner._bindings, BindingsMap), moved("DOMNode._bindings")
        assert isinstance(app._keymap, dict), moved("App._keymap")
        assert "x" in live_bindings(owner).key_to_bindings
        app.set_keymap({"owner.do": "y"})
        assert app._keymap == {"owner.do": "y"}, moved("App._keymap (set_keymap no longer fills it)")
        assert "y" in live_bindings(owner).key_to_bindings and "x" not in live_bindings(owner).key_to_bindings
        assert "x" in owner._bindings.key_to_bindings  # the node's own map is left as declared
        owner.focus()
        await pilot.pause()
        keys = {active.binding.key for active in app.active_bindings.values()}
        assert "y" in keys and "x" not in keys, moved("where the keymap is applied (Screen._binding_chain)")


async def test_notifications_shown_are_the_apps_private_collection() -> None:
    app = _App()
    async with app.run_test() as pilot:
        app.notify("first", severity="warning")
        await pilot.pause()
        shown = shown_notifications(app)
        assert [(note.message, note.severity) for note in shown] == [("first", "warning")], moved(
            "App._notifications"
        )
        app.clear_notifications()
        await pilot.pause()
        assert shown_notifications(app) == []


async def test_the_input_key_hook_runs_before_the_input_types_a_key() -> None:
    assert "_on_key" in vars(Input), moved("Input._on_key, the handler KeyFirstInput wraps")
    app = _App()
    async with app.run_test() as pilot:
        app.query_one("#swallowing", Input).focus()
        await pilot.press("a", "x", "b")
        app.query_one("#plain", Input).focus()
        await pilot.press("a", "x", "b")
        await pilot.pause()
        assert app.query_one("#swallowing", Input).value == "ab", moved("Input._on_key (the hook never ran)")
        assert app.query_one("#plain", Input).value == "axb"


async def test_watchers_live_on_the_watched_node_and_removed_widgets_say_they_are_closing() -> None:
    app = _App()
    async with app.run_test() as pilot:
        watched = app.query_one("#plain", Input)
        app.query_one(_Owner).watch(watched, "value", lambda _value: None)
        entries = [entry for entries in watcher_lists(watched) for entry in entries]
        assert entries and isinstance(getattr(watched, WATCHERS), dict), moved(f"the {WATCHERS} attribute")
        assert all(isinstance(entry, tuple) and len(entry) == 2 for entry in entries), moved(
            "watcher entries"
        )
        key = app.query_one("#swallowing", Input)
        assert not is_closing(key)
        await key.remove()
        await pilot.pause()
        assert hasattr(key, "_closing") and is_closing(key), moved("Widget._closing")


async def test_the_footer_key_and_the_xterm_parser_are_where_the_adapter_imports_them() -> None:
    for name in ("key_display", "description"):
        assert name in inspect.signature(FooterKey.__init__).parameters, moved(f"FooterKey's {name}")
    driver = LinuxDriverBase(App())
    parser = driver.xterm_parser()
    events_out = list(parser.feed("a")) + list(parser.tick())
    assert [event.key for event in events_out if isinstance(event, events.Key)] == ["a"], moved(
        "textual._xterm_parser.XTermParser"
    )


async def test_the_linux_driver_steps_and_state_the_adapter_names_still_exist() -> None:
    for name in ("run_input_thread", "_sigtstp_application", "_sigcont_application", "close"):
        assert name in vars(LinuxDriver), moved(f"LinuxDriver.{name}")
    assigned = LinuxDriver.__init__.__code__.co_names + Driver.__init__.__code__.co_names
    for name in ("exit_event", "fileno", "_file", "_auto_restart", "_debug", "_loop"):
        assert name in assigned, moved(f"the driver's {name}")
    driver = LinuxDriverBase(App())
    assert driver.output is driver._file
    assert driver.restarts_after_stop is bool(driver._auto_restart)


# ----- nothing else in tui/ touches a Textual internal -------------------------------------------------


def our_modules() -> list[Path]:
    return [path for path in sorted((REPO / "tui").rglob("*.py")) if path != ADAPTER]


def textual_private_names() -> frozenset[str]:
    """Every single-underscore name Textual's own source defines or reads as an attribute."""
    return private_names(Path(textual.__file__).parent)


@pytest.mark.parametrize("path", our_modules(), ids=lambda path: str(path.relative_to(REPO)))
def test_only_the_adapter_imports_textual_internals(path: Path) -> None:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "textual":
            parts = [*node.module.split("."), *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Import):
            parts = [
                part
                for alias in node.names
                for part in alias.name.split(".")
                if alias.name.startswith("textual")
            ]
        else:
            continue
        assert not any(map(_private, parts)), f"{'.'.join(parts)}: private Textual, for textual_private.py"


@pytest.mark.parametrize("path", our_modules(), ids=lambda path: str(path.relative_to(REPO)))
def test_only_the_adapter_reads_textual_private_attributes(path: Path) -> None:
    """A private name read off an object, not one this module defines itself, but one Textual defines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    read = private_reads(tree, textual_private_names(), STDLIB)
    strings = {
        argument.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ATTRIBUTE_CALLS
        for argument in node.args[1:2]
        if isinstance(argument, ast.Constant) and isinstance(argument.value, str)
        if argument.value == WATCHERS or argument.value in textual_private_names()
    }
    assert not read | strings, f"Textual internals read outside the adapter: {sorted(read | strings)}"


_CLASS_MACHINERY = frozenset(vars(type("_Plain", (Widget,), {}))) | frozenset(vars(type("_App", (App,), {})))
"""What Textual's metaclass and `__init_subclass__` set on every subclass: not an override of ours."""


def test_no_other_class_of_the_reader_overrides_a_textual_private_method() -> None:
    overrides = []
    for info in pkgutil.walk_packages(tui.__path__, "tui."):
        if info.name in ("tui.__main__", textual_private.__name__):
            continue
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            for name in vars(cls):
                if not _private(name) or name in _CLASS_MACHINERY or name == "_abc_impl":
                    continue
                if any(
                    base.__module__.startswith("textual") and name in vars(base) for base in cls.__mro__[1:]
                ):
                    overrides.append(f"{cls.__qualname__}.{name}")
    assert not overrides, f"Textual private methods overridden outside the adapter: {overrides}"
