"""Two researchers on one server: a shared read-only index, private stars, through ssh and a real terminal."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.e2e.conftest import SharedLibrary
from tests.e2e.harness import (
    STATUS_LINE,
    Environment,
    star_a_diffusion_paper_and_quit,
)

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

STARTUP_TIMEOUT = 90  # a cold Python + Textual start over ssh on a loaded 2-core CI box


def test_a_star_survives_the_session_and_stays_private(
    e2e: Environment, seeds_library: SharedLibrary
) -> None:
    alice, bob = e2e.users
    index_before = _snapshot(seeds_library.index_dir)
    pane = e2e.tmux("alice")
    pane.start(e2e.reader_argv(alice, seeds_library.env()), width=120, height=40)
    pane.wait_for(STATUS_LINE, STARTUP_TIMEOUT)
    # Let start-up finish (see test_typing_straight_after_slash_goes_into_the_search for why it matters).
    assert "· 0 starred" in pane.settle(quiet=1.0)

    star_a_diffusion_paper_and_quit(pane)

    listed = e2e.server.ssh(alice, ["env", *seeds_library.assignments(), e2e.papers, "starred", "--json"])
    assert listed.returncode == 0, listed.stderr
    starred = json.loads(listed.stdout)
    assert len(starred) == 1
    shown = e2e.server.ssh(alice, ["env", *seeds_library.assignments(), e2e.papers, "show", starred[0]["id"]])
    assert shown.returncode == 0, shown.stderr
    assert "diffusion" in shown.stdout.lower()

    # The next session shows it too, in the reader itself.
    again = e2e.tmux("alice-again")
    again.start(e2e.reader_argv(alice, seeds_library.env()), width=80, height=24)
    assert "· 1 starred" in again.wait_for(STATUS_LINE, STARTUP_TIMEOUT)
    again.send_keys("q")
    assert again.wait_exit() == 0

    theirs = e2e.server.ssh(bob, ["env", *seeds_library.assignments(), e2e.papers, "starred", "--json"])
    assert theirs.returncode == 0, theirs.stderr
    assert json.loads(theirs.stdout) == []

    state_file = alice.home / ".local" / "share" / "papers" / "state.db"
    assert state_file.is_file(), "alice's stars should live in her own data dir"
    peek = e2e.server.ssh(bob, ["cat", str(state_file)])
    assert peek.returncode != 0
    assert "Permission denied" in peek.stderr
    assert _snapshot(seeds_library.index_dir) == index_before, "readers must never write to the shared index"


def test_keys_typed_ahead_go_where_they_were_meant(e2e: Environment, seeds_library: SharedLibrary) -> None:
    """Over ssh, "/diffusion", Enter, "s" typed quickly arrive as one burst, maybe before the first frame is
    complete. Each key must act where the previous keys put the focus: the query gets every letter (the "s"
    of diffusion must not star, the "u" must not undo), and the final "s" stars the top result.
    """
    _, bob = e2e.users
    pane = e2e.tmux("burst")
    pane.start(e2e.reader_argv(bob, seeds_library.env()), width=120, height=40)
    pane.wait_for(STATUS_LINE, STARTUP_TIMEOUT)
    pane.type("/diffusion")  # one send-keys call: the bytes reach the pty together
    pane.send_keys("Enter", "s")
    screen = pane.wait_for("· 1 starred")
    assert re.search(r'"diffusion" → [1-9]\d*', screen), screen
    pane.send_keys("C-q")
    assert pane.wait_exit() == 0


def test_site_config_points_every_user_at_the_shared_index(
    e2e: Environment, seeds_library: SharedLibrary
) -> None:
    """The admin writes one config file; a user with no flags and no environment gets the shared library."""
    site = e2e.scratch / "site-config"
    (site / "papers").mkdir(parents=True, exist_ok=True)
    (site / "papers" / "config.toml").write_text(
        f'listings = ["{seeds_library.listings}"]\nindex_dir = "{seeds_library.index_dir}"\n'
    )
    site.chmod(0o755)
    (site / "papers").chmod(0o755)
    (site / "papers" / "config.toml").chmod(0o644)
    _, bob = e2e.users
    result = e2e.server.ssh(bob, ["env", f"XDG_CONFIG_DIRS={site}", e2e.papers, "search", "diffusion"])
    assert result.returncode == 0, result.stderr
    assert "diffusion" in result.stdout.lower()
    assert "Traceback" not in result.stderr, result.stderr
    assert "warning" not in result.stderr.lower(), f"a correct shared setup should not warn:\n{result.stderr}"
    # Nothing was built privately: the search was answered from the shared index.
    assert not (bob.home / ".cache" / "papers" / "index").exists()
    stats = e2e.server.ssh(bob, ["env", f"XDG_CONFIG_DIRS={site}", e2e.papers, "stats", "--json"])
    assert stats.returncode == 0, stats.stderr
    assert str(seeds_library.listings) in stats.stdout


def _snapshot(directory: Path) -> dict[str, tuple[int, int]]:
    return {
        str(path.relative_to(directory)): (path.stat().st_size, path.stat().st_mtime_ns)
        for path in sorted(directory.rglob("*"))
    }
