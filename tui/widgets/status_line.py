"""The status line: counts, the current query and its hit count, and background progress."""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.widgets import Static

from tui.text import one_line


@dataclass(frozen=True, slots=True)
class Status:
    """What the status line reports; the screen fills it in from the library and its own view state."""

    papers: int
    unread: int
    starred: int
    query: str = ""
    shown: int = 0
    mode: str = ""
    progress: str = ""
    restored: bool = False
    """The query came back from the last session and the user has not changed it yet."""
    flash: str = ""
    """What just happened (e.g. "marked read"), for a few seconds, next to the counts it changed."""


def status_text(status: Status) -> Text:
    text = Text(end="", no_wrap=True, overflow="ellipsis")
    text.append(f"{status.papers} papers · {status.unread} unread · {status.starred} starred")
    if status.flash:
        text.append(" · ")
        text.append(one_line(status.flash), "bold reverse")
    if status.query:
        text.append(" · ")
        if status.restored:
            text.append("restored: ", "italic")
        text.append(quoted(status.query), "bold")
        text.append(f" → {status.shown}")
    if status.mode:
        text.append(" · ")
        text.append(one_line(status.mode), "italic")
    if status.progress:
        text.append(" · ")
        text.append(status.progress, "bold")
    return text


def quoted(query: str) -> str:
    """The query as typed, in quotes unless it has its own: a phrase search is shown once, not `""a b""`."""
    shown = one_line(query)
    return shown if '"' in shown else f'"{shown}"'


class StatusLine(Static):
    """One line at the bottom of the browse screen."""

    def show(self, status: Status) -> None:
        self.update(status_text(status))
