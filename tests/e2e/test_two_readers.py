"""Two readers of one user, each a real process in its own terminal (tmux), on the same store.

What one changes the other shows within `SHOW_WITHIN` without a key; each `u` undoes only its own
reader's change, and one the other reader has overridden since is left alone (issue 38, "one truth").
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest

from tests.e2e.harness import STATUS_LINE, Tmux, local_papers, local_reader_argv

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

STARTUP_TIMEOUT = 90  # a cold Python + Textual start on a loaded 2-core CI box
SHOW_WITHIN = 1.0
"""Seconds from one reader showing its change to the other showing it (tmux captures included)."""
SELECTED_ID = re.compile(r"\bid ([0-9a-f]{12})\b")


def _starred(count: int) -> re.Pattern[str]:
    return re.compile(rf"\d+ papers · \d+ unread · {count} starred")


def _shown_within(pane: Tmux, want: re.Pattern[str], what: str) -> None:
    started = time.monotonic()
    pane.wait_for(want, timeout=10 * SHOW_WITHIN)
    took = time.monotonic() - started
    assert took <= SHOW_WITHIN, f"{what}: shown after {took:.2f} s"


def test_two_readers_show_each_others_changes_and_undo_only_their_own(home: Path) -> None:
    built = local_papers(home, "index")  # both readers start on a ready index
    assert built.returncode == 0, built.stderr
    mine, theirs = Tmux(home, "mine"), Tmux(home, "theirs")
    try:
        for pane in (mine, theirs):
            pane.start(local_reader_argv(home), width=120, height=40)
        for pane in (mine, theirs):
            pane.wait_for(lambda screen: STATUS_LINE.search(screen) is not None, STARTUP_TIMEOUT)
        found = SELECTED_ID.search(theirs.settle(quiet=0.5))
        assert found is not None, "no paper is open after start-up"
        assert found.group(1) in mine.settle(quiet=0.5), "both readers open on the same paper"

        mine.send_keys("s")
        mine.wait_for(_starred(1))
        _shown_within(theirs, _starred(1), "a star from the other reader")
        theirs.wait_for("★ starred")

        theirs.send_keys("s")  # the screen says starred: s unstars
        theirs.wait_for(_starred(0))
        _shown_within(mine, _starred(0), "the other reader's unstar")

        mine.send_keys("u")  # its star was overridden since: left alone
        mine.wait_for("another papers session has changed it since")
        assert _starred(0).search(mine.capture()) and _starred(0).search(theirs.settle(quiet=0.5))

        theirs.send_keys("u")  # its own unstar: undone
        theirs.wait_for(_starred(1))
        _shown_within(mine, _starred(1), "the other reader's undo")
        for pane in (mine, theirs):
            pane.send_keys("q")
            assert pane.wait_exit() == 0, pane.capture()
    finally:
        mine.kill()
        theirs.kill()
    listed = local_papers(home, "starred", "--json")
    assert listed.returncode == 0, listed.stderr
    assert [paper["id"] for paper in json.loads(listed.stdout)] == [found.group(1)]
