"""The reader in a real terminal (tmux, no ssh): it starts, searches, stars and quits cleanly; NO_COLOR holds.

These need only tmux, so they still run where sshd cannot; the SSH scenarios live in test_shared_server.py.
"""

from __future__ import annotations

import json
import re
import shlex
import time
from pathlib import Path

import pytest

from tests.e2e.harness import (
    STATUS_LINE,
    Tmux,
    local_papers,
    local_reader_argv,
    star_a_diffusion_paper_and_quit,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

COLOUR_SGR = re.compile(rb"\x1b\[([0-9;:]*)m")
"""SGR sequences; their colour parameters (30-38, 40-48, 90-97, 100-107) are what NO_COLOR forbids."""


def _reader(home: Path, name: str, **env: str) -> tuple[Tmux, list[str]]:
    """A pane and the reader's command; an inherited NO_COLOR is dropped, so only `env` can set it."""
    return Tmux(home, name), local_reader_argv(home, unset=["NO_COLOR"], **env)


def test_starts_searches_stars_and_quits_cleanly(home: Path) -> None:
    pane, argv = _reader(home, "main")
    try:
        pane.start(argv, width=120, height=40)
        pane.wait_for(STATUS_LINE, 90)
        star_a_diffusion_paper_and_quit(pane)
        raw = pane.raw_output()
        # A clean exit leaves the alternate screen and shows the cursor again.
        assert b"\x1b[?1049l" in raw and b"\x1b[?25h" in raw[-200:], raw[-200:]
    finally:
        pane.kill()
    starred = local_papers(home, "starred", "--json")
    assert starred.returncode == 0, starred.stderr
    (paper,) = json.loads(starred.stdout)
    assert "diffusion" in local_papers(home, "show", paper["id"]).stdout.lower()


@pytest.mark.parametrize("term", ["linux", "screen"])
def test_no_color_means_no_colour_codes_at_all(home: Path, term: str) -> None:
    pane, argv = _reader(home, f"nocolor-{term}", NO_COLOR="1", TERM=term)
    try:
        pane.start(argv, width=80, height=24)
        screen = pane.wait_for(STATUS_LINE, 90)
        pane.send_keys("j")
        pane.settle()
        pane.send_keys("q")
        assert pane.wait_exit() == 0, screen
        raw = pane.raw_output()
    finally:
        pane.kill()
    colours = set()
    for params in COLOUR_SGR.findall(raw):
        for param in params.replace(b":", b";").split(b";"):
            if param.isdigit() and (30 <= int(param) <= 38 or 40 <= int(param) <= 48 or int(param) >= 90):
                colours.add(int(param))
    assert not colours, f"colour SGR parameters {sorted(colours)} with NO_COLOR set ({shlex.quote(term)})"
    assert b"\x1b[7m" in raw or re.search(rb"\x1b\[[0-9;]*\b7[;m]", raw), "the selection must still show"


def test_launching_and_waiting_marks_no_paper_read(home: Path) -> None:
    """Issue 26.1 in the real app with its default dwell (2 s): the paper shown at launch is not read."""
    pane, argv = _reader(home, "launch-wait")
    try:
        pane.start(argv, width=80, height=24)
        pane.wait_for(STATUS_LINE, 90)
        time.sleep(5)  # the real clock in a real terminal: more than twice the default dwell
        screen = pane.settle()
        pane.send_keys("q")
        assert pane.wait_exit() == 0, screen
    finally:
        pane.kill()
    assert "marked read" not in screen
    exported = local_papers(home, "export", "--read")
    assert exported.returncode == 0, exported.stderr
    assert json.loads(exported.stdout)["papers"] == [], "the store says 0 papers read"
