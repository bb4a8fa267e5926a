"""Scrolling a pane from the keyboard, shared by the detail pane and the help screen."""

from __future__ import annotations

from textual.widget import Widget


def scroll_at_once(widget: Widget, how: str) -> None:
    """Scroll without animation, so the pane is at its new place as soon as the key has been handled.

    Args:
        widget: the scrollable pane.
        how: one of "up", "down", "home", "end", "page_up", "page_down" (the binding's action argument).
    """
    getattr(widget, f"scroll_{how}")(animate=False)
