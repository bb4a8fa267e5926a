"""Textual's footer, fitted to the terminal so that no key label is ever cut off mid-word."""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer

from tui.textual_private import FooterKey

PALETTE_CLASS = "-command-palette"
KEEP_ACTIONS = ("help",)
"""Keys that stay when keys must be dropped: help lists every other one."""


def key_width(key: FooterKey) -> int:
    """Cells a footer key takes: Footer's default style pads the key by one cell each side and the label
    by one cell after it; the palette key is drawn compact, with a border and padding on the right."""
    label = cell_len(key.description) + 1 if key.description else 0
    if key.has_class(PALETTE_CLASS):
        return cell_len(key.key_display) + label + 2
    return cell_len(key.key_display) + 2 + label


def short_label(description: str) -> str:
    """The label's first word ("Back to list" -> "Back"): what is left still names the action."""
    return description.split(" ", 1)[0]


def fit_keys(keys: Sequence[FooterKey], width: int) -> list[FooterKey]:
    """The footer keys that fit in `width` cells, every label whole.

    First the longest labels are cut to their first word, then the palette key goes (ctrl+p works anyway),
    then keys from the right (help stays: it lists them all).
    """
    shown = list(keys)

    def total() -> int:
        return sum(key_width(key) for key in shown)

    for key in sorted(shown, key=lambda key: -cell_len(key.description)):
        if total() <= width:
            break
        key.description = short_label(key.description)
    for key in [key for key in reversed(shown) if key.has_class(PALETTE_CLASS)]:
        if total() > width:
            shown.remove(key)
    for key in [key for key in reversed(shown) if key.action not in KEEP_ACTIONS]:
        if total() <= width:
            break
        shown.remove(key)
    return shown


class KeyFooter(Footer):
    """The footer of every screen: Textual's, laid out again whenever its width changes."""

    def __init__(self) -> None:
        super().__init__()
        self._fitted_width = 0

    def compose(self) -> ComposeResult:
        composed: list[Widget] = list(super().compose())
        keys = [widget for widget in composed if isinstance(widget, FooterKey)]
        if len(keys) != len(composed):  # binding groups (not used here): Textual's layout, unchanged
            yield from composed
            return
        self._fitted_width = self.size.width
        yield from fit_keys(keys, self.size.width or self.app.size.width)

    def on_resize(self, event: events.Resize) -> None:
        if event.size.width != self._fitted_width:
            self.call_after_refresh(self.recompose)
