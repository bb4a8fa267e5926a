"""Hostile listings through ssh into a real terminal: no payload reaches the terminal, markup shows as text.

The raw bytes the terminal received are recorded with tmux `pipe-pane`. Textual writes escape sequences of
its own, so each check looks for a payload exactly as the data carries it: the sequence immediately followed
by its "pwned" marker (see tests/data/hostile/make_hostile.py), or a sequence Textual never writes.
"""

from __future__ import annotations

import re

import pytest

from tests.e2e.conftest import SharedLibrary
from tests.e2e.harness import LIST_FOCUSED, SEARCH_FOCUSED, STATUS_LINE, Environment, Tmux

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FORBIDDEN = {
    "OSC 52 clipboard write": "\x1b]52",
    "OSC 0 window title": "\x1b]0;pwned",
    "OSC 2 window title": "\x1b]2;pwned",
    "OSC 8 link to a local file": "\x1b]8;;file:///etc/passwd",
    "cursor position query": "\x1b[6n",
    "screen clear from data": "\x1b[2Jpwned",
    "cursor home from data": "\x1b[Hpwned",
    "blinking colour from data": "\x1b[31;1;5mpwned",
    "hidden cursor from data": "\x1b[?25lpwned",
    "line-drawing charset from data": "\x1b(0pwned",
    "8-bit CSI": "\x9b",
    "8-bit OSC": "\x9d",
    "8-bit string terminator": "\x9c",
    "stray 0x9b byte": "\udc9b",
    "carriage return from data": "\rpwned",
    "backspaces from data": "\x08\x08\x08pwned",
    "bidi override": "\u202e",
}

LITERAL_MARKUP = ("[bold red]", "[link=file:///etc/passwd]", "[@click=app.quit]")


def _settle(pane: Tmux) -> str:
    """The screen once the keystroke is handled and drawn; the reader must still show its status line."""
    screen = pane.settle(quiet=0.15)
    assert STATUS_LINE.search(screen), f"the reader is not showing its status line:\n{screen}"
    return screen


def _flat(screen: str) -> str:
    """Screen text without whitespace and box borders, so a wrapped token is still found whole."""
    return re.sub(r"[\s│┃║▌▐▕▏|]+", "", screen)


def test_hostile_listings_never_reach_the_terminal(e2e: Environment, hostile_library: SharedLibrary) -> None:
    alice, _ = e2e.users
    pane = e2e.tmux("hostile")
    pane.start(e2e.reader_argv(alice, hostile_library.env()), width=80, height=24)
    pane.wait_for(STATUS_LINE, 90)
    first = pane.settle(quiet=1.0)
    total = int(re.search(r"(\d+) papers", first).group(1))  # type: ignore[union-attr]
    assert total >= 15, f"the hostile listings should yield most of their papers; status says {total}"

    screens = [first]
    for _ in range(total):
        pane.send_keys("Enter")  # open the paper
        screens.append(_settle(pane))
        pane.send_keys("Space")  # page through its abstract
        screens.append(_settle(pane))
        pane.send_keys("h")  # back to the list
        pane.send_keys("j")
        screens.append(_settle(pane))
    for query in ("diffusion", "[bold red]x", "pwned"):
        pane.send_keys("/")
        pane.wait_for(SEARCH_FOCUSED)
        pane.type(query)
        # The search box is the top line; the status line's query may sit under a notification toast.
        screens.append(pane.wait_for(lambda screen, query=query: query in screen.splitlines()[0]))
        screens.append(_settle(pane))
        pane.send_keys("Enter")  # to the list
        pane.wait_for(LIST_FOCUSED)
        pane.send_keys("Enter")  # open the top hit
        screens.append(_settle(pane))
        pane.send_keys("h")
        pane.wait_for(LIST_FOCUSED)

    dead, status = pane.pane_state()
    assert not dead, f"the reader exited (status {status}) while browsing hostile data:\n{pane.capture()}"
    flat = _flat("\n".join(screens))
    for markup in LITERAL_MARKUP:
        assert _flat(markup) in flat, f"{markup} should be shown literally"

    pane.send_keys("q")
    assert pane.wait_exit() == 0, pane.capture()

    received = pane.raw_output().decode("utf-8", errors="surrogateescape")
    assert len(received) > 10_000, "pipe-pane should have recorded the whole session"
    leaked = {name: seq for name, seq in FORBIDDEN.items() if seq in received}
    assert not leaked, f"payloads reached the terminal: {leaked}"
